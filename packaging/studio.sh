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

build() { # preset
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
