#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define X (((__global const double*)a)[i])
#define Y (((__global const double*)b)[i])
#define R(v) ((__global double*)out)[i] = (double)(v)

K(add_f64) { I; R(X + Y); }
K(mul_f64) { I; R(X * Y); }
K(div_f64) { I; R(X / Y); }
// Operands about 2^1000 apart: v_div_scale asks (through VCC) for v_div_fmas to scale the
// quotient back, up for a huge one and down for a tiny one.
K(div_wide_range_f64) { I; R((X * 1e150) / (Y * 1e-150) + (Y * 1e-150) / (X * 1e150) * 1e300); }
K(fma_f64) { I; R(fma(X, Y, 0.25)); }
K(sqrt_f64) { I; R(sqrt(Y)); }
K(minmax_f64) { I; R(fmin(X, Y) - fmax(X, Y)); }
K(floor_f64) { I; R(floor(X) + ceil(Y)); }
K(exp_f64) { I; R(exp(X * 0.05)); }
K(log_f64) { I; R(log(Y)); }
K(sin_f64) { I; R(sin(X)); }
K(convert_f64) { I; R((double)(int)X + (double)(float)Y); }
K(compare_f64) { I; ((__global ulong*)out)[i] = (X < Y) | ((X == Y) << 1) | ((ulong)(X > Y) << 40); }
