# Where each dependency comes from. Natively: Debian's -dev packages via find_package.
# For wasm: Debian's header-only packages through third_party/wasm-include (links made by
# scripts/setup.sh), because passing -I/usr/include to em++ pulls glibc headers over
# Emscripten's own (see ../shared/toolchain.md).
if(EMSCRIPTEN)
  set(_wasm_include "${GPUPLAN_THIRD_PARTY_DIR}/wasm-include")
  if(NOT EXISTS "${_wasm_include}/nlohmann/json.hpp")
    message(FATAL_ERROR "${_wasm_include}/nlohmann is missing: run scripts/setup.sh first")
  endif()
  add_library(gpuplan_json INTERFACE)
  target_include_directories(gpuplan_json SYSTEM INTERFACE "${_wasm_include}")
  add_library(gpuplan_catch2 INTERFACE)
  target_include_directories(gpuplan_catch2 SYSTEM INTERFACE "${_wasm_include}")
  # Debian's em++ runs its JS optimizer with node, which finds 'acorn' only through
  # NODE_PATH ("Cannot find module 'acorn'" otherwise). Launching every compile and link
  # through `cmake -E env` makes any `cmake --build` work, with or without the preset's env.
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")
  set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")
  # C++ exceptions carry InputError to the shells; they must be on for compile AND link.
  # "wasm" (native WebAssembly exception handling, -fwasm-exceptions) is fast and supported
  # by node 20 and current Chromium; "js" (-fexceptions) emulates them through JavaScript
  # calls and is several times slower, kept for older browsers.
  set(GPUPLAN_WASM_EXCEPTIONS "wasm" CACHE STRING "wasm exception handling: wasm or js")
  if(GPUPLAN_WASM_EXCEPTIONS STREQUAL "wasm")
    add_compile_options(-fwasm-exceptions)
    add_link_options(-fwasm-exceptions)
  else()
    add_compile_options(-fexceptions)
    add_link_options(-fexceptions)
  endif()
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  add_library(gpuplan_json INTERFACE)
  target_link_libraries(gpuplan_json INTERFACE nlohmann_json::nlohmann_json)
  find_package(CLI11 REQUIRED)
  find_package(fmt REQUIRED)
  if(GPUPLAN_GUI)  # stb_image_write: the desktop GUI's screenshots and the view renderer's PNG
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(STB REQUIRED IMPORTED_TARGET GLOBAL stb)
  endif()
  if(GPUPLAN_TESTS)  # test tools only: the bench preset builds without them
    find_package(Catch2 2 REQUIRED)
    add_library(gpuplan_catch2 INTERFACE)
    target_link_libraries(gpuplan_catch2 INTERFACE Catch2::Catch2)
    find_package(benchmark REQUIRED)
  endif()
endif()
