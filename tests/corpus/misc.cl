#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

__constant uint kTable[4] = {0x9e3779b9u, 0x7f4a7c15u, 0x85ebca6bu, 0xc2b2ae35u};
uint hash(uint x) { x ^= x >> 16; x *= kTable[2]; x ^= x >> 13; x *= kTable[3]; return x ^ (x >> 16); }

K(misc_hash) { I; out[i] = hash(a[i] ^ hash(b[i])); }
K(misc_crc) { I; uint c = 0xffffffffu, x = a[i]; for (int k = 0; k < 32; ++k) { uint bit = (c ^ x) & 1; c = (c >> 1) ^ (bit ? 0xedb88320u : 0); x >>= 1; } out[i] = ~c; }
K(misc_gcd) { I; uint x = a[i] | 1, y = b[i] | 1; while (y) { uint t = x % y; x = y; y = t; } out[i] = x; }
K(misc_isqrt) { I; uint x = a[i], r = 0; for (int k = 15; k >= 0; --k) { uint t = r | (1u << k); if (t * t <= x) r = t; } out[i] = r; }
K(misc_bitreverse) { I; uint x = a[i], r = 0; for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1) << (31 - k); out[i] = r; }
K(misc_fib) { I; uint x = 0, y = 1, n = a[i] & 63; for (uint k = 0; k < n; ++k) { uint t = x + y; x = y; y = t; } out[i] = x; }
K(misc_sat_math) { I; out[i] = (uint)hadd((int)a[i], (int)b[i]) ^ rhadd(a[i], b[i]); }
K(misc_mandel_f32) { I; float cr = as_float(a[i]) * 0.02f, ci = as_float(b[i]) * 0.1f, zr = 0, zi = 0; int n = 0;
  while (n < 64 && zr * zr + zi * zi < 4.0f) { float t = zr * zr - zi * zi + cr; zi = 2 * zr * zi + ci; zr = t; ++n; }
  out[i] = as_uint((float)n + zr * 0.0f); }
K(misc_upsample) { I; out[i] = (uint)upsample((ushort)a[i], (ushort)b[i]); }
K(misc_clamp_int) { I; out[i] = (uint)clamp((int)a[i], -1000, 1000); }
