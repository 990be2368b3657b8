#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(ctl_if_else) { I; if (a[i] & 1) out[i] = b[i]; else out[i] = ~b[i]; }
K(ctl_nested) { I; uint x = a[i]; if (x & 1) { if (x & 2) x += 7; else x ^= b[i]; } else if (x & 4) x *= 3; out[i] = x; }
K(ctl_loop_var) { I; uint s = 0; for (uint k = 0; k < (a[i] & 15); ++k) s += b[(i + k) & 255]; out[i] = s; }
K(ctl_while_break) { I; uint x = a[i], n = 0; while (x) { if (n == 20) break; x &= x - 1; ++n; } out[i] = n; }
K(ctl_switch) { I; uint r; switch (a[i] & 7) { case 0: r = 1; break; case 1: r = b[i]; break; case 2: r = a[i] * 3; break; case 5: r = 77; break; default: r = a[i] ^ b[i]; } out[i] = r; }
K(ctl_early_return) { I; if (a[i] < 0x10000000u) { out[i] = 1; return; } out[i] = a[i] >> 4; }
K(ctl_divergent_loop) { I; uint x = a[i] & 0xff, n = 0; while (x != 1 && n < 200) { x = (x & 1) ? 3 * x + 1 : x / 2; ++n; } out[i] = n; }
K(ctl_uniform_branch) { I; uint g = get_group_id(0); out[i] = (g & 1) ? a[i] : b[i]; }
K(ctl_ternary_chain) { I; uint x = a[i]; out[i] = x < 100 ? 0 : x < 100000 ? 1 : x < 100000000 ? 2 : 3; }
K(ctl_do_while) { I; uint x = b[i] | 1, k = 0; do { x = x * 5 + 1; ++k; } while ((x & 0xf) != 0 && k < 30); out[i] = k; }
K(ctl_goto_like) { I; uint x = a[i]; for (int k = 0; k < 4; ++k) { if ((x >> k) & 1) continue; x += k; } out[i] = x; }
K(ctl_work_dims) { I; out[i] = get_work_dim() | (uint)get_global_size(0) << 4 | (uint)get_global_offset(0) << 20; }
K(ctl_function_call) { I; uint x = a[i]; for (int k = 0; k < 3; ++k) x = rotate(x, 5u) ^ b[i]; out[i] = x; }
K(ctl_uniform_loops) {
  I; uint x = a[i];
  #pragma unroll 1
  for (uint k = 0; k != 200u; ++k) x = x * 3u + k;
  #pragma unroll 1
  for (int k = 50; k > -7; --k) x ^= (uint)k * 0x9e3779b9u;
  #pragma unroll 1
  for (int k = -40; k <= 33; k += 3) x = rotate(x, 3u) + (uint)k;
  #pragma unroll 1
  for (uint k = 1000; k >= 20; k -= 37) x += k;
  #pragma unroll 1
  for (int k = 5; k < 90; k += 7) x = x * 5u ^ (uint)k;
  #pragma unroll 1
  for (uint k = 7; k <= 300; k += 11) x -= k;
  out[i] = x;
}
K(ctl_uniform_compares) {
  I; uint g = get_group_id(0); int s = (int)g - 2; uint x = a[i];
  if (s == -1) x += 1; if (s != 3) x += 2; if (s > 1) x += 4; if (s >= -2) x += 8;
  if (s < 0) x += 16; if (s <= 1) x += 32; if (g == 3u) x += 64; if (g != 2u) x += 128;
  if (g > 1u) x += 256; if (g >= 2u) x += 512; if (g < 3u) x += 1024; if (g <= 2u) x += 2048;
  out[i] = x;
}
