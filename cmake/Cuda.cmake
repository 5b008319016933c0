# CUDA: built when nvcc is found (GPUPLAN_CUDA=AUTO, the default), skipped with one clear
# message otherwise; GPUPLAN_CUDA=OFF skips it, ON requires it. CUDA 12.x and 13.x are both
# accepted: 13 dropped Volta (sm_70, p3), so p3 users build with a CUDA 12 toolkit.
set(GPUPLAN_CUDA "AUTO" CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE GPUPLAN_CUDA PROPERTY STRINGS AUTO ON OFF)
set(GPUPLAN_HAVE_CUDA OFF)

# The GPU generations EC2 has sold, as CUDA architectures: sm_70 (p3 V100), 75 (g4dn T4), 80
# (p4d/p4de A100), 86 (g5 A10G), 89 (g6/g6e L4/L40S), 90 (p5 H100/H200), 100 (p6 B200), 120
# (g7e RTX PRO 6000). gpuplan_ec2_cuda_architectures(<out>) keeps those the nvcc found can
# compile: from `nvcc --list-gpu-arch` (CUDA 11.x and later), else from its version (sm_89 and
# sm_90 from 11.8, sm_100 and sm_120 from 12.8, sm_70 until 13.0 dropped Volta).
set(GPUPLAN_EC2_CUDA_ARCHS 70 75 80 86 89 90 100 120)
function(gpuplan_ec2_cuda_architectures out)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-arch
                  OUTPUT_VARIABLE _listed RESULT_VARIABLE _rc ERROR_QUIET)
  set(_archs "")
  if(_rc EQUAL 0 AND _listed MATCHES "compute_")
    foreach(_a IN LISTS GPUPLAN_EC2_CUDA_ARCHS)
      if(_listed MATCHES "compute_${_a}([^0-9]|$)")
        list(APPEND _archs ${_a})
      endif()
    endforeach()
  else()
    execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --version OUTPUT_VARIABLE _version_text ERROR_QUIET)
    string(REGEX MATCH "release ([0-9]+\\.[0-9]+)" _ "${_version_text}")
    set(_v "${CMAKE_MATCH_1}")
    foreach(_a IN LISTS GPUPLAN_EC2_CUDA_ARCHS)
      if((_a EQUAL 70 AND _v VERSION_LESS 13.0) OR (_a GREATER_EQUAL 75 AND _a LESS 89)
         OR ((_a EQUAL 89 OR _a EQUAL 90) AND _v VERSION_GREATER_EQUAL 11.8)
         OR (_a GREATER_EQUAL 100 AND _v VERSION_GREATER_EQUAL 12.8))
        list(APPEND _archs ${_a})
      endif()
    endforeach()
  endif()
  if(NOT _archs)
    message(FATAL_ERROR "${CMAKE_CUDA_COMPILER} compiles for none of the EC2 GPU architectures (${GPUPLAN_EC2_CUDA_ARCHS}); "
                        "use a CUDA 11.8 or newer toolkit, or configure with -DGPUPLAN_CUDA=OFF")
  endif()
  set(${out} ${_archs} PARENT_SCOPE)
endfunction()
if(NOT GPUPLAN_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)  # Debian's CUDA installs outside PATH
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    gpuplan_ec2_cuda_architectures(GPUPLAN_CUDA_ARCHS)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # Every EC2 generation this nvcc compiles for, plus PTX of the newest for parts after it.
      # Override with -DCMAKE_CUDA_ARCHITECTURES=...
      list(GET GPUPLAN_CUDA_ARCHS -1 _newest)
      set(CMAKE_CUDA_ARCHITECTURES ${GPUPLAN_CUDA_ARCHS} ${_newest}-virtual)
    endif()
    # C++17 for .cu files: CMake 3.25 does not know nvcc 13's C++20 flag, and the CUDA side
    # is plain host orchestration plus kernels.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    enable_language(CUDA)
    find_package(CUDAToolkit 12 REQUIRED)
    set(GPUPLAN_HAVE_CUDA ON)
    message(STATUS "CUDA: building the CUDA backend with nvcc ${CMAKE_CUDA_COMPILER_VERSION} for ${CMAKE_CUDA_ARCHITECTURES} "
                   "(the EC2 architectures this nvcc supports: ${GPUPLAN_CUDA_ARCHS})")
  elseif(GPUPLAN_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPUPLAN_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "CUDA: nvcc not found - skipping the CUDA backend (GPU queries and benchmarks); the CPU backend is built")
  endif()
endif()
