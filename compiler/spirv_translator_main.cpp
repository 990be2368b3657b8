// amcl-spirv: the helper process that turns one SPIR-V module (stdin) into LLVM bitcode
// (stdout) with the SPIRV-LLVM translator of Debian's libllvmspirvlib15, which links LLVM 15.
// It runs apart from libamcl.so because LLVM 15 and amcl's LLVM 22 cannot share a process's
// symbols, and because the translator asserts on some malformed modules: a crash here fails
// one build, never the application. Errors go to stderr; exit 0 means stdout is bitcode.
//
// No LLVM 15 headers are needed: the few functions used are declared here, with the
// signatures libLLVMSPIRVLib.so.15 and libLLVM-15.so export (`nm -DC`; LLVMSPIRVLib.h of
// libllvmspirvlib-15-dev, llvm-c/Core.h and llvm-c/BitWriter.h of LLVM 15).
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/resource.h>

namespace llvm {
class LLVMContext;
class Module;
// LLVMSPIRVLib.h: translates a module with the default options (OpenCL 1.2 builtin names).
bool readSpirv(LLVMContext& context, std::istream& in, Module*& module, std::string& error);
} // namespace llvm

extern "C" {
struct LLVMOpaqueContext;
struct LLVMOpaqueModule;
struct LLVMOpaqueMemoryBuffer;
LLVMOpaqueContext* LLVMContextCreate();
void LLVMContextDispose(LLVMOpaqueContext*);
// llvm-c/Core.h of LLVM 15 (LLVMBool is int).
void LLVMContextSetOpaquePointers(LLVMOpaqueContext*, int);
void LLVMDisposeModule(LLVMOpaqueModule*);
LLVMOpaqueMemoryBuffer* LLVMWriteBitcodeToMemoryBuffer(LLVMOpaqueModule*);
const char* LLVMGetBufferStart(LLVMOpaqueMemoryBuffer*);
size_t LLVMGetBufferSize(LLVMOpaqueMemoryBuffer*);
void LLVMDisposeMemoryBuffer(LLVMOpaqueMemoryBuffer*);
}

int main() {
  // A crash leaves no core file behind; memory is bounded so that a hostile module fails
  // here rather than swapping the machine (the parent bounds time and output).
  rlimit none{0, 0};
  setrlimit(RLIMIT_CORE, &none);
  rlimit memory{4ull << 30, 4ull << 30};
  setrlimit(RLIMIT_AS, &memory);

  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  std::istringstream in(input);
  LLVMOpaqueContext* context = LLVMContextCreate();
  // Translator 15 builds typed pointers (llvm-spirv-15 sets the same); LLVM 15's default,
  // opaque pointers, makes it assert.
  LLVMContextSetOpaquePointers(context, 0);
  // The C API's LLVMContextRef and ModuleRef are the C++ objects (llvm/IR/LLVMContext.h wrap).
  auto* cpp_context = reinterpret_cast<llvm::LLVMContext*>(context);
  llvm::Module* module = nullptr;
  std::string error;
  if (!llvm::readSpirv(*cpp_context, in, module, error) || !module) {
    std::fprintf(stderr, "%s\n",
                 error.empty() ? "the SPIR-V module cannot be translated" : error.c_str());
    LLVMContextDispose(context);
    return 1;
  }
  auto* c_module = reinterpret_cast<LLVMOpaqueModule*>(module);
  LLVMOpaqueMemoryBuffer* bitcode = LLVMWriteBitcodeToMemoryBuffer(c_module);
  const size_t size = LLVMGetBufferSize(bitcode);
  const bool written =
      std::fwrite(LLVMGetBufferStart(bitcode), 1, size, stdout) == size && std::fflush(stdout) == 0;
  LLVMDisposeMemoryBuffer(bitcode);
  LLVMDisposeModule(c_module);
  LLVMContextDispose(context);
  if (!written) std::fprintf(stderr, "cannot write the bitcode\n");
  return written ? 0 : 1;
}
