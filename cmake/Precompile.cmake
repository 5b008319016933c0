# Precompile.cmake — precompiled headers for the heavy third-party headers.
#
# nlohmann_json, CLI11, Catch2 and Dear ImGui are parsed by almost every source file; parsing
# them once per target instead of once per file is most of what makes a clean build fit CI's
# two cores (docs/architecture.md, "Build times"). GPUPLAN_PCH=OFF builds without them, e.g.
# to check that every file includes what it uses.
option(GPUPLAN_PCH "Precompile the heavy third-party headers of each target" ON)

# gpuplan_precompile(TARGET HEADER...): HEADER as in #include, e.g. <nlohmann/json.hpp>.
function(gpuplan_precompile target)
  if(GPUPLAN_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
