# What the tests that reach amcl through the ICD loader share (conformance/, tests/system/): the
# environments that make the loader find this build's amcl, a vendors directory with amcl next
# to the system's ICDs for the tests that compare with PoCL (bench/ uses it too), and
# amcl_loader_test() for a gtest program. Included from both folders; the first include sets
# everything (cache variables, so that the sibling folder sees them too).
include_guard(GLOBAL)
include(GoogleTest)

set(AMCL_ICD_ENV "OCL_ICD_VENDORS=${PROJECT_BINARY_DIR}/icd;OCL_ICD_FILENAMES=;AMCL_CACHE_DIR=${AMCL_TEST_CACHE_DIR}"
  CACHE INTERNAL "")
# Programs that are not ours (clinfo) load a sanitized libamcl only with the runtime preloaded.
set(_foreign_env "${AMCL_ICD_ENV}")
if(AMCL_SANITIZE MATCHES "address")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang's shared runtime (executables link the static one) carries UBSan's handlers too.
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
                    OUTPUT_VARIABLE _rt_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_asan ${_rt_dir}/libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
    if(NOT EXISTS ${_asan})
      set(_asan ${_rt_dir}/libclang_rt.asan.so) # per-target runtime directories
    endif()
  else()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE _asan OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  list(APPEND _foreign_env "LD_PRELOAD=${_asan}" "ASAN_OPTIONS=detect_leaks=0")
endif()
set(AMCL_FOREIGN_ENV "${_foreign_env}" CACHE INTERNAL "")

# A vendors directory with amcl next to the system's ICDs (PoCL), for tests that compare.
set(AMCL_ALL_VENDORS ${PROJECT_BINARY_DIR}/vendors CACHE INTERNAL "")
file(MAKE_DIRECTORY ${AMCL_ALL_VENDORS})
file(GLOB _system_icds /etc/OpenCL/vendors/*.icd)
foreach(_icd ${_system_icds})
  get_filename_component(_icd_name ${_icd} NAME)
  file(CREATE_LINK ${_icd} ${AMCL_ALL_VENDORS}/${_icd_name} SYMBOLIC)
endforeach()
file(GENERATE OUTPUT ${AMCL_ALL_VENDORS}/amcl.icd CONTENT "$<TARGET_FILE:amcl>\n")

# A gtest program linked against the ICD loader only (never against amcl), with the shared
# helpers of tests/support. The loader finds amcl through OCL_ICD_VENDORS (one variable:
# gtest_discover_tests cannot pass a list-valued ENVIRONMENT); `vendors` is the directory to use.
# Each program also runs whole, once more, on the emulated RDNA4 card (AMCL_DEVICES=sim:gfx1201),
# as one test named gfx1201_<program>, unless NO_GFX1201 follows the vendors directory.
#
# The programs share one precompiled <gtest/gtest.h>: parsing it is most of a test file's
# front-end time (1.8 user-s of 2.4 in boot_test.cpp), paid once per program without it.
add_executable(amcl_gtest_pch_host ${PROJECT_SOURCE_DIR}/tests/support/gtest_pch_host.cpp)
target_link_libraries(amcl_gtest_pch_host PRIVATE amcl_opencl_headers GTest::gtest)
target_precompile_headers(amcl_gtest_pch_host PRIVATE <gtest/gtest.h>)
function(amcl_loader_test name vendors)
  add_executable(${name} ${name}.cpp)
  target_precompile_headers(${name} REUSE_FROM amcl_gtest_pch_host)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_link_libraries(${name} PRIVATE amcl_opencl_headers ${AMCL_OPENCL_LOADER} GTest::gtest_main
    amcl_test_environment)
  add_dependencies(${name} amcl)
  gtest_discover_tests(${name} PROPERTIES ENVIRONMENT "OCL_ICD_VENDORS=${vendors}"
                       DISCOVERY_TIMEOUT 60)
  if("NO_GFX1201" IN_LIST ARGN)
    return()
  endif()
  add_test(NAME gfx1201_${name} COMMAND ${name})
  set_tests_properties(gfx1201_${name} PROPERTIES LABELS gfx1201
    ENVIRONMENT "OCL_ICD_VENDORS=${vendors};AMCL_DEVICES=sim:gfx1201;AMCL_CACHE_DIR=${AMCL_TEST_CACHE_DIR}")
endfunction()
