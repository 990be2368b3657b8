#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define X as_half((ushort)a[i])
#define Y as_half((ushort)b[i])
#define R(v) out[i] = (uint)as_ushort((half)(v))

K(add_f16) { I; R(X + Y); }
K(mul_f16) { I; R(X * Y); }
K(fma_f16) { I; R(fma(X, Y, (half)1.0h)); }
K(convert_f16) { I; R((half)((float)X * 2.0f)); }
K(minmax_f16) { I; R(fmin(X, Y) + fmax(X, Y)); }
K(vload_half_f16) { I; float f = vload_half(0, (__global const half*)&a[i]); R(f + 1.0f); }
K(compare_f16) { I; out[i] = (X < Y) | ((X == Y) << 1); }
K(div_f16) { I; R(X / Y); }
