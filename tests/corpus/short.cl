// 16-bit integer arithmetic, scalar and packed (short2/ushort2 map onto v_pk_* instructions).
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define S2(v) as_short2(v)
#define U2(v) as_ushort2(v)

K(short2_add) { I; out[i] = as_uint(S2(a[i]) + S2(b[i])); }
K(short2_sub) { I; out[i] = as_uint(S2(a[i]) - S2(b[i])); }
K(short2_mul) { I; out[i] = as_uint(S2(a[i]) * S2(b[i])); }
K(short2_add_sat) { I; out[i] = as_uint(add_sat(S2(a[i]), S2(b[i]))); }
K(short2_sub_sat) { I; out[i] = as_uint(sub_sat(S2(a[i]), S2(b[i]))); }
K(ushort2_add_sat) { I; out[i] = as_uint(add_sat(U2(a[i]), U2(b[i]))); }
K(ushort2_sub_sat) { I; out[i] = as_uint(sub_sat(U2(a[i]), U2(b[i]))); }
K(short2_minmax) { I; out[i] = as_uint(max(S2(a[i]), S2(b[i])) ^ min(S2(b[i]), S2(a[i]))); }
K(ushort2_minmax) { I; out[i] = as_uint(max(U2(a[i]), U2(b[i])) ^ min(U2(b[i]), U2(a[i]))); }
K(short2_shifts) { I; short2 x = S2(a[i]); ushort2 y = U2(b[i]) & (ushort2)15; out[i] = as_uint((x << as_short2(y)) ^ (x >> as_short2(y)) ^ as_short2(U2(a[i]) >> y)); }
K(short2_mad) { I; out[i] = as_uint(S2(a[i]) * S2(b[i]) + S2(a[i] ^ b[i])); }
K(ushort2_mad_sat) { I; out[i] = as_uint(mad_sat(U2(a[i]) & (ushort2)0xff, U2(b[i]) & (ushort2)0xff, U2(a[i]))); }
K(short_scalar) { I; short x = (short)a[i], y = (short)b[i]; out[i] = (ushort)(x * y + (x >> 3)) | (uint)(ushort)max(x, y) << 16; }
K(ushort_scalar) { I; ushort x = (ushort)a[i], y = (ushort)b[i]; out[i] = (ushort)(x * y + (x >> 3)) | (uint)min(x, y) << 16; }
K(short_convert) { I; out[i] = (uint)(int)(short)a[i] + (uint)(ushort)b[i] + (uint)convert_short_sat((int)a[i]) + (uint)convert_ushort_sat((int)b[i]); }
K(short_mad24) { I; short x = (short)a[i], y = (short)b[i]; out[i] = (uint)((int)x * (int)y + (int)a[i]); }
K(ushort_hadd) { I; out[i] = as_uint(hadd(U2(a[i]), U2(b[i])) ^ rhadd(U2(b[i]), U2(a[i]))); }
K(short2_abs_diff) { I; out[i] = as_uint(abs_diff(S2(a[i]), S2(b[i]))); }
K(short2_clamp) { I; out[i] = as_uint(clamp(S2(a[i]), (short2)(-1000, -20), (short2)(1000, 20))); }
