#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   bash packaging/studio.sh run  [FILE.json]   install what is missing, build, open the studio
#   bash packaging/studio.sh test               install what is missing, build, run every test
#                                               (normal build, then an ASan/UBSan build)
#   bash packaging/studio.sh deps               only install the Debian packages
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Debian 12 packages the build, the tests and the headless renderer need.
PACKAGES=(
    build-essential cmake pkg-config
    qt6-base-dev qt6-svg-dev qt6-qpa-plugins libgl-dev
    libqcustomplot-dev nlohmann-json3-dev zlib1g-dev
    libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
    libeigen3-dev
    libdnnl-dev ocl-icd-opencl-dev libxgboost-dev xgboost
    fonts-dejavu-core
    librsvg2-bin
    desktop-file-utils appstream dpkg-dev file
    clang-14 libclang-rt-14-dev
)

install_missing() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]})); then
        local sudo=()
        [[ $(id -u) -ne 0 ]] && sudo=(sudo)
        echo "Installing: ${missing[*]}"
        "${sudo[@]}" apt-get update -q
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}

jobs=$(nproc 2>/dev/null || echo 2)

# Disk each preset's build/ tree takes from a fresh clone, with some room: dev 1.3, dev-asan
# 4.6, fuzz 0.3 GB (line tables only, -g1; measured 2026-11-27 on Debian 12; README,
# "Building by hand"). A full disk fails in the linker with
# "No space left on device" after most of the build: say it before starting instead.
declare -A NEED_GIB=([dev]=2 [dev-asan]=5 [fuzz]=1)

check_disk() { # preset
    local need=${NEED_GIB[$1]:-0} have
    mkdir -p build
    have=$(df -Pk build | awk 'NR == 2 { print int($4 / 1048576) }')
    if ((have < need)); then
        echo "studio.sh: the $1 build needs about $need GiB under $PWD/build, and $have GiB are free." >&2
        echo "studio.sh: free some space (an old build/ tree: rm -rf build/<preset>) and run again." >&2
        exit 1
    fi
}

build() { # preset
    [[ -f build/$1/CMakeCache.txt ]] || check_disk "$1"
    cmake --preset "$1"
    cmake --build --preset "$1" -j "$jobs"
}

case "${1:-}" in
deps)
    install_missing
    ;;
run)
    shift
    install_missing
    build dev
    exec build/dev/app/roofline-studio "$@"
    ;;
test)
    install_missing
    build dev
    ctest --preset dev -j "$jobs"
    build dev-asan
    ctest --preset dev-asan -j "$jobs"
    # Every loader fuzzed a little (libFuzzer + ASan/UBSan, ROOFLINE_FUZZ_SECONDS each; docs/reliability.md).
    build fuzz
    ctest --preset fuzz -j "$jobs"
    ;;
*)
    echo "usage: bash packaging/studio.sh run [FILE.json] | test | deps" >&2
    exit 2
    ;;
esac
