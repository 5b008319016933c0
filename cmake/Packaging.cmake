# Packaging.cmake — `cpack` in a native build folder makes a .deb and a .tar.gz holding the
# `gpuplan` binary (CLI, planner, benchmarks), `gpuplan-bench-mpi` when MPI was found, and the
# benchmark guide. The bench preset is what they are made from on an EC2 instance:
#   cmake --preset bench && cmake --build --preset bench && (cd build/bench && cpack)
# The CUDA runtime is linked statically and NCCL is opened at run time (dlopen), so the
# package needs the NVIDIA driver but no CUDA toolkit; dpkg-shlibdeps lists the rest (fmt, MPI).
# libcurl is opened at run time too (by `prices update`'s first download, native/net), so it is
# named here: libcurl4, libcurl4t64 since Ubuntu 24.04.
install(TARGETS gpuplan RUNTIME DESTINATION bin)
if(TARGET gpuplan-gui)
  install(TARGETS gpuplan-gui RUNTIME DESTINATION bin)  # `gpuplan gui` starts it from beside gpuplan
endif()
if(TARGET gpuplan-bench-mpi)
  install(TARGETS gpuplan-bench-mpi RUNTIME DESTINATION bin)
endif()
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/docs/benchmarks.md" DESTINATION share/doc/gpuplan)

set(CPACK_PACKAGE_NAME "gpuplan")
set(CPACK_PACKAGE_VENDOR "gpuplan")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "EC2 GPU instance planner and the benchmarks that measure what an instance delivers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_FILE_NAME "gpuplan-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "gpuplan developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps: the shared libraries the binaries use
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcurl4 | libcurl4t64")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
include(CPack)
