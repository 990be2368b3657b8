// Names of the instructions amcl refuses to execute (not_executed.h): a fault then names the
// instruction rather than only its encoding.
#include "not_executed.h"

#include <cstring>

namespace sim::shader {
namespace {

struct Named {
  uint8_t gens; // bit 0: gfx11, bit 1: gfx12
  const char* family;
  uint16_t code;
  const char* name;
  const char* why;
};
// Mnemonics from llvm-mc-22 --disassemble, which decodes them all; why each cannot run from the
// RDNA3/RDNA4 ISA manuals. tests/sim/decoder_test.cpp (NotExecutedListIsEnumerated) lists them.
constexpr Named kNamed[] = {
    {1, "SOPK", 22, "s_subvector_loop_begin",
     "the RDNA3 ISA manual gives it no pseudocode, nor any public source its semantics"},
    {1, "SOPK", 23, "s_subvector_loop_end",
     "the RDNA3 ISA manual gives it no pseudocode, nor any public source its semantics"},
    {2, "SOP1", 81, "s_barrier_init",
     "RDNA4 has no named barriers (ISA manual 5.6; its SOP1 table has no opcode 81)"},
    {2, "SOP1", 82, "s_barrier_join",
     "RDNA4 has no named barriers (ISA manual 5.6; its SOP1 table has no opcode 82)"},
    {2, "SOP1", 83, "s_alloc_vgpr",
     "illegal unless the dispatch enables dynamic VGPRs (DVGPR_EN), which amcl never does "
     "(RDNA4 ISA manual, S_ALLOC_VGPR)"},
    {2, "SOPP", 21, "s_barrier_leave",
     "RDNA4 has no named barriers (ISA manual 5.6; SOPP opcode 21 is reserved)"},
};

const Named* find(Gfx gfx, const char* family, uint32_t code) {
  const unsigned gen = gfx == Gfx::v11 ? 1 : 2;
  for (const Named& n : kNamed)
    if ((n.gens & gen) && n.code == code && std::strcmp(n.family, family) == 0) return &n;
  return nullptr;
}

} // namespace

const char* not_executed_name(Gfx gfx, const char* family, uint32_t code) {
  const Named* n = find(gfx, family, code);
  return n ? n->name : nullptr;
}

const char* not_executed_reason(Gfx gfx, const char* family, uint32_t code) {
  const Named* n = find(gfx, family, code);
  return n ? n->why : nullptr;
}

std::vector<std::string> not_executed_names(Gfx gfx) {
  const unsigned gen = gfx == Gfx::v11 ? 1 : 2;
  std::vector<std::string> names;
  for (const Named& n : kNamed)
    if (n.gens & gen) names.emplace_back(n.name);
  return names;
}

// Exports (EXP), parameter interpolation (VINTERP) and LDS parameter loads (LDSDIR) serve pixel
// and vertex shaders only (RDNA3/RDNA4 ISA manuals; prefixes 0xF8, 0xCD and 0xCE).
std::string graphics_only_name(uint32_t d0, Gfx gfx) {
  if ((d0 >> 26) == 0x3E) return gfx == Gfx::v11 ? "exp" : "export";
  if ((d0 >> 24) == 0xCD) {
    static const char* const kInterp[] = {"v_interp_p10_f32",         "v_interp_p2_f32",
                                          "v_interp_p10_f16_f32",     "v_interp_p2_f16_f32",
                                          "v_interp_p10_rtz_f16_f32", "v_interp_p2_rtz_f16_f32"};
    const unsigned op = (d0 >> 16) & 0x7f;
    return op < 6 ? kInterp[op] : "";
  }
  if ((d0 >> 24) == 0xCE) {
    const unsigned op = (d0 >> 20) & 3;
    if (op == 0) return gfx == Gfx::v11 ? "lds_param_load" : "ds_param_load";
    if (op == 1) return gfx == Gfx::v11 ? "lds_direct_load" : "ds_direct_load";
  }
  return "";
}

} // namespace sim::shader
