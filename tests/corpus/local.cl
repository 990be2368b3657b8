#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0); size_t l = get_local_id(0)

K(local_reverse) { I; __local uint t[64]; t[l] = a[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = t[63 - l]; }
K(local_reduce) { I; __local uint t[64]; t[l] = a[i] & 0xffff; barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 32; s > 0; s >>= 1) { if (l < s) t[l] += t[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }
  out[i] = t[0]; }
K(local_scan) { I; __local uint t[64]; t[l] = b[i] & 0xff; barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < 64; s <<= 1) { uint v = l >= s ? t[l - s] : 0; barrier(CLK_LOCAL_MEM_FENCE); t[l] += v; barrier(CLK_LOCAL_MEM_FENCE); }
  out[i] = t[l]; }
K(local_transpose) { I; __local uint t[8][9]; t[l / 8][l % 8] = a[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = t[l % 8][l / 8]; }
K(local_float_reduce_f32) { I; __local float t[64]; t[l] = as_float(a[i]); barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) { float s = 0; for (int k = 0; k < 64; ++k) s += t[k]; t[0] = s; } barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = as_uint(t[0]); }
K(local_uchar) { I; __local uchar t[64]; t[l] = (uchar)a[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = t[(l + 1) & 63] + t[(l + 7) & 63]; }
K(local_ushort) { I; __local ushort t[64]; t[l] = (ushort)b[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = t[l ^ 1]; }
K(local_ulong) { I; __local ulong t[64]; t[l] = ((ulong)a[i] << 32) | b[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = (uint)(t[l ^ 3] >> 16); }
K(local_two_arrays) { I; __local uint x[64], y[64]; x[l] = a[i]; y[l] = b[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = x[y[l] & 63] ^ y[x[l] & 63]; }
K(local_group_ids) { I; out[i] = (uint)(get_group_id(0) << 16 | get_local_size(0) << 8 | get_num_groups(0)); }
K(local_async_copy) { I; __local uint t[64]; event_t e = async_work_group_copy(t, a + get_group_id(0) * 64, 64, 0); wait_group_events(1, &e); out[i] = t[63 - l]; }
K(local_broadcast) { I; __local uint t; if (l == 5) t = a[i]; barrier(CLK_LOCAL_MEM_FENCE); out[i] = t + l; }
