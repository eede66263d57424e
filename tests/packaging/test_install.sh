#!/usr/bin/env bash
# Installs the build into a scratch root and checks what a user would get:
# the binaries run from there, a headless export works with the installed
# examples, the desktop metadata validates, and the .deb carries its
# dependencies and runs once unpacked.
#   test_install.sh BUILD_DIR
set -euo pipefail
build=$1
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
export QT_QPA_PLATFORM=offscreen
id=org.rooflinestudio.RooflineStudio

check_tree() { # ROOT: an installed /usr tree
    local usr=$1/usr
    "$usr/bin/roofline-cli" --version | grep -q '^roofline-cli '
    "$usr/bin/roofline-studio" --version | grep -q '^roofline-studio '
    "$usr/bin/roofline-cli" evaluate "$usr/share/roofline-studio/examples/gables/gables-fig6d.json" \
        | grep -q '"attainable_gops": 160'
    "$usr/bin/roofline-studio" "$usr/share/roofline-studio/examples/gables/gables-fig6d.json" \
        --export-svg "$1/fig6d.svg" 2>/dev/null
    grep -q 'Pₐₜₜ = 160 Gops/s' "$1/fig6d.svg"
}

DESTDIR="$stage/install" cmake --install "$build" --prefix /usr > /dev/null
check_tree "$stage/install"
share=$stage/install/usr/share
desktop-file-validate "$share/applications/$id.desktop"
appstreamcli validate --no-net "$share/metainfo/$id.metainfo.xml"
test -f "$share/mime/packages/$id.xml"
test -f "$share/icons/hicolor/scalable/apps/$id.svg"
for size in 16 32 48 64 128 256; do
    test -f "$share/icons/hicolor/${size}x${size}/apps/$id.png"
done

(cd "$build" && cpack -G DEB -B "$stage/deb" > /dev/null)
deb=$(ls "$stage"/deb/*.deb)
dpkg-deb -f "$deb" Depends | grep -q 'libqt6widgets6'
dpkg-deb -x "$deb" "$stage/deb-root"
check_tree "$stage/deb-root"
echo "install test passed: $(basename "$deb")"
