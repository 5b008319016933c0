# ImGui.cmake — Dear ImGui 1.86 (+ SDL2 platform backend + OpenGL3 renderer backend) as the
# static library `gpuplan_imgui`, for the front-ends only (core/ never links it).
#
# Sources come from scripts/setup.sh (Debian's source package, into third_party/imgui/); they
# are compiled without our warning flags, since they are not our code.
#   wasm:   SDL2 is the static build setup.sh makes in third_party/sdl2-wasm/ (Emscripten's
#           own -sUSE_SDL=2 port would be downloaded at build time, which the frozen Debian
#           cache refuses). Renderer: WebGL2 through GL ES 3.0.
#   native: SDL2 and OpenGL from Debian (libsdl2-dev, libgl-dev). The native GUI is optional:
#           when either is missing, no target is made and the CLI still builds.
# Front-ends test `if(TARGET gpuplan_imgui)` before using it.
#
# `gpuplan_imgui_core` is Dear ImGui alone (no backend, no SDL, no GL): core/ui and its
# headless frame tests (tests/ui) link only that, so they build wherever the sources exist.
# `gpuplan_imgui` adds the SDL2 + OpenGL3 backends on top, for the shells.

set(_imgui_dir "${GPUPLAN_THIRD_PARTY_DIR}/imgui")
set(_imgui_core_sources
  "${_imgui_dir}/imgui.cpp"
  "${_imgui_dir}/imgui_draw.cpp"
  "${_imgui_dir}/imgui_tables.cpp"
  "${_imgui_dir}/imgui_widgets.cpp"
  # std::string text fields (InputText/InputTextMultiline that grow): no fixed paste buffers.
  "${_imgui_dir}/misc/cpp/imgui_stdlib.cpp")
set(_imgui_backend_sources
  "${_imgui_dir}/backends/imgui_impl_sdl.cpp"
  "${_imgui_dir}/backends/imgui_impl_opengl3.cpp")
set(_imgui_sources ${_imgui_core_sources} ${_imgui_backend_sources})

# Dear ImGui's core, platform-free (see the header comment).
set(_imgui_core_ok TRUE)
foreach(_src IN LISTS _imgui_core_sources)
  if(NOT EXISTS "${_src}")
    set(_imgui_core_ok FALSE)
  endif()
endforeach()
if(_imgui_core_ok AND NOT TARGET gpuplan_imgui_core)
  add_library(gpuplan_imgui_core STATIC ${_imgui_core_sources})
  gpuplan_optimize_for_size(gpuplan_imgui_core)  # Dear ImGui draws per frame, not per sweep
  target_include_directories(gpuplan_imgui_core SYSTEM PUBLIC "${_imgui_dir}" "${_imgui_dir}/misc/cpp")
  # Keep our code off APIs that ImGui has already deprecated, so a version bump is painless.
  target_compile_definitions(gpuplan_imgui_core PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
  target_compile_options(gpuplan_imgui_core PRIVATE -Wno-deprecated-enum-enum-conversion)
endif()

set(_imgui_missing "")
foreach(_src IN LISTS _imgui_sources)
  if(NOT EXISTS "${_src}")
    list(APPEND _imgui_missing "${_src}")
  endif()
endforeach()

if(EMSCRIPTEN)
  set(_sdl2_wasm "${GPUPLAN_THIRD_PARTY_DIR}/sdl2-wasm")
  if(NOT EXISTS "${_sdl2_wasm}/lib/libSDL2.a" OR NOT EXISTS "${_sdl2_wasm}/include/SDL2/SDL.h")
    list(APPEND _imgui_missing "${_sdl2_wasm}/lib/libSDL2.a" "${_sdl2_wasm}/include/SDL2/SDL.h")
  endif()
  if(_imgui_missing)
    list(JOIN _imgui_missing "\n  " _missing_text)
    message(FATAL_ERROR "The web front-end needs Dear ImGui and a wasm SDL2, and these are "
      "missing:\n  ${_missing_text}\nRun scripts/setup.sh (it fetches them into "
      "${GPUPLAN_THIRD_PARTY_DIR}), then configure again.")
  endif()

  add_library(gpuplan_sdl2 STATIC IMPORTED)
  set_target_properties(gpuplan_sdl2 PROPERTIES IMPORTED_LOCATION "${_sdl2_wasm}/lib/libSDL2.a")
  # include/SDL2 because the ImGui backend (and our main.cpp) write `#include <SDL.h>`.
  # Not SYSTEM on purpose: em++ already puts its own SDL 1 headers (sysroot/include/SDL) on
  # the system include path ahead of any -isystem, so <SDL.h> would find SDL 1; only -I wins.
  target_include_directories(gpuplan_sdl2 INTERFACE "${_sdl2_wasm}/include/SDL2")

  add_library(gpuplan_imgui STATIC ${_imgui_backend_sources})
  target_include_directories(gpuplan_imgui SYSTEM PUBLIC "${_imgui_dir}" "${_imgui_dir}/backends")
  target_link_libraries(gpuplan_imgui PUBLIC gpuplan_imgui_core)
  # PUBLIC so that imgui_impl_opengl3.h sees the same choice in our code as in the backend.
  # Without it the backend guesses GL ES 2 for __EMSCRIPTEN__ and its shaders and vertex
  # arrays do not match the "#version 300 es" context we create.
  target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
  target_link_libraries(gpuplan_imgui PUBLIC gpuplan_sdl2)
  gpuplan_optimize_for_size(gpuplan_imgui)
  # The WebGL link flags live on the executable that creates the context (web/CMakeLists.txt),
  # next to the other page-level flags, with a comment on each.
else()
  if(_imgui_missing)
    message(STATUS "Dear ImGui sources not found in ${_imgui_dir}: native GUI skipped "
      "(run scripts/setup.sh to fetch them)")
    return()
  endif()
  find_package(SDL2 CONFIG QUIET)
  set(OpenGL_GL_PREFERENCE GLVND)
  find_package(OpenGL QUIET)
  if(NOT TARGET SDL2::SDL2 OR NOT TARGET OpenGL::GL)
    message(STATUS "SDL2 or OpenGL not found: native GUI skipped "
      "(apt-get install libsdl2-dev libgl-dev)")
    return()
  endif()

  add_library(gpuplan_imgui STATIC ${_imgui_backend_sources})
  target_include_directories(gpuplan_imgui SYSTEM PUBLIC "${_imgui_dir}" "${_imgui_dir}/backends")
  target_link_libraries(gpuplan_imgui PUBLIC gpuplan_imgui_core)
  # ImGui 1.86's OpenGL3 backend loads GL entry points itself (imgui_impl_opengl3_loader.h,
  # dlopen of libGL), hence the dl library.
  target_link_libraries(gpuplan_imgui PUBLIC SDL2::SDL2 OpenGL::GL ${CMAKE_DL_LIBS})
endif()

# Keep our code off APIs that ImGui has already deprecated, so a version bump is painless.
target_compile_definitions(gpuplan_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
# ImGui 1.86 mixes its public and private flag enums with `|`, which C++20 deprecates; that is
# upstream's code, so the warning is silenced for these sources only.
target_compile_options(gpuplan_imgui PRIVATE -Wno-deprecated-enum-enum-conversion)
# Under GPUPLAN_SANITIZE (asan preset): 1.86's GL loader (imgui_impl_opengl3_loader.h,
# load_procs) fills `union GL3WProcs` through its ptr[53] array with 54 entries; the 54th slot
# lies inside the union's struct (no memory error, ASan agrees) but UBSan's bounds check aborts
# `gpuplan gui`. Upstream code we do not patch: the bounds check is off for these sources only.
if(GPUPLAN_SANITIZE)
  target_compile_options(gpuplan_imgui PRIVATE -fno-sanitize=bounds)
endif()
