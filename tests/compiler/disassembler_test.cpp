// compiler::disassemble_one against llvm-objdump-22's text for the same words (objdump -d
// --mcpu=gfx1100 / gfx1201 of what llvm-mc-22 assembled from these lines).
#include "compiler/disassembler.h"

#include <gtest/gtest.h>

#include <vector>

using amcl::compiler::disassemble_one;

namespace {

struct Case {
  const char* target;
  std::vector<uint32_t> words;
  const char* text;
  unsigned size;
};

} // namespace

TEST(DisassembleOne, MatchesLlvmObjdump) {
  const Case cases[] = {
      {"gfx1100", {0xDC8E0000, 0x017C0002}, "global_load_d16_hi_b16 v1, v[2:3], off", 8},
      {"gfx1100",
       {0xF0000F00, 0x00020401},
       "image_load v[4:7], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D",
       8},
      {"gfx1100", {0xBFB00000, 0xDEADBEEF, 0xDEADBEEF}, "s_endpgm", 4},
      {"gfx1100", {0x060002FF, 0x40490FDB}, "v_add_f32_e32 v0, 0x40490fdb, v1", 8},
      {"gfx1201",
       {0xEE08C07C, 0x00000001, 0x00000002},
       "global_load_d16_hi_b16 v1, v[2:3], off",
       12},
      {"gfx1201",
       {0xD3C00000, 0x00001004, 0x00000001},
       "image_load v[4:7], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D",
       12},
      {"gfx1201", {0xBFB00000}, "s_endpgm", 4},
  };
  for (const Case& c : cases) {
    const auto d = disassemble_one(c.target, c.words);
    EXPECT_TRUE(d.valid) << c.text;
    EXPECT_EQ(d.text, c.text) << c.target;
    EXPECT_EQ(d.size, c.size) << c.text;
  }
}

TEST(DisassembleOne, WordsThatAreNoInstructionAreAnInvalidEncoding) {
  // llvm-objdump prints ".long 0xffffffff" for this word.
  const uint32_t bad[] = {0xFFFFFFFF};
  auto d = disassemble_one("gfx1100", bad);
  EXPECT_FALSE(d.valid);
  EXPECT_EQ(d.text, "invalid encoding");
  EXPECT_EQ(d.size, 0u);
  // An instruction cut short: the first dword of a two-dword global load alone.
  const uint32_t cut[] = {0xDC8E0000};
  EXPECT_EQ(disassemble_one("gfx1100", cut).text, "invalid encoding");
  EXPECT_EQ(disassemble_one("gfx1100", {}).text, "invalid encoding");
  // A target LLVM does not know.
  const uint32_t endpgm[] = {0xBFB00000};
  EXPECT_FALSE(disassemble_one("gfx9999", endpgm).valid);
}
