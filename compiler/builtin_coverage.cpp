#include "builtin_coverage.h"
#include "builtin_libraries.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Mangle.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/TargetInfo.h>
#include <clang/Basic/TargetOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Sema/Lookup.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <map>
#include <set>

namespace amcl::compiler {
namespace {

constexpr const char* kTriple = "amdgcn-amd-amdhsa";
constexpr const char* kSourceName = "builtin_coverage.cl";
// The source of the table lookups: once clang reaches this declaration, Sema is at file
// scope and the names can be looked up as a call in the program would.
constexpr const char* kMarker = "amcl_builtin_lookup_marker";

using Found = std::map<std::string, DeclaredBuiltin>; // by mangled name

bool is_image_type(clang::QualType t) {
  const clang::Type* c = t.getCanonicalType().getTypePtr();
  return c->isImageType() || c->isSamplerT();
}

// Whether a function takes or returns an image or a sampler.
bool uses_images(const clang::FunctionDecl& fd) {
  if (is_image_type(fd.getReturnType())) return true;
  if (const auto* proto = fd.getType()->getAs<clang::FunctionProtoType>())
    for (clang::QualType p : proto->getParamTypes())
      if (is_image_type(p)) return true;
  return false;
}

// The OpenCL C scalar or vector type of a value, if it is one.
ValueType value_type(clang::QualType t) {
  ValueType v;
  const clang::Type* c = t.getCanonicalType().getUnqualifiedType().getTypePtr();
  unsigned width = 1;
  if (const auto* vec = c->getAs<clang::ExtVectorType>()) {
    width = vec->getNumElements();
    c = vec->getElementType().getCanonicalType().getTypePtr();
  }
  const auto* b = c->getAs<clang::BuiltinType>();
  if (!b) return v;
  static const struct {
    clang::BuiltinType::Kind kind;
    const char* name;
    char k;
    unsigned bits;
  } kScalars[] = {
      {clang::BuiltinType::Char_S, "char", 'i', 8},
      {clang::BuiltinType::Char_U, "char", 'i', 8},
      {clang::BuiltinType::SChar, "char", 'i', 8},
      {clang::BuiltinType::UChar, "uchar", 'u', 8},
      {clang::BuiltinType::Short, "short", 'i', 16},
      {clang::BuiltinType::UShort, "ushort", 'u', 16},
      {clang::BuiltinType::Int, "int", 'i', 32},
      {clang::BuiltinType::UInt, "uint", 'u', 32},
      {clang::BuiltinType::Long, "long", 'i', 64},
      {clang::BuiltinType::ULong, "ulong", 'u', 64},
      {clang::BuiltinType::Half, "half", 'f', 16},
      {clang::BuiltinType::Float, "float", 'f', 32},
      {clang::BuiltinType::Double, "double", 'f', 64},
  };
  for (const auto& s : kScalars)
    if (s.kind == b->getKind()) {
      v.name = std::string(s.name) + (width > 1 ? std::to_string(width) : "");
      v.kind = s.k;
      v.bits = s.bits;
      v.width = width;
    }
  return v;
}

std::string type_name(clang::QualType t, const clang::PrintingPolicy& policy) {
  ValueType v = value_type(t);
  return v.name.empty() ? t.getAsString(policy) : v.name;
}

// A declared function as a DeclaredBuiltin: its symbol, a readable signature and its types.
DeclaredBuiltin describe(const clang::FunctionDecl& fd, clang::MangleContext& mangle) {
  DeclaredBuiltin b;
  b.name = fd.getNameAsString();
  llvm::raw_string_ostream os(b.mangled);
  if (mangle.shouldMangleDeclName(&fd))
    mangle.mangleName(clang::GlobalDecl(&fd), os);
  else
    os << b.name;
  os.flush();
  const clang::PrintingPolicy policy = fd.getASTContext().getPrintingPolicy();
  b.result = value_type(fd.getReturnType());
  b.signature = type_name(fd.getReturnType(), policy) + " " + b.name + "(";
  if (const auto* proto = fd.getType()->getAs<clang::FunctionProtoType>()) {
    for (unsigned i = 0; i < proto->getNumParams(); ++i) {
      b.params.push_back(value_type(proto->getParamType(i)));
      b.signature += (i ? ", " : "") + type_name(proto->getParamType(i), policy);
    }
    b.variadic = proto->isVariadic();
    if (b.variadic) b.signature += ", ...";
  }
  b.signature += ")";
  return b;
}

bool from_default_header(const clang::SourceManager& sm, const clang::Decl& d) {
  llvm::StringRef file = sm.getFilename(sm.getExpansionLoc(d.getLocation()));
  return file.ends_with("opencl-c.h") || file.ends_with("opencl-c-base.h");
}

// The functions opencl-c.h and opencl-c-base.h declare (definitions in the headers excepted:
// they need no library).
class HeaderCollector : public clang::ASTConsumer {
public:
  HeaderCollector(Found& out, Found& images) : out_(out), images_(images) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    std::unique_ptr<clang::MangleContext> mangle(ctx.createMangleContext());
    for (clang::Decl* d : ctx.getTranslationUnitDecl()->decls()) {
      auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fd || fd->isImplicit() || fd->doesThisDeclarationHaveABody() ||
          !from_default_header(ctx.getSourceManager(), *fd))
        continue;
      DeclaredBuiltin b = describe(*fd, *mangle);
      b.in_header = true;
      (uses_images(*fd) ? images_ : out_).emplace(b.mangled, std::move(b));
    }
  }

private:
  Found& out_;
  Found& images_;
};

// The functions clang's builtin table (-fdeclare-opencl-builtins) declares for `names`: a
// lookup of each name at file scope creates its overloads, as a call would.
class TableCollector : public clang::SemaConsumer {
public:
  TableCollector(const std::set<std::string>& names, Found& out, Found& images)
      : names_(names), out_(out), images_(images) {}
  void InitializeSema(clang::Sema& sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl* d : group) {
      auto* marker = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!marker || marker->getName() != kMarker || !sema_) continue;
      clang::ASTContext& ctx = sema_->getASTContext();
      std::unique_ptr<clang::MangleContext> mangle(ctx.createMangleContext());
      for (const std::string& name : names_) {
        clang::LookupResult r(*sema_, clang::DeclarationName(&ctx.Idents.get(name)),
                              clang::SourceLocation(), clang::Sema::LookupOrdinaryName);
        sema_->LookupName(r, sema_->TUScope, /*AllowBuiltinCreation=*/true);
        for (clang::NamedDecl* found : r)
          if (auto* fd = llvm::dyn_cast<clang::FunctionDecl>(found);
              fd && !fd->doesThisDeclarationHaveABody()) {
            DeclaredBuiltin b = describe(*fd, *mangle);
            b.in_table = true;
            (uses_images(*fd) ? images_ : out_).emplace(b.mangled, std::move(b));
          }
      }
    }
    return true;
  }

private:
  const std::set<std::string>& names_;
  Found& out_;
  Found& images_;
  clang::Sema* sema_ = nullptr;
};

template <class Consumer> class CollectAction : public clang::ASTFrontendAction {
public:
  explicit CollectAction(std::function<std::unique_ptr<Consumer>()> make)
      : make_(std::move(make)) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return make_();
  }

private:
  std::function<std::unique_ptr<Consumer>()> make_;
};

// Parses `source` as OpenCL C `std` for `target` with the default header (the full one, or
// the base one plus the builtin table), the way compiler.cpp's frontend sets clang up.
template <class Consumer>
bool parse(const std::string& source, const std::string& target, const std::string& std,
           const std::string& ext, bool table, std::function<std::unique_ptr<Consumer>()> make,
           std::string& log) {
  std::vector<std::string> args = {"-triple",
                                   kTriple,
                                   "-target-cpu",
                                   target,
                                   "-resource-dir",
                                   AMCL_CLANG_RESOURCE_DIR,
                                   "-fno-signed-char",
                                   "-x",
                                   "cl",
                                   "-cl-std=" + std,
                                   ext,
                                   "-finclude-default-header",
                                   "-fsyntax-only"};
  if (table) args.push_back("-fdeclare-opencl-builtins");
  args.push_back(kSourceName);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());
  std::string diagnostics;
  llvm::raw_string_ostream diag_stream(diagnostics);
  clang::DiagnosticOptions diag_opts;
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    clang::TextDiagnosticPrinter printer(diag_stream, diag_opts);
    clang::DiagnosticsEngine diags(clang::DiagnosticIDs::create(), diag_opts, &printer, false);
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diags)) {
      diag_stream.flush();
      log += "clang rejects the arguments: " + diagnostics;
      return false;
    }
  }
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(source, kSourceName);
  invocation->getPreprocessorOpts().addRemappedFile(kSourceName, buffer.get());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = true;
  invocation->getFrontendOpts().DisableFree = false;
  clang::CompilerInstance ci(std::move(invocation));
  ci.createVirtualFileSystem(llvm::vfs::getRealFileSystem());
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(diag_stream, diag_opts), true);
  CollectAction<Consumer> action(std::move(make));
  const bool ok = ci.ExecuteAction(action);
  diag_stream.flush();
  if (!ok || ci.getDiagnostics().hasErrorOccurred()) {
    log += "parsing the OpenCL C " + std + " declarations failed:\n" + diagnostics;
    return false;
  }
  return true;
}

std::string cl_ext_option(const std::vector<std::string>& extensions,
                          const std::vector<std::string>& features) {
  std::string ext = "-cl-ext=-all";
  for (const auto& e : extensions) ext += ",+" + e;
  for (const auto& f : features) ext += ",+" + f;
  return ext;
}

std::string data_layout(const std::string& target) {
  clang::DiagnosticOptions diag_opts;
  clang::IgnoringDiagConsumer ignore;
  clang::DiagnosticsEngine diags(clang::DiagnosticIDs::create(), diag_opts, &ignore, false);
  clang::TargetOptions opts;
  opts.Triple = kTriple;
  opts.CPU = target;
  std::unique_ptr<clang::TargetInfo> info(clang::TargetInfo::CreateTargetInfo(diags, opts));
  return info ? info->getDataLayoutString() : "";
}

} // namespace

BuiltinDeclarations declared_builtins(const DeclarationRequest& req) {
  BuiltinDeclarations r;
  // The names to look up in the table: every function the full header declares with every
  // extension and feature on, so that a name the table knows under other conditions than
  // the header is still asked for.
  std::set<std::string> names;
  {
    Found all;
    if (!parse<HeaderCollector>(
            "", req.target, "CL3.0", "-cl-ext=+all", false,
            [&] { return std::make_unique<HeaderCollector>(all, all); }, r.log))
      return r;
    for (const auto& [mangled, b] : all) names.insert(b.name);
  }
  const std::string ext = cl_ext_option(req.extensions, req.features);
  Found header, table, images;
  Found& image_sink = req.images ? header : images;
  Found& table_image_sink = req.images ? table : images;
  for (const std::string& std : req.c_versions) {
    if (!parse<HeaderCollector>(
            "", req.target, std, ext, false,
            [&] { return std::make_unique<HeaderCollector>(header, image_sink); }, r.log))
      return r;
    const std::string marker = std::string("void ") + kMarker + "(void);\n";
    if (!parse<TableCollector>(
            marker, req.target, std, ext, true,
            [&] { return std::make_unique<TableCollector>(names, table, table_image_sink); },
            r.log))
      return r;
  }
  r.from_header = header.size();
  r.from_table = table.size();
  Found all = std::move(header);
  for (auto& [mangled, b] : table) {
    auto [it, added] = all.emplace(mangled, b);
    if (!added) it->second.in_table = true;
  }
  for (auto& [mangled, b] : all) r.functions.push_back(std::move(b));
  for (auto& [mangled, b] : images) r.image_functions.push_back(std::move(b));
  r.ok = true;
  return r;
}

BuiltinCoverage builtin_coverage(const std::vector<DeclaredBuiltin>& declared,
                                 const std::string& target, bool wave64) {
  BuiltinCoverage r;
  llvm::LLVMContext ctx;
  llvm::Module m("builtin_coverage", ctx);
  m.setTargetTriple(llvm::Triple(kTriple));
  m.setDataLayout(data_layout(target));
  // One declaration per symbol, kept referenced as a program's calls would keep it.
  std::map<std::string, const DeclaredBuiltin*> by_symbol;
  std::vector<llvm::GlobalValue*> used;
  llvm::FunctionType* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false);
  for (const DeclaredBuiltin& b : declared) {
    if (!by_symbol.emplace(b.mangled, &b).second) continue;
    used.push_back(llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, b.mangled, m));
  }
  llvm::appendToCompilerUsed(m, used);
  if (!link_builtins(m, target, wave64, r.log)) return r;
  // What reads the dispatch packet: its direct users, then their callers until nothing changes.
  std::set<const llvm::Function*> packet_readers;
  if (const llvm::Function* packet = m.getFunction("llvm.amdgcn.dispatch.ptr")) {
    std::vector<const llvm::Function*> work = {packet};
    while (!work.empty()) {
      const llvm::Function* f = work.back();
      work.pop_back();
      for (const llvm::User* u : f->users())
        if (const auto* call = llvm::dyn_cast<llvm::CallBase>(u))
          if (const llvm::Function* caller = call->getFunction();
              packet_readers.insert(caller).second)
            work.push_back(caller);
    }
  }
  for (const llvm::Function* f : packet_readers)
    if (auto it = by_symbol.find(f->getName().str()); it != by_symbol.end())
      r.read_dispatch_packet.push_back(*it->second);
  const llvm::Function* printf_alloc = m.getFunction("__printf_alloc");
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic()) continue;
    const std::string name = f.getName().str();
    auto it = by_symbol.find(name);
    if (it == by_symbol.end()) r.undefined_helpers.push_back(name);
    // AMDGPU's printf lowering turns calls into __printf_alloc and stores (workitem_builtins.cl).
    else if (name == "printf" && printf_alloc && !printf_alloc->isDeclaration())
      r.lowered.push_back(*it->second);
    else
      r.missing.push_back(*it->second);
  }
  r.ok = true;
  return r;
}

} // namespace amcl::compiler
