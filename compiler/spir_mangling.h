// OpenCL builtin names as the SPIR target mangles them (the SPIRV-LLVM translator's output)
// and as the AMDGPU target does (what amcl's builtins and libclc define): the address-space
// qualifiers of pointer parameters differ, and with them the substitutions.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace amcl::compiler {

// A demangled parameter type, as far as OpenCL builtins need one.
struct MangledType {
  enum Kind { Builtin, Named, Vector, Pointer, Qualified } kind = Builtin;
  std::string code;               // Builtin: "i", "Dh"; Named: "ocl_event"; Vector: element count
  int address_space = -1;         // Qualified: the U3AS<n> number, -1 when none
  std::string cvr;                // Qualified: "r", "V", "K" in mangling order
  std::vector<MangledType> inner; // Vector, Pointer, Qualified: the one type they wrap
};

struct MangledFunction {
  std::string name; // "atomic_add"
  std::vector<MangledType> params;
};

// "_Z10atomic_addPU3AS1Vii" -> {atomic_add, [P(U3AS1 V i), i]}; nullopt for what is not an
// OpenCL builtin's mangled name (or uses a mangling this reader does not know).
std::optional<MangledFunction> demangle_builtin(std::string_view mangled);
std::string mangle_builtin(const MangledFunction& f);

// The AMDGPU name of a builtin the SPIR target mangled: SPIR's pointer address spaces
// (private unqualified, 1 global, 2 constant, 3 local, 4 generic) become AMDGPU's (5, 1, 4,
// 3, generic unqualified). nullopt when `spir` is not a builtin's mangled name.
std::optional<std::string> spir_to_amdgpu_name(std::string_view spir);

} // namespace amcl::compiler
