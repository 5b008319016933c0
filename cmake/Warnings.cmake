# Warnings for our own targets only (third-party sources are compiled without them).
add_library(gpuplan_warnings INTERFACE)
target_compile_options(gpuplan_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
