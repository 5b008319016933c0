# GPUPLAN_SANITIZE=ON (the `asan` preset): AddressSanitizer + UndefinedBehaviorSanitizer on
# every target, and UB aborts instead of printing and continuing, so a test fails on it.
option(GPUPLAN_SANITIZE "Build with ASan + UBSan" OFF)
if(GPUPLAN_SANITIZE)
  if(EMSCRIPTEN)
    message(FATAL_ERROR "GPUPLAN_SANITIZE is for native builds")
  endif()
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
