# CUDA: built when nvcc is found (GPUPLAN_CUDA=AUTO, the default), skipped with one clear
# message otherwise; GPUPLAN_CUDA=OFF skips it, ON requires it. CUDA 12.x and 13.x are both
# accepted: 13 dropped Volta (sm_70, p3), so p3 users build with a CUDA 12 toolkit.
set(GPUPLAN_CUDA "AUTO" CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE GPUPLAN_CUDA PROPERTY STRINGS AUTO ON OFF)
set(GPUPLAN_HAVE_CUDA OFF)
if(NOT GPUPLAN_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)  # Debian's CUDA installs outside PATH
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # A100 (p4d), L4/L40S (g6, g6e: sm_89), H100/H200 (p5), B200 (p6), RTX PRO 6000 (g7e:
      # sm_120), plus PTX for newer parts. Override with -DCMAKE_CUDA_ARCHITECTURES=...
      set(CMAKE_CUDA_ARCHITECTURES "80;89;90;100;120-virtual")
    endif()
    # C++17 for .cu files: CMake 3.25 does not know nvcc 13's C++20 flag, and the CUDA side
    # is plain host orchestration plus kernels.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    enable_language(CUDA)
    find_package(CUDAToolkit 12 REQUIRED)
    set(GPUPLAN_HAVE_CUDA ON)
    message(STATUS "CUDA: building the CUDA backend with nvcc ${CMAKE_CUDA_COMPILER_VERSION} for ${CMAKE_CUDA_ARCHITECTURES}")
  elseif(GPUPLAN_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPUPLAN_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "CUDA: nvcc not found - skipping the CUDA backend (GPU queries and benchmarks); the CPU backend is built")
  endif()
endif()
