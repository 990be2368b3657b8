// Data-parallel primitives (DPP16 and DPP8) on the emulated shader core, reached from OpenCL C
// through clang's __builtin_amdgcn_update_dpp and __builtin_amdgcn_mov_dpp8 (which LLVM 22
// compiles to v_mov_b32_dpp). Each DPP control is checked against a host model of the RDNA3
// ISA manual's rules, with every lane active and inside a divergent branch (so some source
// lanes are disabled), with and without BOUND_CTRL, and with row and bank masks. The branch
// works on different data (x ^ 0x80000000) so the compiler cannot reuse the unconditional
// result there.
#include "cl_helpers.h"

#include <cstdint>
#include <functional>
#include <string>

using amcl_test::Env;

namespace {

constexpr uint32_t kOld = 0xdeadbeef; // update_dpp's "old": what lanes DPP does not write keep
constexpr size_t kItems = 256, kWave = 32;

struct Case {
  const char* name;
  unsigned ctrl, row_mask, bank_mask;
  bool bound_ctrl;
};
const Case kCases[] = {
    {"quad_perm_3210", 0x1b, 0xf, 0xf, false}, {"row_shl_1", 0x101, 0xf, 0xf, false},
    {"row_shl_1_bc", 0x101, 0xf, 0xf, true},   {"row_shr_3", 0x113, 0xf, 0xf, false},
    {"row_ror_5", 0x125, 0xf, 0xf, false},     {"row_mirror", 0x140, 0xf, 0xf, false},
    {"row_half_mirror", 0x141, 0xf, 0xf, false}, {"row_share_7", 0x157, 0xf, 0xf, false},
    {"row_xmask_9", 0x169, 0xf, 0xf, false},   {"masked_rows_banks", 0x1b, 0x1, 0x5, false},
    {"masked_bc", 0x111, 0x2, 0xa, true},
};

// DPP8 selects as the builtin takes them: lane i's select in bits [3i+2:3i].
constexpr uint32_t sel8(const unsigned (&s)[8]) {
  uint32_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v |= s[i] << (3 * i);
  return v;
}
constexpr unsigned kRotate[8] = {1, 2, 3, 4, 5, 6, 7, 0}, kReverse[8] = {7, 6, 5, 4, 3, 2, 1, 0};

std::string source() {
  std::string s = "#define DPP(name, ctrl, rm, bm, bc) kernel void name(global uint* out, global const uint* in) { \\\n"
                  "  size_t g = get_global_id(0); uint x = in[g]; \\\n"
                  "  out[2 * g] = __builtin_amdgcn_update_dpp(0xdeadbeefu, x, ctrl, rm, bm, bc); \\\n"
                  "  uint y = 0xdeadbeefu; \\\n"
                  "  if (g % 3 != 0) y = __builtin_amdgcn_update_dpp(0xdeadbeefu, x ^ 0x80000000u, ctrl, rm, bm, bc); \\\n"
                  "  out[2 * g + 1] = y; }\n"
                  "#define DPP8(name, sel) kernel void name(global uint* out, global const uint* in) { \\\n"
                  "  size_t g = get_global_id(0); uint x = in[g]; \\\n"
                  "  out[2 * g] = __builtin_amdgcn_mov_dpp8(x, sel); \\\n"
                  "  uint y = 0xdeadbeefu; \\\n"
                  "  if (g % 3 != 0) y = __builtin_amdgcn_mov_dpp8(x ^ 0x80000000u, sel); \\\n"
                  "  out[2 * g + 1] = y; }\n";
  for (const Case& c : kCases)
    s += "DPP(" + std::string(c.name) + ", " + std::to_string(c.ctrl) + ", " + std::to_string(c.row_mask) +
         ", " + std::to_string(c.bank_mask) + ", " + (c.bound_ctrl ? "true" : "false") + ")\n";
  s += "DPP8(dpp8_rotate, " + std::to_string(sel8(kRotate)) + ")\n";
  s += "DPP8(dpp8_reverse, " + std::to_string(sel8(kReverse)) + ")\n";
  return s;
}

// Host model of one wave for a DPP16 control: lane -> source lane, or -1 when out of its row.
int dpp16_source(unsigned ctrl, unsigned lane) {
  const unsigned n = ctrl & 15, row = lane & ~15u, r = lane & 15;
  if (ctrl <= 0xff) return int((lane & ~3u) | ((ctrl >> (2 * (lane & 3))) & 3));
  switch (ctrl & ~15u) {
  case 0x100: return r + n < 16 ? int(lane + n) : -1;
  case 0x110: return r >= n ? int(lane - n) : -1;
  case 0x120: return int(row | ((r - n) & 15));
  case 0x150: return int(row | n);
  case 0x160: return int(row | (r ^ n));
  }
  if (ctrl == 0x140) return int(row | (15 - r));
  if (ctrl == 0x141) return int((lane & ~7u) | (7 - (lane & 7)));
  return -2;
}

// Expected word for lane `lane` of a wave whose inputs are in[base..base+31]; `active(l)` says
// which lanes run the instruction.
uint32_t expect16(const Case& c, const uint32_t* in, unsigned lane, const std::function<bool(unsigned)>& active) {
  if (!active(lane)) return kOld;
  if (!((c.row_mask >> (lane >> 4)) & 1) || !((c.bank_mask >> ((lane >> 2) & 3)) & 1)) return kOld;
  const int src = dpp16_source(c.ctrl, lane);
  if (src < 0 || !active(unsigned(src))) return c.bound_ctrl ? 0u : kOld;
  return in[src];
}

uint32_t expect8(const unsigned (&sel)[8], const uint32_t* in, unsigned lane,
                 const std::function<bool(unsigned)>& active) {
  if (!active(lane)) return kOld;
  const unsigned src = (lane & ~7u) | sel[lane & 7];
  return active(src) ? in[src] : 0u; // DPP8 reads a disabled lane as 0
}

class DppTest : public testing::Test {
protected:
  void run(const char* name, const std::function<uint32_t(const uint32_t*, unsigned, const std::function<bool(unsigned)>&)>& model) {
    cl_kernel k = clCreateKernel(program_, name, nullptr);
    ASSERT_TRUE(k) << name;
    std::vector<uint32_t> in(kItems), flipped(kItems), out(2 * kItems, 0);
    for (size_t i = 0; i < kItems; ++i) in[i] = uint32_t(i * 2654435761u) | 1u, flipped[i] = in[i] ^ 0x80000000u;
    cl_mem din = env_.buffer(in.size() * 4, in.data()), dout = env_.buffer(out.size() * 4);
    clSetKernelArg(k, 0, sizeof dout, &dout);
    clSetKernelArg(k, 1, sizeof din, &din);
    const size_t global = kItems, local = 64;
    ASSERT_EQ(clEnqueueNDRangeKernel(env_.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(env_.queue, dout, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr), CL_SUCCESS);
    unsigned bad = 0;
    for (size_t base = 0; base < kItems; base += kWave)
      for (unsigned lane = 0; lane < kWave; ++lane) {
        const size_t g = base + lane;
        const auto all = [](unsigned) { return true; };
        const auto branch = [base](unsigned l) { return (base + l) % 3 != 0; };
        const uint32_t want[2] = {model(&in[base], lane, all), model(&flipped[base], lane, branch)};
        for (int v = 0; v < 2; ++v)
          if (out[2 * g + v] != want[v] && bad++ < 6)
            ADD_FAILURE() << name << (v ? " (divergent)" : "") << " work-item " << g << ": got 0x" << std::hex
                          << out[2 * g + v] << ", expected 0x" << want[v];
      }
    EXPECT_EQ(bad, 0u) << name;
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
  }
  void SetUp() override {
    ASSERT_TRUE(env_.context);
    program_ = env_.program(source().c_str());
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    if (program_) clReleaseProgram(program_);
  }
  Env env_;
  cl_program program_ = nullptr;
};

} // namespace

TEST_F(DppTest, Dpp16ControlsMasksAndBoundCtrlMatchTheIsa) {
  for (const Case& c : kCases)
    run(c.name, [&c](const uint32_t* in, unsigned lane, const std::function<bool(unsigned)>& active) {
      return expect16(c, in, lane, active);
    });
}

TEST_F(DppTest, Dpp8SelectsMatchTheIsa) {
  run("dpp8_rotate", [](const uint32_t* in, unsigned lane, const std::function<bool(unsigned)>& active) {
    return expect8(kRotate, in, lane, active);
  });
  run("dpp8_reverse", [](const uint32_t* in, unsigned lane, const std::function<bool(unsigned)>& active) {
    return expect8(kReverse, in, lane, active);
  });
}
