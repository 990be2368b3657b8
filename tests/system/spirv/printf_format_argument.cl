// printf with a format string from a kernel argument: clang takes it, and LLVM's AMDGPU back end
// rejects it with an error diagnostic ("printf format string must be a trivially resolved
// constant string global variable"), on which an LLVMContext without a handler exits the
// process. A SPIR-V build of it must fail with that in the log instead.
kernel void format_from_argument(constant char* format, int x) { printf(format, x); }
