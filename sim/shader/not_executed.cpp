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
};
// llvm-mc-22 --disassemble; the reasons they are not executed are in the decode sweep.
constexpr Named kNamed[] = {
    {1, "SOPK", 22, "s_subvector_loop_begin"},
    {1, "SOPK", 23, "s_subvector_loop_end"},
    {2, "SOP1", 81, "s_barrier_init"},
    {2, "SOP1", 82, "s_barrier_join"},
    {2, "SOP1", 83, "s_alloc_vgpr"},
    {2, "SOPP", 9, "s_waitcnt"},
    {2, "SOPP", 21, "s_barrier_leave"},
    {1, "DS", 173, "ds_bvh_stack_rtn_b32"},
    {2, "DS", 224, "ds_bvh_stack_push4_pop1_rtn_b32"},
    {2, "DS", 225, "ds_bvh_stack_push8_pop1_rtn_b32"},
    {2, "DS", 226, "ds_bvh_stack_push8_pop2_rtn_b64"},
    {2, "VFLAT", 115, "global_atomic_ordered_add_b64"},
};

} // namespace

const char* not_executed_name(Gfx gfx, const char* family, uint32_t code) {
  const unsigned gen = gfx == Gfx::v11 ? 1 : 2;
  for (const Named& n : kNamed)
    if ((n.gens & gen) && n.code == code && std::strcmp(n.family, family) == 0) return n.name;
  return nullptr;
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
