# Finds every dependency from Debian's packages. When something is missing, say exactly which
# package provides it and how to install them all (scripts/install-deps.sh).
set(AMCL_LLVM_ROOT "/usr/lib/llvm-22" CACHE PATH "LLVM 22 installation prefix")
list(APPEND CMAKE_PREFIX_PATH "${AMCL_LLVM_ROOT}")

function(amcl_missing what package)
  message(FATAL_ERROR "amcl: ${what} not found (Debian package: ${package}).\n"
    "Install everything with: ${CMAKE_SOURCE_DIR}/scripts/install-deps.sh")
endfunction()

# LLVM's version file accepts only the exact major.minor asked for, so check the major here.
find_package(LLVM CONFIG QUIET HINTS "${AMCL_LLVM_ROOT}/lib/cmake/llvm" NO_DEFAULT_PATH)
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 22)
  amcl_missing("LLVM 22 CMake package" "llvm-22-dev")
endif()
find_package(Clang CONFIG QUIET HINTS "${LLVM_DIR}/../clang")
if(NOT Clang_FOUND)
  amcl_missing("Clang 22 CMake package" "libclang-cpp22-dev libclang-22-dev")
endif()
find_package(LLD CONFIG QUIET HINTS "${LLVM_DIR}/../lld")
if(NOT LLD_FOUND)
  amcl_missing("LLD 22 CMake package" "liblld-22-dev")
endif()
message(STATUS "amcl: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")

# libclc's builtins for the amdgcn-amd-amdhsa triple.
set(AMCL_LIBCLC_DIR "/usr/lib/clc" CACHE PATH "libclc bitcode directory")
if(NOT EXISTS "${AMCL_LIBCLC_DIR}/amdgcn-amd-amdhsa.bc")
  amcl_missing("libclc amdgcn-amd-amdhsa.bc" "libclc-22")
endif()
# clang's resource directory (opencl-c-base.h and friends) matching the library we link.
set(AMCL_CLANG_RESOURCE_DIR "${AMCL_LLVM_ROOT}/lib/clang/${LLVM_VERSION_MAJOR}")
if(NOT EXISTS "${AMCL_CLANG_RESOURCE_DIR}/include/opencl-c-base.h")
  amcl_missing("clang resource headers" "libclang-common-22-dev")
endif()

find_path(AMCL_OPENCL_INCLUDE CL/cl_icd.h)
if(NOT AMCL_OPENCL_INCLUDE)
  amcl_missing("OpenCL headers (CL/cl_icd.h)" "opencl-c-headers")
endif()
find_library(AMCL_OPENCL_LOADER OpenCL)
if(NOT AMCL_OPENCL_LOADER)
  amcl_missing("OpenCL ICD loader (libOpenCL.so)" "ocl-icd-opencl-dev")
endif()
find_package(Threads REQUIRED)

if(AMCL_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    amcl_missing("GoogleTest" "libgtest-dev")
  endif()
endif()

find_program(AMCL_LLVM_OBJDUMP llvm-objdump-22 HINTS "${AMCL_LLVM_ROOT}/bin")
find_program(AMCL_LLVM_MC llvm-mc-22 HINTS "${AMCL_LLVM_ROOT}/bin")
find_program(AMCL_CLINFO clinfo)

# One interface target carrying the OpenCL API version and headers for all layers.
add_library(amcl_opencl_headers INTERFACE)
target_include_directories(amcl_opencl_headers SYSTEM INTERFACE "${AMCL_OPENCL_INCLUDE}")
target_compile_definitions(amcl_opencl_headers INTERFACE CL_TARGET_OPENCL_VERSION=300
  CL_USE_DEPRECATED_OPENCL_1_0_APIS CL_USE_DEPRECATED_OPENCL_1_1_APIS
  CL_USE_DEPRECATED_OPENCL_1_2_APIS CL_USE_DEPRECATED_OPENCL_2_0_APIS
  CL_USE_DEPRECATED_OPENCL_2_1_APIS CL_USE_DEPRECATED_OPENCL_2_2_APIS)
