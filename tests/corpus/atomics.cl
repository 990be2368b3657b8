#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(atomic_add_global) { I; atomic_add(&out[0], a[i] & 0xff); if (i) out[i] = 0; }
K(atomic_minmax_global) { I; if (i == 0) { out[0] = 0xffffffff; out[1] = 0; } barrier(CLK_GLOBAL_MEM_FENCE); }
K(atomic_inc_global) { I; uint old = atomic_inc(&out[64]); out[i & 63] = 0; (void)old; }
K(atomic_xchg_global) { I; if (i < 64) out[i] = atomic_xchg(&out[64 + i], a[i]) + 0; }
K(atomic_cmpxchg_global) { I; if (i < 64) out[i] = atomic_cmpxchg(&out[i], 0u, b[i]); }
K(atomic_or_and_global) { I; atomic_or(&out[0], 1u << (a[i] & 31)); atomic_and(&out[1], ~(1u << (b[i] & 31))); }
K(atomic_local_sum) { I; __local uint sum; if (get_local_id(0) == 0) sum = 0; barrier(CLK_LOCAL_MEM_FENCE); atomic_add(&sum, a[i] & 0xffff); barrier(CLK_LOCAL_MEM_FENCE); out[i] = sum; }
K(atomic_local_max) { I; __local uint m; if (get_local_id(0) == 0) m = 0; barrier(CLK_LOCAL_MEM_FENCE); atomic_max(&m, a[i]); barrier(CLK_LOCAL_MEM_FENCE); out[i] = m; }
K(atomic_long_add) { I; atom_add((__global ulong*)&out[2], (ulong)(a[i] & 0xfff)); if (i < 2 || i > 3) out[i] = 0; }
K(atomic_c11_fetch_add) { I; atomic_fetch_add_explicit((volatile __global atomic_uint*)&out[0], a[i] & 0xf, memory_order_relaxed, memory_scope_device); if (i) out[i] = 0; }
K(atomic_float_add) { I; __global volatile atomic_float* f = (__global volatile atomic_float*)&out[0]; if (i) out[i] = 0; }
K(atomic_counter_order) { I; uint slot = atomic_inc(&out[255]); if (slot < 255) out[slot] = slot; }
