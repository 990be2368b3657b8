#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(int_add) { I; out[i] = a[i] + b[i]; }
K(int_sub) { I; out[i] = a[i] - b[i]; }
K(int_mul) { I; out[i] = a[i] * b[i]; }
K(int_mul_hi) { I; out[i] = mul_hi(a[i], b[i]); }
K(int_mul_hi_signed) { I; out[i] = (uint)mul_hi((int)a[i], (int)b[i]); }
K(int_div_u) { I; out[i] = a[i] / (b[i] | 1u); }
K(int_rem_u) { I; out[i] = a[i] % (b[i] | 1u); }
K(int_div_s) { I; int d = (int)(b[i] | 1u); out[i] = (uint)((int)a[i] / (d == -1 ? 1 : d)); }
K(int_rem_s) { I; int d = (int)(b[i] | 1u); out[i] = (uint)((int)a[i] % (d == -1 ? 1 : d)); }
// Operands LLVM knows fit 24 bits divide through a float reciprocal (its 24-bit expansion);
// a numerator one below a multiple of the divisor near 2^24 is the edge case.
K(int_div_rem_24) {
  I; uint d = (b[i] & 62u) + 3u;
  uint n = (((0xffffffu / d) - (a[i] & 0xffu)) * d - 1u) & 0xffffffu;
  out[i] = n % d;
}
K(int_shifts) { I; uint s = b[i] & 31; out[i] = (a[i] << s) ^ (a[i] >> s) ^ (uint)((int)a[i] >> s); }
K(int_rotate) { I; out[i] = rotate(a[i], b[i]); }
K(int_bitops) { I; out[i] = (a[i] & b[i]) | (~a[i] ^ b[i]); }
K(int_popcount) { I; out[i] = popcount(a[i]) + 100 * popcount(b[i]); }
K(int_clz_ctz) { I; out[i] = clz(a[i]) | (ctz(b[i]) << 8); }
K(int_clamp) { I; out[i] = (uint)clamp((int)a[i], -1000, (int)(b[i] >> 20)) ^ clamp(b[i], 77u, a[i] | 1000u); }
K(int_min3_max3) { I; int x = (int)a[i], y = (int)b[i], z = (int)(a[i] * 7u); out[i] = (uint)min(min(x, y), z) + (uint)max(max(x, y), z) * 3u + min(min(a[i], b[i]), a[i] ^ b[i]) * 5u + max(max(a[i], b[i]), a[i] * 3u) * 9u; }
K(int_minmax) { I; out[i] = min(a[i], b[i]) ^ (uint)max((int)a[i], (int)b[i]); }
K(int_abs_diff) { I; out[i] = abs_diff((int)a[i], (int)b[i]); }
K(int_add_sat) { I; out[i] = add_sat(a[i], b[i]) ^ (uint)sub_sat((int)a[i], (int)b[i]); }
K(int_mad24) { I; out[i] = mad24(a[i] & 0xffffff, b[i] & 0xffffff, a[i] >> 8); }
K(int_select) { I; out[i] = select(a[i], b[i], (int)(a[i] - b[i]) < 0); }
K(int_bitfield) { I; out[i] = ((a[i] >> 5) & 0x3ff) | ((b[i] & 0x7f) << 20); }
K(int_bytes) { I; uchar4 x = as_uchar4(a[i]), y = as_uchar4(b[i]); out[i] = as_uint(x + y); }
K(int_shorts) { I; short2 x = as_short2(a[i]), y = as_short2(b[i]); out[i] = as_uint(x * y); }
K(long_add) { I; ulong x = ((ulong)a[i] << 32) | b[i]; out[i] = (uint)((x + 0x123456789ul) >> 7); }
K(long_mul) { I; ulong x = ((ulong)a[i] << 32) | b[i]; out[i] = (uint)((x * x) >> 29); }
K(long_div) { I; ulong x = ((ulong)a[i] << 32) | b[i]; out[i] = (uint)(x / ((ulong)b[i] | 1)); }
K(long_shifts) { I; ulong x = ((ulong)a[i] << 32) | b[i]; uint s = a[i] & 63; out[i] = (uint)(x >> s) ^ (uint)(x << s) ^ (uint)((long)x >> s); }
