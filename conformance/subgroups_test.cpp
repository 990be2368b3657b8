// cl_khr_subgroups / __opencl_c_subgroups (OpenCL C 3.0 §6.15.16, OpenCL 3.0 §5.9.4): the
// device's sub-groups are its waves, wave32 unless the program is built with
// -mwavefrontsize64 (AMCL_SUBGROUPS_WAVE64=1 runs every test that way). Every collective of
// every type is checked against a host model of sub-groups of the wave's width over
// work-groups whose size is not a multiple of it (so the last sub-group of each is partial),
// in one and two dimensions and over non-uniform NDRanges; the queries are checked against the
// same model.
#include "cl_helpers.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <span>

using amcl_test::Env;
using amcl_test::device_info;
using amcl_test::device_list;
using amcl_test::device_string;

namespace {

const bool kWave64 = std::getenv("AMCL_SUBGROUPS_WAVE64") != nullptr;
const size_t kWave = kWave64 ? 64 : 32;
// A wave's lane masks: the bits of the sub-group's possible lanes.
const uint64_t kWaveBits = kWave64 ? ~0ull : 0xffffffffull;

const char* kCollectives = R"(
#define COLLECT(T)                                                                              \
  kernel void collect_##T(global T* out, global const T* in, uint lane) {                      \
    size_t g = get_global_linear_id();                                                          \
    T x = in[g];                                                                                \
    global T* o = out + 10 * g;                                                                 \
    o[0] = sub_group_reduce_add(x);                                                             \
    o[1] = sub_group_reduce_min(x);                                                             \
    o[2] = sub_group_reduce_max(x);                                                             \
    o[3] = sub_group_scan_inclusive_add(x);                                                     \
    o[4] = sub_group_scan_inclusive_min(x);                                                     \
    o[5] = sub_group_scan_inclusive_max(x);                                                     \
    o[6] = sub_group_scan_exclusive_add(x);                                                     \
    o[7] = sub_group_scan_exclusive_min(x);                                                     \
    o[8] = sub_group_scan_exclusive_max(x);                                                     \
    o[9] = sub_group_broadcast(x, lane % get_sub_group_size());                                 \
  }
COLLECT(int) COLLECT(uint) COLLECT(long) COLLECT(ulong) COLLECT(float) COLLECT(double)

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// cl_khr_subgroup_shuffle(_relative), cl_khr_subgroup_non_uniform_vote and half collectives.
kernel void shuffles(global uint* out, global const uint* in) {
  size_t g = get_global_linear_id();
  uint x = in[g], lane = get_sub_group_local_id(), n = get_sub_group_size();
  global uint* o = out + 8 * g;
  o[0] = sub_group_shuffle(x, (x >> 8) % n);
  o[1] = sub_group_shuffle_xor(x, 5);
  o[2] = sub_group_shuffle_up(x, 3);
  o[3] = sub_group_shuffle_down(x, 2);
  ulong wide = sub_group_shuffle(((ulong)x << 32) | (x ^ 0xffffffffu), n - 1 - lane);
  o[4] = (uint)(wide >> 32) ^ (uint)wide;
  o[5] = as_ushort(sub_group_reduce_add((half)(x & 7))) |
         (uint)as_ushort(sub_group_shuffle((half)(x & 1023), 0)) << 16;
  o[6] = sub_group_elect() | sub_group_non_uniform_all_equal((short)(n)) << 1 |
         sub_group_non_uniform_all(x != 0) << 2 | sub_group_non_uniform_any(x % 97 == 0) << 3;
  o[7] = 0;
  if (lane % 3 == 1) // the votes see only the lanes that took the branch
    o[7] = sub_group_elect() | sub_group_non_uniform_all_equal((char)(lane % 3)) << 1 |
           sub_group_non_uniform_any(lane == 4) << 2;
}

// cl_khr_subgroup_non_uniform_arithmetic, from the two thirds of the lanes that take a branch.
kernel void non_uniform(global uint* out, global const uint* in) {
  size_t g = get_global_linear_id();
  uint x = in[g], lane = get_sub_group_local_id();
  global uint* o = out + 8 * g;
  for (int j = 0; j < 8; ++j) o[j] = 0;
  if (lane % 3 != 2) {
    o[0] = sub_group_non_uniform_reduce_add((uchar)x);
    o[1] = sub_group_non_uniform_scan_inclusive_mul(x | 1);
    ulong w = ((ulong)x << 32) | ~x;
    ulong a = sub_group_non_uniform_reduce_and(w), b = sub_group_non_uniform_reduce_or(w),
          c = sub_group_non_uniform_reduce_xor(w);
    o[2] = (uint)a ^ (uint)(a >> 32) * 3;
    o[3] = (uint)b ^ (uint)(b >> 32) * 3;
    o[4] = (uint)c ^ (uint)(c >> 32) * 3;
    o[5] = (ushort)sub_group_non_uniform_scan_exclusive_min((short)x);
    o[6] = as_uint(sub_group_non_uniform_reduce_max(as_float(x & 0x3fffffff)));
    o[7] = sub_group_non_uniform_scan_inclusive_logical_and(x & 4) |
           sub_group_non_uniform_scan_exclusive_logical_or(x & 8) << 1 |
           sub_group_non_uniform_reduce_logical_xor(x & 16) << 2;
  }
}

// cl_khr_subgroup_ballot and cl_khr_subgroup_extended_types.
kernel void ballots(global uint* out, global const uint* in) {
  size_t g = get_global_linear_id();
  uint x = in[g], lane = get_sub_group_local_id(), n = get_sub_group_size();
  global uint* o = out + 8 * g;
  uint4 b = sub_group_ballot(x & 1);
#define M(v) ((v).x ^ (v).y * 13u ^ ((v).z | (v).w) * 7u) // y: lanes 32..63 of a wave64
  o[0] = M(b);
  // Bits above a partial sub-group's size still count, up to the largest sub-group's (as the
  // CTS's subgroup_functions_ballot expects).
  o[1] = sub_group_inverse_ballot(b) | sub_group_ballot_bit_extract(b, (x >> 4) % n) << 1 |
         sub_group_ballot_bit_count((uint4)~0u) << 8 | sub_group_ballot_find_msb((uint4)~0u) << 16;
  o[2] = sub_group_ballot_bit_count(b) | sub_group_ballot_inclusive_scan(b) << 8 |
         sub_group_ballot_exclusive_scan(b) << 16;
  o[3] = b.x | b.y ? sub_group_ballot_find_lsb(b) | sub_group_ballot_find_msb(b) << 8 : 0;
  o[4] = M(get_sub_group_lt_mask()) ^ M(get_sub_group_ge_mask()) * 3 ^ M(get_sub_group_eq_mask()) * 5 ^
         M(get_sub_group_gt_mask()) * 7 ^ M(get_sub_group_le_mask()) * 11;
  short4 v = (short4)((short)x, (short)(x >> 16), (short)lane, (short)-lane);
  short4 w = sub_group_broadcast(v, n - 1);
  o[5] = (ushort)w.x ^ (ushort)w.y * 3u ^ (ushort)w.z * 5u ^ (uint)(ushort)w.w << 16;
  o[6] = (ushort)sub_group_reduce_add((short)x) |
         (uint)(uchar)sub_group_scan_inclusive_max((uchar)x) << 16 |
         (uint)(uchar)sub_group_broadcast_first((char)(x >> 8)) << 24;
  double3 d = sub_group_non_uniform_broadcast((double3)((double)x, (double)lane, 0.5), 0);
  o[7] = (uint)d.x ^ (uint)(d.y * 4.0 + d.z * 2.0);
}

// cl_khr_subgroup_rotate, whole sub-group and clusters of 8, both directions.
kernel void rotates(global uint* out, global const uint* in) {
  size_t g = get_global_linear_id();
  uint x = in[g];
  global uint* o = out + 4 * g;
  o[0] = sub_group_rotate(x, 3);
  o[1] = sub_group_rotate(x, -5);
  o[2] = sub_group_clustered_rotate(x, 2, 8);
  o[3] = (ushort)sub_group_clustered_rotate((short)x, -1, 4);
}

// cl_khr_subgroup_clustered_reduce over clusters of 1 to 32 lanes.
kernel void clustered(global uint* out, global const uint* in) {
  size_t g = get_global_linear_id();
  uint x = in[g];
  global uint* o = out + 8 * g;
  o[0] = sub_group_clustered_reduce_add(x, 4);
  o[1] = sub_group_clustered_reduce_max(x, 8);
  o[2] = sub_group_clustered_reduce_xor(x, 2);
  o[3] = sub_group_clustered_reduce_min(x, 32);
  o[4] = sub_group_clustered_reduce_mul(x | 1, 16);
  o[5] = (uchar)sub_group_clustered_reduce_or((uchar)x, 1);
  o[6] = sub_group_clustered_reduce_logical_and(x & 3, 4) | sub_group_clustered_reduce_logical_or(x & 64, 8) << 1;
  o[7] = as_uint(sub_group_clustered_reduce_add((float)(x & 255), 16));
}

kernel void ids(global uint* out, global const int* pred) {
  size_t g = get_global_linear_id();
  global uint* o = out + 8 * g;
  o[0] = get_sub_group_id();
  o[1] = get_sub_group_local_id();
  o[2] = get_sub_group_size();
  o[3] = get_num_sub_groups();
  o[4] = get_max_sub_group_size();
  o[5] = get_enqueued_num_sub_groups();
  o[6] = sub_group_any(pred[g]) | sub_group_all(pred[g]) << 1;
  // Neighbours in the sub-group exchange values through local memory.
  local uint t[256];
  size_t l = get_local_linear_id();
  t[l] = (uint)g * 3;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint next = get_sub_group_local_id() + 1 < get_sub_group_size() ? l + 1 : l;
  o[7] = t[next];
}
)";

// Work-item linear ids of one work-group split into sub-groups, as the device forms them.
struct Layout {
  size_t global[2], local[2], dims;
  size_t items() const { return global[0] * global[1]; }
  // Calls f(sub-group's global linear ids, its index in the work-group, the work-group's
  // work-item count) for every sub-group.
  void for_each_sub_group(
      const std::function<void(const std::vector<size_t>&, size_t, size_t)>& f) const {
    for (size_t gy = 0; gy < global[1]; gy += local[1])
      for (size_t gx = 0; gx < global[0]; gx += local[0]) {
        const size_t lx = std::min(local[0], global[0] - gx), ly = std::min(local[1], global[1] - gy);
        std::vector<size_t> members;
        size_t index = 0;
        for (size_t y = 0; y < ly; ++y)
          for (size_t x = 0; x < lx; ++x) {
            members.push_back((gy + y) * global[0] + gx + x);
            if (members.size() == kWave) f(members, index++, lx * ly), members.clear();
          }
        if (!members.empty()) f(members, index, lx * ly);
      }
  }
};

// Identities of min and max: the extremes of the type (infinities for floating point).
template <class T> struct Expect {
  static T min_id() {
    if constexpr (std::numeric_limits<T>::is_integer) return std::numeric_limits<T>::min();
    else return -std::numeric_limits<T>::infinity();
  }
  static T max_id() {
    if constexpr (std::numeric_limits<T>::is_integer) return std::numeric_limits<T>::max();
    else return std::numeric_limits<T>::infinity();
  }
};

template <class T>
void check_collectives(Env& env, cl_program prog, const char* type, const Layout& L) {
  SCOPED_TRACE(std::string(type) + " over local " + std::to_string(L.local[0]) + "x" +
               std::to_string(L.local[1]));
  std::mt19937_64 rng(7);
  std::vector<T> in(L.items());
  // Small integral values: float sums are exact in any order and signed sums cannot overflow.
  for (T& v : in) v = T(int64_t(rng() % 2001) - (std::is_unsigned_v<T> ? 0 : 1000));
  const cl_uint lane = 5; // modulo each sub-group's size: a uniform, valid lane
  cl_int err;
  cl_kernel k = clCreateKernel(prog, (std::string("collect_") + type).c_str(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem min = env.buffer(in.size() * sizeof(T), in.data());
  cl_mem mout = env.buffer(in.size() * 10 * sizeof(T));
  clSetKernelArg(k, 0, sizeof mout, &mout);
  clSetKernelArg(k, 1, sizeof min, &min);
  clSetKernelArg(k, 2, sizeof lane, &lane);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, cl_uint(L.dims), nullptr, L.global, L.local, 0,
                                   nullptr, nullptr),
            CL_SUCCESS);
  std::vector<T> out(in.size() * 10);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, mout, CL_TRUE, 0, out.size() * sizeof(T), out.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  size_t bad = 0;
  L.for_each_sub_group([&](const std::vector<size_t>& sg, size_t, size_t) {
    T sum = 0, lo = Expect<T>::max_id(), hi = Expect<T>::min_id();
    for (size_t g : sg) sum += in[g], lo = std::min(lo, in[g]), hi = std::max(hi, in[g]);
    T isum = 0, ilo = Expect<T>::max_id(), ihi = Expect<T>::min_id();
    for (size_t g : sg) {
      const T esum = isum, elo = ilo, ehi = ihi; // exclusive: before this lane
      isum += in[g], ilo = std::min(ilo, in[g]), ihi = std::max(ihi, in[g]);
      const T want[10] = {sum, lo, hi, isum, ilo, ihi, esum, elo, ehi, in[sg[lane % sg.size()]]};
      for (int j = 0; j < 10; ++j)
        if (out[10 * g + j] != want[j] && ++bad <= 5)
          ADD_FAILURE() << "work-item " << g << " result " << j << ": got " << out[10 * g + j]
                        << ", want " << want[j];
    }
  });
  EXPECT_EQ(bad, 0u);
  clReleaseMemObject(min);
  clReleaseMemObject(mout);
  clReleaseKernel(k);
}

cl_program build(Env& env) {
  return env.program(kCollectives, kWave64 ? "-cl-std=CL3.0 -mwavefrontsize64" : "-cl-std=CL3.0");
}

const Layout kLayouts[] = {
    {{96, 1}, {48, 1}, 1},  // two work-groups of 32 + 16
    {{64, 1}, {64, 1}, 1},  // full sub-groups
    {{80, 1}, {80, 1}, 1},  // 64 + 16 (wave64's full and partial sub-group)
    {{16, 12}, {8, 6}, 2},  // 2-D work-groups of 48 = 32 + 16
    {{40, 1}, {40, 1}, 1},  // one work-group of 32 + 8
    {{100, 1}, {48, 1}, 1}, // non-uniform: the last work-group has 4 work-items
    {{20, 13}, {8, 6}, 2},  // non-uniform in both dimensions: groups of 48, 24, 8 and 4
};

// The results the device gives kernel NAME(out, in) for each layout: `fill` makes the input
// words, the kernel writes `words` results per work-item, and `expect` states, sub-group by
// sub-group, what each must be through check(work-item, word, value). At most five
// mismatches per layout are reported.
using Check = std::function<void(size_t g, int word, cl_uint want)>;
using Expectation = std::function<void(const Layout& L, const std::vector<cl_uint>& in, const std::vector<size_t>& sg,
                                       size_t index, size_t group_items, const Check& check)>;
void check_kernel(const char* name, std::span<const Layout> layouts, unsigned words,
                  const std::function<std::vector<cl_uint>(const Layout&)>& fill, const Expectation& expect) {
  Env env;
  cl_program prog = build(env);
  ASSERT_TRUE(prog);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, name, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  for (const Layout& L : layouts) {
    SCOPED_TRACE(std::string(name) + " over local " + std::to_string(L.local[0]) + "x" +
                 std::to_string(L.local[1]) + " global " + std::to_string(L.global[0]) + "x" +
                 std::to_string(L.global[1]));
    const std::vector<cl_uint> in = fill(L);
    cl_mem mi = env.buffer(in.size() * 4, in.data());
    cl_mem mo = env.buffer(in.size() * words * 4);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof mi, &mi);
    std::vector<cl_uint> out(in.size() * words);
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, cl_uint(L.dims), nullptr, L.global, L.local, 0,
                                     nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    size_t bad = 0;
    const Check check = [&](size_t g, int j, cl_uint want) {
      if (out[words * g + unsigned(j)] != want && ++bad <= 5)
        ADD_FAILURE() << "work-item " << g << " value " << j << ": got " << out[words * g + unsigned(j)]
                      << ", want " << want;
    };
    L.for_each_sub_group([&](const std::vector<size_t>& sg, size_t index, size_t items) {
      expect(L, in, sg, index, items, check);
    });
    EXPECT_EQ(bad, 0u);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
  }
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

// Reproducible random input words.
std::function<std::vector<cl_uint>(const Layout&)> random_words(unsigned seed, cl_uint set_bits = 0) {
  return [=](const Layout& L) {
    std::vector<cl_uint> in(L.items());
    std::mt19937 rng(seed);
    for (cl_uint& v : in) v = rng() | set_bits;
    return in;
  };
}

} // namespace

TEST(Subgroups, DeviceReportsTheExtensionAndFeature) {
  Env env;
  EXPECT_NE(device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_subgroups"),
            std::string::npos);
  // The most a work-group can have: wave32's.
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_MAX_NUM_SUB_GROUPS), 1024u / 32);
  bool listed = false;
  for (const auto& f : device_list<cl_name_version>(env.device, CL_DEVICE_OPENCL_C_FEATURES))
    listed |= std::strcmp(f.name, "__opencl_c_subgroups") == 0;
  EXPECT_TRUE(listed);
}

TEST(Subgroups, CollectivesOfEveryTypeMatchTheHostModel) {
  Env env;
  cl_program prog = build(env);
  ASSERT_TRUE(prog);
  for (const Layout& L : kLayouts) {
    check_collectives<cl_int>(env, prog, "int", L);
    check_collectives<cl_uint>(env, prog, "uint", L);
    check_collectives<cl_long>(env, prog, "long", L);
    check_collectives<cl_ulong>(env, prog, "ulong", L);
    check_collectives<cl_float>(env, prog, "float", L);
    check_collectives<cl_double>(env, prog, "double", L);
  }
  clReleaseProgram(prog);
}

TEST(Subgroups, IdsSizesVotesAndBarrierMatchTheHostModel) {
  // Predicates: all true in some sub-groups, none in others, mixed in the rest.
  auto predicates = [](const Layout& L) {
    std::vector<cl_uint> pred(L.items());
    for (size_t g = 0; g < pred.size(); ++g)
      pred[g] = (g / kWave) % 3 == 0 ? 1 : (g / kWave) % 3 == 1 ? 0 : g % 7 == 0;
    return pred;
  };
  check_kernel("ids", kLayouts, 8, predicates,
               [](const Layout& L, const std::vector<cl_uint>& pred, const std::vector<size_t>& sg,
                  size_t index, size_t group_items, const Check& check) {
    const size_t enqueued = L.local[0] * L.local[1];
    bool any = false, all = true;
    for (size_t g : sg) any |= pred[g] != 0, all &= pred[g] != 0;
    for (size_t i = 0; i < sg.size(); ++i) {
      const cl_uint want[8] = {cl_uint(index),
                               cl_uint(i),
                               cl_uint(sg.size()),
                               cl_uint((group_items + kWave - 1) / kWave),
                               cl_uint(std::min(enqueued, kWave)),
                               cl_uint((enqueued + kWave - 1) / kWave),
                               cl_uint(any) | cl_uint(all) << 1,
                               cl_uint(3 * sg[std::min(i + 1, sg.size() - 1)])};
      for (int j = 0; j < 8; ++j) check(sg[i], j, want[j]);
    }
  });
}

TEST(Subgroups, ShufflesVotesAndHalfMatchTheHostModel) {
  check_kernel("shuffles", kLayouts, 8, random_words(11, 1 /* never zero */),
               [](const Layout&, const std::vector<cl_uint>& in, const std::vector<size_t>& sg, size_t,
                  size_t, const Check& check) {
    const size_t n = sg.size();
    unsigned half_sum = 0;
    bool any97 = false;
    for (size_t g : sg) half_sum += in[g] & 7, any97 |= in[g] % 97 == 0;
    const uint16_t half_bits = uint16_t(std::bit_cast<uint16_t>(_Float16(float(half_sum))));
    const uint16_t lane0 = std::bit_cast<uint16_t>(_Float16(float(in[sg[0]] & 1023)));
    for (size_t i = 0; i < n; ++i) {
      const size_t g = sg[i];
      const cl_uint x = in[g];
      check(g, 0, in[sg[(x >> 8) % n]]);
      if ((i ^ 5) < n) check(g, 1, in[sg[i ^ 5]]); // otherwise undefined by the extension
      if (i >= 3) check(g, 2, in[sg[i - 3]]);
      if (i + 2 < n) check(g, 3, in[sg[i + 2]]);
      const cl_uint y = in[sg[n - 1 - i]];
      check(g, 4, y ^ (y ^ 0xffffffffu));
      check(g, 5, half_bits | cl_uint(lane0) << 16);
      check(g, 6, cl_uint(i == 0) | 2u | 4u | (any97 ? 8u : 0u));
      // Lanes 1, 4, 7, ... took the branch: lane 1 is the first; lane 4 is among them
      // exactly when the sub-group has 5 or more lanes.
      const cl_uint branch = i % 3 == 1 ? cl_uint(i == 1) | 2u | (n > 4 ? 4u : 0u) : 0u;
      check(g, 7, branch);
    }
  });
}

TEST(Subgroups, NonUniformArithmeticOverTheActiveLanes) {
  check_kernel("non_uniform", kLayouts, 8, random_words(13),
               [](const Layout&, const std::vector<cl_uint>& in, const std::vector<size_t>& sg, size_t,
                  size_t, const Check& check) {
    std::vector<size_t> act; // the lanes in the branch, in lane order
    for (size_t i = 0; i < sg.size(); ++i)
      if (i % 3 != 2) act.push_back(sg[i]);
    uint8_t sum8 = 0;
    uint64_t a = ~0ull, b = 0, c = 0;
    uint32_t fmax = 0;
    bool lxor = false;
    for (size_t g : act) {
      const uint64_t w = (uint64_t(in[g]) << 32) | uint32_t(~in[g]);
      sum8 = uint8_t(sum8 + uint8_t(in[g]));
      a &= w, b |= w, c ^= w;
      fmax = std::max(fmax, in[g] & 0x3fffffffu); // positive floats order as their bits
      lxor ^= (in[g] & 16) != 0;
    }
    auto fold = [](uint64_t v) { return cl_uint(uint32_t(v) ^ uint32_t(v >> 32) * 3); };
    uint32_t prod = 1;
    int16_t before_min = 32767;
    bool land = true, lor_before = false;
    for (size_t g : act) {
      prod *= in[g] | 1;
      land = land && (in[g] & 4);
      const cl_uint want[8] = {sum8, prod, fold(a), fold(b), fold(c), uint16_t(before_min), fmax,
                               cl_uint(land) | cl_uint(lor_before) << 1 | cl_uint(lxor) << 2};
      for (int j = 0; j < 8; ++j) check(g, j, want[j]);
      before_min = std::min<int16_t>(before_min, int16_t(in[g]));
      lor_before = lor_before || (in[g] & 8);
    }
  });
}

TEST(Subgroups, BallotsAndExtendedTypesMatchTheHostModel) {
  check_kernel("ballots", kLayouts, 8, random_words(17),
               [](const Layout& L, const std::vector<cl_uint>& in, const std::vector<size_t>& sg, size_t,
                  size_t, const Check& check) {
    const size_t n = sg.size();
    const cl_uint max_size = cl_uint(std::min<size_t>(L.local[0] * L.local[1], kWave));
    uint64_t ballot = 0;
    uint16_t sum16 = 0;
    for (size_t i = 0; i < n; ++i)
      ballot |= uint64_t(in[sg[i]] & 1) << i, sum16 = uint16_t(sum16 + uint16_t(in[sg[i]]));
    // The kernel's M(): a mask's two low dwords folded into one word.
    auto M = [](uint64_t m) { return cl_uint(uint32_t(m) ^ uint32_t(m >> 32) * 13u); };
    const cl_uint count = cl_uint(std::popcount(ballot));
    const cl_uint lsb_msb =
        ballot ? cl_uint(std::countr_zero(ballot)) | cl_uint(63 - std::countl_zero(ballot)) << 8
               : 0;
    const size_t last = sg[n - 1];
    const cl_uint wx = uint16_t(in[last]), wy = uint16_t(in[last] >> 16), wz = uint16_t(n - 1),
                  ww = uint16_t(-int(n - 1));
    uint8_t max8 = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t g = sg[i];
      const uint64_t below = (uint64_t(1) << i) - 1,
                     le = i + 1 == kWave ? kWaveBits : (uint64_t(2) << i) - 1;
      const uint64_t ge = kWaveBits & ~below, gt = kWaveBits & ~le, eq = uint64_t(1) << i;
      max8 = std::max(max8, uint8_t(in[g]));
      const cl_uint want[8] = {
          M(ballot),
          cl_uint((ballot >> i) & 1) | cl_uint((ballot >> ((in[g] >> 4) % n)) & 1) << 1 |
              max_size << 8 | (max_size - 1) << 16,
          count | cl_uint(std::popcount(ballot & le)) << 8 |
              cl_uint(std::popcount(ballot & below)) << 16,
          lsb_msb,
          M(below) ^ M(ge) * 3 ^ M(eq) * 5 ^ M(gt) * 7 ^ M(le) * 11,
          wx ^ wy * 3u ^ wz * 5u ^ ww << 16,
          cl_uint(sum16) | cl_uint(max8) << 16 | cl_uint(uint8_t(in[sg[0]] >> 8)) << 24,
          in[sg[0]] ^ cl_uint(0 * 4.0 + 0.5 * 2.0)};
      for (int j = 0; j < 8; ++j) check(g, j, want[j]);
    }
  });
}

TEST(Subgroups, ClusteredReductionsMatchTheHostModel) {
  check_kernel("clustered", kLayouts, 8, random_words(19),
               [](const Layout&, const std::vector<cl_uint>& in, const std::vector<size_t>& sg, size_t,
                  size_t, const Check& check) {
    // The lanes of lane i's cluster of `size`, clipped to the sub-group.
    auto cluster = [&](size_t i, size_t size) {
      std::vector<cl_uint> v;
      for (size_t j = i / size * size; j < std::min(sg.size(), (i / size + 1) * size); ++j)
        v.push_back(in[sg[j]]);
      return v;
    };
    for (size_t i = 0; i < sg.size(); ++i) {
      cl_uint add = 0, mx = 0, x2 = 0, mn = ~0u, mul = 1, lor = 0;
      bool land = true;
      float fsum = 0;
      for (cl_uint v : cluster(i, 4)) add += v, land = land && (v & 3);
      for (cl_uint v : cluster(i, 8)) mx = std::max(mx, v), lor |= (v & 64) != 0;
      for (cl_uint v : cluster(i, 2)) x2 ^= v;
      for (cl_uint v : cluster(i, 32)) mn = std::min(mn, v);
      for (cl_uint v : cluster(i, 16)) mul *= v | 1, fsum += float(v & 255);
      const size_t g = sg[i];
      const cl_uint want[8] = {add, mx, x2, mn, mul, uint8_t(in[g]),
                               cl_uint(land) | lor << 1, std::bit_cast<cl_uint>(fsum)};
      for (int j = 0; j < 8; ++j) check(g, j, want[j]);
    }
  });
}

TEST(Subgroups, RotationsMatchTheHostModel) {
  // Full sub-groups only: clusters must fit the sub-group, and every source lane must be active.
  const Layout full[] = {{{64, 1}, {64, 1}, 1}, {{64, 2}, {32, 2}, 2}};
  check_kernel("rotates", full, 4, random_words(23),
               [](const Layout&, const std::vector<cl_uint>& in, const std::vector<size_t>& sg, size_t,
                  size_t, const Check& check) {
    const size_t n = sg.size();
    for (size_t i = 0; i < n; ++i) {
      const size_t c8 = i / 8 * 8, c4 = i / 4 * 4;
      const cl_uint want[4] = {in[sg[(i + 3) % n]], in[sg[(i + n - 5) % n]],
                               in[sg[c8 + (i - c8 + 2) % 8]], uint16_t(in[sg[c4 + (i - c4 + 3) % 4]])};
      for (int j = 0; j < 4; ++j) check(sg[i], j, want[j]);
    }
  });
}

TEST(Subgroups, KernelSubGroupInfoQueries) {
  Env env;
  cl_program prog = build(env);
  ASSERT_TRUE(prog);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "ids", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto query = [&](cl_kernel_sub_group_info what, std::vector<size_t> in, size_t& out) {
    return clGetKernelSubGroupInfo(k, env.device, what, in.size() * sizeof(size_t), in.data(),
                                   sizeof out, &out, nullptr);
  };
  size_t v = 0;
  EXPECT_EQ(query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {48}, v), CL_SUCCESS);
  EXPECT_EQ(v, std::min<size_t>(48, kWave));
  EXPECT_EQ(query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4, 2}, v), CL_SUCCESS);
  EXPECT_EQ(v, 8u);
  EXPECT_EQ(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {8, 6, 2}, v), CL_SUCCESS);
  EXPECT_EQ(v, (96 + kWave - 1) / kWave);
  EXPECT_EQ(query(CL_KERNEL_MAX_NUM_SUB_GROUPS, {}, v), CL_SUCCESS);
  EXPECT_EQ(v, 1024 / kWave);
  EXPECT_EQ(query(CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}, v), CL_SUCCESS);
  EXPECT_EQ(v, 0u);
  // A local size for a sub-group count, in as many dimensions as the caller asks.
  size_t count = 3, local[2] = {7, 7};
  EXPECT_EQ(clGetKernelSubGroupInfo(k, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof count, &count, sizeof local, local, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(local[0], 3 * kWave);
  EXPECT_EQ(local[1], 1u);
  count = 33; // more than 1024 work-items: no local size gives it
  EXPECT_EQ(clGetKernelSubGroupInfo(k, env.device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof count, &count, sizeof local, local, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(local[0], 0u);
  // Misuse.
  EXPECT_EQ(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {}, v), CL_INVALID_VALUE);
  EXPECT_EQ(query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {1, 1, 1, 1}, v), CL_INVALID_VALUE);
  EXPECT_EQ(query(cl_kernel_sub_group_info(0x1234), {1}, v), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(nullptr, env.device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                    sizeof v, &v, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clGetKernelSubGroupInfo(k, reinterpret_cast<cl_device_id>(env.queue),
                                    CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof v, &v, nullptr),
            CL_INVALID_DEVICE);
  // The extension's entry point is the same function.
  using Fn = decltype(&clGetKernelSubGroupInfo);
  auto khr = reinterpret_cast<Fn>(
      clGetExtensionFunctionAddressForPlatform(env.platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(khr, nullptr);
  v = 0;
  size_t in = 40;
  EXPECT_EQ(khr(k, env.device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof in, &in, sizeof v, &v,
                nullptr),
            CL_SUCCESS);
  EXPECT_EQ(v, (40 + kWave - 1) / kWave);
  clReleaseKernel(k);
  clReleaseProgram(prog);
}

// Independent forward progress (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, required by
// cl_khr_subgroups; the CTS's subgroups ifp_ext): the first sub-group spins on a flag the last
// one sets, then answers it. The spins are bounded so a device without the property fails the
// test instead of hanging it.
TEST(Subgroups, SubGroupsOfAWorkGroupProgressIndependently) {
  Env env;
  cl_bool ifp = CL_FALSE;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp,
                            &ifp, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(ifp, CL_TRUE);
  const char* src = R"(
kernel void handshake(global int* out) {
  local atomic_int flag[2];
  if (get_local_id(0) == 0) {
    atomic_init(&flag[0], 0);
    atomic_init(&flag[1], 0);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  const uint sg = get_sub_group_id(), last = get_num_sub_groups() - 1;
  int spins = 0;
  if (get_sub_group_local_id() == 0) {
    if (sg == 0) {
      while (atomic_load(&flag[0]) != 1 && ++spins < 2000000) {}
      atomic_store(&flag[1], 1);
    } else if (sg == last) {
      atomic_store(&flag[0], 1);
      while (atomic_load(&flag[1]) != 1 && ++spins < 2000000) {}
    }
  }
  out[get_global_id(0)] = spins < 2000000;
})";
  cl_program prog = env.program(src, kWave64 ? "-cl-std=CL3.0 -mwavefrontsize64" : "-cl-std=CL3.0");
  ASSERT_TRUE(prog);
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "handshake", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const size_t global = 4 * 256, local = 256; // 8 (wave32) or 4 (wave64) sub-groups per group
  cl_mem out = env.buffer(global * sizeof(cl_int));
  clSetKernelArg(k, 0, sizeof out, &out);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_int> got(global);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, global * sizeof(cl_int), got.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < global; ++i) EXPECT_EQ(got[i], 1) << "work-item " << i << " gave up waiting";
  clReleaseMemObject(out);
  clReleaseKernel(k);
}
