# require_wasm_build.cmake — the fixture the wasm, parity and browser tests of the native run
# need (tests/CMakeLists.txt): fails naming the missing file and the commands that make it.
#   cmake -DFILES="a;b" -P require_wasm_build.cmake
foreach(_file IN LISTS FILES)
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "no wasm build: ${_file} is missing; build it with `cmake --preset wasm && cmake --build --preset wasm` "
                        "(scripts/test.sh does), then run the tests again")
  endif()
endforeach()
