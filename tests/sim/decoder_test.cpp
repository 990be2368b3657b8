// The decoder against llvm-objdump-22: literal encodings from LLVM's own output, and every
// instruction of the vector_add sample kernel compiled in process.
#include "compiler/code_object.h"
#include "compiler/compiler.h"
#include "sim/shader/isa.h"
#include "sim/shader/not_executed.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace sim::shader;

namespace {

std::string dis(std::vector<uint32_t> words) {
  auto inst = decode(words);
  return inst ? disassemble(*inst) : "<undecodable>";
}

} // namespace

// Words and text from `llvm-objdump-22 -d --mcpu=gfx1100` of the vector_add kernel.
TEST(Decoder, MatchesLlvmObjdumpOnKnownWords) {
  EXPECT_EQ(dis({0xF4000101, 0xF8000024}), "s_load_b32 s4, s[2:3], 0x24");
  EXPECT_EQ(dis({0xF4080101, 0xF8000000}), "s_load_b128 s[4:7], s[2:3], null");
  EXPECT_EQ(dis({0xBF89FC07}), "s_waitcnt lgkmcnt(0)");
  EXPECT_EQ(dis({0xD7000402, 0x00020004}), "v_add_co_u32 v2, s4, s4, v0");
  EXPECT_EQ(dis({0xBF8704A1}), "s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(SALU_CYCLE_1)");
  EXPECT_EQ(dis({0xD5207C03, 0x00110080}), "v_add_co_ci_u32_e64 v3, null, 0, 0, s4");
  EXPECT_EQ(dis({0x8B01FF01, 0x0000FFFF}), "s_and_b32 s1, s1, 0xffff");
  EXPECT_EQ(dis({0xD6FE7C00, 0x04081E01}), "v_mad_u64_u32 v[0:1], null, s1, s15, v[2:3]");
  EXPECT_EQ(dis({0xBE810080}), "s_mov_b32 s1, 0");
  EXPECT_EQ(dis({0x7CB80000}), "v_cmp_gt_u64_e32 vcc_lo, s[0:1], v[0:1]");
  EXPECT_EQ(dis({0xBE80206A}), "s_and_saveexec_b32 s0, vcc_lo");
  EXPECT_EQ(dis({0xBFA5001E}), "s_cbranch_execz 30");
  EXPECT_EQ(dis({0xD73C0000, 0x00020082}), "v_lshlrev_b64 v[0:1], 2, v[0:1]");
  EXPECT_EQ(dis({0xDC520000, 0x027C0002}), "global_load_b32 v2, v[2:3], off");
  EXPECT_EQ(dis({0x06040702}), "v_add_f32_e32 v2, v2, v3");
  EXPECT_EQ(dis({0xDC6A0000, 0x007C0200}), "global_store_b32 v[0:1], v2, off");
  EXPECT_EQ(dis({0xBFB00000}), "s_endpgm");
  EXPECT_EQ(dis({0xD4D9007E, 0x00020D08}), "v_cmpx_lt_u64_e64 v[8:9], v[6:7]");
}

// VOPD words from llvm-mc-22 -mcpu=gfx1100 -show-encoding.
TEST(Decoder, DualIssueVopd) {
  EXPECT_EQ(dis({0xC8100501, 0x00020104}), "v_dual_fmac_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4");
  EXPECT_EQ(dis({0xC8500501, 0x00020104, 0x3F800000}),
            "v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_mov_b32 v3, v4");
  EXPECT_EQ(dis({0xC8900501, 0x00020104, 0x3F800000}),
            "v_dual_fmamk_f32 v0, v1, 0x3f800000, v2 :: v_dual_mov_b32 v3, v4");
  EXPECT_EQ(dis({0xC9D00501, 0x00020104}), "v_dual_mul_dx9_zero_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4");
  EXPECT_EQ(dis({0xCA220101, 0x00020B04}), "v_dual_mov_b32 v0, v1 :: v_dual_lshlrev_b32 v3, v4, v5");
  EXPECT_EQ(dis({0xCA100001, 0x000200FF, 0x00001234}), "v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v3, 0x1234");
  EXPECT_EQ(dis({0xCA100101, 0x02060104}), "v_dual_mov_b32 v2, v1 :: v_dual_mov_b32 v7, v4");
}

// 16-bit and packed instructions (cl_khr_fp16 code): words and text from llvm-mc-22
// -mcpu=gfx1100 -filetype=obj then llvm-objdump-22 -d, which pins their opcodes.
TEST(Decoder, SixteenBitAndPackedInstructions) {
  const std::pair<std::vector<uint32_t>, const char*> cases[] = {
      {{0x7E02A102}, "v_cvt_f16_u16_e32 v1.l, v2.l"},
      {{0x7E02A302}, "v_cvt_f16_i16_e32 v1.l, v2.l"},
      {{0x7E02A502}, "v_cvt_u16_f16_e32 v1.l, v2.l"},
      {{0x7E02A702}, "v_cvt_i16_f16_e32 v1.l, v2.l"},
      {{0x7E02A902}, "v_rcp_f16_e32 v1.l, v2.l"},
      {{0x7E02AB02}, "v_sqrt_f16_e32 v1.l, v2.l"},
      {{0x7E02AD02}, "v_rsq_f16_e32 v1.l, v2.l"},
      {{0x7E02AF02}, "v_log_f16_e32 v1.l, v2.l"},
      {{0x7E02B102}, "v_exp_f16_e32 v1.l, v2.l"},
      {{0x7E02B302}, "v_frexp_mant_f16_e32 v1.l, v2.l"},
      {{0x7E02B502}, "v_frexp_exp_i16_f16_e32 v1.l, v2.l"},
      {{0x7E02B702}, "v_floor_f16_e32 v1.l, v2.l"},
      {{0x7E02B902}, "v_ceil_f16_e32 v1.l, v2.l"},
      {{0x7E02BB02}, "v_trunc_f16_e32 v1.l, v2.l"},
      {{0x7E02BD02}, "v_rndne_f16_e32 v1.l, v2.l"},
      {{0x7E02BF02}, "v_fract_f16_e32 v1.l, v2.l"},
      {{0x7E02C102}, "v_sin_f16_e32 v1.l, v2.l"},
      {{0x7E02C302}, "v_cos_f16_e32 v1.l, v2.l"},
      {{0x7E02D302}, "v_not_b16_e32 v1.l, v2.l"},
      {{0x7E02D502}, "v_cvt_i32_i16_e32 v1, v2.l"},
      {{0x7E02D702}, "v_cvt_u32_u16_e32 v1, v2.l"},
      {{0x6C020702}, "v_fmac_f16_e32 v1.l, v2.l, v3.l"},
      {{0x6E020702, 0x00001234}, "v_fmamk_f16 v1.l, v2.l, 0x1234, v3.l"},
      {{0x70020702, 0x00001234}, "v_fmaak_f16 v1.l, v2.l, v3.l, 0x1234"},
      {{0x76020702}, "v_ldexp_f16_e32 v1.l, v2.l, v3.l"},
      {{0x78020702}, "v_pk_fmac_f16 v1, v2, v3"},
      {{0xD64C0001, 0x04120702}, "v_max3_f16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD6490001, 0x04120702}, "v_min3_f16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD64F0001, 0x04120702}, "v_med3_f16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD6600001, 0x04120702}, "v_maxmin_f16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD6610001, 0x04120702}, "v_minmax_f16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD6410001, 0x04120702}, "v_mad_u16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD6530001, 0x04120702}, "v_mad_i16 v1.l, v2.l, v3.l, v4.l"},
      {{0xD7110001, 0x00020702}, "v_pack_b32_f16 v1, v2.l, v3.l"},
      {{0xD7090001, 0x00020702}, "v_max_u16 v1.l, v2.l, v3.l"},
      {{0xD70A0001, 0x00020702}, "v_max_i16 v1.l, v2.l, v3.l"},
      {{0xD70B0001, 0x00020702}, "v_min_u16 v1.l, v2.l, v3.l"},
      {{0xD70C0001, 0x00020702}, "v_min_i16 v1.l, v2.l, v3.l"},
      {{0xD7050001, 0x00020702}, "v_mul_lo_u16 v1.l, v2.l, v3.l"},
      {{0xD6590001, 0x04120702}, "v_mad_u32_u16 v1, v2.l, v3.l, v4"},
      {{0xD65A0001, 0x04120702}, "v_mad_i32_i16 v1, v2.l, v3.l, v4"},
      {{0xD7240001, 0x00020702}, "v_cvt_pk_i16_i32 v1, v2, v3"},
      {{0xD7230001, 0x00020702}, "v_cvt_pk_u16_u32 v1, v2, v3"},
      {{0xD7120001, 0x00020702}, "v_cvt_pk_norm_i16_f16 v1, v2.l, v3.l"},
      {{0xD70D0001, 0x00020702}, "v_add_nc_i16 v1.l, v2.l, v3.l"},
      {{0xD70E0001, 0x00020702}, "v_sub_nc_i16 v1.l, v2.l, v3.l"},
      {{0xCC124001, 0x18020702}, "v_pk_max_f16 v1, v2, v3"},
      {{0xCC114001, 0x18020702}, "v_pk_min_f16 v1, v2, v3"},
      {{0xCC0B4001, 0x18020702}, "v_pk_sub_u16 v1, v2, v3"},
      {{0xCC024001, 0x18020702}, "v_pk_add_i16 v1, v2, v3"},
      {{0xCC034001, 0x18020702}, "v_pk_sub_i16 v1, v2, v3"},
      {{0xCC014001, 0x18020702}, "v_pk_mul_lo_u16 v1, v2, v3"},
      {{0xCC044001, 0x18020702}, "v_pk_lshlrev_b16 v1, v2, v3"},
      {{0xCC054001, 0x18020702}, "v_pk_lshrrev_b16 v1, v2, v3"},
      {{0xCC064001, 0x18020702}, "v_pk_ashrrev_i16 v1, v2, v3"},
      {{0xCC074001, 0x18020702}, "v_pk_max_i16 v1, v2, v3"},
      {{0xCC084001, 0x18020702}, "v_pk_min_i16 v1, v2, v3"},
      {{0xCC0C4001, 0x18020702}, "v_pk_max_u16 v1, v2, v3"},
      {{0xCC0D4001, 0x18020702}, "v_pk_min_u16 v1, v2, v3"},
      {{0xCC094001, 0x1C120702}, "v_pk_mad_u16 v1, v2, v3, v4"},
      {{0xCC004001, 0x1C120702}, "v_pk_mad_i16 v1, v2, v3, v4"},
      {{0xCC200001, 0x04120702}, "v_fma_mix_f32 v1, v2, v3, v4"},
      {{0xCC134001, 0x1C120702}, "v_dot2_f32_f16 v1, v2, v3, v4"},
      {{0x7E021502}, "v_cvt_f16_f32_e32 v1.l, v2"},
      {{0x7E023902}, "v_mov_b16_e32 v1.l, v2.l"},
      {{0xCC0A4001, 0x18020702}, "v_pk_add_u16 v1, v2, v3"},
  };
  for (const auto& [words, text] : cases) EXPECT_EQ(dis(words), text);
}

// DPP16 and DPP8 forms of VOP1, VOP2, VOPC and VOP3: words from llvm-mc-22 -mcpu=gfx1100
// -show-encoding, text as llvm-mc-22 --disassemble prints those words.
TEST(Decoder, DataParallelPrimitives) {
  const std::pair<std::vector<uint32_t>, const char*> cases[] = {
      {{0x7E0202FA, 0xFF00B102}, "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"},
      {{0x060206FA, 0xFF090102}, "v_add_f32_dpp v1, v2, v3 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1"},
      {{0x4A0206FA, 0x5A051302}, "v_add_nc_u32_dpp v1, v2, v3 row_shr:3 row_mask:0x5 bank_mask:0xa fi:1"},
      {{0x7E0202FA, 0xFF014002}, "v_mov_b32_dpp v1, v2 row_mirror row_mask:0xf bank_mask:0xf"},
      {{0x7E0202FA, 0xFF014102}, "v_mov_b32_dpp v1, v2 row_half_mirror row_mask:0xf bank_mask:0xf"},
      {{0x7E0202FA, 0xFF012702}, "v_mov_b32_dpp v1, v2 row_ror:7 row_mask:0xf bank_mask:0xf"},
      {{0x7E0202FA, 0xFF015302}, "v_mov_b32_dpp v1, v2 row_share:3 row_mask:0xf bank_mask:0xf"},
      {{0x7E0202FA, 0xFF016502}, "v_mov_b32_dpp v1, v2 row_xmask:5 row_mask:0xf bank_mask:0xf"},
      {{0x7E0202E9, 0x05397702}, "v_mov_b32_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0]"},
      {{0xD5030201, 0x200206FA, 0xFF000002}, "v_add_f32_e64_dpp v1, -v2, |v3| quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf"},
      {{0x7C9406FA, 0xFF005502}, "v_cmp_eq_u32 vcc_lo, v2, v3 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf"},
      {{0xD44A000A, 0x000206FA, 0xFF005502}, "v_cmp_eq_u32_e64_dpp s10, v2, v3 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf"},
      {{0xD6130001, 0x041206FA, 0xFF011102}, "v_fma_f32_e64_dpp v1, v2, v3, v4 row_shr:1 row_mask:0xf bank_mask:0xf"},
      {{0xD6130001, 0x041206E9, 0xDE54C102}, "v_fma_f32_e64_dpp v1, v2, v3, v4 dpp8:[1,0,3,2,5,4,7,6]"},
      {{0x7E0202EA, 0x05397702}, "v_mov_b32_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0] fi:1"},
      {{0x7D9406FA, 0xFF005502}, "v_cmpx_eq_u32 v2, v3 quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf"},
      {{0x020206FA, 0xFF005502}, "v_cndmask_b32_dpp v1, v2, v3, vcc_lo quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf"},
      {{0x400206FA, 0xFF010102}, "v_add_co_ci_u32_dpp v1, vcc_lo, v2, v3, vcc_lo row_shl:1 row_mask:0xf bank_mask:0xf"},
      {{0x640206FA, 0xFF00B102}, "v_add_f16_dpp v1.l, v2.l, v3.l quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"},
      {{0x060206FA, 0x319CB102}, "v_add_f32_dpp v1, -v2, |v3| quad_perm:[1,0,3,2] row_mask:0x3 bank_mask:0x1 bound_ctrl:1 fi:1"},
      {{0x7C2206E9, 0xDE54C102}, "v_cmp_lt_f32 vcc_lo, v2, v3 dpp8:[1,0,3,2,5,4,7,6]"},
  };
  for (const auto& [words, text] : cases) EXPECT_EQ(dis(words), text);
  // The DPP dword is part of the instruction.
  EXPECT_EQ(decode(std::vector<uint32_t>{0x7E0202FA, 0xFF00B102})->size, 8);
  EXPECT_EQ(decode(std::vector<uint32_t>{0xD6130001, 0x041206FA, 0xFF011102})->size, 12);
  std::string why;
  EXPECT_FALSE(decode(std::vector<uint32_t>{0x7E0202FA}, &why)); // DPP dword missing
  EXPECT_NE(why.find("DPP dword missing"), std::string::npos) << why;
}

TEST(Decoder, UnimplementedEncodingsAreNamed) {
  std::string why;
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xCC500000, 0}, &why)); // VOP3P 0x50: gfx12's only
  EXPECT_NE(why.find("VOP3P"), std::string::npos);
  // A WMMA's matrices are VGPRs (llvm-objdump-22 marks s[0:7] as C invalid).
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xCC404001, 0x18020702}, &why));
  EXPECT_NE(why.find("WMMA operands"), std::string::npos) << why;
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xD7000402}, &why)); // VOP3 without dword 1
  // scratch_atomic_add_u32 does not exist (llvm-mc-22 cannot decode these words either).
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xDCD50000, 0x047C0201}, &why));
  EXPECT_NE(why.find("SCRATCH atomic"), std::string::npos) << why;
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xED0D407C, 0x01000004, 0x00000001}, Gfx::v12, &why));
  EXPECT_NE(why.find("SCRATCH atomic"), std::string::npos) << why;
}

// What amcl refuses to run faults with the instruction's name (llvm-mc-22 --disassemble's
// mnemonic for these words): compute operations not executed yet and graphics-only encodings.
TEST(Decoder, RefusedInstructionsAreNamed) {
  struct Case {
    Gfx gfx;
    std::vector<uint32_t> words;
    const char* name;
  };
  const Case cases[] = {
      {Gfx::v12, {0xBE805308}, "s_alloc_vgpr"},
      {Gfx::v11, {0xBB000010}, "s_subvector_loop_begin"},
      {Gfx::v11, {0xF800080F, 0x04030201}, "exp"},
      {Gfx::v12, {0xF800080F, 0x04030201}, "export"},
      {Gfx::v11, {0xCD000001, 0x04060502}, "v_interp_p10_f32"},
      {Gfx::v11, {0xCE010001}, "lds_param_load"},
      {Gfx::v12, {0xCE110001}, "ds_direct_load"},
  };
  for (const Case& c : cases) {
    std::string why;
    EXPECT_FALSE(decode(c.words, c.gfx, &why)) << c.name;
    EXPECT_EQ(why.rfind(c.name, 0), 0u) << why;
  }
  // An opcode nothing knows keeps the encoding's description.
  std::string why;
  EXPECT_FALSE(decode(std::vector<uint32_t>{0xCC7F0000, 0}, &why));
  EXPECT_EQ(why.rfind("unimplemented VOP3P opcode", 0), 0u) << why;
}

// Every compute instruction that still faults by name, per generation, with the words
// llvm-mc-22 -show-encoding gives for it: the list in not_executed.cpp cannot grow (or shrink)
// without this test changing, and each fault says why the instruction cannot run.
TEST(Decoder, NotExecutedListIsEnumerated) {
  struct Case {
    std::vector<uint32_t> words;
    const char* name;
    const char* why; // a part of the reason
  };
  const std::vector<Case> gfx11 = {
      {{0xBB000010}, "s_subvector_loop_begin", "no pseudocode"}, // s_subvector_loop_begin s0, 16
      {{0xBB800010}, "s_subvector_loop_end", "no pseudocode"},
  };
  const std::vector<Case> gfx12 = {
      {{0xBE8051C1}, "s_barrier_init", "no named barriers"}, // s_barrier_init -1
      {{0xBE8052C1}, "s_barrier_join", "no named barriers"}, // s_barrier_join -1
      {{0xBE805388}, "s_alloc_vgpr", "DVGPR_EN"},            // s_alloc_vgpr 8
      {{0xBF950000}, "s_barrier_leave", "no named barriers"},
  };
  for (Gfx gfx : {Gfx::v11, Gfx::v12}) {
    const std::vector<Case>& cases = gfx == Gfx::v11 ? gfx11 : gfx12;
    std::vector<std::string> names;
    for (const Case& c : cases) {
      names.emplace_back(c.name);
      std::string why;
      EXPECT_FALSE(decode(c.words, gfx, &why)) << c.name;
      EXPECT_EQ(why.rfind(std::string(c.name) + " cannot run: ", 0), 0u) << why;
      EXPECT_NE(why.find(c.why), std::string::npos) << why;
    }
    EXPECT_EQ(sim::shader::not_executed_names(gfx), names);
  }
}

#ifdef AMCL_LLVM_OBJDUMP
// Compiles the sample kernel in process and checks that every instruction of every function
// in .text decodes exactly as llvm-objdump-22 prints it.
TEST(Decoder, AgreesWithLlvmObjdumpOnVectorAdd) {
  amcl::compiler::BuildRequest req;
  req.source = "__kernel void vector_add(__global const float* a, __global const float* b,"
               " __global float* c, uint n) { size_t i = get_global_id(0);"
               " if (i < n) c[i] = a[i] + b[i]; }";
  auto res = amcl::compiler::build(req);
  ASSERT_TRUE(res.ok) << res.log;
  char path[] = "/tmp/amcl-decode-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, res.binary.data(), res.binary.size()), ssize_t(res.binary.size()));
  close(fd);
  std::string cmd = std::string(AMCL_LLVM_OBJDUMP) + " -d --mcpu=gfx1100 " + path;
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p);
  char line[512];
  int checked = 0;
  while (fgets(line, sizeof line, p)) {
    std::string s(line);
    auto slash = s.find("//");
    if (s.empty() || s[0] != '\t' || slash == std::string::npos) continue;
    std::string text = s.substr(1, slash - 1);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    std::istringstream hex(s.substr(s.find(':', slash) + 1));
    std::vector<uint32_t> words;
    std::string w;
    while (hex >> w && w[0] != '<') words.push_back(uint32_t(std::stoul(w, nullptr, 16)));
    EXPECT_EQ(dis(words), text) << "words at " << s.substr(slash);
    ++checked;
  }
  pclose(p);
  unlink(path);
  EXPECT_GT(checked, 20);
}
#endif
