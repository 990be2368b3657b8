// The opcode tables against LLVM: every operation of each generation's table is encoded with
// plain operands, and llvm-mc-22 --disassemble must print for those words exactly what amcl's
// decoder and printer make of them. This pins every opcode number (and gfx12's renames,
// renumberings and removals), including those the kernel corpus never makes LLVM emit.
#include "sim/shader/isa.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#ifdef AMCL_LLVM_MC
namespace {

using sim::shader::Format;
using sim::shader::Gfx;
using sim::shader::Op;
using Words = std::vector<uint32_t>;

// Operands: SGPRs s4 (destination), s8, s12; VGPRs v1 (destination), v2, v3, v4; null = 124.
constexpr uint32_t kNull = 124;

// One encoding per operation (several for VOPC families, FLAT segments and VOP3 forms), with
// field positions from the RDNA3/RDNA4 ISA manuals' microcode formats (the decoder's).
std::vector<Words> encodings(Op op, Gfx gfx) {
  const auto code = sim::shader::op_code(op, gfx);
  if (!code) return {};
  const uint32_t c = *code;
  std::vector<Words> out;
  const bool k = sim::shader::is_fmamk(op) || sim::shader::is_fmaak(op);
  const auto& info = sim::shader::op_info(op);
  // Fields of operands an operation does not have stay 0, as LLVM's decoder requires.
  const uint32_t sdst = info.dst_dwords ? 4u : 0u, ssrc0 = info.src_dwords[0] ? 8u : 0u;
  const uint32_t vsrc2 = info.src_dwords[2] ? 260u << 18 : 0u;
  switch (sim::shader::op_format(op, gfx)) {
  case Format::SOP2:
    out.push_back({0x80000000u | c << 23 | 4u << 16 | 12u << 8 | 8u});
    if (k) out.back().push_back(0x11223344u);
    break;
  case Format::SOP1: out.push_back({0xBE800000u | sdst << 16 | c << 8 | ssrc0}); break;
  case Format::SOPC: out.push_back({0xBF000000u | c << 16 | 12u << 8 | 8u}); break;
  case Format::SOPK:
    out.push_back({0xB0000000u | c << 23 | 4u << 16 | 0x10u});
    if (op == Op::s_setreg_imm32_b32) out.back().push_back(0x11223344u);
    break;
  case Format::SOPP: out.push_back({0xBF800000u | c << 16}); break;
  case Format::SMEM:
    if (gfx == Gfx::v12)
      out.push_back({0xF4000000u | c << 13 | 4u << 6 | 4u, kNull << 25 | 0x10u});
    else
      out.push_back({0xF4000000u | c << 18 | 4u << 6 | 4u, kNull << 25 | 0x10u});
    break;
  case Format::VOP1:
    if (op == Op::v_nop || op == Op::v_pipeflush) {
      out.push_back({0x7E000000u | c << 9});
      break;
    }
    out.push_back({0x7E000000u | 1u << 17 | c << 9 | 258u});
    if (!is_vop1_only(op)) out.push_back({0xD4000000u | (384 + c) << 16 | 1u, 258u});
    break;
  case Format::VOP2:
    out.push_back({c << 25 | 1u << 17 | 3u << 9 | 258u});
    if (k) out.back().push_back(0x11223344u);
    else if (!sim::shader::is_vop2_only(op)) out.push_back({0xD4000000u | (256 + c) << 16 | 1u, 258u | 259u << 9 | vsrc2});
    break;
  case Format::VOPC: {
    const unsigned n = std::string(sim::shader::op_info(op).name).find("class") != std::string::npos ? 1
                       : std::string(sim::shader::op_info(op).name).ends_with("f16") ||
                               std::string(sim::shader::op_info(op).name).ends_with("f32") ||
                               std::string(sim::shader::op_info(op).name).ends_with("f64")
                           ? 16 : 8;
    // No always-false/always-true predicates for 16-bit integers, nor for any family on gfx12.
    const bool no_f_t = op == Op::v_cmp_i16 || op == Op::v_cmp_u16 || (gfx == Gfx::v12 && n > 1);
    for (uint32_t p = 0; p < n; ++p)
      for (uint32_t x : {0u, 0x80u}) {
        if (no_f_t && (p == 0 || p == n - 1)) continue;
        out.push_back({0x7C000000u | (c + p + x) << 17 | 3u << 9 | 258u});
        out.push_back({0xD4000000u | (c + p + x) << 16 | 10u, 258u | 259u << 9});
      }
    break;
  }
  case Format::VOP3:
    if (op == Op::v_readlane_b32) out.push_back({0xD4000000u | c << 16 | 1u, 258u | 12u << 9});
    else if (op == Op::v_writelane_b32) out.push_back({0xD4000000u | c << 16 | 1u, 8u | 12u << 9});
    else if (sim::shader::has_scalar_dst(op)) // gfx12's v_s_*: scalar source and destination
      out.push_back({0xD4000000u | c << 16 | 1u, 8u});
    else if (op == Op::v_permlane16_b32 || op == Op::v_permlanex16_b32) {
      out.push_back({0xD4000000u | c << 16 | 1u, 258u | 3u << 9 | 4u << 18});
      out.push_back({0xD4000000u | c << 16 | 3u << 11 | 1u, 258u | 3u << 9 | 4u << 18}); // FI, BC
    } else
      out.push_back({0xD4000000u | c << 16 | 1u, 258u | 259u << 9 | vsrc2});
    break;
  case Format::VOP3SD:
    out.push_back({0xD4000000u | c << 16 | 10u << 8 | 1u, 258u | 259u << 9 | vsrc2});
    break;
  case Format::VOP3P:
    out.push_back({0xCC000000u | c << 16 | (vsrc2 ? 1u << 14 : 0u) | 1u, 258u | 259u << 9 | vsrc2 | 3u << 27});
    break;
  case Format::DS:
    if (op == Op::ds_nop) { // no operands: every field 0
      out.push_back({0xD8000000u | c << 18, 0u});
      break;
    }
    // ds_append, ds_consume and the _addtid_ forms have no ADDR: its field stays 0.
    out.push_back({0xD8000000u | c << 18, (ds_without_addr(op) ? 0u : 1u) |
                                              (info.src_dwords[0] ? 2u << 8 : 0u) |
                                              (info.src_dwords[1] ? 3u << 16 : 0u) |
                                              (info.dst_dwords ? 4u << 24 : 0u)});
    break;
  case Format::FLAT:
    for (uint32_t seg = 0; seg < 3; ++seg) {
      if (seg == 1 && info.dst_dwords && info.src_dwords[0]) continue; // no scratch atomics
      if (is_global_only(op) && seg != 2) continue;                   // global only
      if (is_block_move(op) && seg == 0) continue;                    // global and scratch
      if (op == Op::atomic_csub_u32 && gfx == Gfx::v11 && seg != 2) continue; // global only
      if (gfx == Gfx::v12)
        out.push_back({0xEC000000u | seg << 24 | c << 14 | kNull,
                       4u | 2u << 23 | (seg == 1 ? 1u << 17 : 0u), 1u});
      else
        out.push_back({0xDC000000u | c << 18 | seg << 16,
                       1u | 2u << 8 | kNull << 16 | (seg == 1 ? 1u << 23 : 0u) | 4u << 24});
    }
    break;
  case Format::MUBUF: out.push_back({0xE0000000u | c << 18, 0}); break;
  case Format::MIMG: // dmask 0xf, 2D; vdata v1, addresses from v2, resource s[8:15], sampler s[16:19]
    if (gfx == Gfx::v11)
      out.push_back({0xF0000000u | c << 18 | 0xfu << 8 | 1u << 2,
                     (c >= 27 ? 4u << 26 : 0u) | 2u << 16 | 1u << 8 | 2u});
    else if (c >= 256) // VSAMPLE
      out.push_back({0xE4000000u | 0xfu << 22 | (c - 256) << 14 | 1u, 16u << 23 | 8u << 9 | 1u, 0x0302u});
    else
      out.push_back({0xD0000000u | 0xfu << 22 | c << 14 | 1u, 8u << 9 | 1u, 0x0302u});
    break;
  case Format::VOPD: break; // pairs: covered by the decoder and corpus tests
  }
  return out;
}

std::string bytes(const Words& w) {
  std::string s;
  char b[8];
  for (uint32_t word : w)
    for (int i = 0; i < 4; ++i) {
      std::snprintf(b, sizeof b, "0x%02x,", (word >> (8 * i)) & 0xff);
      s += b;
    }
  s.pop_back();
  return s;
}

// llvm-mc-22's disassembly of each entry of `all`: entries are separated by an "s_nop 7"
// marker, so an entry LLVM cannot decode (a warning, no text) stays in step with the others.
constexpr const char* kMarker = "s_nop 7";
std::vector<std::string> llvm_disassemble(const std::vector<Words>& all, const char* cpu) {
  char path[] = "/tmp/amcl-opcodes-XXXXXX";
  const int fd = mkstemp(path);
  std::string input;
  for (const Words& w : all) input += bytes(w) + "\n" + bytes({0xBF800007u}) + "\n";
  EXPECT_EQ(write(fd, input.data(), input.size()), ssize_t(input.size()));
  close(fd);
  // Appended piece by piece: GCC 12 takes `std::string(literal) + ...` for a 16-byte overflow.
  std::string cmd = AMCL_LLVM_MC;
  cmd.append(" --disassemble -arch=amdgcn -mcpu=").append(cpu).append(" ").append(path).append(" 2>/dev/null");
  std::vector<std::string> out(1);
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char line[1024];
    while (fgets(line, sizeof line, p)) {
      std::string text(line);
      text.erase(0, text.find_first_not_of(" \t"));
      while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
      if (text.empty() || text[0] == '.') continue; // .text
      if (text == kMarker) out.emplace_back();
      else out.back() += (out.back().empty() ? "" : " | ") + text;
    }
    pclose(p);
  }
  unlink(path);
  return out;
}

class OpcodeTable : public testing::TestWithParam<Gfx> {};

TEST_P(OpcodeTable, EveryOperationDisassemblesAsLlvmMc) {
  const Gfx gfx = GetParam();
  std::vector<Words> all;
  std::vector<Op> owner;
  for (size_t i = 0; i < size_t(Op::kCount); ++i)
    for (Words& w : encodings(Op(i), gfx)) {
      all.push_back(std::move(w));
      owner.push_back(Op(i));
    }
  const auto llvm = llvm_disassemble(all, gfx == Gfx::v12 ? "gfx1201" : "gfx1100");
  ASSERT_EQ(llvm.size(), all.size() + 1) << "llvm-mc's output is out of step with its input";
  size_t checked = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    std::string why;
    const auto inst = sim::shader::decode(all[i], gfx, &why);
    const std::string name = sim::shader::op_name(owner[i], gfx);
    if (!inst) {
      ADD_FAILURE() << name << " (" << bytes(all[i]) << "): amcl cannot decode its own table entry: " << why;
      continue;
    }
    if (inst->size / 4 != all[i].size())
      ADD_FAILURE() << name << " (" << bytes(all[i]) << "): amcl reads " << inst->size << " bytes";
    if (llvm[i].empty()) {
      ADD_FAILURE() << name << " (" << bytes(all[i]) << "): llvm-mc does not decode these words, amcl says '"
                    << sim::shader::disassemble(*inst) << "'";
      continue;
    }
    const std::string ours = sim::shader::disassemble(*inst);
    if (ours != llvm[i])
      ADD_FAILURE() << name << " (" << bytes(all[i]) << "): amcl '" << ours << "' llvm-mc '" << llvm[i] << "'";
    ++checked;
  }
  std::printf("%zu encodings checked\n", checked);
}

INSTANTIATE_TEST_SUITE_P(Generations, OpcodeTable, testing::Values(Gfx::v11, Gfx::v12),
                         [](const auto& info) { return info.param == Gfx::v11 ? "gfx11" : "gfx12"; });

} // namespace
#endif
