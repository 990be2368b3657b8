// The OpenCL C built-in functions the other files do not reach: integer helpers, the
// correctly-rounded and few-ulp float functions, relational and geometric built-ins, vector
// shuffles, and saturating/rounding conversions. (native_* and half_* are left out: their
// accuracy is implementation-defined, so PoCL's answers are not a reference.)
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define FA as_float(a[i])
#define FB as_float(b[i])

K(bi_hadd) { I; out[i] = hadd(a[i], b[i]) ^ (uint)rhadd((int)a[i], (int)b[i]); }
K(bi_mad_hi_sat) { I; out[i] = mad_hi(a[i], b[i], a[i] >> 3) ^ (uint)mad_sat((int)a[i], 3, (int)b[i]); }
K(bi_mul24) { I; out[i] = mul24(a[i] & 0x7fffff, b[i] & 0x7fffff) + (uint)mad24((int)(a[i] << 9) >> 9, 5, 3); }
K(bi_upsample) { I; ulong u = upsample(a[i], b[i]); out[i] = (uint)(u >> 13) ^ (uint)upsample((ushort)a[i], (ushort)b[i]); }
K(bi_bitselect) { I; out[i] = bitselect(a[i], b[i], a[i] * 0x9e3779b9u); }
K(bi_long_minmax) { I; long x = (long)(((ulong)a[i] << 32) | b[i]), y = (long)(((ulong)b[i] << 32) | a[i]); out[i] = (uint)(min(x, y) >> 17) ^ (uint)(max(x, y) >> 3) ^ (uint)clamp(x, -5000l, y); }
K(bi_long_bits) { I; ulong x = ((ulong)a[i] << 32) | b[i]; out[i] = (uint)popcount(x) | ((uint)clz(x) << 8) | ((uint)ctz(x | 1ul << 63) << 16) ^ (uint)rotate(x, (ulong)b[i]); }
K(bi_abs) { I; out[i] = abs((int)a[i]) ^ (uint)abs((long)(((ulong)a[i] << 32) | b[i])) ^ abs_diff(a[i], b[i]); }
K(bi_clamp_f32) { I; out[i] = as_uint(clamp(FA, -3.5f, FB)); }
K(bi_mix_f32) { I; out[i] = as_uint(mix(FA, FB, 0.375f) + step(FB, FA)); }
K(bi_smoothstep_f32) { I; out[i] = as_uint(smoothstep(-50.0f, 50.0f, FA) + sign(FA - FB)); }
K(bi_fminmax_f32) { I; out[i] = as_uint(fmin(FA, FB) * 3.0f + fmax(FA, -FB) + fdim(FA, FB)); }
K(bi_rounding_f32) { I; float x = FA * 1.37f; out[i] = as_uint(trunc(x) + round(x) * 2.0f + rint(x) * 4.0f + floor(x) * 8.0f + ceil(x) * 16.0f); }
K(bi_copysign_f32) { I; out[i] = as_uint(copysign(FB, FA) + fabs(FA)); }
K(bi_ldexp_f32) { I; out[i] = as_uint(ldexp(FA, (int)(b[i] & 7) - 3)); }
K(bi_frexp_fi) { I; int e; float m = frexp(FA, &e); out[i] = as_uint(m) ^ (uint)e; }
K(bi_modf_f32) { I; float whole; float f = modf(FA, &whole); out[i] = as_uint(f + whole * 0.5f); }
K(bi_ilogb_fi) { I; out[i] = (uint)ilogb(FA + 0.75f) ^ ((uint)(int)logb(FB) << 8); }
K(bi_nextafter_f32) { I; out[i] = as_uint(nextafter(FA, FB)); }
K(bi_sqrt_f32) { I; out[i] = as_uint(sqrt(FB) + rsqrt(FB) + cbrt(FA)); }
K(bi_fract_f32) { I; float fl; out[i] = as_uint(fract(FA, &fl) + fl * 0.25f); }
K(bi_degrees_f32) { I; out[i] = as_uint(degrees(FA) + radians(FB)); }
K(bi_relational) { I; float x = FA, y = FB; out[i] = (uint)isnan(x / 0.0f) | ((uint)isinf(y / 0.0f) << 1) | ((uint)isfinite(x) << 2) | ((uint)signbit(x) << 3) | ((uint)isordered(x, y) << 4) | ((uint)islessgreater(x, y) << 5); }
K(bi_vector_rel) { I; int4 x = as_int4((uint4)(a[i], b[i], a[i] ^ b[i], a[i] + b[i])); out[i] = (uint)any(x) | ((uint)all(x) << 1) | (as_uint(select(x.x, x.y, x.z)) & 0xfff0); }
K(bi_geometric_f32) { I; float4 p = (float4)(FA, FB, FA - FB, 1.0f); float4 q = (float4)(FB, 2.0f, FA, -1.0f); out[i] = as_uint(dot(p, q) + length(p.xy) * 0.5f + distance(p.xyz, q.xyz)); }
K(bi_cross_f32) { I; float4 c = cross((float4)(FA, FB, 1.0f, 0.0f), (float4)(FB, -FA, 2.0f, 0.0f)); out[i] = as_uint(c.x + c.y * 2.0f + c.z * 4.0f); }
K(bi_normalize_f32) { I; float2 n = normalize((float2)(FA, FB)); out[i] = as_uint(n.x + 2.0f * n.y); }
K(bi_shuffle) { I; uint4 x = (uint4)(a[i], b[i], a[i] >> 8, b[i] << 3); uint4 m = (uint4)(a[i] & 3, b[i] & 3, (a[i] >> 5) & 3, 2); uint4 y = shuffle(x, m); uint8 z = shuffle2(x, y, (uint8)(7, 0, 5, 2, 4, 1, 6, 3)); out[i] = y.x ^ y.y * 3 ^ z.s0 * 5 ^ z.s7 * 7 ^ z.s3; }
K(bi_convert_sat) { I; int x = (int)a[i]; out[i] = (uint)convert_uchar_sat(x) | ((uint)convert_short_sat(x) << 8) ^ (uint)convert_char_sat(x >> 20); }
K(bi_convert_round_fi) { I; float f = FA * 123.375f; out[i] = (uint)convert_int_rte(f) ^ ((uint)convert_int_rtn(f) << 3) ^ ((uint)convert_int_rtp(f) << 6) ^ (uint)convert_int_sat_rtz(f * 1e8f); }
K(bi_convert_float_rounding_f32) { I; out[i] = as_uint(convert_float_rtz(a[i]) + convert_float_rtp((int)b[i]) * 0.5f + convert_float_rtn(a[i] >> 3)); }
