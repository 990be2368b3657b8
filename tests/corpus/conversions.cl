#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define X as_float(a[i])
#define Y as_float(b[i])

K(cvt_f32_to_i32_fi) { I; out[i] = (uint)convert_int_rtz(X * 1000.0f); }
K(cvt_f32_to_u32_sat) { I; out[i] = convert_uint_sat(X * 1e7f); }
K(cvt_f32_rte_fi) { I; out[i] = (uint)convert_int_rte(X); }
K(cvt_f32_rtn_rtp_fi) { I; out[i] = (uint)(convert_int_rtn(X) * 3 + convert_int_rtp(X)); }
K(cvt_i32_to_f32) { I; out[i] = as_uint((float)(int)a[i]); }
K(cvt_u32_to_f32) { I; out[i] = as_uint((float)a[i]); }
K(cvt_u64_to_f32) { I; ulong x = ((ulong)a[i] << 32) | b[i]; out[i] = as_uint((float)x); }
// Signed 64-bit to float normalises with v_cls_i32 (count of leading sign bits).
K(cvt_i64_to_f32) { I; long x = (long)(((ulong)a[i] << 32) | b[i]) >> (a[i] & 31); out[i] = as_uint((float)x); }
K(clz_cls_i64) { I; long x = (long)(((ulong)a[i] << 32) | b[i]) >> (b[i] & 63); out[i] = clz(x) + ((uint)clz(~x) << 8); }
K(cvt_f32_to_u64) { I; ulong x = convert_ulong_sat(X * 1e10f); out[i] = (uint)(x >> 3) ^ (uint)(x >> 35); }
K(cvt_char_sat) { I; out[i] = as_uint(convert_char4_sat(as_int4((uint4)(a[i], b[i], a[i] >> 3, b[i] >> 5)))); }
K(cvt_short_sat) { I; out[i] = as_uint(convert_ushort2_sat((int2)((int)a[i], (int)b[i]))); }
K(cvt_as_type) { I; out[i] = as_uint(as_float(a[i] & 0x3fffffffu) * 2.0f); }
K(cvt_float_rtz_f32) { I; out[i] = as_uint(convert_float_rtz(((ulong)a[i] << 20) | b[i])); }
