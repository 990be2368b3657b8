// Generic-address-space pointers the compiler cannot resolve: flat instructions whose
// addresses land in the shared (LDS) or private aperture at run time, and the aperture
// queries behind to_local/to_private/to_global.
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0); size_t l = get_local_id(0)

__attribute__((noinline)) uint generic_sum(const uint* p, uint n) {
  uint s = 0;
  for (uint k = 0; k < n; ++k) s += p[k] * (k + 1);
  return s;
}
__attribute__((noinline)) void generic_store(uint* p, uint v) { p[0] = v; p[1] = v ^ 0x55u; }

K(generic_mixed_read) {
  I;
  __local uint t[64];
  uint p[4];
  t[l] = a[i];
  for (uint k = 0; k < 4; ++k) p[k] = b[i] + k;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint sel = a[i] % 3;
  const uint* g = sel == 0 ? (const uint*)&t[l & ~3u] : sel == 1 ? (const uint*)p : (const uint*)&b[i & ~3u];
  out[i] = generic_sum(g, 4);
}
K(generic_mixed_write) {
  I;
  __local uint t[128];
  uint p[2] = {0, 0};
  t[2 * l] = 0;
  t[2 * l + 1] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint* g = (a[i] & 1) ? (uint*)&t[2 * l] : (uint*)p;
  generic_store(g, b[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = (a[i] & 1) ? t[2 * l] + 3 * t[2 * l + 1] : p[0] + 3 * p[1];
}
K(generic_address_spaces) {
  I;
  __local uint t[64];
  uint p[2] = {a[i], b[i]};
  t[l] = a[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint sel = b[i] % 3;
  uint* g = sel == 0 ? (uint*)&t[l] : sel == 1 ? (uint*)&p[b[i] & 1] : (uint*)&out[i];
  out[i] = (to_local(g) != 0) | (to_private(g) != 0) << 1 | (to_global(g) != 0) << 2;
}
