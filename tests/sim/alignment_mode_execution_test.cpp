// SH_MEM_CONFIG.ALIGNMENT_MODE as the shader core applies it to misaligned global and LDS accesses:
// UNALIGNED reads the bytes asked for, DWORD rounds the address down to the access's unit
// (its size, at most a dword), DWORD_STRICT and STRICT fault. A hand-assembled program loads a
// dwordx4 from byte 1 and a short from byte 3 of a buffer holding 0, 1, 2, ... and stores both.
#include "am/hw/gc_regs.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kProgram[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x7E020280,             // v_mov_b32_e32 v1, 0
    0xDC5E0001, 0x02020001, // global_load_b128 v[2:5], v1, s[2:3] offset:1
    0xDC4A0003, 0x06020001, // global_load_u16 v6, v1, s[2:3] offset:3
    0xBF8903F7,             // s_waitcnt vmcnt(0)
    0xDC760100, 0x00020201, // global_store_b128 v1, v[2:5], s[2:3] offset:256
    0xDC6A0110, 0x00020601, // global_store_b32 v1, v6, s[2:3] offset:272
    0xBFB00000,             // s_endpgm
};

DispatchResult run(FlatMemory& mem, uint32_t alignment_mode) {
  sim::test::put_words(mem, kCode, kProgram);
  mem.put<uint64_t>(kArgs, kBuf);
  for (uint8_t i = 0; i < 32; ++i) mem.put<uint8_t>(kBuf + i, i);
  LaunchState L = sim::test::one_group(kCode, kArgs);
  L.alignment_mode = alignment_mode;
  return sim::test::dispatch(L, mem);
}

// llvm-mc-22 -mcpu=gfx1100 -show-encoding: LDS bytes 0..7 hold 0..7; a dword loaded from byte 1
// (the plain 32-bit load's fast path) and a short from byte 3 (the general path) are stored.
constexpr uint32_t kLdsProgram[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0x7E020280,             // v_mov_b32_e32 v1, 0
    0x7E0402FF, 0x03020100, // v_mov_b32_e32 v2, 0x3020100
    0x7E0602FF, 0x07060504, // v_mov_b32_e32 v3, 0x7060504
    0xD9340000, 0x00000201, // ds_store_b64 v1, v[2:3]
    0xD8D80001, 0x04000001, // ds_load_b32 v4, v1 offset:1
    0xD8F00003, 0x05000001, // ds_load_u16 v5, v1 offset:3
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC6A0100, 0x00020401, // global_store_b32 v1, v4, s[2:3] offset:256
    0xDC6A0104, 0x00020501, // global_store_b32 v1, v5, s[2:3] offset:260
    0xBFB00000,             // s_endpgm
};

DispatchResult run_lds(FlatMemory& mem, uint32_t alignment_mode) {
  sim::test::put_words(mem, kCode, kLdsProgram);
  mem.put<uint64_t>(kArgs, kBuf);
  LaunchState L = sim::test::one_group(kCode, kArgs);
  L.rsrc2 |= 1u << 15; // 512 bytes of LDS
  L.alignment_mode = alignment_mode;
  return sim::test::dispatch(L, mem);
}

// The 16 loaded bytes as stored at kBuf + 256, and the short at kBuf + 272.
std::vector<uint8_t> loaded(const FlatMemory& mem) {
  std::vector<uint8_t> out;
  for (unsigned i = 0; i < 16; ++i) out.push_back(mem.get<uint8_t>(kBuf + 256 + i));
  return out;
}

std::vector<uint8_t> bytes_from(uint8_t first) {
  std::vector<uint8_t> v;
  for (unsigned i = 0; i < 16; ++i) v.push_back(uint8_t(first + i));
  return v;
}

} // namespace

TEST(AlignmentModeExecution, UnalignedReadsTheBytesAskedFor) {
  FlatMemory mem;
  DispatchResult r = run(mem, am::hw::kAlignUnaligned);
  ASSERT_TRUE(r.ok) << r.fault;
  EXPECT_EQ(loaded(mem), bytes_from(1));
  EXPECT_EQ(mem.get<uint32_t>(kBuf + 272), 0x0403u);
}

TEST(AlignmentModeExecution, DwordModeRoundsTheAddressDownToTheUnit) {
  FlatMemory mem;
  DispatchResult r = run(mem, am::hw::kAlignDword);
  ASSERT_TRUE(r.ok) << r.fault;
  EXPECT_EQ(loaded(mem), bytes_from(0));             // dwordx4 at 1: the dword at 0 on
  EXPECT_EQ(mem.get<uint32_t>(kBuf + 272), 0x0302u); // short at 3: the short at 2
}

TEST(AlignmentModeExecution, StrictModesFaultNamingTheAddress) {
  for (uint32_t mode : {am::hw::kAlignDwordStrict, am::hw::kAlignStrict}) {
    FlatMemory mem;
    DispatchResult r = run(mem, mode);
    EXPECT_FALSE(r.ok) << "mode " << mode;
    EXPECT_NE(r.fault.find("misaligned address 0x13001"), std::string::npos) << r.fault;
    EXPECT_NE(r.fault.find("ALIGNMENT_MODE " + std::to_string(mode)), std::string::npos);
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 256), 0u) << "nothing stored after the fault";
  }
}

TEST(AlignmentModeExecution, LdsAccessesFollowTheModeToo) {
  {
    FlatMemory mem;
    DispatchResult r = run_lds(mem, am::hw::kAlignUnaligned);
    ASSERT_TRUE(r.ok) << r.fault;
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 256), 0x04030201u);
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 260), 0x0403u);
  }
  {
    FlatMemory mem;
    DispatchResult r = run_lds(mem, am::hw::kAlignDword);
    ASSERT_TRUE(r.ok) << r.fault;
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 256), 0x03020100u); // dword at 1: the dword at 0
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 260), 0x0302u);     // short at 3: the short at 2
  }
  FlatMemory mem;
  DispatchResult r = run_lds(mem, am::hw::kAlignStrict);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("misaligned address 0x1"), std::string::npos) << r.fault;
}
