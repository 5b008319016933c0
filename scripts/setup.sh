#!/usr/bin/env bash
# gpuplan set-up: installs everything the build and tests need, on Debian 12 as root.
# Idempotent: every step checks first, so a second run takes seconds.
#
#   scripts/setup.sh          # packages + third-party sources + SDL2 for wasm + npm deps
#
# What it fetches and where (all ignored by git, never committed):
#   third_party/imgui-*/      Dear ImGui 1.86 from Debian's source package `imgui`
#   third_party/libsdl2-*/    SDL2 2.26.5 from Debian's source package `libsdl2`
#   third_party/sdl2-wasm/    SDL2 built with Emscripten (static libSDL2.a + headers), kept in
#                             ~/.cache/gpuplan/ too (GPUPLAN_CACHE_DIR), so a clean clone reuses it
#   tests/browser/node_modules  playwright-core (uses Debian's chromium, no browser download)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tp="$root/third_party"
log() { printf '[setup] %s\n' "$*"; }

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates dpkg-dev
  nlohmann-json3-dev catch2 libcli11-dev libfmt-dev libbenchmark-dev
  libsdl2-dev libgl-dev zlib1g-dev libstb-dev libnuma-dev libcurl4-openssl-dev
  emscripten nodejs python3
  chromium xvfb xauth brotli
  openmpi-bin libopenmpi-dev
  clang libclang-rt-14-dev
  g++-11
  mkdocs mkdocs-material
  fonts-inter fonts-dejavu-core python3-fonttools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

# --- third-party sources from Debian source packages -------------------------
mkdir -p "$tp"
have_src() { compgen -G "$tp/$1-*/" >/dev/null; }
if ! have_src imgui || ! have_src libsdl2; then
  src_list=/etc/apt/sources.list.d/debian-src.sources
  if [ ! -f "$src_list" ]; then
    log "enabling deb-src entries (copy of the machine's Debian entry)"
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$src_list"
  fi
  apt-get update -qq
  (cd "$tp" && have_src imgui || apt-get source -qq -o APT::Sandbox::User=root imgui >/dev/null)
  (cd "$tp" && have_src libsdl2 || apt-get source -qq -o APT::Sandbox::User=root libsdl2 >/dev/null)
fi
imgui_dir=$(ls -d "$tp"/imgui-*/ | head -n1); imgui_dir=${imgui_dir%/}
sdl_src=$(ls -d "$tp"/libsdl2-*/ | head -n1); sdl_src=${sdl_src%/}
ln -sfn "$imgui_dir" "$tp/imgui"
ln -sfn "$sdl_src" "$tp/sdl2-src"
log "Dear ImGui sources: $imgui_dir"
log "SDL2 sources:       $sdl_src"

# --- SDL2 for wasm (emscripten ports are frozen here; see shared/toolchain.md) --
# Built once per machine and kept outside the checkout (a clean clone, as CI makes, would
# otherwise spend minutes on SDL2's configure checks): the cache key is the SDL2 source
# package and the Emscripten version, so a new version of either builds afresh.
cache_root="${GPUPLAN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gpuplan}"
emcc_banner=$(NODE_PATH=/usr/share/nodejs emcc --version 2>/dev/null || true)
emcc_version=$(grep -oE '[0-9]+\.[0-9]+\.[0-9]+' <<< "$emcc_banner" | head -n1 || true)
sdl_cache="$cache_root/sdl2-wasm-$(basename "$sdl_src")-emscripten-${emcc_version:-unknown}"
if [ ! -f "$tp/sdl2-wasm/lib/libSDL2.a" ] && [ -f "$sdl_cache/lib/libSDL2.a" ]; then
  log "SDL2 for wasm: from the machine's cache ($sdl_cache)"
  rm -rf "$tp/sdl2-wasm" && cp -a "$sdl_cache" "$tp/sdl2-wasm"
fi
if [ ! -f "$tp/sdl2-wasm/lib/libSDL2.a" ]; then
  log "building SDL2 for wasm (about 4 minutes on 2 cores)"
  export NODE_PATH=/usr/share/nodejs
  rm -rf "$tp/sdl2-wasm-build"
  emcmake cmake -S "$sdl_src" -B "$tp/sdl2-wasm-build" -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DCMAKE_INSTALL_PREFIX="$tp/sdl2-wasm" >/dev/null
  cmake --build "$tp/sdl2-wasm-build" >/dev/null
  cmake --install "$tp/sdl2-wasm-build" >/dev/null
else
  log "SDL2 for wasm: built"
fi
if [ ! -f "$sdl_cache/lib/libSDL2.a" ] && mkdir -p "$cache_root" 2>/dev/null; then
  rm -rf "$sdl_cache.tmp" && cp -a "$tp/sdl2-wasm" "$sdl_cache.tmp" && mv "$sdl_cache.tmp" "$sdl_cache"
  log "SDL2 for wasm: kept in $sdl_cache for the next clean clone"
fi

# --- header-only packages, visible to em++ without -I/usr/include -------------
inc="$tp/wasm-include"
mkdir -p "$inc"
for h in nlohmann catch2 CLI fmt; do
  [ -e "/usr/include/$h" ] && ln -sfn "/usr/include/$h" "$inc/$h"
done

# --- browser tests: playwright-core drives Debian's chromium; axe-core audits pages ------
if [ ! -d "$root/tests/browser/node_modules/playwright-core" ] || [ ! -f "$root/tests/browser/node_modules/axe-core/axe.min.js" ]; then
  log "installing playwright-core and axe-core (npm)"
  (cd "$root/tests/browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
else
  log "playwright-core, axe-core: present"
fi
log "done"
