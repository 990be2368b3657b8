// Atomics whose returned old value is used (the _rtn_ LDS forms, GLC/TH_ATOMIC_RETURN FLAT
// forms), 64-bit atom_*, clamp on char/short (v_med3_i16/u16) and char/short vectors through
// local memory (the d16 LDS loads). Results never depend on the order atomics land in: each
// work-item works on its own element, or only final totals and order-free facts are stored.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0); size_t l = get_local_id(0)

// Own LDS element: every atomic_* form, the old value and the new one.
K(rtn_local_own_slot) { I; __local uint t[64 * 12]; __local uint* s = t + 12 * l; uint x = a[i], y = b[i];
  for (int k = 0; k < 12; ++k) s[k] = x ^ (k * 0x9e3779b9u);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = 0;
  r += atomic_add(&s[0], y); r ^= atomic_sub(&s[1], y) * 3; r += atomic_xchg(&s[2], y) * 5;
  r ^= atomic_min(&s[3], y) * 7; r += atomic_max(&s[4], y) * 11; r ^= atomic_and(&s[5], y) * 13;
  r += atomic_or(&s[6], y) * 17; r ^= atomic_xor(&s[7], y) * 19;
  r += atomic_min((__local int*)&s[8], (int)y) * 23; r ^= atomic_max((__local int*)&s[9], (int)y) * 29;
  r += atomic_cmpxchg(&s[10], (y & 1) ? s[10] : ~s[10], y) * 31;
  r ^= atomic_inc(&s[11]) + atomic_dec(&s[11]) * 37;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 12; ++k) r = r * 0x01000193u ^ s[k];
  out[i] = r; }

// Every work-item of a group increments one LDS counter: the old values are 0..63, each once.
K(rtn_local_counter) { I; __local uint c, seen[64]; if (l == 0) c = 0; seen[l] = 0; barrier(CLK_LOCAL_MEM_FENCE);
  uint old = atomic_inc(&c); atomic_add(&seen[old & 63], 1u + (old >> 6)); barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = seen[l] | (c << 8); }

// Contended LDS: final min, max, and, or, xor and sum of the group's values; the returned
// values only through order-free tests (an old value never beats the final max).
K(rtn_local_contended) { I; __local uint v[6]; __local int bad;
  if (l == 0) { v[0] = 0xffffffffu; v[1] = 0; v[2] = 0xffffffffu; v[3] = 0; v[4] = 0; v[5] = 0; bad = 0; }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = a[i];
  atomic_min(&v[0], x); uint om = atomic_max(&v[1], x); atomic_and(&v[2], x | 0x80000001u);
  atomic_or(&v[3], x & 0x0f0f0f0fu); atomic_xor(&v[4], x); atomic_add(&v[5], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (om > v[1]) atomic_or(&bad, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = v[l % 6] ^ (bad << 31); }

// Own global element, every atomic_* returning.
K(rtn_global_own_slot) { I; __global uint* s = out + (i & ~3u); uint x = a[i], y = b[i];
  uint r;
  switch (i & 3) {
  case 0: s[0] = x; r = atomic_add(&s[0], y) ^ atomic_sub(&s[0], y >> 3); r += atomic_xchg(&s[0], y); break;
  case 1: s[1] = x; r = atomic_min(&s[1], y) + atomic_max((__global int*)&s[1], (int)x) * 3; break;
  case 2: s[2] = x; r = atomic_and(&s[2], y) ^ atomic_or(&s[2], y >> 5) ^ atomic_xor(&s[2], x * 7); break;
  default: s[3] = x; r = atomic_cmpxchg(&s[3], (y & 1) ? x : ~x, y) + atomic_inc(&s[3]) + atomic_dec(&s[3]); break;
  }
  s[i & 3] ^= r; }

// Contended global: a counter per work-group and one over the whole range; each old value
// sets a bit, so every bit ends up set once (old values are 0..63 per group, 0..255 overall).
K(rtn_global_permutation) { I; uint g = get_group_id(0);
  uint old = atomic_inc(&out[200 + g]); atomic_or(&out[32 * g + (old & 31)], 1u << (old >> 5));
  uint all = atomic_add(&out[255], 1u); atomic_or(&out[128 + (all & 63)], 1u << (all >> 6)); }

// 64-bit atom_* on the work-item's own global element and on LDS (cl_khr_int64_*_atomics).
K(rtn_atom64_global) { I; if (i & 1) return; __global ulong* s = (__global ulong*)out + i / 2;
  ulong x = ((ulong)a[i] << 32) | b[i], y = ((ulong)b[i] << 29) ^ a[i];
  ulong r = 0;
  *s = x;
  r += atom_add(s, y); r ^= atom_sub(s, y >> 7) * 3; r += atom_xchg(s, x ^ y) * 5;
  r ^= atom_min(s, y) * 7; r += atom_max((__global long*)s, (long)x) * 11;
  r ^= atom_and(s, y | 0xff) * 13; r += atom_or(s, x >> 3) * 17; r ^= atom_xor(s, y) * 19;
  r += atom_cmpxchg(s, (y & 1) ? *s : ~*s, y) * 23; r ^= atom_inc(s) + atom_dec(s) * 29;
  r += atom_min((__global long*)s, (long)y);
  *s ^= r; }

K(rtn_atom64_local) { I; __local ulong t[64]; ulong x = ((ulong)b[i] << 32) | a[i], y = ((ulong)a[i] << 17) ^ b[i];
  t[l] = x; barrier(CLK_LOCAL_MEM_FENCE);
  __local ulong* s = &t[l];
  ulong r = atom_add(s, y); r ^= atom_sub(s, y >> 7) * 3; r += atom_xchg(s, x ^ y) * 5;
  r ^= atom_min(s, y) * 7; r += atom_max((__local long*)s, (long)x) * 11;
  r ^= atom_and(s, y | 0xff) * 13; r += atom_or(s, x >> 3) * 17; r ^= atom_xor(s, y) * 19;
  r += atom_cmpxchg(s, (y & 1) ? *s : ~*s, y) * 23; r ^= atom_inc(s) + atom_dec(s) * 29;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong z = t[l ^ 1] ^ r;
  out[i] = (uint)z ^ (uint)(z >> 32); }

// 64-bit contended: each group sums into an LDS counter, the whole range into a global one
// (out[254..255], read after the kernel), and the largest value by atom_max.
K(rtn_atom64_contended) { I; __local ulong sum; if (l == 0) sum = 0; barrier(CLK_LOCAL_MEM_FENCE);
  ulong x = ((ulong)a[i] << 20) + b[i];
  atom_add(&sum, x); atom_add((__global ulong*)out + 127, x); atom_max((__global ulong*)out + 126, x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < 252) out[i] = (uint)(sum >> (l & 31)); }

// C11 atomics with explicit orders on local and global memory, results used.
K(rtn_c11_fetch) { I; __local atomic_uint t[64]; atomic_init(&t[l], a[i]); barrier(CLK_LOCAL_MEM_FENCE);
  uint r = atomic_fetch_add_explicit(&t[l], b[i], memory_order_relaxed, memory_scope_work_group);
  r ^= atomic_fetch_min_explicit(&t[l], b[i] >> 1, memory_order_relaxed, memory_scope_work_group);
  r += atomic_fetch_or_explicit(&t[l], 0x100u, memory_order_relaxed, memory_scope_work_group);
  r ^= atomic_exchange_explicit(&t[l], r, memory_order_relaxed, memory_scope_work_group);
  uint e = a[i];
  atomic_compare_exchange_strong_explicit(&t[l], &e, b[i], memory_order_relaxed, memory_order_relaxed, memory_scope_work_group);
  out[i] = r ^ e ^ atomic_load_explicit(&t[l], memory_order_relaxed, memory_scope_work_group); }

// A float exchange (atomic_xchg on float is core OpenCL C).
K(rtn_float_xchg_f32) { I; __local float t[64]; t[l] = as_float(a[i]); barrier(CLK_LOCAL_MEM_FENCE);
  float o1 = atomic_xchg(&t[l], as_float(b[i]));
  __global float* g = (__global float*)out + i; *g = as_float(b[i]);
  float o2 = atomic_xchg(g, o1 + t[l]);
  *g += o2; }

// clamp() on char, uchar, short and ushort, scalar and vector.
K(rtn_clamp_small_ints) { I; uint x = a[i], y = b[i];
  char c = clamp((char)x, min((char)y, (char)(y >> 8)), max((char)y, (char)(y >> 8)));
  uchar uc = clamp((uchar)(x >> 8), min((uchar)(y >> 16), (uchar)(y >> 24)), max((uchar)(y >> 16), (uchar)(y >> 24)));
  short s = clamp((short)(x >> 16), min((short)y, (short)(y >> 16)), max((short)y, (short)(y >> 16)));
  ushort us = clamp((ushort)x, min((ushort)(y >> 3), (ushort)(y >> 17)), max((ushort)(y >> 3), (ushort)(y >> 17)));
  short4 v = clamp(as_short4((uint2)(x, y)), (short)-1000, (short)1000);
  char4 cv = clamp(as_char4(x), (char4)(-5, -100, 0, 20), (char4)(5, 100, 50, 21));
  out[i] = (uint)(uchar)c ^ ((uint)uc << 8) ^ ((uint)(ushort)s << 16) ^ ((uint)us * 31u) ^
           as_uint(v.lo) * 7u ^ as_uint(v.hi) * 13u ^ as_uint(cv) * 3u; }

// char and short vectors stored and loaded through local memory (byte and short LDS stores and
// d16 loads), misaligned vector offsets included.
K(rtn_local_char_short_vectors) { I; __local char tc[64 * 8 + 8]; __local short ts[64 * 4 + 4];
  vstore4(as_char4(a[i]), 0, tc + 8 * l + (l & 3)); vstore2(as_short2(b[i]), 0, ts + 4 * l + (l & 1));
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t k = (l + 1) & 63;
  char4 c = vload4(0, tc + 8 * k + (k & 3)); short2 s = vload2(0, ts + 4 * k + (k & 1));
  char2 c2 = vload2(0, tc + 8 * k + (k & 3) + 1); short ss = ts[4 * k + (k & 1) + 1];
  out[i] = as_uint(c) ^ as_uint(s) * 3u ^ (uint)as_ushort(c2) * 5u ^ (uint)(int)ss * 7u; }
