// The shader core runs gfx12 (RDNA4) machine code: the re-laid SMEM (incl. the new byte and
// short loads) and 96-bit VGLOBAL encodings, per-counter waits, the split barrier, 64-bit scalar
// arithmetic, atomics returning through TH_ATOMIC_RETURN, and global_inv. One wave32 work-group
// runs a hand-assembled program on a flat fake memory.
#include "sim/shader/dispatch.h"
#include "sim/shader/worker_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kBase = 0x10000, kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;

struct FlatMemory : MemoryPort {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(0x10000, 0);
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    if (va < kBase || va + len > kBase + bytes.size()) throw MemoryFault(va, write, "unmapped");
    return bytes.data() + (va - kBase);
  }
  template <class T> void put(uint64_t va, T v) { std::memcpy(&bytes[va - kBase], &v, sizeof v); }
  template <class T> T get(uint64_t va) const {
    T v;
    std::memcpy(&v, &bytes[va - kBase], sizeof v);
    return v;
  }
};

// llvm-mc-22 -mcpu=gfx1201 -show-encoding of the text beside each line.
constexpr uint32_t kProgram[] = {
    0xF4002080, 0xF8000000,             // s_load_b64 s[2:3], s[0:1], 0x0
    0xF4016100, 0xF8000008,             // s_load_u16 s4, s[0:1], 0x8
    0xF4010140, 0xF800000A,             // s_load_i8 s5, s[0:1], 0xa
    0xBFC70000,                         // s_wait_kmcnt 0x0
    0xA986FF02, 0x00000100,             // s_add_nc_u64 s[6:7], s[2:3], 0x100
    0xAA880404,                         // s_mul_u64 s[8:9], s[4:5], s[4:5]
    0x30020082,                         // v_lshlrev_b32 v1, 2, v0
    0xEE050002, 0x00000002, 0x00000001, // global_load_b32 v2, v1, s[2:3]
    0xBFC00000,                         // s_wait_loadcnt 0x0
    0x4A040404,                         // v_add_nc_u32 v2, s4, v2
    0xBE804EC1,                         // s_barrier_signal -1
    0xBF94FFFF,                         // s_barrier_wait 0xffff
    0xEE068006, 0x01000000, 0x00000001, // global_store_b32 v1, v2, s[6:7]
    0x7E0A0280,                         // v_mov_b32 v5, 0
    0x7E0C0281,                         // v_mov_b32 v6, 1
    0xEE0D4002, 0x03100004, 0x00020005, // global_atomic_add_u32 v4, v5, v6, s[2:3] offset:512 th:TH_ATOMIC_RETURN
    0xBFC00000,                         // s_wait_loadcnt 0x0
    0xEE068002, 0x02000000, 0x00030001, // global_store_b32 v1, v4, s[2:3] offset:768
    0x7E0E0208,                         // v_mov_b32 v7, s8
    0x7E100209,                         // v_mov_b32 v8, s9
    0xEE06C002, 0x03800000, 0x00040005, // global_store_b64 v5, v[7:8], s[2:3] offset:1024
    0x2C120501,                         // v_max_num_f32 v9, v1, v2
    0xEE0AC07C, 0x00080000, 0x00000000, // global_inv scope:SCOPE_DEV
    0xBFB00000,                         // s_endpgm
};

LaunchState launch() {
  LaunchState L;
  L.pgm_addr = kCode;
  L.rsrc1 = 1;           // 16 VGPRs
  L.rsrc2 = 2u << 1;     // two user SGPRs: the argument block pointer
  L.user_data[0] = uint32_t(kArgs);
  L.group_size[0] = L.last_group_size[0] = 32;
  L.gfx = Gfx::v12;
  return L;
}

} // namespace

TEST(Gfx12Execution, NewEncodingsAndOperationsRun) {
  FlatMemory mem;
  for (size_t i = 0; i < std::size(kProgram); ++i) mem.put(kCode + 4 * i, kProgram[i]);
  mem.put<uint64_t>(kArgs, kBuf);
  mem.put<uint16_t>(kArgs + 8, 0xfff0);
  mem.put<uint8_t>(kArgs + 10, 0x80);
  for (uint32_t i = 0; i < 32; ++i) mem.put(kBuf + 4 * i, 1000 * i);
  WorkerPool pool;
  const DispatchResult r = run_dispatch(launch(), mem, pool);
  ASSERT_TRUE(r.ok) << r.fault;
  std::vector<uint32_t> olds;
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x100 + 4 * i), 1000 * i + 0xfff0) << i; // u16 zero-extended
    olds.push_back(mem.get<uint32_t>(kBuf + 0x300 + 4 * i));
  }
  EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x200), 32u); // every lane's atomic add landed
  std::sort(olds.begin(), olds.end());
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(olds[i], i); // and each got its own old value
  // s[4:5] = 0xfff0 | sign-extended 0x80 << 32, squared modulo 2^64.
  const uint64_t s45 = 0xfff0ull | (uint64_t(0xffffff80u) << 32);
  EXPECT_EQ(mem.get<uint64_t>(kBuf + 0x400), s45 * s45);
}

TEST(Gfx12Execution, Gfx11CodeIsNotGfx12Code) {
  // s_waitcnt (gfx11 SOPP 9) does not exist on gfx12: the dispatch faults and names it.
  FlatMemory mem;
  mem.put<uint32_t>(kCode, 0xBF890000);
  mem.put<uint32_t>(kCode + 4, 0xBFB00000);
  WorkerPool pool;
  const DispatchResult r = run_dispatch(launch(), mem, pool);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("SOPP"), std::string::npos) << r.fault;
  LaunchState l11 = launch();
  l11.gfx = Gfx::v11;
  EXPECT_TRUE(run_dispatch(l11, mem, pool).ok);
}

TEST(Gfx12Execution, BarrierWaitWithoutSignalFaults) {
  FlatMemory mem;
  mem.put<uint32_t>(kCode, 0xBF94FFFF); // s_barrier_wait 0xffff
  mem.put<uint32_t>(kCode + 4, 0xBFB00000);
  WorkerPool pool;
  const DispatchResult r = run_dispatch(launch(), mem, pool);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("s_barrier_wait"), std::string::npos) << r.fault;
}
