#include "compiler.h"
#include "builtin_libraries.h"
#include "sampler_table.h"
#include "sealed_bitcode.h"
#include "spirv_lowering.h"
#include "spirv_module.h"
#include "spirv_translator.h"

#include "build_cache.h"
#include "code_object.h"
#include "llvm_init.h"

#include <algorithm>
#include <atomic>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <lld/Common/Driver.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <condition_variable>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

LLD_HAS_DRIVER(elf)

namespace amcl::compiler {
namespace {

constexpr const char* kTriple = "amdgcn-amd-amdhsa";
constexpr const char* kHeaderDir = "/amcl-embedded-headers";

const char kWorkitemBuiltins[] =
#include "workitem_builtins.inc"
    ;

} // namespace

void init_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // Inline assembly in OpenCL C is parsed while the object is emitted; without the parser
    // LLVM aborts the process ("Inline asm not supported by this streamer").
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler(); // disassemble_one (disassembler.h)
    // Lets a crash inside clang or LLVM end the build that caused it (see frontend()).
    llvm::CrashRecoveryContext::Enable();
  });
}

namespace {

// Options split as a shell would (clang's driver's rules): quotes group and are removed, so
// darktable's -I"/usr/share/darktable/kernels" names the directory (the GPU drivers it runs
// on accept it; PoCL 3.1 does not), and a path with spaces can be given.
std::vector<std::string> split_options(const std::string& options) {
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char*, 16> argv;
  llvm::cl::TokenizeGNUCommandLine(options, saver, argv);
  return {argv.begin(), argv.end()};
}

// Diagnostics clang 22 makes errors by default in C (and so in OpenCL C) that the clang-based
// OpenCL compilers programs were written against (PoCL, ROCm, older clang) reported as
// warnings: these build with a warning in the log, unless -Werror asks for errors. When each
// became an error (clang's release notes):
//   int-conversion                       clang 15: pointer <-> integer without a cast
//   implicit-int                         clang 16: a declaration without a type
//   incompatible-function-pointer-types  clang 16 (a subgroup of the last one)
//   return-mismatch                      "return;" in a non-void function (its own group
//                                        since clang 19)
//   incompatible-pointer-types           clang 22: __global float2* into __global float4*
// Implicit function declarations stay errors: OpenCL C never allowed them, and clang reports
// an undeclared identifier, not a -W diagnostic.
constexpr const char* kWarnedNotFailed[] = {"int-conversion", "implicit-int",
                                            "incompatible-function-pointer-types",
                                            "return-mismatch", "incompatible-pointer-types"};

// Translates OpenCL build options into clang -cc1 arguments. Options that need a value take
// the next token when written separately (-D NAME, -I dir).
bool translate_options(const std::string& options, std::vector<std::string>& cc1, std::string& std,
                       std::string& log) {
  auto toks = split_options(options);
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    auto value = [&](const char* flag) -> bool {
      if (t.size() > 2) {
        cc1.push_back(t);
        return true;
      }
      if (i + 1 >= toks.size()) return false;
      cc1.push_back(flag);
      cc1.push_back(toks[++i]);
      return true;
    };
    if (t.rfind("-D", 0) == 0) {
      if (!value("-D")) return log += "missing macro after -D\n", false;
    } else if (t.rfind("-I", 0) == 0) {
      if (!value("-I")) return log += "missing directory after -I\n", false;
    } else if (t.rfind("-cl-std=", 0) == 0) {
      std = t.substr(8);
      if (std != "CL1.0" && std != "CL1.1" && std != "CL1.2" && std != "CL2.0" && std != "CL3.0")
        return log += "unsupported " + t + "\n", false;
    } else if (t == "-mwavefrontsize64") {
      // Wave64 code (clang's and ROCm's option): kernels run as waves of 64 work-items, and
      // sub-groups have 64.
      cc1.insert(cc1.end(), {"-target-feature", "+wavefrontsize64"});
    } else if (t == "-mno-wavefrontsize64") {
      continue; // the default: wave32
    } else if (t == "-cl-strict-aliasing") {
      // OpenCL 1.0's promise that pointers of different types do not alias, deprecated since
      // OpenCL 1.1 (PoCL accepts it): a promise amcl may leave unused.
      log += "warning: -cl-strict-aliasing is deprecated since OpenCL 1.1 and has no effect\n";
    } else if (t == "-w") {
      cc1.push_back("-w");
    } else if (t == "-Werror") {
      cc1.push_back("-Werror");
    } else if (t == "-cl-opt-disable" || t == "-cl-mad-enable" || t == "-cl-no-signed-zeros" ||
               t == "-cl-unsafe-math-optimizations" || t == "-cl-finite-math-only" ||
               t == "-cl-fast-relaxed-math" || t == "-cl-denorms-are-zero" ||
               t == "-cl-fp32-correctly-rounded-divide-sqrt" || t == "-cl-kernel-arg-info" ||
               t == "-cl-single-precision-constant" || t == "-cl-uniform-work-group-size" ||
               t == "-cl-no-subgroup-ifp" || t == "-g") {
      if (t == "-cl-opt-disable") continue; // handled by the optimisation level
      // A promise that sub-groups need no independent forward progress (OpenCL 3.0 5.8.6.4):
      // nothing amcl's code generation could use; clang -cc1 does not know the flag.
      if (t == "-cl-no-subgroup-ifp") continue;
      if (t == "-g") cc1.push_back("-debug-info-kind=line-tables-only");
      // clang's driver turns this into the f32 denormal mode; -cc1 does not know the flag.
      else if (t == "-cl-denorms-are-zero") cc1.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
      else cc1.push_back(t);
    } else {
      log += "invalid build option: " + t + "\n";
      return false;
    }
  }
  // -Werror (OpenCL 3.0 §5.8.6.4: "make all warnings into errors") keeps clang's errors.
  if (std::find(toks.begin(), toks.end(), "-Werror") == toks.end())
    for (const char* group : kWarnedNotFailed) cc1.push_back(std::string("-Wno-error=") + group);
  return true;
}

// Target features amcl sets for a processor whatever the program asks. gfx11: LLVM 22's real
// true16 code generation (its default there) miscompiles some short-vector code: in the CTS's
// basic vector_creation a 16-bit element came from the source pointer's register (v_mov_b32
// v0, s0 where v9's high half was meant; conformance's
// Basic.ShortVectorsBuiltFromVloadsHoldTheirElements). The fake16 form, LLVM's default until
// recently and gfx12's still, gives the right code.
std::string forced_features(const std::string& target) {
  return target.rfind("gfx11", 0) == 0 ? "-real-true16" : "";
}

// Runs clang on `source` and returns the unoptimised module, or null with diagnostics in log.
std::unique_ptr<llvm::Module> frontend(llvm::LLVMContext& ctx, const std::string& source,
                                       const std::string& name, const std::string& target,
                                       std::vector<std::string> extra, bool default_header,
                                       std::string& log, bool& bad_options,
                                       const std::vector<SourceFile>& headers = {}) {
  std::vector<std::string> args = {"-triple", kTriple, "-target-cpu", target, "-emit-llvm-only",
                                   "-O2", "-disable-llvm-passes", "-mcode-object-version=5",
                                   "-resource-dir", AMCL_CLANG_RESOURCE_DIR, "-fno-signed-char",
                                   "-x", "cl", "-ferror-limit", "50",
                                   // As clang's driver passes it: no value names in the IR. With
                                   // them, LLVM wrote kernel argument names into the code object
                                   // even without -cl-kernel-arg-info.
                                   "-discard-value-names"};
  if (const std::string f = forced_features(target); !f.empty())
    args.insert(args.end(), {"-target-feature", f});
  if (default_header) {
    args.push_back("-finclude-default-header");
    args.push_back("-fdeclare-opencl-builtins");
  }
  args.insert(args.end(), extra.begin(), extra.end());
  if (!headers.empty()) args.insert(args.end(), {"-I", kHeaderDir});
  args.push_back(name);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());

  llvm::raw_string_ostream log_stream(log);
  clang::DiagnosticOptions diag_opts;
  diag_opts.ShowColors = false;
  diag_opts.ShowOptionNames = true; // "[-Wint-conversion]": what -Wno-... would silence
  auto printer = std::make_unique<clang::TextDiagnosticPrinter>(log_stream, diag_opts);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    clang::DiagnosticsEngine diags(clang::DiagnosticIDs::create(), diag_opts, printer.get(), false);
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diags)) {
      bad_options = true;
      return nullptr;
    }
  }
  // The source buffer stays ours: clang adopts remapped buffers only once it gets as far as
  // creating its source manager, and a build that fails earlier (an unknown target CPU) would
  // leak it.
  std::unique_ptr<llvm::MemoryBuffer> source_buffer = llvm::MemoryBuffer::getMemBufferCopy(source, name);
  invocation->getPreprocessorOpts().addRemappedFile(name, source_buffer.get());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = true;

  invocation->getFrontendOpts().DisableFree = false;
  auto ci = std::make_unique<clang::CompilerInstance>(std::move(invocation));
  // Embedded headers (clCompileProgram's input_headers) sit in an in-memory directory over
  // the real file system, searched like an -I directory.
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto in_memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const SourceFile& h : headers)
    in_memory->addFile(std::string(kHeaderDir) + "/" + h.name, 0,
                       llvm::MemoryBuffer::getMemBufferCopy(h.text, h.name));
  overlay->pushOverlay(in_memory);
  ci->createVirtualFileSystem(overlay);
  ci->createDiagnostics(printer.release(), true);
  // The "N errors generated." summary goes to the build log too, never to the host's stderr.
  ci->setVerboseOutputStream(log_stream);
  auto action = std::make_unique<clang::EmitLLVMOnlyAction>(&ctx);
  // clang has bugs that crash it on some malformed sources; a crash must fail this build,
  // not kill the application. What the crashed compilation held is abandoned (leaked):
  // its destructors would run on inconsistent state.
  bool ok = false;
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { ok = ci->ExecuteAction(*action); })) {
    // Kept reachable, so that leak checkers see a deliberate abandonment, not a leak.
    static auto* abandoned = new std::vector<std::pair<clang::CompilerInstance*, clang::EmitLLVMOnlyAction*>>;
    static std::mutex abandoned_mutex;
    std::lock_guard lock(abandoned_mutex);
    abandoned->emplace_back(ci.release(), action.release());
    log_stream.flush();
    log += "internal compiler error: clang crashed compiling " + name +
           "; the source is probably invalid near the last diagnostic above\n";
    return nullptr;
  }
  log_stream.flush();
  if (!ok) return nullptr;
  return action->takeModule();
}

std::unique_ptr<llvm::Module> load_bitcode_lazily(llvm::LLVMContext& ctx, const std::string& path,
                                                  std::string& log) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    log += "cannot read " + path + ": " + buf.getError().message() + "\n";
    return nullptr;
  }
  auto mod = llvm::getOwningLazyBitcodeModule(std::move(*buf), ctx);
  if (!mod) {
    log += "cannot parse " + path + ": " + llvm::toString(mod.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*mod);
}

} // namespace
const std::string& toolchain_identity();
namespace {

// amcl's work-item builtins for `target` and a wave size, loaded lazily into `ctx`. Their
// source is compiled once per target and wave size and kept as bitcode, in memory and in the
// build cache: every build links them, and running the frontend over several hundred
// sub-group functions per build would cost more than the program's own compile.
std::unique_ptr<llvm::Module> workitem_builtins(llvm::LLVMContext& ctx, const std::string& target,
                                                bool wave64, std::string& log) {
  static std::mutex mutex;
  static std::map<std::string, std::string> compiled; // target[:wave64] -> bitcode
  const std::string variant = wave64 ? target + ":wave64" : target;
  std::string bitcode;
  {
    std::lock_guard lock(mutex);
    if (auto it = compiled.find(variant); it != compiled.end()) bitcode = it->second;
  }
  // Then the on-disk cache: compiling them takes most of a second, once per target.
  // The sampler table is generated for the target from am/hw (sampler_table.cpp), so it is
  // part of the key: a change to the S# mapping must not be served the old table.
  const std::string samplers = sampler_table_source(target);
  const std::string disk_key =
      cache_key({toolchain_identity(), "workitem-builtins", variant, samplers});
  if (bitcode.empty()) {
    if (auto hit = BuildCache::process().load(disk_key)) {
      bitcode.assign(hit->binary.begin(), hit->binary.end());
      std::lock_guard lock(mutex);
      compiled.emplace(variant, bitcode);
    }
  }
  if (bitcode.empty()) {
    llvm::LLVMContext own;
    bool bad = false;
    std::string wi_log;
    // The image functions (image_builtins.cl) need the image types of OpenCL C 3.0.
    std::vector<std::string> args = {
        "-cl-std=CL3.0",
        "-cl-ext=+__opencl_c_images,+__opencl_c_read_write_images,"
        "+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes,+cl_khr_depth_images"};
    if (wave64)
      args.insert(args.end(), {"-target-feature", "+wavefrontsize64", "-D", "AMCL_WAVE64=1"});
    auto m = frontend(own, samplers + kWorkitemBuiltins, "amcl_workitem_builtins.cl", target, args,
                      false, wi_log, bad);
    if (!m) {
      log += "internal error compiling work-item builtins:\n" + wi_log;
      return nullptr;
    }
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*m, os);
    os.flush();
    BuildCache::process().store(disk_key, CachedBuild{{bitcode.begin(), bitcode.end()}, ""});
    std::lock_guard lock(mutex);
    compiled.emplace(variant, bitcode);
  }
  auto mod = llvm::getOwningLazyBitcodeModule(
      llvm::MemoryBuffer::getMemBufferCopy(bitcode, "amcl_workitem_builtins.bc"), ctx);
  if (!mod) {
    log += "internal error loading work-item builtins: " + llvm::toString(mod.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*mod);
}

// amcl's corrections of libclc's math builtins (math_builtins.cl) call the libclc definition
// they replace as __libclc_<name>: the same mangled parameters under a longer identifier
// ("_Z12__libclc_sind" for "_Z3sind"). Each such call the program now needs gives libclc's
// function that name before libclc is linked; libclc's own name is then the wrapper's alone.
void rename_wrapped_libclc_functions(const llvm::Module& program, llvm::Module& libclc) {
  constexpr llvm::StringLiteral kPrefix = "__libclc_";
  for (const llvm::Function& f : program) {
    if (!f.isDeclaration()) continue;
    llvm::StringRef rest = f.getName();
    size_t length = 0;
    if (!rest.consume_front("_Z") || rest.consumeInteger(10, length) ||
        length <= kPrefix.size() || length > rest.size() || !rest.starts_with(kPrefix))
      continue;
    const std::string original =
        "_Z" + std::to_string(length - kPrefix.size()) + rest.drop_front(kPrefix.size()).str();
    if (llvm::Function* g = libclc.getFunction(original); g && !g->isDeclaration())
      g->setName(f.getName());
  }
}

} // namespace

// Links amcl's work-item builtins, then libclc, pulling in only what the program uses. The
// first definition wins, which is how amcl's versions take precedence over libclc's.
bool link_builtins(llvm::Module& program, const std::string& target, bool wave64,
                   std::string& log) {
  llvm::LLVMContext& ctx = program.getContext();
  auto workitem = workitem_builtins(ctx, target, wave64, log);
  if (!workitem) return false;
  auto libclc = load_bitcode_lazily(ctx, AMCL_LIBCLC_DIR "/amdgcn-amd-amdhsa.bc", log);
  if (!libclc) return false;
  // Bitcode from other compilations: adopt the program's layout and drop module flags that
  // would conflict (code object version, wchar size).
  for (llvm::Module* m : {workitem.get(), libclc.get()}) {
    m->setDataLayout(program.getDataLayout());
    m->setTargetTriple(program.getTargetTriple());
    if (auto* flags = m->getModuleFlagsMetadata()) m->eraseNamedMetadata(flags);
  }
  // printf is lowered during code generation into calls of __printf_alloc, long after the
  // optimiser would have dropped an unreferenced definition: a program that prints asks for
  // it up front and keeps it (llvm.compiler.used).
  if (llvm::Function* printf = program.getFunction("printf"); printf && !printf->use_empty()) {
    llvm::FunctionCallee alloc = program.getOrInsertFunction(
        "__printf_alloc", llvm::PointerType::get(ctx, 1), llvm::Type::getInt32Ty(ctx));
    llvm::appendToCompilerUsed(program, {llvm::cast<llvm::GlobalValue>(alloc.getCallee())});
  }
  llvm::Linker linker(program);
  if (linker.linkInModule(std::move(workitem), llvm::Linker::LinkOnlyNeeded)) {
    log += "internal error linking builtin libraries\n";
    return false;
  }
  rename_wrapped_libclc_functions(program, *libclc);
  if (linker.linkInModule(std::move(libclc), llvm::Linker::LinkOnlyNeeded)) {
    log += "internal error linking builtin libraries\n";
    return false;
  }
  return true;
}

namespace {

// Whether a module's code was compiled for wave64 (-mwavefrontsize64): its functions say so
// in their target features. Nothing when it has no code.
std::optional<bool> wave64_of(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (!f.isDeclaration())
      return f.getFnAttribute("target-features").getValueAsString().contains("+wavefrontsize64");
  return std::nullopt;
}
bool is_wave64(const llvm::Module& m) {
  return wave64_of(m).value_or(false);
}

// Kernels keep external linkage; everything else becomes internal so the optimiser inlines
// and drops unused library code, compiled for the kernels' processor and wave size. Kernels
// without an explicit limit get the full 1024 work items (LLVM's default would cap them at
// 256).
void finalize_linkage(llvm::Module& m, const std::string& target, bool wave64) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL) {
      // clang writes "1,256" unless reqd_work_group_size fixed the size exactly.
      if (!f.getMetadata("reqd_work_group_size"))
        f.addFnAttr("amdgpu-flat-work-group-size", "1,1024");
      continue;
    }
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.setVisibility(llvm::GlobalValue::DefaultVisibility);
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.addFnAttr("target-cpu", target);
    std::string features = forced_features(target);
    if (wave64) features += std::string(features.empty() ? "" : ",") + "+wavefrontsize64";
    if (!features.empty()) f.addFnAttr("target-features", features);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.removeFnAttr(llvm::Attribute::NoInline);
  }
  for (llvm::GlobalVariable& g : m.globals())
    if (!g.isDeclaration() && g.getLinkage() != llvm::GlobalValue::ExternalLinkage &&
        !g.getName().starts_with("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
}

bool optimize_and_emit(llvm::Module& m, const std::string& target, bool optimize,
                       llvm::SmallVectorImpl<char>& object, std::string& log) {
  std::string err;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(m.getTargetTriple(), err);
  if (!t) {
    log += "no AMDGPU target in LLVM: " + err + "\n";
    return false;
  }
  llvm::TargetOptions opts;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      m.getTargetTriple(), target, forced_features(target), opts, llvm::Reloc::PIC_, std::nullopt,
      optimize ? llvm::CodeGenOptLevel::Default : llvm::CodeGenOptLevel::None));
  if (llvm::verifyModule(m, &llvm::errs())) {
    log += "internal error: invalid LLVM module\n";
    return false;
  }
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = optimize
        ? pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2)
        : pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    mpm.run(m, mam);
  }
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    log += "internal error: cannot emit AMDGPU objects\n";
    return false;
  }
  pm.run(m);
  return true;
}

// Runs `job` on the process's one linker thread and waits for it. lld keeps global state, so
// links are serialised anyway; running them all on one long-lived thread also confines what
// lld does to a thread: its first output file registers LLVM's signal handlers, which gives
// the registering thread an alternate signal stack that must outlive it (a short-lived
// application thread would leak it, and ASan aborts when such a thread exits).
void on_linker_thread(const std::function<void()>& job) {
  struct Linker {
    std::mutex mutex;
    std::condition_variable cv;
    const std::function<void()>* job = nullptr;
    bool finished = false;
  };
  static Linker* linker = [] {
    auto* l = new Linker; // never destroyed: the thread may still wait on it at exit
    std::thread([l] {
      std::unique_lock lock(l->mutex);
      for (;;) {
        l->cv.wait(lock, [&] { return l->job && !l->finished; });
        lock.unlock();
        (*l->job)();
        lock.lock();
        l->finished = true;
        l->cv.notify_all();
      }
    }).detach();
    return l;
  }();
  std::unique_lock lock(linker->mutex);
  linker->cv.wait(lock, [&] { return linker->job == nullptr; }); // one link at a time
  linker->job = &job;
  linker->finished = false;
  linker->cv.notify_all();
  linker->cv.wait(lock, [&] { return linker->finished; });
  linker->job = nullptr;
  linker->cv.notify_all();
}

// Objects pass through a private temporary directory because lld's driver reads and writes
// files.
bool link_code_object(const llvm::SmallVectorImpl<char>& object, std::vector<uint8_t>& out,
                      std::string& log) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("amcl-link", dir)) {
    log += "cannot create a temporary directory for linking\n";
    return false;
  }
  std::string obj = (dir + "/kernel.o").str(), so = (dir + "/kernel.so").str();
  bool ok = false;
  {
    std::ofstream f(obj, std::ios::binary);
    f.write(object.data(), std::streamsize(object.size()));
  }
  // lldMain runs the link under its own CrashRecoveryContext (lld/Common/Driver.h: "supports
  // crash recovery"; our CrashRecoveryContext::Enable turns signals into recoveries), so a
  // crash in lld ends this link only. It then says lld cannot run again (its state may be
  // corrupt): later links in this process are refused instead of run on that state.
  static std::atomic<bool> lld_unusable = false;
  on_linker_thread([&] {
    if (lld_unusable) {
      log += "linker error: the linker crashed on an earlier program in this process and "
             "cannot run again; restart the application\n";
      return;
    }
    std::string lld_out, lld_err;
    llvm::raw_string_ostream o(lld_out), e(lld_err);
    const char* argv[] = {"ld.lld", "-shared", "--no-undefined", obj.c_str(), "-o", so.c_str()};
    lld::Result r = lld::lldMain(argv, o, e, {{lld::Gnu, &lld::elf::link}});
    o.flush(), e.flush();
    if (!r.canRunAgain) {
      lld_unusable = true;
      log += "internal linker error: lld crashed linking this program\n";
    }
    if (r.retCode != 0 || !r.canRunAgain) log += "linker error:\n" + lld_err;
    else ok = true;
  });
  if (ok) {
    auto buf = llvm::MemoryBuffer::getFile(so);
    if (buf) out.assign((*buf)->getBufferStart(), (*buf)->getBufferEnd());
    else ok = false, log += "cannot read the linked code object\n";
  }
  llvm::sys::fs::remove(obj);
  llvm::sys::fs::remove(so);
  llvm::sys::fs::remove(dir);
  return ok;
}

} // namespace

std::string compiler_version() {
  return std::string("amcl-compiler clang ") + LLVM_VERSION_STRING_FOR_AMCL;
}

// Everything besides the request that changes what a build produces.
const std::string& toolchain_identity() {
  static const std::string id = [] {
    // libclc by size and modification time: a package update changes both.
    llvm::sys::fs::file_status st;
    std::string libclc = "missing";
    if (!llvm::sys::fs::status(AMCL_LIBCLC_DIR "/amdgcn-amd-amdhsa.bc", st))
      libclc = std::to_string(st.getSize()) + "@" +
               std::to_string(st.getLastModificationTime().time_since_epoch().count());
    // clang's full version names the distribution's build too (a Debian rebuild of 22.1.8).
    return compiler_version() + " " + clang::getClangFullVersion() + " libclc " + libclc + " builtins " +
           cache_key({kWorkitemBuiltins}) + " pipeline " AMCL_COMPILER_SOURCE_HASH;
  }();
  return id;
}

BuildResult build(const BuildRequest& req) {
  std::vector<std::string> key_parts = {toolchain_identity(), req.source, req.options, req.target};
  for (const auto& e : req.extensions) key_parts.push_back("ext:" + e);
  for (const auto& f : req.features) key_parts.push_back("feature:" + f);
  for (const auto& v : req.c_versions) key_parts.push_back("c-version:" + v);
  for (const auto& h : req.headers) key_parts.push_back("header:" + h.name + "\n" + h.text);
  if (!req.il.empty()) {
    // The module's bytes, each specialization constant's value, the sources that prepare and
    // lower SPIR-V (compiler.cpp's hash does not cover them) and the translator's library.
    key_parts.push_back("il:" + std::string(req.il.begin(), req.il.end()));
    for (const auto& [id, value] : req.spec_constants)
      key_parts.push_back("spec:" + std::to_string(id) + ":" + std::string(value.begin(), value.end()));
    key_parts.push_back("spirv-pipeline " AMCL_SPIRV_SOURCE_HASH " translator " +
                        spirv_translator_identity());
  }
  const std::string key = cache_key(key_parts);
  BuildCache& cache = BuildCache::process();
  if (auto hit = cache.load(key)) {
    BuildResult r;
    r.ok = true;
    r.binary = std::move(hit->binary);
    r.log = std::move(hit->log);
    r.cached = true;
    return r;
  }
  BuildResult r = build_uncached(req);
  if (r.ok) cache.store(key, CachedBuild{r.binary, r.log});
  return r;
}

namespace {

// A SPIR-V request: the module (specialised) through the translator's helper process, then
// from the SPIR target to AMDGPU. Build options are checked as for source; those that only
// concern OpenCL C (-D, -I, -cl-std) have nothing to act on.
std::unique_ptr<llvm::Module> il_module(llvm::LLVMContext& ctx, const BuildRequest& req,
                                        BuildResult& r) {
  std::vector<std::string> cc1;
  std::string std;
  if (!translate_options(req.options, cc1, std, r.log)) {
    r.bad_options = true;
    return nullptr;
  }
  std::string error;
  auto prepared = prepare_spirv(req.il, req.spec_constants, error);
  if (!prepared) {
    r.log += "error: invalid SPIR-V module: " + error + "\n";
    return nullptr;
  }
  SpirvTranslation t = translate_spirv(*prepared);
  r.log += t.log;
  if (!t.ok) return nullptr;
  llvm::MemoryBufferRef ref(
      llvm::StringRef(reinterpret_cast<const char*>(t.bitcode.data()), t.bitcode.size()), "input.spv.bc");
  auto spir = llvm::parseBitcodeFile(ref, ctx);
  if (!spir) {
    r.log += "internal error: the SPIR-V translator's bitcode: " + llvm::toString(spir.takeError()) + "\n";
    return nullptr;
  }
  // The translator does not promise valid IR for every module it accepts; the lowering only
  // ever sees modules the verifier passed.
  std::string broken;
  llvm::raw_string_ostream broken_stream(broken);
  if (llvm::verifyModule(**spir, &broken_stream)) {
    broken_stream.flush();
    r.log += "error: invalid SPIR-V module: the translation is not valid LLVM IR:\n" +
             broken.substr(0, 4096) + "\n";
    return nullptr;
  }
  std::string features = forced_features(req.target);
  if (std::find(cc1.begin(), cc1.end(), "+wavefrontsize64") != cc1.end())
    features += std::string(features.empty() ? "" : ",") + "+wavefrontsize64";
  const bool exact_divide = std::find(cc1.begin(), cc1.end(), "-cl-fp32-correctly-rounded-divide-sqrt") != cc1.end();
  return lower_spir_module(**spir, req.target, features, exact_divide, r.log);
}

// The source of a request through clang, with the request's options, extensions and features.
std::unique_ptr<llvm::Module> compile_module(llvm::LLVMContext& ctx, const BuildRequest& req,
                                             BuildResult& r) {
  if (!req.il.empty()) return il_module(ctx, req, r);
  // The device's OpenCL version, which clang leaves to the implementation (OpenCL C 3.0 §6.12
  // "Preprocessor Directives and Macros"); first, so an application's -D replaces it.
  std::vector<std::string> cc1 = {"-D", "__OPENCL_VERSION__=300"};
  std::string std = "CL1.2";
  if (!translate_options(req.options, cc1, std, r.log)) {
    r.bad_options = true;
    return nullptr;
  }
  if (!req.c_versions.empty() &&
      std::find(req.c_versions.begin(), req.c_versions.end(), std) == req.c_versions.end()) {
    // OpenCL 3.0 §5.8.6.5: building for a version the device does not list fails the build.
    r.log += "error: -cl-std=" + std + ": the device does not support OpenCL C " + std.substr(2) +
             " (see CL_DEVICE_OPENCL_C_ALL_VERSIONS)\n";
    return nullptr;
  }
  cc1.push_back("-cl-std=" + std);
  std::string ext = "-cl-ext=-all";
  for (const auto& e : req.extensions) ext += ",+" + e;
  for (const auto& f : req.features) ext += ",+" + f;
  cc1.push_back(ext);
  // OpenCL C 3.0 §6.12: __IMAGE_SUPPORT__ is defined when the device supports images, which
  // clang leaves to the implementation (it defines only the feature macro).
  if (std::find(req.features.begin(), req.features.end(), "__opencl_c_images") != req.features.end())
    cc1.insert(cc1.begin(), {"-D", "__IMAGE_SUPPORT__=1"});
  return frontend(ctx, req.source, "input.cl", req.target, cc1, true, r.log, r.bad_options,
                  req.headers);
}

// clLinkProgram's options (OpenCL 3.0 §5.8.6.3 "Linker Options" and §5.8.7).
struct LinkOptions {
  bool create_library = false, enable_link_options = false;
  bool denorms_are_zero = false, no_signed_zeros = false, unsafe_math = false, finite_math = false;
};

// The math options of an executable's link apply to all of its code: as the function
// attributes code generation reads (the instruction-level fast-math flags were fixed when
// each input was compiled).
void apply_link_math_options(llvm::Module& m, const LinkOptions& o) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    if (o.denorms_are_zero) f.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    if (o.no_signed_zeros) f.addFnAttr("no-signed-zeros-fp-math", "true");
    if (o.finite_math) f.addFnAttr("no-nans-fp-math", "true"), f.addFnAttr("no-infs-fp-math", "true");
    if (o.unsafe_math) f.addFnAttr("approx-func-fp-math", "true");
  }
}

// A whole program's module -> code object: builtins, linkage, optimisation, codegen, lld.
bool finish_executable(llvm::Module& m, const std::string& target, bool optimize, BuildResult& r,
                       const LinkOptions* link_math = nullptr) {
  const bool wave64 = is_wave64(m);
  if (!link_builtins(m, target, wave64, r.log)) return false;
  if (link_math) apply_link_math_options(m, *link_math);
  finalize_linkage(m, target, wave64);
  llvm::SmallVector<char, 0> object;
  if (!optimize_and_emit(m, target, optimize, object, r.log)) return false;
  return link_code_object(object, r.binary, r.log);
}

// Libraries carry this named metadata so that their binaries say what they are.
constexpr const char* kLibraryMarker = "amcl.library";

// A module as a compiled-object/library binary: bitcode in a sealed envelope.
std::vector<uint8_t> to_bitcode(const llvm::Module& m) {
  llvm::SmallVector<char, 0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::WriteBitcodeToFile(m, os);
  return seal_bitcode(std::span(reinterpret_cast<const uint8_t*>(buf.data()), buf.size()));
}

std::unique_ptr<llvm::Module> from_bitcode(llvm::LLVMContext& ctx, const std::vector<uint8_t>& sealed,
                                           std::string& log) {
  const auto bytes = unseal_bitcode(sealed);
  if (!bytes) {
    log += "invalid binary: not a compiled object or library written by amcl, or altered since\n";
    return nullptr;
  }
  llvm::MemoryBufferRef ref(llvm::StringRef(reinterpret_cast<const char*>(bytes->data()), bytes->size()),
                            "input.bc");
  auto mod = llvm::parseBitcodeFile(ref, ctx);
  if (!mod) {
    log += "invalid bitcode: " + llvm::toString(mod.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*mod);
}

// The processor a compiled object's functions were compiled for ("target-cpu"), or "".
std::string compiled_for(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (!f.isDeclaration() && f.hasFnAttribute("target-cpu"))
      return f.getFnAttribute("target-cpu").getValueAsString().str();
  return "";
}

bool is_bitcode(const std::vector<uint8_t>& b) { return looks_sealed(b); }

bool parse_link_options(const std::string& options, LinkOptions& o, std::string& log) {
  for (const std::string& t : split_options(options)) {
    if (t == "-create-library") o.create_library = true;
    else if (t == "-enable-link-options") o.enable_link_options = true;
    else if (t == "-cl-denorms-are-zero") o.denorms_are_zero = true;
    else if (t == "-cl-no-signed-zeros") o.no_signed_zeros = true;
    else if (t == "-cl-unsafe-math-optimizations") o.unsafe_math = o.no_signed_zeros = true;
    else if (t == "-cl-finite-math-only") o.finite_math = true;
    else if (t == "-cl-fast-relaxed-math") o.unsafe_math = o.no_signed_zeros = o.finite_math = true;
    else if (t == "-cl-no-subgroup-ifp") continue; // no subgroups: nothing to relax
    else return log += "invalid link option: " + t + "\n", false;
  }
  if (o.enable_link_options && !o.create_library)
    return log += "-enable-link-options is only valid with -create-library\n", false;
  return true;
}

// Functions still only declared after linking, other than LLVM intrinsics and what the
// builtin libraries will provide, are the program's undefined references.
bool check_defined(const llvm::Module& m, std::string& log) {
  bool ok = true;
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() && !f.getName().starts_with("_Z") &&
        !f.getName().starts_with("__")) {
      log += "undefined reference to function " + f.getName().str() + "\n";
      ok = false;
    }
  return ok;
}

// LLVM keeps process-wide state that is not safe to use from several threads at once: lld
// resets every command-line option (cl::opt) at the start of each link while code generation
// elsewhere reads them. Until compilations can run beside links safely, they take turns
// (builds served by the on-disk cache do not wait).
std::mutex& llvm_mutex() {
  static auto* m = new std::mutex;
  return *m;
}

} // namespace

// Runs the request's source through clang and hands the module to `finish`, which fills in
// the result (under the LLVM lock for the whole of it).
template <class Finish> BuildResult from_source(const BuildRequest& req, Finish finish) {
  init_llvm();
  std::lock_guard lock(llvm_mutex());
  BuildResult r;
  llvm::LLVMContext ctx;
  if (auto module = compile_module(ctx, req, r)) finish(*module, r);
  return r;
}

namespace {

// LLVM's back end rejects some programs clang accepts (printf with a format string from an
// argument: "printf format string must be a trivially resolved constant string global
// variable"), as an error diagnostic, on which an LLVMContext without a handler exits the
// process, or with report_fatal_error, which does too; SPIR-V brings more such shapes. Both end
// only the build: the diagnostic goes to the log, and a fatal error leaves through the recovery
// context (what the crashed pass held is abandoned).
void fatal_error_to_log(void* log, const char* reason, bool) {
  *static_cast<std::string*>(log) += std::string("error: LLVM cannot compile the module: ") + reason + "\n";
  llvm::sys::Process::Exit(1); // returns to RunSafely through CrashRecoveryContext::HandleExit
}

// Error diagnostics, which LLVMContext would print and exit(1) on without a handler: the back
// end's (DiagnosticInfoUnsupported and the like) and the linker's (conflicting definitions).
// Into the log, each after `prefix`, and the build or link fails.
struct BackEndErrors {
  std::string* log;
  const char* prefix = "error: LLVM cannot compile the module: ";
  bool any = false;
};
void diagnostic_to_log(const llvm::DiagnosticInfo* diagnostic, void* context) {
  auto* errors = static_cast<BackEndErrors*>(context);
  const llvm::DiagnosticInfo& info = *diagnostic;
  if (info.getSeverity() != llvm::DS_Error) return;
  errors->any = true;
  llvm::raw_string_ostream os(*errors->log);
  llvm::DiagnosticPrinterRawOStream printer(os);
  os << errors->prefix;
  info.print(printer);
  os << "\n";
}

bool finish_executable_guarded(llvm::Module& m, const std::string& target, bool optimize,
                               BuildResult& r, const LinkOptions* link_math = nullptr) {
  bool ok = false;
  BackEndErrors errors{&r.log};
  m.getContext().setDiagnosticHandlerCallBack(diagnostic_to_log, &errors);
  llvm::ScopedFatalErrorHandler handler(fatal_error_to_log, &r.log);
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { ok = finish_executable(m, target, optimize, r, link_math); })) {
    if (r.log.empty()) r.log = "internal compiler error: LLVM crashed compiling the module\n";
    ok = false;
  }
  m.getContext().setDiagnosticHandlerCallBack(nullptr, nullptr);
  if (errors.any) r.binary.clear();
  return ok && !errors.any;
}

} // namespace

BuildResult build_uncached(const BuildRequest& req) {
  return from_source(req, [&](llvm::Module& m, BuildResult& r) {
    const bool optimize = req.options.find("-cl-opt-disable") == std::string::npos;
    r.ok = finish_executable_guarded(m, req.target, optimize, r);
  });
}

BuildResult compile(const BuildRequest& req) {
  return from_source(req, [](llvm::Module& m, BuildResult& r) {
    r.binary = to_bitcode(m);
    r.ok = true;
  });
}

BuildResult link(const LinkRequest& req) {
  init_llvm();
  BuildResult r;
  LinkOptions options;
  if (!parse_link_options(req.options, options, r.log)) {
    r.bad_options = true;
    return r;
  }
  if (req.inputs.empty()) return r.log += "nothing to link\n", r;
  std::lock_guard lock(llvm_mutex());
  llvm::LLVMContext ctx;
  BackEndErrors link_errors{&r.log, "link error: "};
  ctx.setDiagnosticHandlerCallBack(diagnostic_to_log, &link_errors);
  std::unique_ptr<llvm::Module> program;
  for (size_t i = 0; i < req.inputs.size(); ++i) {
    auto m = from_bitcode(ctx, req.inputs[i], r.log);
    if (!m) return r;
    // Code compiled for one processor is not code for another (ISA and features differ).
    if (std::string cpu = compiled_for(*m); !cpu.empty() && cpu != req.target) {
      r.log += "input " + std::to_string(i) + " was compiled for " + cpu + ", not for " + req.target + "\n";
      return r;
    }
    if (auto* marker = m->getNamedMetadata(kLibraryMarker)) m->eraseNamedMetadata(marker);
    if (auto mine = wave64_of(*m), first = program ? wave64_of(*program) : std::nullopt;
        mine && first && *mine != *first) {
      r.log += "input " + std::to_string(i) +
               " was compiled for another wave size than input 0 "
               "(-mwavefrontsize64 must be given to all or none)\n";
      return r;
    }
    if (!program) {
      program = std::move(m);
      continue;
    }
    if (llvm::Linker::linkModules(*program, std::move(m)) || link_errors.any) {
      if (!link_errors.any)
        r.log += "link error: conflicting definitions between the linked programs\n";
      return r;
    }
  }
  if (options.create_library) {
    program->getOrInsertNamedMetadata(kLibraryMarker);
    r.binary = to_bitcode(*program);
    r.ok = true;
    return r;
  }
  if (!check_defined(*program, r.log)) return r;
  r.ok = finish_executable_guarded(*program, req.target, true, r, &options);
  return r;
}

BinaryKind classify_binary(const std::vector<uint8_t>& binary) {
  if (!is_bitcode(binary)) {
    std::string error;
    return read_code_object(binary, &error) ? BinaryKind::Executable : BinaryKind::Invalid;
  }
  std::lock_guard lock(llvm_mutex());
  llvm::LLVMContext ctx;
  std::string log;
  auto m = from_bitcode(ctx, binary, log);
  if (!m || llvm::Triple(m->getTargetTriple()).getArch() != llvm::Triple::amdgcn)
    return BinaryKind::Invalid;
  return m->getNamedMetadata(kLibraryMarker) ? BinaryKind::Library : BinaryKind::Object;
}

} // namespace amcl::compiler
