# gpuplan_optimize_for_size(TARGET [SOURCE...]): in an optimised WebAssembly build, compile
# TARGET (or only the SOURCEs of it) for size (-Os) instead of speed (-O3).
#
# Why: the browser page downloads its code, and -Os makes code about a third smaller, but
# it also makes the core's sweeps and the catalog's load 2-3x slower under node
# (docs/performance.md, issue 32). So only code that runs once per click or per file is
# compiled for size: the views, Dear ImGui, the command-line parser, readers and writers of
# files and documents; the models, sweeps, prices and the catalog's load stay at -O3.
# Native builds are unchanged (the binary's size is not downloaded per visit).
# -DGPUPLAN_WASM_SIZE_OPTIMISED=OFF builds everything at -O3, to compare the two.
option(GPUPLAN_WASM_SIZE_OPTIMISED "wasm: compile per-click code (views, ImGui, readers) for size" ON)
function(gpuplan_optimize_for_size target)
  if(NOT EMSCRIPTEN OR NOT GPUPLAN_WASM_SIZE_OPTIMISED OR NOT CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
    return()
  endif()
  if(ARGN)
    # A source compiled with other flags than its target's precompiled header cannot use it
    # (clang refuses a PCH built with other optimisation macros).
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS -Os SKIP_PRECOMPILE_HEADERS ON)
  else()
    target_compile_options(${target} PRIVATE -Os)
  endif()
endfunction()
