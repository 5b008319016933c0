# Script mode: runs the native and the wasm figures dump and fails unless they are identical.
# Inputs: NATIVE (native executable), WASM_JS (wasm build's .js), NODE, OUT_DIR.
execute_process(COMMAND "${NATIVE}" OUTPUT_FILE "${OUT_DIR}/figures-native.txt" RESULT_VARIABLE native_rc)
execute_process(COMMAND "${NODE}" --no-experimental-fetch "${WASM_JS}" OUTPUT_FILE "${OUT_DIR}/figures-wasm.txt" RESULT_VARIABLE wasm_rc)
if(NOT native_rc EQUAL 0 OR NOT wasm_rc EQUAL 0)
  message(FATAL_ERROR "figures dump failed: native rc=${native_rc}, wasm rc=${wasm_rc}")
endif()
file(READ "${OUT_DIR}/figures-native.txt" native)
file(READ "${OUT_DIR}/figures-wasm.txt" wasm)
string(REGEX MATCH "figures [0-9]+" count "${native}")
if(NOT native STREQUAL wasm)
  message(FATAL_ERROR "native and wasm figures differ: diff ${OUT_DIR}/figures-native.txt ${OUT_DIR}/figures-wasm.txt")
endif()
message(STATUS "native and wasm agree on all ${count}")
