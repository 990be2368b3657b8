// The target that owns the loader tests' precompiled <gtest/gtest.h>
// (cmake/AmclLoaderTests.cmake): an executable, so that the header is compiled with the flags
// the test programs use (-fPIE), which the compilers check before they reuse it.
int main() { return 0; }
