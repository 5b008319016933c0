# Fuzz.cmake — GPUPLAN_FUZZ=ON (the `asan` preset, clang only): libFuzzer targets in tests/fuzz.
#
# One sanitizer build serves both the suite and the fuzzers: every target is compiled with
# libFuzzer's coverage instrumentation (fuzzer-no-link) on top of ASan + UBSan
# (cmake/Sanitizers.cmake; UB aborts, so it is a finding); only the fuzz targets link libFuzzer
# itself. libFuzzer ships with clang (Debian: clang-14 + libclang-rt-14-dev); with any other
# compiler the option is refused with one message, and the rest of the project builds as usual.
option(GPUPLAN_FUZZ "Build the libFuzzer targets of tests/fuzz (clang only; the asan preset)" OFF)
set(GPUPLAN_FUZZ_SECONDS 60 CACHE STRING "How long each fuzz.*.run test fuzzes, in seconds")
if(GPUPLAN_FUZZ)
  if(EMSCRIPTEN OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(WARNING "GPUPLAN_FUZZ needs clang (CXX=clang++, e.g. `cmake --preset asan`); "
      "the compiler is ${CMAKE_CXX_COMPILER_ID}: no fuzz targets are built")
    set(GPUPLAN_FUZZ OFF CACHE BOOL "" FORCE)
  else()
    add_compile_options(-fsanitize=fuzzer-no-link)
    if(NOT GPUPLAN_SANITIZE)  # fuzzing without ASan + UBSan finds only crashes
      add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
      add_link_options(-fsanitize=address,undefined)
    endif()
  endif()
endif()
