#include "spirv_lowering.h"
#include "spir_mangling.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <map>

namespace amcl::compiler {
namespace {

constexpr const char* kTriple = "amdgcn-amd-amdhsa";

// SPIR's address spaces (clang's SPIRAddrSpaceMap: 0 private, 1 global, 2 constant, 3 local,
// 4 generic) -> AMDGPU's (AMDGPUUsage "Address Spaces": 5 private, 1 global, 4 constant,
// 3 local, 0 flat/generic).
unsigned amdgpu_address_space(unsigned spir) {
  switch (spir) {
  case 0:
    return 5;
  case 2:
    return 4;
  case 4:
    return 0;
  default:
    return spir;
  }
}

// Every type with a pointer in it, rebuilt with AMDGPU's address spaces.
class AddressSpaceRemapper final : public llvm::ValueMapTypeRemapper {
public:
  llvm::Type* remapType(llvm::Type* t) override {
    if (auto it = done_.find(t); it != done_.end()) return it->second;
    llvm::Type* r = rebuild(t);
    done_[t] = r;
    return r;
  }

private:
  llvm::Type* rebuild(llvm::Type* t) {
    llvm::LLVMContext& ctx = t->getContext();
    if (auto* p = llvm::dyn_cast<llvm::PointerType>(t))
      return llvm::PointerType::get(ctx, amdgpu_address_space(p->getAddressSpace()));
    if (auto* a = llvm::dyn_cast<llvm::ArrayType>(t))
      return llvm::ArrayType::get(remapType(a->getElementType()), a->getNumElements());
    if (auto* v = llvm::dyn_cast<llvm::VectorType>(t))
      return llvm::VectorType::get(remapType(v->getElementType()), v->getElementCount());
    if (auto* f = llvm::dyn_cast<llvm::FunctionType>(t)) {
      std::vector<llvm::Type*> params;
      for (llvm::Type* p : f->params()) params.push_back(remapType(p));
      return llvm::FunctionType::get(remapType(f->getReturnType()), params, f->isVarArg());
    }
    if (auto* s = llvm::dyn_cast<llvm::StructType>(t)) {
      if (s->isOpaque()) return s;
      std::vector<llvm::Type*> fields;
      bool changed = false;
      for (llvm::Type* e : s->elements()) {
        fields.push_back(remapType(e));
        changed |= fields.back() != e;
      }
      if (!changed) return s;
      if (s->isLiteral()) return llvm::StructType::get(ctx, fields, s->isPacked());
      // A named struct gets a new body under a new name (the old one keeps its own).
      auto* n = llvm::StructType::create(ctx, s->getName());
      done_[t] = n; // a struct that points to itself finds the new one
      n->setBody(fields, s->isPacked());
      return n;
    }
    return t;
  }
  std::map<llvm::Type*, llvm::Type*> done_;
};

llvm::CallingConv::ID amdgpu_calling_convention(llvm::CallingConv::ID cc) {
  if (cc == llvm::CallingConv::SPIR_KERNEL) return llvm::CallingConv::AMDGPU_KERNEL;
  if (cc == llvm::CallingConv::SPIR_FUNC) return llvm::CallingConv::C;
  return cc;
}

// Parameter attributes that carry a type (byval(%struct) and the like) name the new one.
void remap_type_attributes(llvm::Function& f, AddressSpaceRemapper& types) {
  static constexpr llvm::Attribute::AttrKind kTyped[] = {
      llvm::Attribute::ByVal,    llvm::Attribute::StructRet,    llvm::Attribute::ByRef,
      llvm::Attribute::InAlloca, llvm::Attribute::Preallocated, llvm::Attribute::ElementType};
  for (unsigned i = 0; i < f.arg_size(); ++i)
    for (llvm::Attribute::AttrKind kind : kTyped)
      if (llvm::Type* t = f.getParamAttribute(i, kind).isValid()
                              ? f.getParamAttribute(i, kind).getValueAsType()
                              : nullptr) {
        f.removeParamAttr(i, kind);
        f.addParamAttr(i, llvm::Attribute::get(f.getContext(), kind, types.remapType(t)));
      }
}

// OpenCL 1.2 atomic functions (what translator 15 names SPIR-V's atomic instructions,
// including on generic pointers, which neither OpenCL C nor libclc declares them for) as
// LLVM atomic instructions.
// A value an atomic instruction can take: an integer or floating-point scalar of 1, 2, 4 or 8
// bytes. A malformed module can name an atomic builtin on anything (found by spirv_fuzzer: an
// i24 operand reached IRBuilder, whose alignment from the type's size asserts); such a call is
// left alone and fails the link with a build log.
bool atomic_operand(const llvm::Value* v, const llvm::DataLayout& dl) {
  const llvm::Type* t = v->getType();
  if (!t->isIntegerTy() && !t->isFloatingPointTy()) return false;
  const uint64_t bytes = dl.getTypeStoreSize(const_cast<llvm::Type*>(t)).getFixedValue();
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}

bool lower_atomic_call(llvm::CallInst& call, const MangledFunction& f) {
  std::string op = f.name;
  if (op.rfind("atomic_", 0) == 0)
    op = op.substr(7);
  else if (op.rfind("atom_", 0) == 0)
    op = op.substr(5);
  else
    return false;
  if (f.params.size() < 1 || call.arg_size() != f.params.size()) return false;
  const MangledType& value = f.params.back();
  const bool is_signed =
      value.kind == MangledType::Builtin && (value.code == "i" || value.code == "l");
  using B = llvm::AtomicRMWInst::BinOp;
  static const std::map<std::string, std::pair<B, B>> kOps = {
      {"add", {B::Add, B::Add}},  {"sub", {B::Sub, B::Sub}}, {"xchg", {B::Xchg, B::Xchg}},
      {"inc", {B::Add, B::Add}},  {"dec", {B::Sub, B::Sub}}, {"min", {B::Min, B::UMin}},
      {"max", {B::Max, B::UMax}}, {"and", {B::And, B::And}}, {"or", {B::Or, B::Or}},
      {"xor", {B::Xor, B::Xor}}};
  const llvm::DataLayout& dl = call.getModule()->getDataLayout();
  llvm::Value* ptr = call.getArgOperand(0);
  if (!ptr->getType()->isPointerTy()) return false;
  for (unsigned i = 1; i < call.arg_size(); ++i)
    if (!atomic_operand(call.getArgOperand(i), dl)) return false;
  llvm::IRBuilder<> b(&call);
  const unsigned as = ptr->getType()->getPointerAddressSpace();
  // Work-group scope for local memory, the device (agent) otherwise: OpenCL 1.2's atomics.
  const llvm::SyncScope::ID scope =
      call.getContext().getOrInsertSyncScopeID(as == 3 ? "workgroup" : "agent");
  const auto order = llvm::AtomicOrdering::SequentiallyConsistent;
  llvm::Value* result = nullptr;
  if (op == "cmpxchg" && call.arg_size() == 3) {
    if (call.getArgOperand(1)->getType() != call.getArgOperand(2)->getType() ||
        !call.getArgOperand(1)->getType()->isIntegerTy() ||
        call.getType() != call.getArgOperand(1)->getType())
      return false;
    auto* x = b.CreateAtomicCmpXchg(ptr, call.getArgOperand(1), call.getArgOperand(2),
                                    llvm::MaybeAlign(), order, order, scope);
    result = b.CreateExtractValue(x, 0);
  } else if (auto it = kOps.find(op); it != kOps.end()) {
    if ((op == "inc" || op == "dec") && call.arg_size() == 1 &&
        !(call.getType()->isIntegerTy() && atomic_operand(&call, dl)))
      return false;
    llvm::Value* v = (op == "inc" || op == "dec") && call.arg_size() == 1
                         ? llvm::ConstantInt::get(call.getType(), 1)
                     : call.arg_size() == 2 ? call.getArgOperand(1)
                                            : nullptr;
    if (!v || v->getType() != call.getType()) return false;
    B kind = is_signed ? it->second.first : it->second.second;
    if (v->getType()->isFloatingPointTy() && kind != B::Xchg) return false;
    result = b.CreateAtomicRMW(kind, ptr, v, llvm::MaybeAlign(), order, scope);
  } else {
    return false;
  }
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
  return true;
}

// Builtin declarations under their AMDGPU names (or as instructions, for the atomics).
void rename_builtins(llvm::Module& m) {
  std::vector<llvm::Function*> declarations;
  for (llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("_Z")) declarations.push_back(&f);
  for (llvm::Function* f : declarations) {
    auto demangled = demangle_builtin(f->getName());
    if (!demangled) continue;
    std::vector<llvm::CallInst*> calls;
    for (llvm::User* u : f->users())
      if (auto* c = llvm::dyn_cast<llvm::CallInst>(u); c && c->getCalledFunction() == f)
        calls.push_back(c);
    for (llvm::CallInst* c : calls) lower_atomic_call(*c, *demangled);
    if (f->use_empty()) {
      f->eraseFromParent();
      continue;
    }
    auto name = spir_to_amdgpu_name(f->getName());
    if (!name || *name == f->getName()) continue;
    if (llvm::Function* existing = m.getFunction(*name)) {
      f->replaceAllUsesWith(existing);
      f->eraseFromParent();
    } else {
      f->setName(*name);
    }
  }
}

std::string amdgpu_data_layout(const std::string& target, std::string& log) {
  std::string err;
  const llvm::Triple triple(kTriple);
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!t) return log += "no AMDGPU target in LLVM: " + err + "\n", "";
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(triple, target, "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  return tm ? tm->createDataLayout().getStringRepresentation() : "";
}

// The scalars a value of type `t` is made of, saturating at `cap` (a vector of 2^26 elements or
// an array of 2^40 would otherwise be counted, and built, in full).
uint64_t scalar_leaves(llvm::Type* t, uint64_t cap) {
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t)) return v->getNumElements();
  if (auto* a = llvm::dyn_cast<llvm::ArrayType>(t)) {
    const uint64_t each = scalar_leaves(a->getElementType(), cap);
    if (each == 0) return 0;
    return a->getNumElements() >= cap / each + 1 ? cap : a->getNumElements() * each;
  }
  if (auto* s = llvm::dyn_cast<llvm::StructType>(t)) {
    uint64_t n = 0;
    for (llvm::Type* e : s->elements()) n = std::min(cap, n + scalar_leaves(e, cap));
    return n;
  }
  return 1;
}

// Instruction selection gives every scalar of an SSA value its own virtual register, so a
// module with a value of millions of scalars (a vector of 67,108,868 floats, from a mutated
// module: spirv_fuzzer) made one build allocate gigabytes. No OpenCL program holds a value
// near the bound in registers: its vectors have at most 16 elements, and clang makes memory
// and memcpy of large aggregates.
constexpr uint64_t kMaxScalarsPerValue = 16384;

std::string oversized_value(const llvm::Module& m) {
  auto too_big = [](llvm::Type* t) {
    return scalar_leaves(t, kMaxScalarsPerValue + 1) > kMaxScalarsPerValue;
  };
  auto say = [](const llvm::Function& f, const char* what, llvm::Type* t) {
    std::string type;
    llvm::raw_string_ostream os(type);
    t->print(os);
    return "function " + f.getName().str() + " " + what + " a value of type " +
           os.str().substr(0, 120) + ", more than " + std::to_string(kMaxScalarsPerValue) +
           " scalars";
  };
  for (const llvm::Function& f : m) {
    for (const llvm::Argument& a : f.args())
      if (too_big(a.getType())) return say(f, "takes", a.getType());
    if (too_big(f.getReturnType())) return say(f, "returns", f.getReturnType());
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb)
        if (too_big(i.getType())) return say(f, "makes", i.getType());
  }
  return "";
}

} // namespace

std::unique_ptr<llvm::Module> lower_spir_module(const llvm::Module& spir, const std::string& target,
                                                const std::string& features, bool exact_divide,
                                                std::string& log) {
  if (spir.getTargetTriple().getArch() != llvm::Triple::spir64 &&
      spir.getTargetTriple().getArch() != llvm::Triple::spir) {
    log += "error: the SPIR-V translator made a module for " + spir.getTargetTriple().str() +
           ", not spir64\n";
    return nullptr;
  }
  if (std::string why = oversized_value(spir); !why.empty()) {
    log += "error: invalid SPIR-V module: " + why + "\n";
    return nullptr;
  }
  const std::string layout = amdgpu_data_layout(target, log);
  if (layout.empty()) return nullptr;
  llvm::LLVMContext& ctx = spir.getContext();
  auto m = std::make_unique<llvm::Module>("input.spv", ctx);
  m->setTargetTriple(llvm::Triple(kTriple));
  m->setDataLayout(layout);
  // clang's -mcode-object-version=5, which every other amcl build uses.
  m->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", 500);
  // The functions bring the translator's debug information (OpLine, DebugInfo) along; without
  // the version flag LLVM drops it with a warning on stderr whenever the module is read back
  // (clCompileProgram's object at clLinkProgram).
  m->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);

  AddressSpaceRemapper types;
  llvm::ValueToValueMapTy map;
  for (const llvm::GlobalVariable& g : spir.globals()) {
    auto* n = new llvm::GlobalVariable(
        *m, types.remapType(g.getValueType()), g.isConstant(), g.getLinkage(), nullptr, g.getName(),
        nullptr, g.getThreadLocalMode(), amdgpu_address_space(g.getAddressSpace()));
    n->copyAttributesFrom(&g);
    // SPIR's constant address space is read-only whether or not the module says so (the
    // translator declares UniformConstant variables as plain globals), and AMDGPU's printf
    // lowering only takes a format string from a constant global.
    if (g.getAddressSpace() == 2 && g.hasInitializer()) n->setConstant(true);
    map[&g] = n;
  }
  for (const llvm::Function& f : spir) {
    auto* type = llvm::cast<llvm::FunctionType>(types.remapType(f.getFunctionType()));
    llvm::Function* n = llvm::Function::Create(type, f.getLinkage(), 0, f.getName(), m.get());
    n->copyAttributesFrom(&f);
    map[&f] = n;
  }
  for (const llvm::GlobalVariable& g : spir.globals())
    if (g.hasInitializer())
      llvm::cast<llvm::GlobalVariable>(map[&g])->setInitializer(
          llvm::MapValue(g.getInitializer(), map, llvm::RF_None, &types));
  for (const llvm::Function& f : spir) {
    auto* n = llvm::cast<llvm::Function>(map[&f]);
    if (!f.isDeclaration()) {
      auto arg = n->arg_begin();
      for (const llvm::Argument& a : f.args()) {
        arg->setName(a.getName());
        map[&a] = &*arg++;
      }
      llvm::SmallVector<llvm::ReturnInst*, 4> returns;
      llvm::CloneFunctionInto(n, &f, map, llvm::CloneFunctionChangeType::DifferentModule, returns,
                              "", nullptr, &types);
    }
    remap_type_attributes(*n, types);
    n->setCallingConv(amdgpu_calling_convention(f.getCallingConv()));
    if (!n->isDeclaration()) {
      n->addFnAttr("target-cpu", target);
      if (!features.empty()) n->addFnAttr("target-features", features);
    }
  }
  // OpFDiv of 32-bit floats may be off by 2.5 ulp (OpenCL SPIR-V environment, "Relative
  // Error as ULPs"), what clang marks OpenCL C's float division with: without the mark the
  // back end divides exactly, and the same kernel from source and from SPIR-V would differ.
  llvm::MDNode* divide_ulp = llvm::MDBuilder(ctx).createFPMath(2.5f);
  for (llvm::Function& f : *m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
          call->setCallingConv(amdgpu_calling_convention(call->getCallingConv()));
        if (!exact_divide && i.getOpcode() == llvm::Instruction::FDiv &&
            i.getType()->getScalarType()->isFloatTy() &&
            !i.getMetadata(llvm::LLVMContext::MD_fpmath))
          i.setMetadata(llvm::LLVMContext::MD_fpmath, divide_ulp);
      }
  // Intrinsics overloaded on a pointer type take the name of their new address space
  // (llvm.lifetime.start.p0 -> .p5).
  std::vector<llvm::Function*> intrinsics;
  for (llvm::Function& f : *m)
    if (f.isIntrinsic()) intrinsics.push_back(&f);
  for (llvm::Function* f : intrinsics)
    if (auto renamed = llvm::Intrinsic::remangleIntrinsicFunction(f)) {
      f->replaceAllUsesWith(*renamed);
      f->eraseFromParent();
    }
  rename_builtins(*m);
  return m;
}

} // namespace amcl::compiler
