// The fast paths of the shader core (sim/shader/valu_fast_path.cpp with the 64-bit address
// arithmetic, memory_fast_path.cpp and the dword fast path of exec_global_dwords) against the
// general paths (valu.cpp, vopc.cpp, vop3p.cpp, vopd.cpp, flat.cpp, ds.cpp, atomics.cpp), which
// define the semantics: each instruction runs twice on the same random state, once with
// Executor::fast_paths and once without, and every VGPR, SGPR, the memory, the LDS and any
// fault must come out the same.
// Wave32 and wave64, full, sparse, single-lane and empty EXEC, true16 halves, scalar, inline and
// literal operands; memory accesses coalesced, all on one address, scattered (some misaligned),
// across a page boundary and, for flat, partly in the LDS aperture. The instruction words are
// llvm-mc-22 -mcpu=gfx1100 -mattr=+real-true16 -show-encoding of the text beside them.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace sim::shader;

namespace {

struct Case {
  const char* text;
  std::vector<uint32_t> words;
};

const Case kValu[] = {
    {"v_add_nc_u16 v0.l, v1.l, v2.l", {0xD7030000u, 0x00020501u}},
    {"v_add_nc_u16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7034800u, 0x00020501u}},
    {"v_add_nc_u16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7031803u, 0x00020503u}},
    {"v_add_nc_u16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7035000u, 0x00020403u}},
    {"v_add_nc_u16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7031000u, 0x00020285u}},
    {"v_add_nc_u16 v0.l, v1.l, 0.5", {0xD7030000u, 0x0001E101u}},
    {"v_add_nc_u16 v0.l, v1.l, 0x1234", {0xD7030000u, 0x0001FF01u, 0x00001234u}},
    {"v_add_nc_u16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7030800u, 0x00018701u}},
    {"v_sub_nc_u16 v0.l, v1.l, v2.l", {0xD7040000u, 0x00020501u}},
    {"v_sub_nc_u16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7044800u, 0x00020501u}},
    {"v_sub_nc_u16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7041803u, 0x00020503u}},
    {"v_sub_nc_u16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7045000u, 0x00020403u}},
    {"v_sub_nc_u16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7041000u, 0x00020285u}},
    {"v_sub_nc_u16 v0.l, v1.l, 0.5", {0xD7040000u, 0x0001E101u}},
    {"v_sub_nc_u16 v0.l, v1.l, 0x1234", {0xD7040000u, 0x0001FF01u, 0x00001234u}},
    {"v_sub_nc_u16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7040800u, 0x00018701u}},
    {"v_add_nc_i16 v0.l, v1.l, v2.l", {0xD70D0000u, 0x00020501u}},
    {"v_add_nc_i16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD70D4800u, 0x00020501u}},
    {"v_add_nc_i16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD70D1803u, 0x00020503u}},
    {"v_add_nc_i16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD70D5000u, 0x00020403u}},
    {"v_add_nc_i16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD70D1000u, 0x00020285u}},
    {"v_add_nc_i16 v0.l, v1.l, 0.5", {0xD70D0000u, 0x0001E101u}},
    {"v_add_nc_i16 v0.l, v1.l, 0x1234", {0xD70D0000u, 0x0001FF01u, 0x00001234u}},
    {"v_add_nc_i16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD70D0800u, 0x00018701u}},
    {"v_sub_nc_i16 v0.l, v1.l, v2.l", {0xD70E0000u, 0x00020501u}},
    {"v_sub_nc_i16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD70E4800u, 0x00020501u}},
    {"v_sub_nc_i16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD70E1803u, 0x00020503u}},
    {"v_sub_nc_i16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD70E5000u, 0x00020403u}},
    {"v_sub_nc_i16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD70E1000u, 0x00020285u}},
    {"v_sub_nc_i16 v0.l, v1.l, 0.5", {0xD70E0000u, 0x0001E101u}},
    {"v_sub_nc_i16 v0.l, v1.l, 0x1234", {0xD70E0000u, 0x0001FF01u, 0x00001234u}},
    {"v_sub_nc_i16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD70E0800u, 0x00018701u}},
    {"v_mul_lo_u16 v0.l, v1.l, v2.l", {0xD7050000u, 0x00020501u}},
    {"v_mul_lo_u16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7054800u, 0x00020501u}},
    {"v_mul_lo_u16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7051803u, 0x00020503u}},
    {"v_mul_lo_u16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7055000u, 0x00020403u}},
    {"v_mul_lo_u16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7051000u, 0x00020285u}},
    {"v_mul_lo_u16 v0.l, v1.l, 0.5", {0xD7050000u, 0x0001E101u}},
    {"v_mul_lo_u16 v0.l, v1.l, 0x1234", {0xD7050000u, 0x0001FF01u, 0x00001234u}},
    {"v_mul_lo_u16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7050800u, 0x00018701u}},
    {"v_and_b16 v0.l, v1.l, v2.l", {0xD7620000u, 0x00020501u}},
    {"v_and_b16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7624800u, 0x00020501u}},
    {"v_and_b16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7621803u, 0x00020503u}},
    {"v_and_b16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7625000u, 0x00020403u}},
    {"v_and_b16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7621000u, 0x00020285u}},
    {"v_and_b16 v0.l, v1.l, 0.5", {0xD7620000u, 0x0001E101u}},
    {"v_and_b16 v0.l, v1.l, 0x1234", {0xD7620000u, 0x0001FF01u, 0x00001234u}},
    {"v_and_b16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7620800u, 0x00018701u}},
    {"v_or_b16 v0.l, v1.l, v2.l", {0xD7630000u, 0x00020501u}},
    {"v_or_b16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7634800u, 0x00020501u}},
    {"v_or_b16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7631803u, 0x00020503u}},
    {"v_or_b16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7635000u, 0x00020403u}},
    {"v_or_b16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7631000u, 0x00020285u}},
    {"v_or_b16 v0.l, v1.l, 0.5", {0xD7630000u, 0x0001E101u}},
    {"v_or_b16 v0.l, v1.l, 0x1234", {0xD7630000u, 0x0001FF01u, 0x00001234u}},
    {"v_or_b16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7630800u, 0x00018701u}},
    {"v_xor_b16 v0.l, v1.l, v2.l", {0xD7640000u, 0x00020501u}},
    {"v_xor_b16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7644800u, 0x00020501u}},
    {"v_xor_b16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7641803u, 0x00020503u}},
    {"v_xor_b16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7645000u, 0x00020403u}},
    {"v_xor_b16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7641000u, 0x00020285u}},
    {"v_xor_b16 v0.l, v1.l, 0.5", {0xD7640000u, 0x0001E101u}},
    {"v_xor_b16 v0.l, v1.l, 0x1234", {0xD7640000u, 0x0001FF01u, 0x00001234u}},
    {"v_xor_b16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7640800u, 0x00018701u}},
    {"v_lshlrev_b16 v0.l, v1.l, v2.l", {0xD7380000u, 0x00020501u}},
    {"v_lshlrev_b16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7384800u, 0x00020501u}},
    {"v_lshlrev_b16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7381803u, 0x00020503u}},
    {"v_lshlrev_b16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7385000u, 0x00020403u}},
    {"v_lshlrev_b16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7381000u, 0x00020285u}},
    {"v_lshlrev_b16 v0.l, v1.l, 0.5", {0xD7380000u, 0x0001E101u}},
    {"v_lshlrev_b16 v0.l, v1.l, 0x1234", {0xD7380000u, 0x0001FF01u, 0x00001234u}},
    {"v_lshlrev_b16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7380800u, 0x00018701u}},
    {"v_lshrrev_b16 v0.l, v1.l, v2.l", {0xD7390000u, 0x00020501u}},
    {"v_lshrrev_b16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7394800u, 0x00020501u}},
    {"v_lshrrev_b16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7391803u, 0x00020503u}},
    {"v_lshrrev_b16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7395000u, 0x00020403u}},
    {"v_lshrrev_b16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7391000u, 0x00020285u}},
    {"v_lshrrev_b16 v0.l, v1.l, 0.5", {0xD7390000u, 0x0001E101u}},
    {"v_lshrrev_b16 v0.l, v1.l, 0x1234", {0xD7390000u, 0x0001FF01u, 0x00001234u}},
    {"v_lshrrev_b16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7390800u, 0x00018701u}},
    {"v_ashrrev_i16 v0.l, v1.l, v2.l", {0xD73A0000u, 0x00020501u}},
    {"v_ashrrev_i16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD73A4800u, 0x00020501u}},
    {"v_ashrrev_i16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD73A1803u, 0x00020503u}},
    {"v_ashrrev_i16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD73A5000u, 0x00020403u}},
    {"v_ashrrev_i16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD73A1000u, 0x00020285u}},
    {"v_ashrrev_i16 v0.l, v1.l, 0.5", {0xD73A0000u, 0x0001E101u}},
    {"v_ashrrev_i16 v0.l, v1.l, 0x1234", {0xD73A0000u, 0x0001FF01u, 0x00001234u}},
    {"v_ashrrev_i16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD73A0800u, 0x00018701u}},
    {"v_max_u16 v0.l, v1.l, v2.l", {0xD7090000u, 0x00020501u}},
    {"v_max_u16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD7094800u, 0x00020501u}},
    {"v_max_u16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD7091803u, 0x00020503u}},
    {"v_max_u16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD7095000u, 0x00020403u}},
    {"v_max_u16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD7091000u, 0x00020285u}},
    {"v_max_u16 v0.l, v1.l, 0.5", {0xD7090000u, 0x0001E101u}},
    {"v_max_u16 v0.l, v1.l, 0x1234", {0xD7090000u, 0x0001FF01u, 0x00001234u}},
    {"v_max_u16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD7090800u, 0x00018701u}},
    {"v_min_u16 v0.l, v1.l, v2.l", {0xD70B0000u, 0x00020501u}},
    {"v_min_u16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD70B4800u, 0x00020501u}},
    {"v_min_u16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD70B1803u, 0x00020503u}},
    {"v_min_u16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD70B5000u, 0x00020403u}},
    {"v_min_u16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD70B1000u, 0x00020285u}},
    {"v_min_u16 v0.l, v1.l, 0.5", {0xD70B0000u, 0x0001E101u}},
    {"v_min_u16 v0.l, v1.l, 0x1234", {0xD70B0000u, 0x0001FF01u, 0x00001234u}},
    {"v_min_u16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD70B0800u, 0x00018701u}},
    {"v_max_i16 v0.l, v1.l, v2.l", {0xD70A0000u, 0x00020501u}},
    {"v_max_i16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD70A4800u, 0x00020501u}},
    {"v_max_i16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD70A1803u, 0x00020503u}},
    {"v_max_i16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD70A5000u, 0x00020403u}},
    {"v_max_i16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD70A1000u, 0x00020285u}},
    {"v_max_i16 v0.l, v1.l, 0.5", {0xD70A0000u, 0x0001E101u}},
    {"v_max_i16 v0.l, v1.l, 0x1234", {0xD70A0000u, 0x0001FF01u, 0x00001234u}},
    {"v_max_i16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD70A0800u, 0x00018701u}},
    {"v_min_i16 v0.l, v1.l, v2.l", {0xD70C0000u, 0x00020501u}},
    {"v_min_i16 v0.h, v1.h, v2.l op_sel:[1,0,1]", {0xD70C4800u, 0x00020501u}},
    {"v_min_i16 v3.l, v3.h, v2.h op_sel:[1,1,0]", {0xD70C1803u, 0x00020503u}},
    {"v_min_i16 v0.h, s3, v2.h op_sel:[0,1,1]", {0xD70C5000u, 0x00020403u}},
    {"v_min_i16 v0.l, 5, v1.h op_sel:[0,1,0]", {0xD70C1000u, 0x00020285u}},
    {"v_min_i16 v0.l, v1.l, 0.5", {0xD70C0000u, 0x0001E101u}},
    {"v_min_i16 v0.l, v1.l, 0x1234", {0xD70C0000u, 0x0001FF01u, 0x00001234u}},
    {"v_min_i16 v0.l, v1.h, -3 op_sel:[1,0,0]", {0xD70C0800u, 0x00018701u}},
    {"v_add_nc_u16 v0.l, v1.l, v2.l clamp", {0xD7038000u, 0x00020501u}},
    {"v_sub_nc_i16 v0.h, v1.l, v2.h op_sel:[0,1,1] clamp", {0xD70ED000u, 0x00020501u}},
    {"v_mov_b16_e32 v0.l, v1.l", {0x7E003901u}},
    {"v_mov_b16_e32 v0.h, v1.l", {0x7F003901u}},
    {"v_mov_b16_e32 v0.l, v1.h", {0x7E003981u}},
    {"v_mov_b16_e32 v0.h, s3", {0x7F003803u}},
    {"v_mov_b16_e32 v0.l, 0x1234", {0x7E0038FFu, 0x00001234u}},
    {"v_mov_b16_e32 v0.h, -2.0", {0x7F0038F5u}},
    {"v_not_b16_e32 v0.l, v1.l", {0x7E00D301u}},
    {"v_not_b16_e32 v0.h, v1.l", {0x7F00D301u}},
    {"v_not_b16_e32 v0.l, v1.h", {0x7E00D381u}},
    {"v_not_b16_e32 v0.h, s3", {0x7F00D203u}},
    {"v_not_b16_e32 v0.l, 0x1234", {0x7E00D2FFu, 0x00001234u}},
    {"v_not_b16_e32 v0.h, -2.0", {0x7F00D2F5u}},
    {"v_cvt_i32_i16_e32 v0, v1.l", {0x7E00D501u}},
    {"v_cvt_i32_i16_e32 v0, v1.h", {0x7E00D581u}},
    {"v_cvt_i32_i16_e32 v0, s3", {0x7E00D403u}},
    {"v_cvt_i32_i16_e32 v0, -7", {0x7E00D4C7u}},
    {"v_cvt_u32_u16_e32 v0, v1.l", {0x7E00D701u}},
    {"v_cvt_u32_u16_e32 v0, v1.h", {0x7E00D781u}},
    {"v_cvt_u32_u16_e32 v0, s3", {0x7E00D603u}},
    {"v_cvt_u32_u16_e32 v0, -7", {0x7E00D6C7u}},
    {"v_cndmask_b16 v0.l, v1.l, v2.h, s4", {0xD65D1000u, 0x00120501u}},
    {"v_cndmask_b16 v0.h, v1.h, v2.l, vcc_lo", {0xD65D4800u, 0x01AA0501u}},
    {"v_cndmask_b16 v0.l, 3, v2.l, s4", {0xD65D0000u, 0x00120483u}},
    {"v_mad_u16 v0.l, v1.l, v2.l, v3.l", {0xD6410000u, 0x040E0501u}},
    {"v_mad_u16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD6416800u, 0x040E0501u}},
    {"v_mad_u16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD6411000u, 0x021E0403u}},
    {"v_mad_u16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD6417003u, 0x040E0303u}},
    {"v_mad_i16 v0.l, v1.l, v2.l, v3.l", {0xD6530000u, 0x040E0501u}},
    {"v_mad_i16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD6536800u, 0x040E0501u}},
    {"v_mad_i16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD6531000u, 0x021E0403u}},
    {"v_mad_i16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD6537003u, 0x040E0303u}},
    {"v_min3_i16 v0.l, v1.l, v2.l, v3.l", {0xD64A0000u, 0x040E0501u}},
    {"v_min3_i16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD64A6800u, 0x040E0501u}},
    {"v_min3_i16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD64A1000u, 0x021E0403u}},
    {"v_min3_i16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD64A7003u, 0x040E0303u}},
    {"v_max3_i16 v0.l, v1.l, v2.l, v3.l", {0xD64D0000u, 0x040E0501u}},
    {"v_max3_i16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD64D6800u, 0x040E0501u}},
    {"v_max3_i16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD64D1000u, 0x021E0403u}},
    {"v_max3_i16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD64D7003u, 0x040E0303u}},
    {"v_med3_i16 v0.l, v1.l, v2.l, v3.l", {0xD6500000u, 0x040E0501u}},
    {"v_med3_i16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD6506800u, 0x040E0501u}},
    {"v_med3_i16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD6501000u, 0x021E0403u}},
    {"v_med3_i16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD6507003u, 0x040E0303u}},
    {"v_min3_u16 v0.l, v1.l, v2.l, v3.l", {0xD64B0000u, 0x040E0501u}},
    {"v_min3_u16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD64B6800u, 0x040E0501u}},
    {"v_min3_u16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD64B1000u, 0x021E0403u}},
    {"v_min3_u16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD64B7003u, 0x040E0303u}},
    {"v_max3_u16 v0.l, v1.l, v2.l, v3.l", {0xD64E0000u, 0x040E0501u}},
    {"v_max3_u16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD64E6800u, 0x040E0501u}},
    {"v_max3_u16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD64E1000u, 0x021E0403u}},
    {"v_max3_u16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD64E7003u, 0x040E0303u}},
    {"v_med3_u16 v0.l, v1.l, v2.l, v3.l", {0xD6510000u, 0x040E0501u}},
    {"v_med3_u16 v0.h, v1.h, v2.l, v3.h op_sel:[1,0,1,1]", {0xD6516800u, 0x040E0501u}},
    {"v_med3_u16 v0.l, s3, v2.h, 7 op_sel:[0,1,0,0]", {0xD6511000u, 0x021E0403u}},
    {"v_med3_u16 v3.h, v3.l, v1.h, v3.h op_sel:[0,1,1,1]", {0xD6517003u, 0x040E0303u}},
    {"v_mad_u16 v0.l, v1.l, v2.l, v3.l clamp", {0xD6418000u, 0x040E0501u}},
    {"v_mad_i16 v0.l, v1.l, v2.l, v3.l clamp", {0xD6538000u, 0x040E0501u}},
    {"v_bfe_u32 v0, v1, v2, v3", {0xD6100000u, 0x040E0501u}},
    {"v_bfe_u32 v0, s3, v2, 8", {0xD6100000u, 0x02220403u}},
    {"v_bfe_u32 v1, v1, 0x5040100, v3", {0xD6100001u, 0x040DFF01u, 0x05040100u}},
    {"v_bfe_u32 v0, v1, 16, s4", {0xD6100000u, 0x00112101u}},
    {"v_bfe_i32 v0, v1, v2, v3", {0xD6110000u, 0x040E0501u}},
    {"v_bfe_i32 v0, s3, v2, 8", {0xD6110000u, 0x02220403u}},
    {"v_bfe_i32 v1, v1, 0x5040100, v3", {0xD6110001u, 0x040DFF01u, 0x05040100u}},
    {"v_bfe_i32 v0, v1, 16, s4", {0xD6110000u, 0x00112101u}},
    {"v_bfi_b32 v0, v1, v2, v3", {0xD6120000u, 0x040E0501u}},
    {"v_bfi_b32 v0, s3, v2, 8", {0xD6120000u, 0x02220403u}},
    {"v_bfi_b32 v1, v1, 0x5040100, v3", {0xD6120001u, 0x040DFF01u, 0x05040100u}},
    {"v_bfi_b32 v0, v1, 16, s4", {0xD6120000u, 0x00112101u}},
    {"v_perm_b32 v0, v1, v2, v3", {0xD6440000u, 0x040E0501u}},
    {"v_perm_b32 v0, s3, v2, 8", {0xD6440000u, 0x02220403u}},
    {"v_perm_b32 v1, v1, 0x5040100, v3", {0xD6440001u, 0x040DFF01u, 0x05040100u}},
    {"v_perm_b32 v0, v1, 16, s4", {0xD6440000u, 0x00112101u}},
    {"v_lshl_add_u32 v0, v1, v2, v3", {0xD6460000u, 0x040E0501u}},
    {"v_lshl_add_u32 v0, s3, v2, 8", {0xD6460000u, 0x02220403u}},
    {"v_lshl_add_u32 v1, v1, 0x5040100, v3", {0xD6460001u, 0x040DFF01u, 0x05040100u}},
    {"v_lshl_add_u32 v0, v1, 16, s4", {0xD6460000u, 0x00112101u}},
    {"v_add3_u32 v0, v1, v2, v3", {0xD6550000u, 0x040E0501u}},
    {"v_add3_u32 v0, s3, v2, 8", {0xD6550000u, 0x02220403u}},
    {"v_add3_u32 v1, v1, 0x5040100, v3", {0xD6550001u, 0x040DFF01u, 0x05040100u}},
    {"v_add3_u32 v0, v1, 16, s4", {0xD6550000u, 0x00112101u}},
    {"v_lshl_or_b32 v0, v1, v2, v3", {0xD6560000u, 0x040E0501u}},
    {"v_lshl_or_b32 v0, s3, v2, 8", {0xD6560000u, 0x02220403u}},
    {"v_lshl_or_b32 v1, v1, 0x5040100, v3", {0xD6560001u, 0x040DFF01u, 0x05040100u}},
    {"v_lshl_or_b32 v0, v1, 16, s4", {0xD6560000u, 0x00112101u}},
    {"v_and_or_b32 v0, v1, v2, v3", {0xD6570000u, 0x040E0501u}},
    {"v_and_or_b32 v0, s3, v2, 8", {0xD6570000u, 0x02220403u}},
    {"v_and_or_b32 v1, v1, 0x5040100, v3", {0xD6570001u, 0x040DFF01u, 0x05040100u}},
    {"v_and_or_b32 v0, v1, 16, s4", {0xD6570000u, 0x00112101u}},
    {"v_or3_b32 v0, v1, v2, v3", {0xD6580000u, 0x040E0501u}},
    {"v_or3_b32 v0, s3, v2, 8", {0xD6580000u, 0x02220403u}},
    {"v_or3_b32 v1, v1, 0x5040100, v3", {0xD6580001u, 0x040DFF01u, 0x05040100u}},
    {"v_or3_b32 v0, v1, 16, s4", {0xD6580000u, 0x00112101u}},
    {"v_xad_u32 v0, v1, v2, v3", {0xD6450000u, 0x040E0501u}},
    {"v_xad_u32 v0, s3, v2, 8", {0xD6450000u, 0x02220403u}},
    {"v_xad_u32 v1, v1, 0x5040100, v3", {0xD6450001u, 0x040DFF01u, 0x05040100u}},
    {"v_xad_u32 v0, v1, 16, s4", {0xD6450000u, 0x00112101u}},
    {"v_mad_u32_u24 v0, v1, v2, v3", {0xD60B0000u, 0x040E0501u}},
    {"v_mad_u32_u24 v0, s3, v2, 8", {0xD60B0000u, 0x02220403u}},
    {"v_mad_u32_u24 v1, v1, 0x5040100, v3", {0xD60B0001u, 0x040DFF01u, 0x05040100u}},
    {"v_mad_u32_u24 v0, v1, 16, s4", {0xD60B0000u, 0x00112101u}},
    {"v_alignbit_b32 v0, v1, v2, v3", {0xD6160000u, 0x040E0501u}},
    {"v_alignbit_b32 v0, s3, v2, 8", {0xD6160000u, 0x02220403u}},
    {"v_alignbit_b32 v1, v1, 0x5040100, v3", {0xD6160001u, 0x040DFF01u, 0x05040100u}},
    {"v_alignbit_b32 v0, v1, 16, s4", {0xD6160000u, 0x00112101u}},
    {"v_not_b32_e32 v0, v1", {0x7E006F01u}},
    {"v_not_b32_e32 v0, s3", {0x7E006E03u}},
    {"v_mul_u32_u24_e32 v0, v1, v2", {0x16000501u}},
    {"v_mul_u32_u24_e32 v0, s3, v2", {0x16000403u}},
    {"v_subrev_nc_u32_e32 v0, v1, v2", {0x4E000501u}},
    {"v_subrev_nc_u32_e32 v0, 0x777, v2", {0x4E0004FFu, 0x00000777u}},
    {"v_perm_b32 v0, v1, v2, 0xc0d0a08", {0xD6440000u, 0x03FE0501u, 0x0C0D0A08u}},
    {"v_perm_b32 v3, v3, v2, 0x7060302", {0xD6440003u, 0x03FE0503u, 0x07060302u}},    // Three-source min/max/median, 24-bit multiplies, bit reversal, f64 -> 32-bit integer.
    {"v_med3_i32 v0, v1, v2, v3", {0xD6200000u, 0x040E0501u}},
    {"v_med3_u32 v0, s3, v2, 7", {0xD6210000u, 0x021E0403u}},
    {"v_min3_i32 v0, v1, v2, v3", {0xD61A0000u, 0x040E0501u}},
    {"v_max3_i32 v0, v1, -1, v3", {0xD61D0000u, 0x040D8301u}},
    {"v_min3_u32 v0, v1, v2, v3", {0xD61B0000u, 0x040E0501u}},
    {"v_max3_u32 v0, v1, v2, 0x12345", {0xD61E0000u, 0x03FE0501u, 0x00012345u}},
    {"v_mad_i32_i24 v0, v1, v2, v3", {0xD60A0000u, 0x040E0501u}},
    {"v_mul_i32_i24_e32 v0, v1, v2", {0x12000501u}},
    {"v_mul_i32_i24_e32 v0, s3, v2", {0x12000403u}},
    {"v_bfrev_b32_e32 v0, v1", {0x7E007101u}},
    {"v_bfrev_b32_e32 v0, s3", {0x7E007003u}},
    {"v_cvt_i32_f64_e32 v0, v[2:3]", {0x7E000702u}},
    {"v_cvt_u32_f64_e64 v0, -v[2:3]", {0xD5950000u, 0x20000102u}},
    {"v_cvt_i32_f64_e32 v1, s[4:5]", {0x7E020604u}},
    {"v_cvt_i32_f64_e32 v2, v[2:3]", {0x7E040702u}},
    // f16 -> 16-bit integer conversions and rounding.
    {"v_cvt_i16_f16_e32 v0.l, v1.l", {0x7E00A701u}},
    {"v_cvt_i16_f16_e32 v0.h, v1.h", {0x7F00A781u}},
    {"v_cvt_u16_f16_e32 v0.l, v1.h", {0x7E00A581u}},
    {"v_cvt_u16_f16_e32 v0.l, 0.5", {0x7E00A4F0u}},
    {"v_floor_f16_e32 v0.l, v1.l", {0x7E00B701u}},
    {"v_ceil_f16_e32 v0.h, v1.l", {0x7F00B901u}},
    {"v_trunc_f16_e32 v0.l, s3", {0x7E00BA03u}},
    {"v_rndne_f16_e32 v1.l, v1.h", {0x7E02BD81u}},
    {"v_rndne_f16_e64 v0.l, -v1.l", {0xD5DE0000u, 0x20000101u}},
    {"v_floor_f16_e64 v0.l, v1.l clamp", {0xD5DB8000u, 0x00000101u}},
};

// 64-bit shifts, the 32 x 32 + 64 multiply-adds and the carry adds of address arithmetic.
const Case kAddressArithmetic[] = {
    {"v_lshlrev_b64 v[0:1], v1, v[2:3]", {0xD73C0000u, 0x00020501u}},
    {"v_lshlrev_b64 v[0:1], 2, v[2:3]", {0xD73C0000u, 0x00020482u}},
    {"v_lshlrev_b64 v[2:3], s3, v[2:3]", {0xD73C0002u, 0x00020403u}},
    {"v_lshlrev_b64 v[0:1], v6, s[2:3]", {0xD73C0000u, 0x00000506u}},
    {"v_lshrrev_b64 v[0:1], v1, v[2:3]", {0xD73D0000u, 0x00020501u}},
    {"v_lshrrev_b64 v[1:2], 33, v[1:2]", {0xD73D0001u, 0x000202A1u}},
    {"v_ashrrev_i64 v[0:1], v1, v[2:3]", {0xD73E0000u, 0x00020501u}},
    {"v_ashrrev_i64 v[0:1], 63, 0x80000000", {0xD73E0000u, 0x0001FEBFu, 0x80000000u}},
    {"v_mad_u64_u32 v[0:1], s6, v1, v2, v[3:4]", {0xD6FE0600u, 0x040E0501u}},
    {"v_mad_u64_u32 v[2:3], null, s2, v3, v[2:3]", {0xD6FE7C02u, 0x040A0602u}},
    {"v_mad_u64_u32 v[0:1], vcc_lo, v1, 0x1234567, s[4:5]", {0xD6FE6A00u, 0x0011FF01u, 0x01234567u}},
    {"v_mad_i64_i32 v[0:1], s6, v1, v2, v[3:4]", {0xD6FF0600u, 0x040E0501u}},
    {"v_mad_i64_i32 v[1:2], null, v1, -5, v[1:2]", {0xD6FF7C01u, 0x04058B01u}},
    {"v_mad_i64_i32 v[0:1], vcc_lo, s3, v2, 7", {0xD6FF6A00u, 0x021E0403u}},
    {"v_add_co_u32 v0, s6, v1, v2", {0xD7000600u, 0x00020501u}},
    {"v_add_co_u32 v0, vcc_lo, s2, v0", {0xD7006A00u, 0x00020002u}},
    {"v_add_co_u32 v0, vcc_lo, v1, v2", {0xD7006A00u, 0x00020501u}},
    {"v_add_co_ci_u32_e64 v1, null, s3, v1, vcc_lo", {0xD5207C01u, 0x01AA0203u}},
    {"v_add_co_ci_u32_e64 v0, s6, v1, v2, s7", {0xD5200600u, 0x001E0501u}},
    {"v_add_co_ci_u32_e64 v0, vcc_lo, -1, v2, vcc_lo", {0xD5206A00u, 0x01AA04C1u}},
    {"v_add_co_ci_u32_e32 v0, vcc_lo, v1, v2, vcc_lo", {0x40000501u}},
    {"v_lshlrev_b64 v[0:1], 0, v[2:3]", {0xD73C0000u, 0x00020480u}},
    {"v_lshlrev_b64 v[0:1], 31, v[2:3]", {0xD73C0000u, 0x0002049Fu}},
    {"v_lshlrev_b64 v[0:1], 32, v[2:3]", {0xD73C0000u, 0x000204A0u}},
    {"v_lshlrev_b64 v[0:1], 40, v[2:3]", {0xD73C0000u, 0x000204A8u}},
    {"v_lshlrev_b64 v[1:2], 3, v[0:1]", {0xD73C0001u, 0x00020083u}},
    {"v_lshlrev_b64 v[0:1], 0x47, v[2:3]", {0xD73C0000u, 0x000204FFu, 0x00000047u}},
    {"v_lshlrev_b64 v[2:3], s3, v[0:1]", {0xD73C0002u, 0x00020003u}},
    {"v_mad_u64_u32 v[2:3], null, s3, s2, v[0:1]", {0xD6FE7C02u, 0x04000403u}},
    {"v_mad_u64_u32 v[0:1], s6, s3, -1, v[0:1]", {0xD6FE0600u, 0x04018203u}},
    {"v_mad_u64_u32 v[1:2], vcc_lo, -1, s2, v[0:1]", {0xD6FE6A01u, 0x040004C1u}},
    {"v_mad_u64_u32 v[0:1], s6, 0, s2, v[2:3]", {0xD6FE0600u, 0x04080480u}},
    {"v_add_co_u32 v0, s6, s2, s3", {0xD7000600u, 0x00000602u}},
    {"v_add_co_ci_u32_e64 v0, s6, s2, 5, s7", {0xD5200600u, 0x001D0A02u}},
    {"v_add_co_u32 v0, vcc_lo, v1, s2", {0xD7006A00u, 0x00000501u}},
    {"v_add_co_ci_u32_e64 v1, s6, v1, s3, vcc_lo", {0xD5200601u, 0x01A80701u}},
    {"v_add_co_ci_u32_e64 v1, null, v1, -1, vcc_lo", {0xD5207C01u, 0x01A98301u}},
    {"v_mad_u64_u32 v[0:1], null, 0x9e3779b1, s2, v[2:3]", {0xD6FE7C00u, 0x040804FFu, 0x9E3779B1u}},
    // A uniform factor times a VGPR plus a uniform addend (a hash's multiply: uniform64's
    // mad_factor), the VGPR on either side, carries out of the 64 bits, the destination over
    // the source.
    {"v_mad_u64_u32 v[0:1], null, 0x9e3779b1, v2, 0", {0xD6FE7C00u, 0x020204FFu, 0x9E3779B1u}},
    {"v_mad_u64_u32 v[2:3], vcc_lo, s3, v2, -1", {0xD6FE6A02u, 0x03060403u}},
    {"v_mad_u64_u32 v[1:2], s6, v1, -1, s[4:5]", {0xD6FE0601u, 0x00118301u}},
    {"v_mad_u64_u32 v[0:1], s6, 0, v2, s[4:5]", {0xD6FE0600u, 0x00120480u}},
};

// The 32-bit row operations no other list names, so that each operation's own compiled loop
// (kRowLoops) is held against the general path: moves, the K forms of fma, the logic, shift,
// min/max and low multiply rows (llvm-mc-22 -mcpu=gfx1100 -show-encoding).
const Case kRows32[] = {
    {"v_mov_b32_e32 v0, v1", {0x7E000301u}},
    {"v_mov_b32_e32 v0, s3", {0x7E000203u}},
    {"v_fmamk_f32 v0, v1, 0x40490fdb, v2", {0x58000501u, 0x40490FDBu}},
    {"v_fmaak_f32 v0, v1, v2, 0x40490fdb", {0x5A000501u, 0x40490FDBu}},
    {"v_sub_nc_u32_e32 v0, v1, v2", {0x4C000501u}},
    {"v_sub_nc_u32_e32 v0, s3, v2", {0x4C000403u}},
    {"v_lshlrev_b32_e32 v0, v1, v2", {0x30000501u}},
    {"v_lshlrev_b32_e32 v0, 5, v2", {0x30000485u}},
    {"v_lshrrev_b32_e32 v0, v1, v2", {0x32000501u}},
    {"v_ashrrev_i32_e32 v0, v1, v2", {0x34000501u}},
    {"v_and_b32_e32 v0, v1, v2", {0x36000501u}},
    {"v_or_b32_e32 v0, s3, v2", {0x38000403u}},
    {"v_xor_b32_e32 v0, v1, v2", {0x3A000501u}},
    {"v_mul_lo_u32 v0, v1, v2", {0xD72C0000u, 0x00020501u}},
    {"v_min_u32_e32 v0, v1, v2", {0x26000501u}},
    {"v_max_u32_e32 v0, v1, v2", {0x28000501u}},
    {"v_min_i32_e32 v0, v1, v2", {0x22000501u}},
    {"v_max_i32_e32 v0, -4, v2", {0x240004C4u}},
};

// f32 operations with VOP3's abs and neg (sign-bit operations on the rows), the conversions,
// rounding and library operations with no per-lane dispatch, and modifiers the fast path leaves
// to the general path (clamp, omod, abs/neg on integer operations).
const Case kFloat[] = {
    {"v_fma_f32 v0, -v1, v2, v3", {0xD6130000u, 0x240E0501u}},
    {"v_fma_f32 v0, v1, |v2|, -v3", {0xD6130200u, 0x840E0501u}},
    {"v_fma_f32 v0, -|s3|, v2, 0.5", {0xD6130100u, 0x23C20403u}},
    {"v_add_f32_e64 v0, -v1, v2", {0xD5030000u, 0x20020501u}},
    {"v_sub_f32_e64 v0, |v1|, -s3", {0xD5040100u, 0x40000701u}},
    {"v_mul_f32_e64 v0, -v1, -v1", {0xD5080000u, 0x60020301u}},
    {"v_fmac_f32_e64 v0, -v1, |v2|", {0xD52B0200u, 0x20020501u}},
    {"v_cndmask_b32_e64 v0, -v1, |v2|, s6", {0xD5010200u, 0x201A0501u}},
    {"v_subrev_f32_e32 v0, v1, v2", {0x0A000501u}},
    {"v_subrev_f32_e64 v0, -v1, |s3|", {0xD5050200u, 0x20000701u}},
    {"v_subrev_f32_e32 v0, 0.5, v2", {0x0A0004F0u}},
    {"v_min_f32_e32 v0, v1, v2", {0x1E000501u}},
    {"v_max_f32_e64 v0, -v1, s3", {0xD5100000u, 0x20000701u}},
    {"v_max_f32_e32 v0, 0x7fc00000, v2", {0x200004FFu, 0x7FC00000u}},
    {"v_frexp_mant_f32_e32 v0, v1", {0x7E008101u}},
    {"v_frexp_mant_f32_e64 v0, -|v1|", {0xD5C00100u, 0x20000101u}},
    {"v_frexp_exp_i32_f32_e32 v0, v1", {0x7E007F01u}},
    {"v_ldexp_f32 v0, v1, v2", {0xD71C0000u, 0x00020501u}},
    {"v_ldexp_f32 v0, -v1, s3", {0xD71C0000u, 0x20000701u}},
    {"v_cvt_f32_i32_e32 v0, v1", {0x7E000B01u}},
    {"v_cvt_f32_u32_e32 v0, s3", {0x7E000C03u}},
    {"v_cvt_i32_f32_e32 v0, v1", {0x7E001101u}},
    {"v_cvt_u32_f32_e64 v0, -v1", {0xD5870000u, 0x20000101u}},
    {"v_rcp_f32_e32 v0, v1", {0x7E005501u}},
    {"v_rcp_f32_e64 v0, -|v1|", {0xD5AA0100u, 0x20000101u}},
    {"v_sqrt_f32_e32 v0, v1", {0x7E006701u}},
    {"v_trunc_f32_e32 v0, v1", {0x7E004301u}},
    {"v_floor_f32_e32 v0, v1", {0x7E004901u}},
    {"v_ceil_f32_e64 v0, -v1", {0xD5A20000u, 0x20000101u}},
    {"v_rndne_f32_e32 v0, v1", {0x7E004701u}},
    {"v_mul_hi_u32 v0, v1, v2", {0xD72D0000u, 0x00020501u}},
    {"v_mul_hi_i32 v0, v1, s3", {0xD72E0000u, 0x00000701u}},
    {"v_clz_i32_u32_e32 v0, v1", {0x7E007301u}},
    {"v_xor3_b32 v0, v1, v2, v3", {0xD6400000u, 0x040E0501u}},
    {"v_xor3_b32 v0, s3, v2, 0x1234", {0xD6400000u, 0x03FE0403u, 0x00001234u}},
    {"v_add_nc_u32_e64 v0, v1, v2 clamp", {0xD5258000u, 0x00020501u}},
    {"v_fma_f32 v0, v1, v2, v3 clamp", {0xD6138000u, 0x040E0501u}},
    {"v_sqrt_f32_e64 v0, v1 mul:2", {0xD5B30000u, 0x08000101u}},
};

// The f16 <-> f32 conversions: halves of VGPRs (true16), f16 inline constants, scalars.
const Case kHalfConversions[] = {
    {"v_cvt_f32_f16_e32 v0, v1.l", {0x7E001701u}},
    {"v_cvt_f32_f16_e32 v0, v1.h", {0x7E001781u}},
    {"v_cvt_f32_f16_e64 v0, v1.h op_sel:[1,0]", {0xD58B0800u, 0x00000101u}},
    {"v_cvt_f32_f16_e32 v0, 0.5", {0x7E0016F0u}},
    {"v_cvt_f32_f16_e32 v0, s3", {0x7E001603u}},
    {"v_cvt_f32_f16_e64 v0, -v1.l", {0xD58B0000u, 0x20000101u}},
    {"v_cvt_f16_f32_e32 v0.l, v1", {0x7E001501u}},
    {"v_cvt_f16_f32_e32 v0.h, v1", {0x7F001501u}},
    {"v_cvt_f16_f32_e32 v1.h, v1", {0x7F021501u}},
    {"v_cvt_f16_f32_e32 v0.l, s3", {0x7E001403u}},
    {"v_cvt_f16_f32_e32 v0.l, 0.5", {0x7E0014F0u}},
    {"v_cvt_f16_f32_e64 v0.l, |v1|", {0xD58A0100u, 0x00000101u}},
};

// f64 arithmetic, with the modifiers the fast path takes (abs, neg) and the ones it leaves to
// the general path (clamp, omod); 64-bit scalar, inline and literal operands.
const Case kF64[] = {
    {"v_add_f64 v[0:1], v[2:3], v[4:5]", {0xD7270000u, 0x00020902u}},
    {"v_add_f64 v[0:1], s[2:3], v[4:5]", {0xD7270000u, 0x00020802u}},
    {"v_add_f64 v[1:2], v[0:1], v[2:3]", {0xD7270001u, 0x00020500u}},
    {"v_mul_f64 v[0:1], -v[2:3], |v[4:5]|", {0xD7280200u, 0x20020902u}},
    {"v_mul_f64 v[0:1], v[2:3], 0x400c0000", {0xD7280000u, 0x0001FF02u, 0x400C0000u}},
    {"v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", {0xD6140000u, 0x041A0902u}},
    {"v_fma_f64 v[0:1], v[0:1], s[2:3], 0.5", {0xD6140000u, 0x03C00500u}},
    {"v_fma_f64 v[2:3], -v[2:3], v[4:5], 1.0", {0xD6140002u, 0x23CA0902u}},
    {"v_fma_f64 v[0:1], v[2:3], -|s[4:5]|, -v[0:1]", {0xD6140200u, 0xC4000902u}},
    {"v_min_f64 v[0:1], v[2:3], v[4:5]", {0xD7290000u, 0x00020902u}},
    {"v_max_f64 v[0:1], -v[2:3], v[2:3]", {0xD72A0000u, 0x20020502u}},
    {"v_max_f64 v[0:1], v[2:3], -4.0", {0xD72A0000u, 0x0001EF02u}},
    {"v_mul_f64 v[0:1], v[2:3], v[4:5] clamp", {0xD7288000u, 0x00020902u}},
    {"v_add_f64 v[0:1], v[2:3], v[4:5] mul:2", {0xD7270000u, 0x08020902u}},    // The division sequence's steps, ldexp, rounding, reciprocals and conversions.
    {"v_ldexp_f64 v[0:1], v[2:3], v4", {0xD72B0000u, 0x00020902u}},
    {"v_ldexp_f64 v[0:1], -v[2:3], s3", {0xD72B0000u, 0x20000702u}},
    {"v_ldexp_f64 v[0:1], s[2:3], 0x64", {0xD72B0000u, 0x0001FE02u, 0x00000064u}},
    {"v_trunc_f64_e32 v[0:1], v[2:3]", {0x7E002F02u}},
    {"v_floor_f64_e64 v[0:1], -|v[2:3]|", {0xD59A0100u, 0x20000102u}},
    {"v_ceil_f64_e32 v[0:1], s[4:5]", {0x7E003004u}},
    {"v_rndne_f64_e32 v[0:1], v[2:3]", {0x7E003302u}},
    {"v_rcp_f64_e32 v[0:1], v[2:3]", {0x7E005F02u}},
    {"v_rsq_f64_e64 v[0:1], |v[2:3]|", {0xD5B10100u, 0x00000102u}},
    {"v_cvt_f64_i32_e32 v[0:1], v4", {0x7E000904u}},
    {"v_cvt_f64_i32_e32 v[0:1], s3", {0x7E000803u}},
    {"v_cvt_f64_u32_e32 v[1:2], v1", {0x7E022D01u}},
    {"v_div_fixup_f64 v[0:1], v[2:3], v[4:5], v[6:7]", {0xD6280000u, 0x041A0902u}},
    {"v_div_fixup_f64 v[0:1], -v[2:3], s[4:5], 1.0", {0xD6280000u, 0x23C80902u}},
    {"v_div_fmas_f64 v[0:1], v[2:3], v[4:5], v[6:7]", {0xD6380000u, 0x041A0902u}},
    {"v_div_fmas_f64 v[0:1], -v[2:3], v[4:5], 0.5", {0xD6380000u, 0x23C20902u}},
    {"v_div_scale_f64 v[0:1], vcc_lo, v[2:3], v[4:5], v[6:7]", {0xD6FD6A00u, 0x041A0902u}},
    {"v_div_scale_f64 v[6:7], s6, v[4:5], v[4:5], v[2:3]", {0xD6FD0606u, 0x040A0904u}},
    {"v_div_scale_f64 v[0:1], null, -v[2:3], v[2:3], s[4:5]", {0xD6FD7C00u, 0x20120502u}},
    {"v_rcp_f64_e64 v[0:1], v[2:3] clamp", {0xD5AF8000u, 0x00000102u}},
};

const Case kCompares[] = {
    {"v_cmp_lt_i16_e32 vcc_lo, v1.l, v2.l", {0x7C620501u}},
    {"v_cmp_lt_i16_e32 vcc_lo, v1.h, v2.h", {0x7C630581u}},
    {"v_cmp_lt_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4310806u, 0x00020501u}},
    {"v_cmp_lt_i16_e64 s6, s3, v2.l", {0xD4310006u, 0x00020403u}},
    {"v_cmpx_lt_i16_e32 v1.l, v2.h", {0x7D630501u}},
    {"v_cmp_lt_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6304FFu, 0x00001234u}},
    {"v_cmp_eq_i16_e32 vcc_lo, v1.l, v2.l", {0x7C640501u}},
    {"v_cmp_eq_i16_e32 vcc_lo, v1.h, v2.h", {0x7C650581u}},
    {"v_cmp_eq_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4320806u, 0x00020501u}},
    {"v_cmp_eq_i16_e64 s6, s3, v2.l", {0xD4320006u, 0x00020403u}},
    {"v_cmpx_eq_i16_e32 v1.l, v2.h", {0x7D650501u}},
    {"v_cmp_eq_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6504FFu, 0x00001234u}},
    {"v_cmp_le_i16_e32 vcc_lo, v1.l, v2.l", {0x7C660501u}},
    {"v_cmp_le_i16_e32 vcc_lo, v1.h, v2.h", {0x7C670581u}},
    {"v_cmp_le_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4330806u, 0x00020501u}},
    {"v_cmp_le_i16_e64 s6, s3, v2.l", {0xD4330006u, 0x00020403u}},
    {"v_cmpx_le_i16_e32 v1.l, v2.h", {0x7D670501u}},
    {"v_cmp_le_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6704FFu, 0x00001234u}},
    {"v_cmp_gt_i16_e32 vcc_lo, v1.l, v2.l", {0x7C680501u}},
    {"v_cmp_gt_i16_e32 vcc_lo, v1.h, v2.h", {0x7C690581u}},
    {"v_cmp_gt_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4340806u, 0x00020501u}},
    {"v_cmp_gt_i16_e64 s6, s3, v2.l", {0xD4340006u, 0x00020403u}},
    {"v_cmpx_gt_i16_e32 v1.l, v2.h", {0x7D690501u}},
    {"v_cmp_gt_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6904FFu, 0x00001234u}},
    {"v_cmp_ne_i16_e32 vcc_lo, v1.l, v2.l", {0x7C6A0501u}},
    {"v_cmp_ne_i16_e32 vcc_lo, v1.h, v2.h", {0x7C6B0581u}},
    {"v_cmp_ne_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4350806u, 0x00020501u}},
    {"v_cmp_ne_i16_e64 s6, s3, v2.l", {0xD4350006u, 0x00020403u}},
    {"v_cmpx_ne_i16_e32 v1.l, v2.h", {0x7D6B0501u}},
    {"v_cmp_ne_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6B04FFu, 0x00001234u}},
    {"v_cmp_ge_i16_e32 vcc_lo, v1.l, v2.l", {0x7C6C0501u}},
    {"v_cmp_ge_i16_e32 vcc_lo, v1.h, v2.h", {0x7C6D0581u}},
    {"v_cmp_ge_i16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4360806u, 0x00020501u}},
    {"v_cmp_ge_i16_e64 s6, s3, v2.l", {0xD4360006u, 0x00020403u}},
    {"v_cmpx_ge_i16_e32 v1.l, v2.h", {0x7D6D0501u}},
    {"v_cmp_ge_i16_e32 vcc_lo, 0x1234, v2.h", {0x7C6D04FFu, 0x00001234u}},
    {"v_cmp_lt_u16_e32 vcc_lo, v1.l, v2.l", {0x7C720501u}},
    {"v_cmp_lt_u16_e32 vcc_lo, v1.h, v2.h", {0x7C730581u}},
    {"v_cmp_lt_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD4390806u, 0x00020501u}},
    {"v_cmp_lt_u16_e64 s6, s3, v2.l", {0xD4390006u, 0x00020403u}},
    {"v_cmpx_lt_u16_e32 v1.l, v2.h", {0x7D730501u}},
    {"v_cmp_lt_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7304FFu, 0x00001234u}},
    {"v_cmp_eq_u16_e32 vcc_lo, v1.l, v2.l", {0x7C740501u}},
    {"v_cmp_eq_u16_e32 vcc_lo, v1.h, v2.h", {0x7C750581u}},
    {"v_cmp_eq_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD43A0806u, 0x00020501u}},
    {"v_cmp_eq_u16_e64 s6, s3, v2.l", {0xD43A0006u, 0x00020403u}},
    {"v_cmpx_eq_u16_e32 v1.l, v2.h", {0x7D750501u}},
    {"v_cmp_eq_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7504FFu, 0x00001234u}},
    {"v_cmp_le_u16_e32 vcc_lo, v1.l, v2.l", {0x7C760501u}},
    {"v_cmp_le_u16_e32 vcc_lo, v1.h, v2.h", {0x7C770581u}},
    {"v_cmp_le_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD43B0806u, 0x00020501u}},
    {"v_cmp_le_u16_e64 s6, s3, v2.l", {0xD43B0006u, 0x00020403u}},
    {"v_cmpx_le_u16_e32 v1.l, v2.h", {0x7D770501u}},
    {"v_cmp_le_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7704FFu, 0x00001234u}},
    {"v_cmp_gt_u16_e32 vcc_lo, v1.l, v2.l", {0x7C780501u}},
    {"v_cmp_gt_u16_e32 vcc_lo, v1.h, v2.h", {0x7C790581u}},
    {"v_cmp_gt_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD43C0806u, 0x00020501u}},
    {"v_cmp_gt_u16_e64 s6, s3, v2.l", {0xD43C0006u, 0x00020403u}},
    {"v_cmpx_gt_u16_e32 v1.l, v2.h", {0x7D790501u}},
    {"v_cmp_gt_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7904FFu, 0x00001234u}},
    {"v_cmp_ne_u16_e32 vcc_lo, v1.l, v2.l", {0x7C7A0501u}},
    {"v_cmp_ne_u16_e32 vcc_lo, v1.h, v2.h", {0x7C7B0581u}},
    {"v_cmp_ne_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD43D0806u, 0x00020501u}},
    {"v_cmp_ne_u16_e64 s6, s3, v2.l", {0xD43D0006u, 0x00020403u}},
    {"v_cmpx_ne_u16_e32 v1.l, v2.h", {0x7D7B0501u}},
    {"v_cmp_ne_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7B04FFu, 0x00001234u}},
    {"v_cmp_ge_u16_e32 vcc_lo, v1.l, v2.l", {0x7C7C0501u}},
    {"v_cmp_ge_u16_e32 vcc_lo, v1.h, v2.h", {0x7C7D0581u}},
    {"v_cmp_ge_u16_e64 s6, v1.h, v2.l op_sel:[1,0,0]", {0xD43E0806u, 0x00020501u}},
    {"v_cmp_ge_u16_e64 s6, s3, v2.l", {0xD43E0006u, 0x00020403u}},
    {"v_cmpx_ge_u16_e32 v1.l, v2.h", {0x7D7D0501u}},
    {"v_cmp_ge_u16_e32 vcc_lo, 0x1234, v2.h", {0x7C7D04FFu, 0x00001234u}},
    {"v_cmp_lt_i32_e32 vcc_lo, v1, v2", {0x7C820501u}},
    {"v_cmp_lt_i32_e64 s6, v1, s3", {0xD4410006u, 0x00000701u}},
    {"v_cmpx_lt_i32_e32 -1, v2", {0x7D8204C1u}},
    {"v_cmp_lt_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8204FFu, 0x80000000u}},
    {"v_cmp_eq_i32_e32 vcc_lo, v1, v2", {0x7C840501u}},
    {"v_cmp_eq_i32_e64 s6, v1, s3", {0xD4420006u, 0x00000701u}},
    {"v_cmpx_eq_i32_e32 -1, v2", {0x7D8404C1u}},
    {"v_cmp_eq_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8404FFu, 0x80000000u}},
    {"v_cmp_le_i32_e32 vcc_lo, v1, v2", {0x7C860501u}},
    {"v_cmp_le_i32_e64 s6, v1, s3", {0xD4430006u, 0x00000701u}},
    {"v_cmpx_le_i32_e32 -1, v2", {0x7D8604C1u}},
    {"v_cmp_le_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8604FFu, 0x80000000u}},
    {"v_cmp_gt_i32_e32 vcc_lo, v1, v2", {0x7C880501u}},
    {"v_cmp_gt_i32_e64 s6, v1, s3", {0xD4440006u, 0x00000701u}},
    {"v_cmpx_gt_i32_e32 -1, v2", {0x7D8804C1u}},
    {"v_cmp_gt_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8804FFu, 0x80000000u}},
    {"v_cmp_ne_i32_e32 vcc_lo, v1, v2", {0x7C8A0501u}},
    {"v_cmp_ne_i32_e64 s6, v1, s3", {0xD4450006u, 0x00000701u}},
    {"v_cmpx_ne_i32_e32 -1, v2", {0x7D8A04C1u}},
    {"v_cmp_ne_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8A04FFu, 0x80000000u}},
    {"v_cmp_ge_i32_e32 vcc_lo, v1, v2", {0x7C8C0501u}},
    {"v_cmp_ge_i32_e64 s6, v1, s3", {0xD4460006u, 0x00000701u}},
    {"v_cmpx_ge_i32_e32 -1, v2", {0x7D8C04C1u}},
    {"v_cmp_ge_i32_e32 vcc_lo, 0x80000000, v2", {0x7C8C04FFu, 0x80000000u}},
    {"v_cmp_lt_u32_e32 vcc_lo, v1, v2", {0x7C920501u}},
    {"v_cmp_lt_u32_e64 s6, v1, s3", {0xD4490006u, 0x00000701u}},
    {"v_cmpx_lt_u32_e32 -1, v2", {0x7D9204C1u}},
    {"v_cmp_lt_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9204FFu, 0x80000000u}},
    {"v_cmp_eq_u32_e32 vcc_lo, v1, v2", {0x7C940501u}},
    {"v_cmp_eq_u32_e64 s6, v1, s3", {0xD44A0006u, 0x00000701u}},
    {"v_cmpx_eq_u32_e32 -1, v2", {0x7D9404C1u}},
    {"v_cmp_eq_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9404FFu, 0x80000000u}},
    {"v_cmp_le_u32_e32 vcc_lo, v1, v2", {0x7C960501u}},
    {"v_cmp_le_u32_e64 s6, v1, s3", {0xD44B0006u, 0x00000701u}},
    {"v_cmpx_le_u32_e32 -1, v2", {0x7D9604C1u}},
    {"v_cmp_le_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9604FFu, 0x80000000u}},
    {"v_cmp_gt_u32_e32 vcc_lo, v1, v2", {0x7C980501u}},
    {"v_cmp_gt_u32_e64 s6, v1, s3", {0xD44C0006u, 0x00000701u}},
    {"v_cmpx_gt_u32_e32 -1, v2", {0x7D9804C1u}},
    {"v_cmp_gt_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9804FFu, 0x80000000u}},
    {"v_cmp_ne_u32_e32 vcc_lo, v1, v2", {0x7C9A0501u}},
    {"v_cmp_ne_u32_e64 s6, v1, s3", {0xD44D0006u, 0x00000701u}},
    {"v_cmpx_ne_u32_e32 -1, v2", {0x7D9A04C1u}},
    {"v_cmp_ne_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9A04FFu, 0x80000000u}},
    {"v_cmp_ge_u32_e32 vcc_lo, v1, v2", {0x7C9C0501u}},
    {"v_cmp_ge_u32_e64 s6, v1, s3", {0xD44E0006u, 0x00000701u}},
    {"v_cmpx_ge_u32_e32 -1, v2", {0x7D9C04C1u}},
    {"v_cmp_ge_u32_e32 vcc_lo, 0x80000000, v2", {0x7C9C04FFu, 0x80000000u}},
    {"v_cmp_f_f32_e32 vcc_lo, v1, v2", {0x7C200501u}},
    {"v_cmp_f_f32_e64 s6, v1, s3", {0xD4100006u, 0x00000701u}},
    {"v_cmp_f_f32_e64 s6, -v1, |v2|", {0xD4100206u, 0x20020501u}},
    {"v_cmpx_f_f32_e32 0.5, v2", {0x7D2004F0u}},
    {"v_cmp_f_f32_e32 vcc_lo, v1, v1", {0x7C200301u}},
    {"v_cmp_lt_f32_e32 vcc_lo, v1, v2", {0x7C220501u}},
    {"v_cmp_lt_f32_e64 s6, v1, s3", {0xD4110006u, 0x00000701u}},
    {"v_cmp_lt_f32_e64 s6, -v1, |v2|", {0xD4110206u, 0x20020501u}},
    {"v_cmpx_lt_f32_e32 0.5, v2", {0x7D2204F0u}},
    {"v_cmp_lt_f32_e32 vcc_lo, v1, v1", {0x7C220301u}},
    {"v_cmp_eq_f32_e32 vcc_lo, v1, v2", {0x7C240501u}},
    {"v_cmp_eq_f32_e64 s6, v1, s3", {0xD4120006u, 0x00000701u}},
    {"v_cmp_eq_f32_e64 s6, -v1, |v2|", {0xD4120206u, 0x20020501u}},
    {"v_cmpx_eq_f32_e32 0.5, v2", {0x7D2404F0u}},
    {"v_cmp_eq_f32_e32 vcc_lo, v1, v1", {0x7C240301u}},
    {"v_cmp_le_f32_e32 vcc_lo, v1, v2", {0x7C260501u}},
    {"v_cmp_le_f32_e64 s6, v1, s3", {0xD4130006u, 0x00000701u}},
    {"v_cmp_le_f32_e64 s6, -v1, |v2|", {0xD4130206u, 0x20020501u}},
    {"v_cmpx_le_f32_e32 0.5, v2", {0x7D2604F0u}},
    {"v_cmp_le_f32_e32 vcc_lo, v1, v1", {0x7C260301u}},
    {"v_cmp_gt_f32_e32 vcc_lo, v1, v2", {0x7C280501u}},
    {"v_cmp_gt_f32_e64 s6, v1, s3", {0xD4140006u, 0x00000701u}},
    {"v_cmp_gt_f32_e64 s6, -v1, |v2|", {0xD4140206u, 0x20020501u}},
    {"v_cmpx_gt_f32_e32 0.5, v2", {0x7D2804F0u}},
    {"v_cmp_gt_f32_e32 vcc_lo, v1, v1", {0x7C280301u}},
    {"v_cmp_lg_f32_e32 vcc_lo, v1, v2", {0x7C2A0501u}},
    {"v_cmp_lg_f32_e64 s6, v1, s3", {0xD4150006u, 0x00000701u}},
    {"v_cmp_lg_f32_e64 s6, -v1, |v2|", {0xD4150206u, 0x20020501u}},
    {"v_cmpx_lg_f32_e32 0.5, v2", {0x7D2A04F0u}},
    {"v_cmp_lg_f32_e32 vcc_lo, v1, v1", {0x7C2A0301u}},
    {"v_cmp_ge_f32_e32 vcc_lo, v1, v2", {0x7C2C0501u}},
    {"v_cmp_ge_f32_e64 s6, v1, s3", {0xD4160006u, 0x00000701u}},
    {"v_cmp_ge_f32_e64 s6, -v1, |v2|", {0xD4160206u, 0x20020501u}},
    {"v_cmpx_ge_f32_e32 0.5, v2", {0x7D2C04F0u}},
    {"v_cmp_ge_f32_e32 vcc_lo, v1, v1", {0x7C2C0301u}},
    {"v_cmp_o_f32_e32 vcc_lo, v1, v2", {0x7C2E0501u}},
    {"v_cmp_o_f32_e64 s6, v1, s3", {0xD4170006u, 0x00000701u}},
    {"v_cmp_o_f32_e64 s6, -v1, |v2|", {0xD4170206u, 0x20020501u}},
    {"v_cmpx_o_f32_e32 0.5, v2", {0x7D2E04F0u}},
    {"v_cmp_o_f32_e32 vcc_lo, v1, v1", {0x7C2E0301u}},
    {"v_cmp_u_f32_e32 vcc_lo, v1, v2", {0x7C300501u}},
    {"v_cmp_u_f32_e64 s6, v1, s3", {0xD4180006u, 0x00000701u}},
    {"v_cmp_u_f32_e64 s6, -v1, |v2|", {0xD4180206u, 0x20020501u}},
    {"v_cmpx_u_f32_e32 0.5, v2", {0x7D3004F0u}},
    {"v_cmp_u_f32_e32 vcc_lo, v1, v1", {0x7C300301u}},
    {"v_cmp_nge_f32_e32 vcc_lo, v1, v2", {0x7C320501u}},
    {"v_cmp_nge_f32_e64 s6, v1, s3", {0xD4190006u, 0x00000701u}},
    {"v_cmp_nge_f32_e64 s6, -v1, |v2|", {0xD4190206u, 0x20020501u}},
    {"v_cmpx_nge_f32_e32 0.5, v2", {0x7D3204F0u}},
    {"v_cmp_nge_f32_e32 vcc_lo, v1, v1", {0x7C320301u}},
    {"v_cmp_nlg_f32_e32 vcc_lo, v1, v2", {0x7C340501u}},
    {"v_cmp_nlg_f32_e64 s6, v1, s3", {0xD41A0006u, 0x00000701u}},
    {"v_cmp_nlg_f32_e64 s6, -v1, |v2|", {0xD41A0206u, 0x20020501u}},
    {"v_cmpx_nlg_f32_e32 0.5, v2", {0x7D3404F0u}},
    {"v_cmp_nlg_f32_e32 vcc_lo, v1, v1", {0x7C340301u}},
    {"v_cmp_ngt_f32_e32 vcc_lo, v1, v2", {0x7C360501u}},
    {"v_cmp_ngt_f32_e64 s6, v1, s3", {0xD41B0006u, 0x00000701u}},
    {"v_cmp_ngt_f32_e64 s6, -v1, |v2|", {0xD41B0206u, 0x20020501u}},
    {"v_cmpx_ngt_f32_e32 0.5, v2", {0x7D3604F0u}},
    {"v_cmp_ngt_f32_e32 vcc_lo, v1, v1", {0x7C360301u}},
    {"v_cmp_nle_f32_e32 vcc_lo, v1, v2", {0x7C380501u}},
    {"v_cmp_nle_f32_e64 s6, v1, s3", {0xD41C0006u, 0x00000701u}},
    {"v_cmp_nle_f32_e64 s6, -v1, |v2|", {0xD41C0206u, 0x20020501u}},
    {"v_cmpx_nle_f32_e32 0.5, v2", {0x7D3804F0u}},
    {"v_cmp_nle_f32_e32 vcc_lo, v1, v1", {0x7C380301u}},
    {"v_cmp_neq_f32_e32 vcc_lo, v1, v2", {0x7C3A0501u}},
    {"v_cmp_neq_f32_e64 s6, v1, s3", {0xD41D0006u, 0x00000701u}},
    {"v_cmp_neq_f32_e64 s6, -v1, |v2|", {0xD41D0206u, 0x20020501u}},
    {"v_cmpx_neq_f32_e32 0.5, v2", {0x7D3A04F0u}},
    {"v_cmp_neq_f32_e32 vcc_lo, v1, v1", {0x7C3A0301u}},
    {"v_cmp_nlt_f32_e32 vcc_lo, v1, v2", {0x7C3C0501u}},
    {"v_cmp_nlt_f32_e64 s6, v1, s3", {0xD41E0006u, 0x00000701u}},
    {"v_cmp_nlt_f32_e64 s6, -v1, |v2|", {0xD41E0206u, 0x20020501u}},
    {"v_cmpx_nlt_f32_e32 0.5, v2", {0x7D3C04F0u}},
    {"v_cmp_nlt_f32_e32 vcc_lo, v1, v1", {0x7C3C0301u}},
    {"v_cmp_t_f32_e32 vcc_lo, v1, v2", {0x7C3E0501u}},
    {"v_cmp_t_f32_e64 s6, v1, s3", {0xD41F0006u, 0x00000701u}},
    {"v_cmp_t_f32_e64 s6, -v1, |v2|", {0xD41F0206u, 0x20020501u}},
    {"v_cmpx_t_f32_e32 0.5, v2", {0x7D3E04F0u}},
    {"v_cmp_t_f32_e32 vcc_lo, v1, v1", {0x7C3E0301u}},
};

const Case kGlobal[] = {
    {"global_load_u8 v0, v[4:5], off", {0xDC420000u, 0x007C0004u}},
    {"global_load_u8 v0, v4, s[8:9] offset:3", {0xDC420003u, 0x00080004u}},
    {"global_load_u8 v0, v[4:5], off offset:-2", {0xDC421FFEu, 0x007C0004u}},
    {"global_load_i8 v0, v[4:5], off", {0xDC460000u, 0x007C0004u}},
    {"global_load_i8 v0, v4, s[8:9] offset:3", {0xDC460003u, 0x00080004u}},
    {"global_load_i8 v0, v[4:5], off offset:-2", {0xDC461FFEu, 0x007C0004u}},
    {"global_load_u16 v0, v[4:5], off", {0xDC4A0000u, 0x007C0004u}},
    {"global_load_u16 v0, v4, s[8:9] offset:3", {0xDC4A0003u, 0x00080004u}},
    {"global_load_u16 v0, v[4:5], off offset:-2", {0xDC4A1FFEu, 0x007C0004u}},
    {"global_load_i16 v0, v[4:5], off", {0xDC4E0000u, 0x007C0004u}},
    {"global_load_i16 v0, v4, s[8:9] offset:3", {0xDC4E0003u, 0x00080004u}},
    {"global_load_i16 v0, v[4:5], off offset:-2", {0xDC4E1FFEu, 0x007C0004u}},
    {"global_load_b32 v0, v[4:5], off", {0xDC520000u, 0x007C0004u}},
    {"global_load_b32 v0, v4, s[8:9] offset:3", {0xDC520003u, 0x00080004u}},
    {"global_load_b32 v0, v[4:5], off offset:-2", {0xDC521FFEu, 0x007C0004u}},
    {"global_load_b64 v[0:1], v[4:5], off", {0xDC560000u, 0x007C0004u}},
    {"global_load_b128 v[0:3], v4, s[8:9] offset:16", {0xDC5E0010u, 0x00080004u}},
    {"global_load_b32 v4, v[4:5], off", {0xDC520000u, 0x047C0004u}},
    {"global_store_b64 v[4:5], v[6:7], off", {0xDC6E0000u, 0x007C0604u}},
    {"global_store_b128 v4, v[6:9], s[8:9] offset:-16", {0xDC761FF0u, 0x00080604u}},
    {"global_load_d16_b16 v0, v[4:5], off", {0xDC820000u, 0x007C0004u}},
    {"global_load_d16_b16 v0, v4, s[8:9] offset:3", {0xDC820003u, 0x00080004u}},
    {"global_load_d16_b16 v0, v[4:5], off offset:-2", {0xDC821FFEu, 0x007C0004u}},
    {"global_load_d16_hi_b16 v0, v[4:5], off", {0xDC8E0000u, 0x007C0004u}},
    {"global_load_d16_hi_b16 v0, v4, s[8:9] offset:3", {0xDC8E0003u, 0x00080004u}},
    {"global_load_d16_hi_b16 v0, v[4:5], off offset:-2", {0xDC8E1FFEu, 0x007C0004u}},
    {"global_load_d16_u8 v0, v[4:5], off", {0xDC7A0000u, 0x007C0004u}},
    {"global_load_d16_u8 v0, v4, s[8:9] offset:3", {0xDC7A0003u, 0x00080004u}},
    {"global_load_d16_u8 v0, v[4:5], off offset:-2", {0xDC7A1FFEu, 0x007C0004u}},
    {"global_load_d16_i8 v0, v[4:5], off", {0xDC7E0000u, 0x007C0004u}},
    {"global_load_d16_i8 v0, v4, s[8:9] offset:3", {0xDC7E0003u, 0x00080004u}},
    {"global_load_d16_i8 v0, v[4:5], off offset:-2", {0xDC7E1FFEu, 0x007C0004u}},
    {"global_load_d16_hi_u8 v0, v[4:5], off", {0xDC860000u, 0x007C0004u}},
    {"global_load_d16_hi_u8 v0, v4, s[8:9] offset:3", {0xDC860003u, 0x00080004u}},
    {"global_load_d16_hi_u8 v0, v[4:5], off offset:-2", {0xDC861FFEu, 0x007C0004u}},
    {"global_load_d16_hi_i8 v0, v[4:5], off", {0xDC8A0000u, 0x007C0004u}},
    {"global_load_d16_hi_i8 v0, v4, s[8:9] offset:3", {0xDC8A0003u, 0x00080004u}},
    {"global_load_d16_hi_i8 v0, v[4:5], off offset:-2", {0xDC8A1FFEu, 0x007C0004u}},
    {"flat_load_u8 v0, v[4:5]", {0xDC400000u, 0x007C0004u}},
    {"flat_load_u8 v0, v[4:5] offset:6", {0xDC400006u, 0x007C0004u}},
    {"flat_load_i16 v0, v[4:5]", {0xDC4C0000u, 0x007C0004u}},
    {"flat_load_i16 v0, v[4:5] offset:6", {0xDC4C0006u, 0x007C0004u}},
    {"flat_load_b32 v0, v[4:5]", {0xDC500000u, 0x007C0004u}},
    {"flat_load_b32 v0, v[4:5] offset:6", {0xDC500006u, 0x007C0004u}},
    {"flat_load_d16_hi_b16 v0, v[4:5]", {0xDC8C0000u, 0x007C0004u}},
    {"flat_load_d16_hi_b16 v0, v[4:5] offset:6", {0xDC8C0006u, 0x007C0004u}},
    {"global_store_b8 v[4:5], v6, off", {0xDC620000u, 0x007C0604u}},
    {"global_store_b8 v4, v6, s[8:9] offset:1", {0xDC620001u, 0x00080604u}},
    {"global_store_b16 v[4:5], v6, off", {0xDC660000u, 0x007C0604u}},
    {"global_store_b16 v4, v6, s[8:9] offset:1", {0xDC660001u, 0x00080604u}},
    {"global_store_b32 v[4:5], v6, off", {0xDC6A0000u, 0x007C0604u}},
    {"global_store_b32 v4, v6, s[8:9] offset:1", {0xDC6A0001u, 0x00080604u}},
    {"global_load_b32 v0, v4, s[8:9]", {0xDC520000u, 0x00080004u}},
    {"global_load_b128 v[0:3], v[4:5], off", {0xDC5E0000u, 0x007C0004u}},
    {"global_store_b128 v[4:5], v[6:9], off", {0xDC760000u, 0x007C0604u}},
    {"global_store_b64 v4, v[6:7], s[8:9]", {0xDC6E0000u, 0x00080604u}},
    {"global_load_b96 v[0:2], v[4:5], off", {0xDC5A0000u, 0x007C0004u}},
    {"global_store_d16_hi_b8 v[4:5], v6, off", {0xDC920000u, 0x007C0604u}},
    {"global_store_d16_hi_b8 v4, v6, s[8:9] offset:1", {0xDC920001u, 0x00080604u}},
    {"global_store_d16_hi_b16 v[4:5], v6, off", {0xDC960000u, 0x007C0604u}},
    {"global_store_d16_hi_b16 v4, v6, s[8:9] offset:1", {0xDC960001u, 0x00080604u}},
    {"flat_store_b8 v[4:5], v6", {0xDC600000u, 0x007C0604u}},
    {"flat_store_b8 v[4:5], v6 offset:2", {0xDC600002u, 0x007C0604u}},
    {"flat_store_b16 v[4:5], v6", {0xDC640000u, 0x007C0604u}},
    {"flat_store_b16 v[4:5], v6 offset:2", {0xDC640002u, 0x007C0604u}},
    {"flat_store_b32 v[4:5], v6", {0xDC680000u, 0x007C0604u}},
    {"flat_store_b32 v[4:5], v6 offset:2", {0xDC680002u, 0x007C0604u}},
    {"global_atomic_cmpswap_b32 v0, v[4:5], v[6:7], off glc", {0xDCD24000u, 0x007C0604u}},
    {"global_atomic_cmpswap_b32 v[4:5], v[6:7], off", {0xDCD20000u, 0x007C0604u}},
    {"global_atomic_add_u32 v0, v[4:5], v6, off glc", {0xDCD64000u, 0x007C0604u}},
    {"global_atomic_max_i32 v0, v4, v6, s[8:9] glc", {0xDCEA4000u, 0x00080604u}},
    {"global_atomic_swap_b32 v6, v[4:5], v6, off glc", {0xDCCE4000u, 0x067C0604u}},
    {"global_atomic_add_f32 v0, v[4:5], v6, off glc", {0xDD5A4000u, 0x007C0604u}},
    {"global_atomic_cmpswap_b64 v[0:1], v[4:5], v[6:9], off glc", {0xDD0A4000u, 0x007C0604u}},
    {"global_atomic_add_u64 v[0:1], v[4:5], v[6:7], off glc", {0xDD0E4000u, 0x007C0604u}},
    {"flat_atomic_cmpswap_b32 v0, v[4:5], v[6:7] glc", {0xDCD04000u, 0x007C0604u}},
    {"flat_atomic_add_u32 v0, v[4:5], v6 offset:4 glc", {0xDCD44004u, 0x007C0604u}},
    {"flat_atomic_inc_u32 v[4:5], v6", {0xDCFC0000u, 0x007C0604u}},
};

const Case kLds[] = {
    {"ds_add_u32 v4, v6", {0xD8000000u, 0x00000604u}},
    {"ds_add_rtn_u32 v0, v4, v6", {0xD8800000u, 0x00000604u}},
    {"ds_add_rtn_u32 v4, v4, v6 offset:4", {0xD8800004u, 0x04000604u}},
    {"ds_cmpstore_rtn_b32 v0, v4, v6, v7", {0xD8C00000u, 0x00070604u}},
    {"ds_cmpstore_b32 v4, v6, v7 offset:8", {0xD8400008u, 0x00070604u}},
    {"ds_max_rtn_i32 v0, v4, v6", {0xD8980000u, 0x00000604u}},
    {"ds_min_u32 v4, v6", {0xD81C0000u, 0x00000604u}},
    {"ds_storexchg_rtn_b32 v0, v4, v6", {0xD8B40000u, 0x00000604u}},
    {"ds_mskor_rtn_b32 v0, v4, v6, v7", {0xD8B00000u, 0x00070604u}},
    {"ds_inc_rtn_u32 v0, v4, v6", {0xD88C0000u, 0x00000604u}},
    {"ds_add_rtn_f32 v0, v4, v6", {0xD9E40000u, 0x00000604u}},
    // exec_ds_dwords' full-wave path (stop 34): out-of-range lanes, the address row as the
    // destination, stores to one word from several lanes; misaligned offsets take the lanes.
    {"ds_load_b32 v0, v4", {0xD8D80000u, 0x00000004u}},
    {"ds_load_b32 v4, v4 offset:4", {0xD8D80004u, 0x04000004u}},
    {"ds_store_b32 v4, v6 offset:8", {0xD8340008u, 0x00000604u}},
    {"ds_store_b32 v4, v6 offset:1", {0xD8340001u, 0x00000604u}},
    {"ds_load_b32 v0, v4 offset:2", {0xD8D80002u, 0x00000004u}},
    // exec_ds_wide_fast (stop 40): a lane's whole access in range or none of it, the address
    // row among the destination's, overlapping stores in lane order; misaligned: the lanes.
    {"ds_load_b64 v[0:1], v4", {0xD9D80000u, 0x00000004u}},
    {"ds_load_b64 v[4:5], v4 offset:8", {0xD9D80008u, 0x04000004u}},
    {"ds_load_b64 v[3:4], v4", {0xD9D80000u, 0x03000004u}},
    {"ds_load_b96 v[0:2], v4 offset:4", {0xDBF80004u, 0x00000004u}},
    {"ds_load_b128 v[0:3], v4 offset:16", {0xDBFC0010u, 0x00000004u}},
    {"ds_load_b128 v[2:5], v4", {0xDBFC0000u, 0x02000004u}},
    {"ds_store_b64 v4, v[6:7] offset:8", {0xD9340008u, 0x00000604u}},
    {"ds_store_b96 v4, v[6:8]", {0xDB780000u, 0x00000604u}},
    {"ds_store_b128 v4, v[4:7] offset:4", {0xDB7C0004u, 0x00000404u}},
    {"ds_load_b64 v[0:1], v4 offset:2", {0xD9D80002u, 0x00000004u}},
};

const Case kPacked[] = {
    {"v_pk_mul_lo_u16 v0, v1, v2", {0xCC014000u, 0x18020501u}},
    {"v_pk_mul_lo_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC014800u, 0x10020501u}},
    {"v_pk_mul_lo_u16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC015801u, 0x00020501u}},
    {"v_pk_mul_lo_u16 v0, s3, v2", {0xCC014000u, 0x18020403u}},
    {"v_pk_mul_lo_u16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC014000u, 0x100204F0u}},
    {"v_pk_mul_lo_u16 v0, v1, 5", {0xCC014000u, 0x18010B01u}},
    {"v_pk_mul_lo_u16 v0, v1, 0x12345678", {0xCC014000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_mul_lo_u16 v0, v1, v2 clamp", {0xCC01C000u, 0x18020501u}},
    {"v_pk_add_u16 v0, v1, v2", {0xCC0A4000u, 0x18020501u}},
    {"v_pk_add_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC0A4800u, 0x10020501u}},
    {"v_pk_add_u16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC0A5801u, 0x00020501u}},
    {"v_pk_add_u16 v0, s3, v2", {0xCC0A4000u, 0x18020403u}},
    {"v_pk_add_u16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC0A4000u, 0x100204F0u}},
    {"v_pk_add_u16 v0, v1, 5", {0xCC0A4000u, 0x18010B01u}},
    {"v_pk_add_u16 v0, v1, 0x12345678", {0xCC0A4000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_add_u16 v0, v1, v2 clamp", {0xCC0AC000u, 0x18020501u}},
    {"v_pk_sub_u16 v0, v1, v2", {0xCC0B4000u, 0x18020501u}},
    {"v_pk_sub_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC0B4800u, 0x10020501u}},
    {"v_pk_sub_u16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC0B5801u, 0x00020501u}},
    {"v_pk_sub_u16 v0, s3, v2", {0xCC0B4000u, 0x18020403u}},
    {"v_pk_sub_u16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC0B4000u, 0x100204F0u}},
    {"v_pk_sub_u16 v0, v1, 5", {0xCC0B4000u, 0x18010B01u}},
    {"v_pk_sub_u16 v0, v1, 0x12345678", {0xCC0B4000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_sub_u16 v0, v1, v2 clamp", {0xCC0BC000u, 0x18020501u}},
    {"v_pk_add_i16 v0, v1, v2", {0xCC024000u, 0x18020501u}},
    {"v_pk_add_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC024800u, 0x10020501u}},
    {"v_pk_add_i16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC025801u, 0x00020501u}},
    {"v_pk_add_i16 v0, s3, v2", {0xCC024000u, 0x18020403u}},
    {"v_pk_add_i16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC024000u, 0x100204F0u}},
    {"v_pk_add_i16 v0, v1, 5", {0xCC024000u, 0x18010B01u}},
    {"v_pk_add_i16 v0, v1, 0x12345678", {0xCC024000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_add_i16 v0, v1, v2 clamp", {0xCC02C000u, 0x18020501u}},
    {"v_pk_sub_i16 v0, v1, v2", {0xCC034000u, 0x18020501u}},
    {"v_pk_sub_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC034800u, 0x10020501u}},
    {"v_pk_sub_i16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC035801u, 0x00020501u}},
    {"v_pk_sub_i16 v0, s3, v2", {0xCC034000u, 0x18020403u}},
    {"v_pk_sub_i16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC034000u, 0x100204F0u}},
    {"v_pk_sub_i16 v0, v1, 5", {0xCC034000u, 0x18010B01u}},
    {"v_pk_sub_i16 v0, v1, 0x12345678", {0xCC034000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_sub_i16 v0, v1, v2 clamp", {0xCC03C000u, 0x18020501u}},
    {"v_pk_max_i16 v0, v1, v2", {0xCC074000u, 0x18020501u}},
    {"v_pk_max_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC074800u, 0x10020501u}},
    {"v_pk_max_i16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC075801u, 0x00020501u}},
    {"v_pk_max_i16 v0, s3, v2", {0xCC074000u, 0x18020403u}},
    {"v_pk_max_i16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC074000u, 0x100204F0u}},
    {"v_pk_max_i16 v0, v1, 5", {0xCC074000u, 0x18010B01u}},
    {"v_pk_max_i16 v0, v1, 0x12345678", {0xCC074000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_max_i16 v0, v1, v2 clamp", {0xCC07C000u, 0x18020501u}},
    {"v_pk_min_i16 v0, v1, v2", {0xCC084000u, 0x18020501u}},
    {"v_pk_min_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC084800u, 0x10020501u}},
    {"v_pk_min_i16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC085801u, 0x00020501u}},
    {"v_pk_min_i16 v0, s3, v2", {0xCC084000u, 0x18020403u}},
    {"v_pk_min_i16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC084000u, 0x100204F0u}},
    {"v_pk_min_i16 v0, v1, 5", {0xCC084000u, 0x18010B01u}},
    {"v_pk_min_i16 v0, v1, 0x12345678", {0xCC084000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_min_i16 v0, v1, v2 clamp", {0xCC08C000u, 0x18020501u}},
    {"v_pk_max_u16 v0, v1, v2", {0xCC0C4000u, 0x18020501u}},
    {"v_pk_max_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC0C4800u, 0x10020501u}},
    {"v_pk_max_u16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC0C5801u, 0x00020501u}},
    {"v_pk_max_u16 v0, s3, v2", {0xCC0C4000u, 0x18020403u}},
    {"v_pk_max_u16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC0C4000u, 0x100204F0u}},
    {"v_pk_max_u16 v0, v1, 5", {0xCC0C4000u, 0x18010B01u}},
    {"v_pk_max_u16 v0, v1, 0x12345678", {0xCC0C4000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_max_u16 v0, v1, v2 clamp", {0xCC0CC000u, 0x18020501u}},
    {"v_pk_min_u16 v0, v1, v2", {0xCC0D4000u, 0x18020501u}},
    {"v_pk_min_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC0D4800u, 0x10020501u}},
    {"v_pk_min_u16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC0D5801u, 0x00020501u}},
    {"v_pk_min_u16 v0, s3, v2", {0xCC0D4000u, 0x18020403u}},
    {"v_pk_min_u16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC0D4000u, 0x100204F0u}},
    {"v_pk_min_u16 v0, v1, 5", {0xCC0D4000u, 0x18010B01u}},
    {"v_pk_min_u16 v0, v1, 0x12345678", {0xCC0D4000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_min_u16 v0, v1, v2 clamp", {0xCC0DC000u, 0x18020501u}},
    {"v_pk_lshlrev_b16 v0, v1, v2", {0xCC044000u, 0x18020501u}},
    {"v_pk_lshlrev_b16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC044800u, 0x10020501u}},
    {"v_pk_lshlrev_b16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC045801u, 0x00020501u}},
    {"v_pk_lshlrev_b16 v0, s3, v2", {0xCC044000u, 0x18020403u}},
    {"v_pk_lshlrev_b16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC044000u, 0x100204F0u}},
    {"v_pk_lshlrev_b16 v0, v1, 5", {0xCC044000u, 0x18010B01u}},
    {"v_pk_lshlrev_b16 v0, v1, 0x12345678", {0xCC044000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_lshlrev_b16 v0, v1, v2 clamp", {0xCC04C000u, 0x18020501u}},
    {"v_pk_lshrrev_b16 v0, v1, v2", {0xCC054000u, 0x18020501u}},
    {"v_pk_lshrrev_b16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC054800u, 0x10020501u}},
    {"v_pk_lshrrev_b16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC055801u, 0x00020501u}},
    {"v_pk_lshrrev_b16 v0, s3, v2", {0xCC054000u, 0x18020403u}},
    {"v_pk_lshrrev_b16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC054000u, 0x100204F0u}},
    {"v_pk_lshrrev_b16 v0, v1, 5", {0xCC054000u, 0x18010B01u}},
    {"v_pk_lshrrev_b16 v0, v1, 0x12345678", {0xCC054000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_lshrrev_b16 v0, v1, v2 clamp", {0xCC05C000u, 0x18020501u}},
    {"v_pk_ashrrev_i16 v0, v1, v2", {0xCC064000u, 0x18020501u}},
    {"v_pk_ashrrev_i16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", {0xCC064800u, 0x10020501u}},
    {"v_pk_ashrrev_i16 v1, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", {0xCC065801u, 0x00020501u}},
    {"v_pk_ashrrev_i16 v0, s3, v2", {0xCC064000u, 0x18020403u}},
    {"v_pk_ashrrev_i16 v0, 0.5, v2 op_sel_hi:[0,1]", {0xCC064000u, 0x100204F0u}},
    {"v_pk_ashrrev_i16 v0, v1, 5", {0xCC064000u, 0x18010B01u}},
    {"v_pk_ashrrev_i16 v0, v1, 0x12345678", {0xCC064000u, 0x1801FF01u, 0x12345678u}},
    {"v_pk_ashrrev_i16 v0, v1, v2 clamp", {0xCC06C000u, 0x18020501u}},
    {"v_pk_mad_u16 v0, v1, v2, v3", {0xCC094000u, 0x1C0E0501u}},
    {"v_pk_mad_u16 v0, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,0]", {0xCC092800u, 0x140E0501u}},
    {"v_pk_mad_u16 v0, s3, v2, 1.0", {0xCC094000u, 0x1BCA0403u}},
    {"v_pk_mad_u16 v3, v1, v3, v3 clamp", {0xCC09C003u, 0x1C0E0701u}},
    {"v_pk_mad_i16 v0, v1, v2, v3", {0xCC004000u, 0x1C0E0501u}},
    {"v_pk_mad_i16 v0, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,0]", {0xCC002800u, 0x140E0501u}},
    {"v_pk_mad_i16 v0, s3, v2, 1.0", {0xCC004000u, 0x1BCA0403u}},
    {"v_pk_mad_i16 v3, v1, v3, v3 clamp", {0xCC00C003u, 0x1C0E0701u}},
};

// V_CMP_CLASS_F32 (abs and neg on the value, never on the class mask) and the f64 compares,
// every predicate, with abs/neg and a double's inline constant.
const Case kClassAndF64Compares[] = {
    {"v_cmp_class_f32_e32 vcc_lo, v1, v2", {0x7CFC0501u}},
    {"v_cmp_class_f32_e64 s6, -|v1|, v2", {0xD47E0106u, 0x20020501u}},
    {"v_cmp_class_f32_e64 s6, v1, 0x3ff", {0xD47E0006u, 0x0001FF01u, 0x000003FFu}},
    {"v_cmp_class_f32_e64 s6, s3, v2", {0xD47E0006u, 0x00020403u}},
    {"v_cmpx_class_f32_e32 v1, v2", {0x7DFC0501u}},
    {"v_cmp_class_f32_e64 s6, -v1, 3", {0xD47E0006u, 0x20010701u}},
    {"v_cmp_f_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C400501u}},
    {"v_cmp_f_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4200206u, 0x20000501u}},
    {"v_cmpx_f_f64_e32 0.5, v[2:3]", {0x7D4004F0u}},
    {"v_cmp_f_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4200206u, 0x40020703u}},
    {"v_cmp_lt_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C420501u}},
    {"v_cmp_lt_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4210206u, 0x20000501u}},
    {"v_cmpx_lt_f64_e32 0.5, v[2:3]", {0x7D4204F0u}},
    {"v_cmp_lt_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4210206u, 0x40020703u}},
    {"v_cmp_eq_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C440501u}},
    {"v_cmp_eq_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4220206u, 0x20000501u}},
    {"v_cmpx_eq_f64_e32 0.5, v[2:3]", {0x7D4404F0u}},
    {"v_cmp_eq_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4220206u, 0x40020703u}},
    {"v_cmp_le_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C460501u}},
    {"v_cmp_le_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4230206u, 0x20000501u}},
    {"v_cmpx_le_f64_e32 0.5, v[2:3]", {0x7D4604F0u}},
    {"v_cmp_le_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4230206u, 0x40020703u}},
    {"v_cmp_gt_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C480501u}},
    {"v_cmp_gt_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4240206u, 0x20000501u}},
    {"v_cmpx_gt_f64_e32 0.5, v[2:3]", {0x7D4804F0u}},
    {"v_cmp_gt_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4240206u, 0x40020703u}},
    {"v_cmp_lg_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C4A0501u}},
    {"v_cmp_lg_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4250206u, 0x20000501u}},
    {"v_cmpx_lg_f64_e32 0.5, v[2:3]", {0x7D4A04F0u}},
    {"v_cmp_lg_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4250206u, 0x40020703u}},
    {"v_cmp_ge_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C4C0501u}},
    {"v_cmp_ge_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4260206u, 0x20000501u}},
    {"v_cmpx_ge_f64_e32 0.5, v[2:3]", {0x7D4C04F0u}},
    {"v_cmp_ge_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4260206u, 0x40020703u}},
    {"v_cmp_o_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C4E0501u}},
    {"v_cmp_o_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4270206u, 0x20000501u}},
    {"v_cmpx_o_f64_e32 0.5, v[2:3]", {0x7D4E04F0u}},
    {"v_cmp_o_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4270206u, 0x40020703u}},
    {"v_cmp_u_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C500501u}},
    {"v_cmp_u_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4280206u, 0x20000501u}},
    {"v_cmpx_u_f64_e32 0.5, v[2:3]", {0x7D5004F0u}},
    {"v_cmp_u_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4280206u, 0x40020703u}},
    {"v_cmp_nge_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C520501u}},
    {"v_cmp_nge_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD4290206u, 0x20000501u}},
    {"v_cmpx_nge_f64_e32 0.5, v[2:3]", {0x7D5204F0u}},
    {"v_cmp_nge_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD4290206u, 0x40020703u}},
    {"v_cmp_nlg_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C540501u}},
    {"v_cmp_nlg_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42A0206u, 0x20000501u}},
    {"v_cmpx_nlg_f64_e32 0.5, v[2:3]", {0x7D5404F0u}},
    {"v_cmp_nlg_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42A0206u, 0x40020703u}},
    {"v_cmp_ngt_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C560501u}},
    {"v_cmp_ngt_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42B0206u, 0x20000501u}},
    {"v_cmpx_ngt_f64_e32 0.5, v[2:3]", {0x7D5604F0u}},
    {"v_cmp_ngt_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42B0206u, 0x40020703u}},
    {"v_cmp_nle_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C580501u}},
    {"v_cmp_nle_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42C0206u, 0x20000501u}},
    {"v_cmpx_nle_f64_e32 0.5, v[2:3]", {0x7D5804F0u}},
    {"v_cmp_nle_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42C0206u, 0x40020703u}},
    {"v_cmp_neq_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C5A0501u}},
    {"v_cmp_neq_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42D0206u, 0x20000501u}},
    {"v_cmpx_neq_f64_e32 0.5, v[2:3]", {0x7D5A04F0u}},
    {"v_cmp_neq_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42D0206u, 0x40020703u}},
    {"v_cmp_nlt_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C5C0501u}},
    {"v_cmp_nlt_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42E0206u, 0x20000501u}},
    {"v_cmpx_nlt_f64_e32 0.5, v[2:3]", {0x7D5C04F0u}},
    {"v_cmp_nlt_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42E0206u, 0x40020703u}},
    {"v_cmp_t_f64_e32 vcc_lo, v[1:2], v[2:3]", {0x7C5E0501u}},
    {"v_cmp_t_f64_e64 s6, -v[1:2], |s[2:3]|", {0xD42F0206u, 0x20000501u}},
    {"v_cmpx_t_f64_e32 0.5, v[2:3]", {0x7D5E04F0u}},
    {"v_cmp_t_f64_e64 s6, v[3:4], -|v[3:4]|", {0xD42F0206u, 0x40020703u}},
};

// VOPD pairs the fast path runs (v_dual_cndmask_b32 selects by VCC), each half reading its
// sources before either writes.
const Case kDual[] = {
    {"v_dual_cndmask_b32 v0, v1, v2 :: v_dual_max_f32 v3, v4, v5", {0xCA540501u, 0x00020B04u}},
    {"v_dual_min_f32 v0, s3, v2 :: v_dual_subrev_f32 v3, v4, v5", {0xCACC0403u, 0x00020B04u}},
    {"v_dual_subrev_f32 v0, v1, v2 :: v_dual_cndmask_b32 v3, 0.5, v5", {0xC9920501u, 0x00020AF0u}},
    {"v_dual_max_f32 v0, v1, v2 :: v_dual_min_f32 v3, v0, v5", {0xCA960501u, 0x00020B00u}},
    {"v_dual_cndmask_b32 v0, s3, v0 :: v_dual_cndmask_b32 v1, v0, v1", {0xCA520003u, 0x00000300u}},
    {"v_dual_fmac_f32 v0, v1, v2 :: v_dual_cndmask_b32 v3, v0, v3", {0xC8120501u, 0x00020700u}},
    // Each half reading the other's destination, and X reading Y's only (the halves in place).
    {"v_dual_add_f32 v0, v3, v2 :: v_dual_mul_f32 v3, v4, v0", {0xC9060503u, 0x00020104u}},
    {"v_dual_fmac_f32 v0, v3, v2 :: v_dual_fmac_f32 v3, v4, v1", {0xC8000503u, 0x00020304u}},
};

const Case kCompares64[] = {
    {"v_cmp_lt_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CA20501u}},
    {"v_cmp_lt_i64_e64 s6, v[1:2], s[2:3]", {0xD4510006u, 0x00000501u}},
    {"v_cmpx_lt_i64_e32 -1, v[2:3]", {0x7DA204C1u}},
    {"v_cmp_lt_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CA204FFu, 0x80000000u}},
    {"v_cmp_lt_i64_e64 s6, v[3:4], v[3:4]", {0xD4510006u, 0x00020703u}},
    {"v_cmp_eq_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CA40501u}},
    {"v_cmp_eq_i64_e64 s6, v[1:2], s[2:3]", {0xD4520006u, 0x00000501u}},
    {"v_cmpx_eq_i64_e32 -1, v[2:3]", {0x7DA404C1u}},
    {"v_cmp_eq_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CA404FFu, 0x80000000u}},
    {"v_cmp_eq_i64_e64 s6, v[3:4], v[3:4]", {0xD4520006u, 0x00020703u}},
    {"v_cmp_le_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CA60501u}},
    {"v_cmp_le_i64_e64 s6, v[1:2], s[2:3]", {0xD4530006u, 0x00000501u}},
    {"v_cmpx_le_i64_e32 -1, v[2:3]", {0x7DA604C1u}},
    {"v_cmp_le_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CA604FFu, 0x80000000u}},
    {"v_cmp_le_i64_e64 s6, v[3:4], v[3:4]", {0xD4530006u, 0x00020703u}},
    {"v_cmp_gt_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CA80501u}},
    {"v_cmp_gt_i64_e64 s6, v[1:2], s[2:3]", {0xD4540006u, 0x00000501u}},
    {"v_cmpx_gt_i64_e32 -1, v[2:3]", {0x7DA804C1u}},
    {"v_cmp_gt_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CA804FFu, 0x80000000u}},
    {"v_cmp_gt_i64_e64 s6, v[3:4], v[3:4]", {0xD4540006u, 0x00020703u}},
    {"v_cmp_ne_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CAA0501u}},
    {"v_cmp_ne_i64_e64 s6, v[1:2], s[2:3]", {0xD4550006u, 0x00000501u}},
    {"v_cmpx_ne_i64_e32 -1, v[2:3]", {0x7DAA04C1u}},
    {"v_cmp_ne_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CAA04FFu, 0x80000000u}},
    {"v_cmp_ne_i64_e64 s6, v[3:4], v[3:4]", {0xD4550006u, 0x00020703u}},
    {"v_cmp_ge_i64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CAC0501u}},
    {"v_cmp_ge_i64_e64 s6, v[1:2], s[2:3]", {0xD4560006u, 0x00000501u}},
    {"v_cmpx_ge_i64_e32 -1, v[2:3]", {0x7DAC04C1u}},
    {"v_cmp_ge_i64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CAC04FFu, 0x80000000u}},
    {"v_cmp_ge_i64_e64 s6, v[3:4], v[3:4]", {0xD4560006u, 0x00020703u}},
    {"v_cmp_lt_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CB20501u}},
    {"v_cmp_lt_u64_e64 s6, v[1:2], s[2:3]", {0xD4590006u, 0x00000501u}},
    {"v_cmpx_lt_u64_e32 -1, v[2:3]", {0x7DB204C1u}},
    {"v_cmp_lt_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CB204FFu, 0x80000000u}},
    {"v_cmp_lt_u64_e64 s6, v[3:4], v[3:4]", {0xD4590006u, 0x00020703u}},
    {"v_cmp_eq_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CB40501u}},
    {"v_cmp_eq_u64_e64 s6, v[1:2], s[2:3]", {0xD45A0006u, 0x00000501u}},
    {"v_cmpx_eq_u64_e32 -1, v[2:3]", {0x7DB404C1u}},
    {"v_cmp_eq_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CB404FFu, 0x80000000u}},
    {"v_cmp_eq_u64_e64 s6, v[3:4], v[3:4]", {0xD45A0006u, 0x00020703u}},
    {"v_cmp_le_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CB60501u}},
    {"v_cmp_le_u64_e64 s6, v[1:2], s[2:3]", {0xD45B0006u, 0x00000501u}},
    {"v_cmpx_le_u64_e32 -1, v[2:3]", {0x7DB604C1u}},
    {"v_cmp_le_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CB604FFu, 0x80000000u}},
    {"v_cmp_le_u64_e64 s6, v[3:4], v[3:4]", {0xD45B0006u, 0x00020703u}},
    {"v_cmp_gt_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CB80501u}},
    {"v_cmp_gt_u64_e64 s6, v[1:2], s[2:3]", {0xD45C0006u, 0x00000501u}},
    {"v_cmpx_gt_u64_e32 -1, v[2:3]", {0x7DB804C1u}},
    {"v_cmp_gt_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CB804FFu, 0x80000000u}},
    {"v_cmp_gt_u64_e64 s6, v[3:4], v[3:4]", {0xD45C0006u, 0x00020703u}},
    {"v_cmp_ne_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CBA0501u}},
    {"v_cmp_ne_u64_e64 s6, v[1:2], s[2:3]", {0xD45D0006u, 0x00000501u}},
    {"v_cmpx_ne_u64_e32 -1, v[2:3]", {0x7DBA04C1u}},
    {"v_cmp_ne_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CBA04FFu, 0x80000000u}},
    {"v_cmp_ne_u64_e64 s6, v[3:4], v[3:4]", {0xD45D0006u, 0x00020703u}},
    {"v_cmp_ge_u64_e32 vcc_lo, v[1:2], v[2:3]", {0x7CBC0501u}},
    {"v_cmp_ge_u64_e64 s6, v[1:2], s[2:3]", {0xD45E0006u, 0x00000501u}},
    {"v_cmpx_ge_u64_e32 -1, v[2:3]", {0x7DBC04C1u}},
    {"v_cmp_ge_u64_e32 vcc_lo, 0x80000000, v[2:3]", {0x7CBC04FFu, 0x80000000u}},
    {"v_cmp_ge_u64_e64 s6, v[3:4], v[3:4]", {0xD45E0006u, 0x00020703u}},
};

constexpr uint64_t kCode = 0x10000;
constexpr uint64_t kData = 0x18000; // 8 pages of data after the code
constexpr uint32_t kLdsBytes = 256;
constexpr uint32_t kDsLoadV9V5 = 0xD8D80000u, kDsLoadV9V5Hi = 0x09000005u; // ds_load_b32 v9, v5
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// How a test lays out the lanes' addresses (v[4:5], or v4 with s[8:9] = 0): Coalesced is
// a dword in every other (so that 64-bit atomics are aligned too); SomeUnmapped faults part
// way through the wave, after the lanes before it have made their accesses. Dense4 and Dense16
// put lane k at 4k and 16k bytes from lane 0 (the coalesced dword and b128 rows, one
// translation for the wave); WrappingOffsets has consecutive low dwords that wrap past
// 0xffffffff at lane 4 (with s[8:9] set so that lanes 0-3 of the saddr form are mapped): the
// 64-bit addresses are not consecutive there. HighDiffers is Dense4 with lane 9's high dword
// one more (4 GiB up, unmapped): consecutive low dwords, so only the high row's check keeps
// the coalesced row from taking it.
enum class Addresses {
  Coalesced,
  Same,
  Scattered,
  PageCrossing,
  SomeInLds,
  SomeUnmapped,
  Dense4,
  Dense16,
  WrappingOffsets,
  HighDiffers,
  Count
};
constexpr uint32_t kWrapStart = 0xfffffff0u;

struct Outcome {
  std::vector<uint32_t> vgpr;
  std::vector<uint32_t> sgpr;
  bool scc = false;
  std::vector<uint8_t> memory;
  std::string fault;
};

uint32_t pick(std::mt19937& rng) {
  static const uint32_t kEdges[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                    0x7fa00000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xffffffffu,
                                    0x7fffffffu, 0x00ff00ffu, 0x80808080u, 0x00008000u, 0x7fff8000u,
                                    0xffff0000u, 0x00010001u, 0x3c00bc00u, 0x7ff00000u,
                                    0xfff00000u, 0x000fffffu}; // f64 infinities, denormals
  const uint32_t r = rng();
  if (r % 3 == 0) return kEdges[(r >> 8) % std::size(kEdges)];
  if (r % 3 == 1) return rng() % 8 * 0x00010001u; // small halves: equal operands, small shifts
  return rng();
}

Outcome run_once(const std::vector<uint32_t>& words, bool wave64, uint64_t exec, unsigned seed,
                 Addresses addresses, bool fast) {
  FlatMemory mem;
  const uint64_t at = sim::test::put_words(mem, kCode, words);
  // Reads the LDS back into v9 with every lane on, for the comparison.
  mem.put(at, 0xBEFE00C1u);     // s_mov_b32 exec_lo, -1
  mem.put(at + 4, 0xBEFF00C1u); // s_mov_b32 exec_hi, -1
  mem.put(at + 8, kDsLoadV9V5);
  mem.put(at + 12, kDsLoadV9V5Hi);
  mem.put(at + 16, sim::test::kEndpgm);
  std::mt19937 rng(seed);
  for (uint64_t a = kData; a < kData + 0x8000; a += 4)
    mem.put<uint32_t>(a, rng() % 4 == 0 ? rng() : rng() % 4);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v11, kLdsBytes);
  Wave w;
  sim::test::start_wave(w, wave64, 16, kCode);
  w.shared_aperture = 0x0001000000000000ull;
  for (unsigned lane = 0; lane < w.lanes(); ++lane) {
    w.select_half(lane / 32);
    const unsigned l = lane % 32;
    for (unsigned reg = 0; reg < 16; ++reg) w.v(reg, l) = pick(rng);
    for (unsigned reg = 6; reg < 10; ++reg)
      if (rng() % 2) w.v(reg, l) = rng() % 4; // compare-exchange values that match memory
    uint64_t addr = 0;
    switch (addresses) {
    case Addresses::Coalesced:
      addr = kData + 0x100 + lane * 8;
      break;
    case Addresses::Same:
      addr = kData + 0x2040;
      break;
    case Addresses::Scattered:
      addr = kData + 8 + rng() % 0x7ff0;
      break;
    case Addresses::PageCrossing:
      addr = kData + 0xff0 + lane * 4;
      break;
    case Addresses::SomeInLds:
      addr = rng() % 4 ? kData + 0x3000 + lane * 8 : w.shared_aperture + rng() % 64 * 4;
      break;
    case Addresses::SomeUnmapped: // coalesced, the upper lanes on a page beyond the memory
      addr = lane < 20 ? kData + 0x7f00 + lane * 8 : 0x20000 + lane * 8;
      break;
    case Addresses::Dense4:
      addr = kData + 0x200 + lane * 4;
      break;
    case Addresses::Dense16:
      addr = kData + 0x400 + lane * 16;
      break;
    case Addresses::WrappingOffsets:
      addr = uint32_t(kWrapStart + lane * 4);
      break;
    case Addresses::HighDiffers:
      addr = kData + 0x200 + lane * 4 + (lane == 9 ? uint64_t(1) << 32 : 0);
      break;
    case Addresses::Count:
      break;
    }
    // ds_* address the LDS with v4: mostly in range, sometimes beyond it (misaligned there in
    // wave64 only, so that wave32's full waves take exec_ds_dwords' aligned path).
    w.v(4, l) = uint32_t(addr);
    w.v(5, l) = uint32_t(addr >> 32);
    if (words.size() == 2 && (words[0] >> 26) == 0x36) // DS encoding
      w.v(4, l) = rng() % 8 == 0 ? kLdsBytes + (wave64 ? rng() % 64 : rng() % 16 * 4)
                                 : uint32_t(rng() % (kLdsBytes / 4) * 4);
    // The read-back ds_load_b32 v9, v5: lane by lane over the LDS.
    if (words.size() == 2 && (words[0] >> 26) == 0x36) w.v(5, l) = lane * 4 % kLdsBytes;
  }
  w.select_half(0);
  const bool ds = words.size() == 2 && (words[0] >> 26) == 0x36;
  for (unsigned s = 0; s < 16; ++s) w.sgpr[s] = pick(rng);
  w.sgpr[8] = w.sgpr[9] = 0; // saddr base: v4 is the whole address
  if (addresses == Addresses::WrappingOffsets) {
    const uint64_t base = kData + 0x100 - uint64_t(kWrapStart);
    w.sgpr[8] = uint32_t(base);
    w.sgpr[9] = uint32_t(base >> 32);
  }
  w.sgpr[src::kVccLo] = rng();
  w.sgpr[src::kVccHi] = rng();
  w.sgpr[src::kExecLo] = uint32_t(exec);
  w.sgpr[src::kExecHi] = uint32_t(exec >> 32);
  Executor::fast_paths = fast;
  Outcome o;
  try {
    if (!ds) {
      // Without the read-back: run only the instruction and s_endpgm.
      mem.put(at, sim::test::kEndpgm);
    }
    runner.run(w);
  } catch (const ShaderFault& f) {
    o.fault = f.what();
  }
  Executor::fast_paths = true;
  o.vgpr = w.vgpr;
  o.sgpr.assign(w.sgpr, w.sgpr + 128);
  o.scc = w.scc;
  o.memory = mem.bytes;
  return o;
}

void check(const Case& c, bool memory) {
  std::mt19937 rng(std::hash<std::string>{}(c.text));
  for (bool wave64 : {false, true}) {
    const uint64_t all = wave64 ? ~0ull : 0xffffffffull;
    const uint64_t execs[] = {
        all, (uint64_t(rng()) << 32 | rng()) & all, 1ull << (rng() % (wave64 ? 64 : 32)),
        0,   0x5555555555555555ull & all,           (uint64_t(rng()) << 32 | rng()) & rng() & all};
    const int modes = memory ? int(Addresses::Count) : 1;
    for (uint64_t exec : execs)
      for (int mode = 0; mode < modes; ++mode) {
        const unsigned seed = rng();
        const Outcome fast = run_once(c.words, wave64, exec, seed, Addresses(mode), true);
        const Outcome slow = run_once(c.words, wave64, exec, seed, Addresses(mode), false);
        const std::string where = std::string(c.text) + (wave64 ? " wave64" : " wave32") +
                                  " exec 0x" +
                                  [&] {
                                    char b[24];
                                    std::snprintf(b, sizeof b, "%llx", (unsigned long long)exec);
                                    return std::string(b);
                                  }() +
                                  " addresses " + std::to_string(mode);
        EXPECT_EQ(fast.fault, slow.fault) << where;
        // Every case is one the shader core runs (a fault in both would compare equal).
        if (exec == all && mode == 0) EXPECT_EQ(fast.fault, "") << where;
        for (size_t i = 0; i < fast.vgpr.size(); ++i)
          if (fast.vgpr[i] != slow.vgpr[i]) {
            ADD_FAILURE() << where << ": VGPR dword " << i << " (v" << i % (17 * 32) / 32
                          << " lane " << i % 32 << ") fast 0x" << std::hex << fast.vgpr[i]
                          << " general 0x" << slow.vgpr[i];
            break;
          }
        EXPECT_EQ(fast.sgpr, slow.sgpr) << where;
        EXPECT_EQ(fast.scc, slow.scc) << where;
        EXPECT_TRUE(fast.memory == slow.memory) << where << ": memory differs";
      }
  }
}

TEST(FastPathExecution, SixteenBitAndThreeSourceValu) {
  for (const Case& c : kValu) check(c, false);
}

TEST(FastPathExecution, AddressArithmetic) {
  for (const Case& c : kAddressArithmetic) check(c, false);
}

TEST(FastPathExecution, IntegerAndMoveRows) {
  for (const Case& c : kRows32) check(c, false);
}

TEST(FastPathExecution, FloatModifiersAndConversions) {
  for (const Case& c : kFloat) check(c, false);
}

TEST(FastPathExecution, HalfConversions) {
  for (const Case& c : kHalfConversions) check(c, false);
}

TEST(FastPathExecution, DoublePrecision) {
  for (const Case& c : kF64) check(c, false);
}

TEST(FastPathExecution, PackedSixteenBit) {
  for (const Case& c : kPacked) check(c, false);
}

TEST(FastPathExecution, Compares) {
  for (const Case& c : kCompares) check(c, false);
  for (const Case& c : kCompares64) check(c, false);
}

TEST(FastPathExecution, ClassAndDoubleCompares) {
  for (const Case& c : kClassAndF64Compares) check(c, false);
}

TEST(FastPathExecution, DualIssue) {
  for (const Case& c : kDual) check(c, false);
}

TEST(FastPathExecution, GlobalAndFlatMemory) {
  for (const Case& c : kGlobal) check(c, true);
}

TEST(FastPathExecution, LdsAtomics) {
  for (const Case& c : kLds) check(c, false);
}

} // namespace
