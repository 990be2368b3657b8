#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(mem_gather) { I; out[i] = a[b[i] & 255]; }
K(mem_scatter) { I; out[(i * 37) & 255] = a[i]; }
K(mem_byte_store) { I; ((__global uchar*)out)[i] = (uchar)a[i]; ((__global uchar*)out)[i + 512] = (uchar)b[i]; }
K(mem_short_store) { I; ((__global ushort*)out)[i] = (ushort)(a[i] >> 3); }
K(mem_unaligned_bytes) { I; __global const uchar* p = (__global const uchar*)a; out[i] = p[i * 3] | p[i * 3 + 1] << 8 | p[i * 3 + 2] << 16; }
K(mem_long_load) { I; if (i < 128) ((__global ulong*)out)[i] = ((__global const ulong*)a)[i] ^ ((__global const ulong*)b)[i]; }
K(mem_constant) { __constant uint lut[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000}; I; out[i] = lut[a[i] & 7] + lut[b[i] & 7]; }
K(mem_stride) { I; out[i] = a[(i * 4) & 255] + a[(i * 4 + 1) & 255]; }
K(mem_2d_index) { I; size_t r = i / 16, c = i % 16; out[i] = a[c * 16 + r]; }
K(mem_restrict) { I; __global const uint* restrict p = a; out[i] = p[i] + p[255 - i]; }
