// Kernel launches through the ICD loader, after the CTS "basic" suite: work-item functions over
// 1-, 2- and 3-dimensional NDRanges with global offsets and chosen or given local sizes,
// clEnqueueTask, every kind of kernel argument (scalars of each width, vectors, structs, local
// memory, buffers, NULL buffers), and the errors clSetKernelArg and clEnqueueNDRangeKernel give.
#include "cl_helpers.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

using amcl_test::Env;

namespace {

// Each work-item writes its ids, per dimension, into nine words of its own.
const char* kIds = R"CL(
__kernel void ids(__global uint* out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
  __global uint* o = out + linear * 9;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d) + get_group_id(d) * get_enqueued_local_size(d); // == id - offset
  }
  o[6] = get_work_dim();
  o[7] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
  o[8] = get_local_size(0); // the last group of a dimension may be partial
}
)CL";

struct Launch {
  cl_uint dims;
  size_t global[3], offset[3], local[3];
  bool give_local;
};

void check_ids(Env& env, cl_kernel k, const Launch& l) {
  const size_t g[3] = {l.global[0], l.dims > 1 ? l.global[1] : 1, l.dims > 2 ? l.global[2] : 1};
  const size_t items = g[0] * g[1] * g[2];
  cl_mem out = env.buffer(items * 9 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, l.dims, l.offset, l.global,
                                   l.give_local ? l.local : nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_uint> v(items * 9);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, v.size() * 4, v.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  size_t groups = 1;
  if (l.give_local)
    for (cl_uint d = 0; d < l.dims; ++d) groups *= (l.global[d] + l.local[d] - 1) / l.local[d];
  for (size_t z = 0; z < g[2]; ++z)
    for (size_t y = 0; y < g[1]; ++y)
      for (size_t x = 0; x < g[0]; ++x) {
        const cl_uint* o = &v[((z * g[1] + y) * g[0] + x) * 9];
        const size_t pos[3] = {x, y, z};
        for (cl_uint d = 0; d < 3; ++d) {
          const size_t offset = d < l.dims ? l.offset[d] : 0;
          ASSERT_EQ(o[d], pos[d] + offset)
              << "dims " << l.dims << " item " << x << "," << y << "," << z;
          ASSERT_EQ(o[3 + d], pos[d]) << "local and group ids, dims " << l.dims;
        }
        ASSERT_EQ(o[6], l.dims);
        if (l.give_local) {
          ASSERT_EQ(o[7], groups);
          ASSERT_EQ(o[8], std::min(l.local[0], g[0] - x / l.local[0] * l.local[0])) << "x " << x;
        }
      }
  clReleaseMemObject(out);
}

} // namespace

TEST(Basic, WorkItemFunctionsOverEveryShape) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  // OpenCL C 3.0: work-groups may be partial (under 1.2 the local size must divide the global).
  cl_program p = env.program(kIds, "-cl-std=CL3.0");
  ASSERT_NE(p, nullptr);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "ids", &err);
  clReleaseProgram(p);
  ASSERT_EQ(err, CL_SUCCESS);
  const Launch launches[] = {
      {1, {1000, 0, 0}, {0, 0, 0}, {0, 0, 0}, false},
      {1, {1024, 0, 0}, {77, 0, 0}, {256, 0, 0}, true},
      {1, {1000, 0, 0}, {5, 0, 0}, {64, 0, 0}, true}, // non-uniform last group
      {2, {33, 17, 0}, {3, 9, 0}, {0, 0, 0}, false},
      {2, {64, 16, 0}, {0, 0, 0}, {16, 8, 0}, true},
      {2, {48, 20, 0}, {1, 2, 0}, {32, 16, 0}, true}, // non-uniform in both dimensions
      {3, {8, 6, 5}, {1, 2, 3}, {0, 0, 0}, false},
      {3, {16, 8, 4}, {0, 0, 7}, {4, 4, 4}, true},
      {3, {1, 1, 1024}, {0, 0, 0}, {1, 1, 64}, true},
  };
  for (const Launch& l : launches) check_ids(env, k, l);
  clReleaseKernel(k);
}

// With no local size given, an OpenCL C 1.2 kernel (whole groups only) over odd sizes still
// gets groups of many work-items: the CTS image suites' NDRanges (329 x 349 x 202 and the like)
// ran one work-item per group, 32 times the waves.
TEST(Basic, UnspecifiedWorkGroupsSpreadOverTheDimensions) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_program p = env.program(R"CL(
__kernel void shape(__global uint* out) {
  if (get_global_id(0) + get_global_id(1) + get_global_id(2) != 0) return;
  for (uint d = 0; d < 3; ++d) {
    out[d] = get_local_size(d);
    out[3 + d] = get_num_groups(d);
  }
})CL",
                             "-cl-std=CL1.2");
  ASSERT_NE(p, nullptr);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "shape", &err);
  clReleaseProgram(p);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem out = env.buffer(6 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t global[3] = {21, 17, 6}; // 3 * 7, a prime, 2 * 3
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 3, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_uint v[6] = {};
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(v[d] * v[3 + d], global[d]) << d;
  EXPECT_EQ(v[0], 21u);
  EXPECT_EQ(v[1], 1u);
  EXPECT_EQ(v[2], 6u);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST(Basic, EnqueueTaskRunsOneWorkItem) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel("__kernel void task(__global uint* o) { o[0] = get_global_size(0) * 100 "
                           "+ get_local_size(0) * 10 + "
                           "get_work_dim(); atomic_inc(&o[1]); }",
                           "task");
  ASSERT_NE(k, nullptr);
  cl_uint init[2] = {0, 0};
  cl_mem out = env.buffer(sizeof init, init);
  clSetKernelArg(k, 0, sizeof out, &out);
  cl_event e;
  ASSERT_EQ(clEnqueueTask(env.queue, k, 0, nullptr, &e), CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_TRUE(type == CL_COMMAND_TASK || type == CL_COMMAND_NDRANGE_KERNEL);
  clReleaseEvent(e);
  cl_uint got[2];
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(got[0], 111u);
  EXPECT_EQ(got[1], 1u);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

namespace {
struct Pod {
  cl_char c;
  cl_int i;
  cl_double d;
  cl_short s[3];
};
} // namespace

TEST(Basic, EveryKindOfKernelArgument) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct { char c; int i; double d; short s[3]; } Pod;
__kernel void args(__global double* out, char c, uchar uc, short s, ushort us, int i, uint ui, long l,
                   ulong ul, float f, double d, half h_unused, float4 f4, int3 i3, Pod pod,
                   __local uint* scratch, __global const int* maybe, __constant int* table) {
  scratch[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = ui; out[6] = l; out[7] = ul;
  out[8] = f; out[9] = d; out[10] = f4.x + f4.y * 10 + f4.z * 100 + f4.w * 1000;
  out[11] = i3.x + i3.y * 10 + i3.z * 100;
  out[12] = pod.c; out[13] = pod.i; out[14] = pod.d; out[15] = pod.s[0] + pod.s[1] * 10 + pod.s[2] * 100;
  out[16] = maybe ? 1 : 0; out[17] = table[2]; out[18] = scratch[get_local_size(0) - 1];
}
)CL",
                           "args");
  ASSERT_NE(k, nullptr);
  cl_mem out = env.buffer(19 * sizeof(double));
  cl_char c = -5;
  cl_uchar uc = 250;
  cl_short s = -30000;
  cl_ushort us = 60000;
  cl_int i = -2000000000;
  cl_uint ui = 4000000000u;
  cl_long l = -(1ll << 40);
  cl_ulong ul = 1ull << 50;
  cl_float f = 1.5f;
  cl_double d = -2.25;
  cl_half h = 0x3c00;
  cl_float4 f4 = {{1, 2, 3, 4}};
  cl_int3 i3 = {{7, 8, 9, 0}};
  Pod pod{};
  pod.c = 3;
  pod.i = -17;
  pod.d = 0.125;
  pod.s[0] = 1;
  pod.s[1] = 2;
  pod.s[2] = 3;
  cl_int table_data[4] = {10, 20, 30, 40};
  cl_mem table = env.buffer(sizeof table_data, table_data);
  cl_mem null_mem = nullptr;
  const void* values[] = {&out, &c, &uc, &s, &us, &i, &ui, &l, &ul, &f, &d, &h, &f4, &i3, &pod};
  const size_t sizes[] = {sizeof out, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 2, 16, 16, sizeof(Pod)};
  for (cl_uint a = 0; a < 15; ++a)
    ASSERT_EQ(clSetKernelArg(k, a, sizes[a], values[a]), CL_SUCCESS) << a;
  ASSERT_EQ(clSetKernelArg(k, 15, 64 * sizeof(cl_uint), nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 16, sizeof null_mem, &null_mem), CL_SUCCESS); // a NULL buffer
  ASSERT_EQ(clSetKernelArg(k, 17, sizeof table, &table), CL_SUCCESS);
  size_t global = 64, local = 64;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  double got[19];
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr),
            CL_SUCCESS);
  const double want[19] = {-5,
                           250,
                           -30000,
                           60000,
                           -2000000000.0,
                           4000000000.0,
                           -1099511627776.0,
                           1125899906842624.0,
                           1.5,
                           -2.25,
                           4321,
                           987,
                           3,
                           -17,
                           0.125,
                           321,
                           0,
                           30,
                           1};
  for (int a = 0; a < 19; ++a) EXPECT_EQ(got[a], want[a]) << "output " << a;
  clReleaseMemObject(table);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// Each __local argument's memory is aligned to its pointee type, however small the ones
// before it (the CTS's kernel_memory_alignment_local: a long16* at 0x60 was misaligned).
TEST(Basic, LocalArgumentsAreAlignedToTheirPointeeType) {
  Env env;
  cl_kernel k = env.kernel(R"CL(
__kernel void where(__global ulong* out, __local char* a, __local short2* b, __local long8* c,
                    __local int3* d, __local long16* e, __local double16* f) {
  out[0] = (ulong)a; out[1] = (ulong)b; out[2] = (ulong)c;
  out[3] = (ulong)d; out[4] = (ulong)e; out[5] = (ulong)f;
}
)CL",
                           "where");
  ASSERT_NE(k, nullptr);
  cl_mem out = env.buffer(6 * sizeof(cl_ulong));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  const size_t bytes[] = {3, 4 * 3, 64 * 3, 16, 128 * 3, 128};
  for (cl_uint a = 0; a < 6; ++a) ASSERT_EQ(clSetKernelArg(k, a + 1, bytes[a], nullptr), CL_SUCCESS);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_ulong got[6];
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr),
            CL_SUCCESS);
  const cl_ulong align[6] = {1, 4, 64, 16, 128, 128}; // an int3 is aligned as an int4
  for (int a = 0; a < 6; ++a) EXPECT_EQ(got[a] % align[a], 0u) << "argument " << a + 1 << " at " << got[a];
  for (int a = 0; a < 5; ++a) EXPECT_GE(got[a + 1], got[a] + bytes[a]) << "arguments overlap";
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// Short vectors built from vloads and single elements, nine to a kernel as the CTS's basic
// vector_creation writes them: LLVM 22's true16 code for gfx11 copied the source pointer's low
// half into element 10 of the first (v_mov_b32 v0, s0 where v9's high half was meant).
TEST(Basic, ShortVectorsBuiltFromVloadsHoldTheirElements) {
  Env env;
  cl_kernel k = env.kernel(R"CL(
__kernel void test_vector_creation(__global short* src, __global short16* result) {
  result[24] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],src[11],vload4(0,src+12));
  result[25] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload2(0,src+11),src[13],src[14],src[15]);
  result[26] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload2(0,src+11),src[13],vload2(0,src+14));
  result[27] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload2(0,src+11),vload2(0,src+13),src[15]);
  result[28] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload2(0,src+11),vload3(0,src+13));
  result[29] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload3(0,src+11),src[14],src[15]);
  result[30] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload3(0,src+11),vload2(0,src+14));
  result[31] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),src[10],vload4(0,src+11),src[15]);
  result[32] = (short16)(vload4(0,src+0),vload2(0,src+4),src[6],vload3(0,src+7),vload2(0,src+10),src[12],src[13],src[14],src[15]);
}
)CL",
                           "test_vector_creation");
  ASSERT_NE(k, nullptr);
  cl_short in[16];
  for (int i = 0; i < 16; ++i) in[i] = cl_short(i);
  cl_mem src = env.buffer(sizeof in, in), out = env.buffer(33 * 16 * sizeof(cl_short));
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof src, &src), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_short> got(33 * 16);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, got.size() * sizeof(cl_short), got.data(),
                                0, nullptr, nullptr),
            CL_SUCCESS);
  for (int r = 24; r < 33; ++r)
    for (int e = 0; e < 16; ++e) EXPECT_EQ(got[size_t(16 * r + e)], e) << "result[" << r << "]." << e;
  clReleaseMemObject(src);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

// OpenCL lets vload/vstore of chars and packed structs touch any byte address; LLVM's amdhsa
// code does them as single wide accesses (global_load_b128 at a byte address), which read the
// right bytes only when the driver has set SH_MEM_CONFIG's alignment mode to UNALIGNED.
TEST(Basic, VloadVstoreAndPackedStructsAtEveryByteOffset) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(R"CL(
typedef struct __attribute__((packed)) { uchar tag; uint value; ulong wide; } Packed;
__kernel void shift(__global const uchar* in, __global uchar* out, __global uint* fields,
                    __global const Packed* packed) {
  uint off = get_global_id(0); // 0..15
  vstore16(vload16(0, in + off) + (uchar16)(1), 0, out + 32 * off + off);
  fields[2 * off] = packed[off].value;
  fields[2 * off + 1] = (uint)(packed[off].wide >> 8);
}
)CL",
                           "shift");
  ASSERT_NE(k, nullptr);
  constexpr unsigned kOffsets = 16;
  std::vector<cl_uchar> in(64);
  for (unsigned i = 0; i < in.size(); ++i) in[i] = cl_uchar(i * 7 + 3);
  std::vector<cl_uchar> packed(kOffsets * 13);
  for (unsigned i = 0; i < packed.size(); ++i) packed[i] = cl_uchar(i * 13 + 5);
  cl_mem in_buf = env.buffer(in.size(), in.data());
  cl_mem out_buf = env.buffer(32 * kOffsets + 32);
  cl_mem fields_buf = env.buffer(2 * kOffsets * sizeof(cl_uint));
  cl_mem packed_buf = env.buffer(packed.size(), packed.data());
  const cl_mem args[] = {in_buf, out_buf, fields_buf, packed_buf};
  for (cl_uint a = 0; a < 4; ++a)
    ASSERT_EQ(clSetKernelArg(k, a, sizeof(cl_mem), &args[a]), CL_SUCCESS);
  size_t global = kOffsets;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_uchar> out(32 * kOffsets + 32);
  std::vector<cl_uint> fields(2 * kOffsets);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out_buf, CL_TRUE, 0, out.size(), out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, fields_buf, CL_TRUE, 0, fields.size() * 4, fields.data(),
                                0, nullptr, nullptr),
            CL_SUCCESS);
  auto le = [&](unsigned at, unsigned bytes) {
    uint64_t v = 0;
    for (unsigned b = 0; b < bytes; ++b) v |= uint64_t(packed[at + b]) << (8 * b);
    return v;
  };
  for (unsigned off = 0; off < kOffsets; ++off) {
    for (unsigned b = 0; b < 16; ++b)
      EXPECT_EQ(out[33 * off + b], cl_uchar(in[off + b] + 1)) << "offset " << off << " byte " << b;
    EXPECT_EQ(fields[2 * off], cl_uint(le(13 * off + 1, 4))) << "packed[" << off << "].value";
    EXPECT_EQ(fields[2 * off + 1], cl_uint(le(13 * off + 5, 8) >> 8))
        << "packed[" << off << "].wide";
  }
  for (cl_mem m : args) clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST(Basic, SetKernelArgErrors) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(
      "__kernel void k(__global int* p, int v, __local int* l, float4 f) { p[0] = v + l[0]; }",
      "k");
  ASSERT_NE(k, nullptr);
  cl_mem m = env.buffer(64);
  cl_int v = 1;
  cl_float4 f = {};
  EXPECT_EQ(clSetKernelArg(k, 4, sizeof v, &v), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(k, 1, 2, &v), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 1, 8, &v), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 1, sizeof v, nullptr), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof m, &k), CL_INVALID_MEM_OBJECT); // not a memory object
  EXPECT_EQ(clSetKernelArg(k, 2, 0, nullptr), CL_INVALID_ARG_SIZE);     // local memory needs a size
  EXPECT_EQ(clSetKernelArg(k, 2, 16, &v), CL_INVALID_ARG_VALUE);        // and no value
  EXPECT_EQ(clSetKernelArg(k, 3, 8, &f), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(nullptr, 0, sizeof m, &m), CL_INVALID_KERNEL);
  // Launching before every argument is set.
  size_t one = 1;
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 2, 16, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  ASSERT_EQ(clSetKernelArg(k, 3, sizeof f, &f), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  // Local memory beyond the device's 64 KiB fails at launch.
  ASSERT_EQ(clSetKernelArg(k, 2, 65536 + 4, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  // A buffer argument released since it was set is a stale handle (kernels do not hold their
  // arguments): the launch is refused, never run on whatever reuses its memory (the API fuzzer
  // crashed in a buffer's destructor called on a newer object).
  ASSERT_EQ(clSetKernelArg(k, 2, 16, nullptr), CL_SUCCESS);
  clReleaseMemObject(m);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseKernel(k);
}

TEST(Basic, NDRangeErrors) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel("__kernel void k(__global int* p) { p[get_global_id(0)] = 1; }", "k");
  ASSERT_NE(k, nullptr);
  cl_mem m = env.buffer(4096);
  clSetKernelArg(k, 0, sizeof m, &m);
  auto launch = [&](cl_uint dims, const size_t* global, const size_t* local,
                    const size_t* offset = nullptr) {
    return clEnqueueNDRangeKernel(env.queue, k, dims, offset, global, local, 0, nullptr, nullptr);
  };
  size_t g[3] = {64, 1, 1}, l[3] = {64, 1, 1};
  EXPECT_EQ(launch(0, g, l), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(launch(4, g, l), CL_INVALID_WORK_DIMENSION);
  size_t big_local[3] = {2048, 1, 1}, big_global[3] = {2048, 1, 1};
  EXPECT_EQ(launch(1, big_global, big_local),
            CL_INVALID_WORK_ITEM_SIZE); // over MAX_WORK_ITEM_SIZES[0]
  size_t too_wide[3] = {32, 64, 1}, wide_global[3] = {32, 64, 1};
  EXPECT_EQ(launch(2, wide_global, too_wide), CL_INVALID_WORK_GROUP_SIZE); // 2048 items in a group
  size_t zero_local[3] = {0, 1, 1};
  EXPECT_EQ(launch(1, g, zero_local), CL_INVALID_WORK_ITEM_SIZE);
  size_t uneven_local[3] = {48, 1, 1};
  EXPECT_EQ(launch(1, g, uneven_local), CL_INVALID_WORK_GROUP_SIZE)
      << "OpenCL C 1.2: whole work-groups only";
  size_t huge_offset[3] = {~size_t(0) - 10, 0, 0};
  EXPECT_EQ(launch(1, g, l, huge_offset), CL_INVALID_GLOBAL_OFFSET); // id overflows size_t
  EXPECT_EQ(clEnqueueNDRangeKernel(nullptr, k, 1, nullptr, g, l, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, nullptr, 1, nullptr, g, l, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
  cl_event none = nullptr;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, g, l, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, g, l, 0, &none, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  // A zero-sized or absent NDRange does nothing and completes (OpenCL 2.1 and later).
  cl_int sentinel = 7;
  cl_mem probe = env.buffer(sizeof sentinel, &sentinel);
  clSetKernelArg(k, 0, sizeof probe, &probe);
  size_t empty[3] = {64, 0, 1};
  for (const size_t* global :
       {static_cast<const size_t*>(empty), static_cast<const size_t*>(nullptr)}) {
    cl_event e = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, nullptr, 0, nullptr, &e),
              CL_SUCCESS);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(env.final_status(e), CL_COMPLETE);
    clReleaseEvent(e);
  }
  cl_int after = 0;
  clEnqueueReadBuffer(env.queue, probe, CL_TRUE, 0, sizeof after, &after, 0, nullptr, nullptr);
  EXPECT_EQ(after, 7) << "an empty NDRange ran work-items";
  clReleaseMemObject(probe);
  clSetKernelArg(k, 0, sizeof m, &m);
  // A kernel of another context.
  cl_int err;
  cl_context other = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &err);
  cl_command_queue other_q = clCreateCommandQueueWithProperties(other, env.device, nullptr, &err);
  EXPECT_EQ(clEnqueueNDRangeKernel(other_q, k, 1, nullptr, g, l, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  clReleaseCommandQueue(other_q);
  clReleaseContext(other);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}
