# `cpack -G DEB` in the build tree: a Debian package holding exactly what `cmake --install`
# installs (libamcl.so and /etc/OpenCL/vendors/amcl.icd), under /usr. Its dependencies are the
# Debian packages libamcl.so loads or reads at run time: LLVM and clang's libraries, libclc's
# bitcode, clang's OpenCL headers (libclang-common-22-dev ships them), and the SPIR-V
# translator the amcl-spirv helper links (libllvmspirvlib15, which links libllvm15).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "amcl-opencl-icd")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 driver (ICD) for AMD RDNA3/RDNA4 GPUs, user space only")
set(CPACK_PACKAGE_CONTACT "amcl developers <amcl@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libs")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, zlib1g, libzstd1, libllvm22, libclang-cpp22, libclc-22, libclang-common-22-dev, libllvmspirvlib15, libllvm15")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1 | opencl-icd-loader")
include(CPack)
