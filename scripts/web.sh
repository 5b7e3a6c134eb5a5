#!/usr/bin/env bash
# skinscope in a browser.
#   scripts/web.sh build        builds the web viewer into target/web/ (index.html, the wasm and
#                               its JavaScript)
#   scripts/web.sh serve [PORT] serves target/web/ on 127.0.0.1 (default port 8080) and prints
#                               the address
#   scripts/web.sh test         builds, then checks the page in headless Chromium against the
#                               native `render` of the same frames (tests/web/check.mjs)
#
# Installs only what is missing, as scripts/test.sh does: Debian's rustc-web toolchain, unpacked
# outside the clone (scripts/web-env.sh), and its linker and C compiler; wasm-bindgen-cli at the
# lockfile's wasm-bindgen version, built once per machine under
# ${XDG_CACHE_HOME:-~/.cache}/skinscope-web/ (about 10 minutes on 2 cores); for `test`, Debian's
# chromium and playwright-core and pngjs from the npm registry (under target/tools).
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
install_missing() {
    local missing=() package
    for package in "$@"; do
        installed "$package" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "web.sh: installing ${missing[*]}" >&2
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

cache="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/skinscope-web"
out="target/web"

# wasm-bindgen-cli must be the version of the wasm-bindgen crate the wasm was built with.
wasm_bindgen() {
    local version
    version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print }' Cargo.lock)"
    local root="$cache/wasm-bindgen-$version"
    if [ ! -x "$root/bin/wasm-bindgen" ]; then
        echo "web.sh: building wasm-bindgen-cli $version into $root (once per machine)" >&2
        # Its own lockfile names crate versions the registry may lack: resolved afresh.
        CARGO_TARGET_DIR="$cache/build" cargo install -q wasm-bindgen-cli --version "$version" \
            --root "$root.partial"
        rm -rf "$cache/build" "$root"
        mv "$root.partial" "$root"
    fi
    "$root/bin/wasm-bindgen" "$@"
}

build() {
    install_missing lld-22 libgit2-1.5 clang-22 llvm-22
    # shellcheck source=scripts/web-env.sh
    source scripts/web-env.sh
    # The application's library as a cdylib, for the browser only (the desktop build has no use
    # for one), in the web profile (Cargo.toml).
    web_cargo rustc --locked -p skinscope --lib --crate-type cdylib --profile web
    rm -rf "$out"
    mkdir -p "$out"
    wasm_bindgen --target web --no-typescript --out-dir "$out" \
        target/wasm32/wasm32-unknown-unknown/web/skinscope.wasm
    cp web/index.html "$out/"
    echo "web.sh: built $out ($(du -k "$out/skinscope_bg.wasm" | cut -f1) KiB of wasm)" >&2
}

serve() {
    local port="${1:-8080}"
    [ -f "$out/index.html" ] || build
    echo "skinscope: http://127.0.0.1:$port/"
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
}

check() {
    build
    install_missing chromium
    export SKINSCOPE_BIN="${SKINSCOPE_BIN:-$PWD/target/debug/skinscope}"
    # The native binary the pages are compared with.
    [ -x "$SKINSCOPE_BIN" ] || cargo build --locked --bin skinscope
    local tools="target/tools"
    if [ ! -d "$tools/node_modules/playwright-core" ] || [ ! -d "$tools/node_modules/pngjs" ]; then
        echo "web.sh: installing playwright-core and pngjs (npm) under $tools" >&2
        npm install --prefix "$tools" --no-audit --no-fund --silent playwright-core@1.64.1 pngjs@7.0.0
    fi
    node tests/web/check.mjs
}

case "${1:-}" in
    build) build ;;
    serve) serve "${2:-}" ;;
    test) check ;;
    *)
        echo "usage: scripts/web.sh build | serve [PORT] | test" >&2
        exit 2
        ;;
esac
