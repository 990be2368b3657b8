// Async copies (OpenCL C 3.0 §6.15.13): async_work_group_copy and async_work_group_strided_copy
// in both directions, for scalar and vector types, with wait_group_events and prefetch. Each
// work-group takes its own 1024-byte slice of a and of out.
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define SLICE 1024
#define SRC(T) ((const __global T*)((const __global uchar*)a + get_group_id(0) * SLICE))
#define DST(T) ((__global T*)((__global uchar*)out + get_group_id(0) * SLICE))

// Global -> local -> global through a slice of local memory, three elements off at both ends
// (counts that are not a multiple of the work-group size); the first three elements of the
// output slice stay zero.
#define COPY(T)                                                                                   \
  {                                                                                               \
    __local T t[SLICE / sizeof(T)];                                                               \
    const uint n = SLICE / sizeof(T);                                                             \
    prefetch(SRC(T), n);                                                                          \
    event_t e = async_work_group_copy(t, SRC(T), n - 3, 0);                                       \
    wait_group_events(1, &e);                                                                     \
    e = async_work_group_copy(DST(T) + 3, t + 1, n - 4, 0);                                       \
    wait_group_events(1, &e);                                                                     \
  }
// Every third element of the input gathered into local memory, scattered to every second one
// of the output (the others stay zero), the second copy chained on the first one's event.
#define STRIDED(T)                                                                                \
  {                                                                                               \
    const uint n = SLICE / sizeof(T) / 3;                                                         \
    __local T t[SLICE / sizeof(T) / 3];                                                           \
    event_t e = async_work_group_strided_copy(t, SRC(T) + 1, n - 1, 3, 0);                        \
    wait_group_events(1, &e);                                                                     \
    e = async_work_group_strided_copy(DST(T), t, n - 1, 2, e);                                    \
    wait_group_events(1, &e);                                                                     \
  }
// 3-component vectors occupy four components; what a copy does with the fourth is not
// specified, so the output's fourth components are cleared afterwards.
#define CLEAR_PADDING(S)                                                                          \
  for (uint k = get_local_id(0); k < SLICE / (4 * sizeof(S)); k += get_local_size(0))            \
    ((__global S*)DST(S))[4 * k + 3] = 0;
#define COPY3(T, S)                                                                               \
  {                                                                                               \
    __local T t[SLICE / sizeof(T)];                                                               \
    const uint n = SLICE / sizeof(T);                                                             \
    event_t e = async_work_group_copy(t, SRC(T), n, 0);                                           \
    wait_group_events(1, &e);                                                                     \
    e = async_work_group_copy(DST(T) + 1, t, n - 1, 0);                                           \
    wait_group_events(1, &e);                                                                     \
    CLEAR_PADDING(S)                                                                              \
  }
#define STRIDED3(T, S)                                                                            \
  {                                                                                               \
    const uint n = SLICE / sizeof(T) / 3;                                                         \
    __local T t[SLICE / sizeof(T) / 3];                                                           \
    event_t e = async_work_group_strided_copy(t, SRC(T), n, 3, 0);                                \
    wait_group_events(1, &e);                                                                     \
    e = async_work_group_strided_copy(DST(T), t, n, 2, 0);                                        \
    wait_group_events(1, &e);                                                                     \
    CLEAR_PADDING(S)                                                                              \
  }

// Scalar char and short copies are left out: LLVM reads their local copies with
// ds_load_u8_d16/ds_load_u16_d16, which the emulator does not implement yet.
K(async_copy_uchar4) COPY(uchar4)
K(async_copy_ushort8) COPY(ushort8)
K(async_copy_int2) COPY(int2)
K(async_copy_uint) COPY(uint)
K(async_copy_uint16) COPY(uint16)
K(async_copy_long) COPY(long)
K(async_copy_ulong4) COPY(ulong4)
K(async_copy_float) COPY(float)
K(async_copy_float8) COPY(float8)
K(async_copy_double) COPY(double)
K(async_copy_double2) COPY(double2)
K(async_copy_char3) COPY3(char3, char)
K(async_copy_float3) COPY3(float3, float)
K(async_strided_char16) STRIDED(char16)
K(async_strided_short2) STRIDED(short2)
K(async_strided_int) STRIDED(int)
K(async_strided_uint4) STRIDED(uint4)
K(async_strided_ulong) STRIDED(ulong)
K(async_strided_long8) STRIDED(long8)
K(async_strided_float2) STRIDED(float2)
K(async_strided_double4) STRIDED(double4)
K(async_strided_short3) STRIDED3(short3, short)
K(async_strided_double3) STRIDED3(double3, double)

// Two copies in flight at once, from a and from b, waited for together.
K(async_copy_two_events) {
  __local uint x[256], y[256];
  event_t e[2];
  e[0] = async_work_group_copy(x, SRC(uint), 256, 0);
  const __global uint* from_b = (const __global uint*)((const __global uchar*)b + get_group_id(0) * SLICE);
  e[1] = async_work_group_copy(y, from_b, 256, 0);
  wait_group_events(2, e);
  const size_t l = get_local_id(0);
  for (uint k = l; k < 256; k += get_local_size(0)) DST(uint)[k] = x[k] ^ y[255 - k];
}
// Local results copied out: each work-item computes into local memory, then the work-group
// copies them out (the local -> global direction after a barrier, not after a copy).
K(async_copy_out_after_barrier) {
  __local uint t[64];
  const size_t l = get_local_id(0);
  t[l] = SRC(uint)[l] * 3u + (uint)l;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(DST(uint) + 1, t, 64, 4, 0);
  wait_group_events(1, &e);
}
