# Sourced by scripts/test.sh: the toolchain that builds skinscope's crates for the browser
# (wasm32-unknown-unknown), set up once per machine outside the clone and put on this shell's
# environment. rustup's toolchain stays the default; its targets cannot be fetched here, so
# Debian 12's `rustc-web` (1.96, with the standard library's sources) builds the standard library
# for wasm32 itself (`-Zbuild-std`, allowed by RUSTC_BOOTSTRAP=1).
#
# Needs, installed by the caller (scripts/test.sh installs what is missing): lld-22 (rust-lld links
# through it), libgit2-1.5 (cargo-web's), clang-22 and llvm-22's archiver (the meshopt crate's C++,
# built for wasm32). Unpacks rustc-web, cargo-web and the standard library's sources (`apt-get
# download` and `dpkg -x`, no system install) into SKINSCOPE_WEB_TOOLCHAIN, by default
# ${XDG_CACHE_HOME:-~/.cache}/skinscope-web/rustweb. Defines `web_cargo`: cargo of that toolchain,
# targeting wasm32 with std built from source, into target/wasm32.

web_toolchain="${SKINSCOPE_WEB_TOOLCHAIN:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/skinscope-web/rustweb}"
web_sudo=""
[ "$(id -u)" -eq 0 ] || web_sudo="sudo"

if [ ! -x "$web_toolchain/usr/bin/rustc" ]; then
    echo "web-env.sh: unpacking Debian's rustc-web into $web_toolchain" >&2
    web_debs="$(mktemp -d)"
    # apt-get download writes into the current folder; _apt cannot write to a private one, so
    # the download runs unsandboxed there (a warning, not an error).
    web_debs_wanted=(rustc-web cargo-web libstd-rust-web-dev libstd-rust-web-1.96 rust-web-src
        rust-web-llvm)
    if ! (cd "$web_debs" && apt-get download -qq "${web_debs_wanted[@]}" 2>/dev/null); then
        # Package lists older than the packages: fetch them, then download again.
        $web_sudo apt-get update -qq
        (cd "$web_debs" && apt-get download -qq "${web_debs_wanted[@]}")
    fi
    mkdir -p "$web_toolchain.partial"
    for deb in "$web_debs"/*.deb; do
        dpkg -x "$deb" "$web_toolchain.partial"
    done
    rm -rf "$web_debs"
    # rust-lld finds its linker as a relative lld-22.
    ln -sfn "$(command -v lld-22)" "$web_toolchain.partial/usr/bin/lld-22"
    rm -rf "$web_toolchain"
    mv "$web_toolchain.partial" "$web_toolchain"
fi

# meshopt 0.7's wasm32 math header lacks six functions its C++ uses: the compiler's builtins.
web_math="-Dfloorf=__builtin_floorf -Dlog2f=__builtin_log2f -Dceilf=__builtin_ceilf"
web_math="$web_math -Dcosf=__builtin_cosf -Dfrexpf=__builtin_frexpf -Dldexpf=__builtin_ldexpf"

web_cargo() {
    env PATH="$web_toolchain/usr/bin:$PATH" \
        LD_LIBRARY_PATH="$web_toolchain/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$PWD/target/wasm32" \
        CC_wasm32_unknown_unknown=clang-22 AR_wasm32_unknown_unknown=llvm-ar-22 \
        CFLAGS_wasm32_unknown_unknown="$web_math" CXXFLAGS_wasm32_unknown_unknown="$web_math" \
        RUSTFLAGS= \
        cargo "$1" -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown "${@:2}"
}
