#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(vec_load4) { I; if (i < 64) { uint4 x = vload4(i, a), y = vload4(i, b); vstore4(x + y * 3u, i, out); } }
K(vec_swizzle) { I; uint4 x = (uint4)(a[i], b[i], a[i] ^ b[i], 7u); out[i] = x.w + x.zyx.x * 2u + x.y; }
K(vec_shuffle) { I; uint4 x = (uint4)(a[i], b[i], 1u, 2u); uint4 m = (uint4)(3, 2, 1, 0); out[i] = dot(convert_float4(shuffle(x, m) & 0xffu), (float4)(1, 2, 3, 4)); }
K(vec_char16) { I; if (i < 16) { uchar16 x = vload16(i, (__global const uchar*)a); uchar16 y = vload16(i, (__global const uchar*)b); vstore16(x ^ y, i, (__global uchar*)out); } }
K(vec_short8) { I; if (i < 32) { short8 x = vload8(i, (__global const short*)a); vstore8(x >> (short8)3, i, (__global short*)out); } }
K(vec_select) { I; int4 x = as_int4(vload4(i & 63, a)); int4 y = as_int4(vload4(i & 63, b)); out[i] = as_uint(select(x, y, x < y).x); }
K(vec_float4_f32) { I; float4 x = (float4)(as_float(a[i]), 1.0f, 2.0f, 3.0f); float4 y = (float4)(as_float(b[i])); out[i] = as_uint(length(x * y + 0.5f)); }
K(vec_float2_f32) { I; float2 x = (float2)(as_float(a[i]), as_float(b[i])); out[i] = as_uint(dot(normalize(x + 200.0f), x)); }
K(vec_convert) { I; float4 f = convert_float4(as_uchar4(a[i])); out[i] = as_uint(convert_uchar4_sat(f * 1.5f)); }
K(vec_long2) { I; ulong2 x = (ulong2)(a[i], b[i]); x = x * (ulong2)(3, 5) + (ulong2)(a[i] >> 3); out[i] = (uint)(x.x ^ x.y); }
K(vec_any_all) { I; int4 x = as_int4((uint4)(a[i], b[i], a[i] + b[i], a[i] - b[i])); out[i] = any(x < 0) | (all(x > 0) << 1); }
K(vec_bitselect) { I; out[i] = bitselect(a[i], b[i], 0x0f0f0f0fu); }
// Components of uniform (scalar-register) short and char vectors rearranged: LLVM packs the
// halves with s_pack_ll/lh/hl/hh_b32_b16 (the CTS's relationals shuffle_* and basic
// vector_creation/vector_swizzle kernels failed on them).
K(vec_uniform_halves) {
  I;
  short8 s = *(__global const short8*)a, t = *(__global const short8*)b;
  short8 u = (short8)(s.s1, t.s2, s.s7, t.s6, s.s0, s.s3, t.s5, t.s4);
  short4 v = (short4)(s.s3, t.s1, s.s5, s.s5), w = (short4)(t.s0, s.s0, t.s7, s.s6);
  char8 c = *(__global const char8*)(a + 4);
  char8 d = (char8)(c.s3, c.s2, c.s1, c.s0, c.s7, c.s5, c.s6, c.s4);
  out[i] = as_uint4(u)[i & 3] ^ as_uint2(d)[(i >> 4) & 1] ^ as_uint2(v)[(i >> 2) & 1] ^
           as_uint2(w)[(i >> 3) & 1];
}
