#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define X as_float(a[i])
#define Y as_float(b[i])
#define R(v) out[i] = as_uint((float)(v))

K(exp_f32) { I; R(exp(X * 0.05f)); }
K(exp2_f32) { I; R(exp2(X * 0.1f)); }
K(log_f32) { I; R(log(Y)); }
K(log2_f32) { I; R(log2(Y)); }
K(log10_f32) { I; R(log10(Y)); }
K(pow_f32) { I; R(pow(Y, X * 0.05f)); }
K(sin_f32) { I; R(sin(X)); }
K(cos_f32) { I; R(cos(X)); }
K(tan_f32) { I; R(tan(X * 0.01f)); }
K(asin_f32) { I; R(asin(X * 0.01f)); }
K(atan_f32) { I; R(atan(X)); }
K(atan2_f32) { I; R(atan2(X, Y)); }
K(sinh_f32) { I; R(sinh(X * 0.05f)); }
K(tanh_f32) { I; R(tanh(X * 0.05f)); }
K(cbrt_f32) { I; R(cbrt(X)); }
K(hypot_f32) { I; R(hypot(X, Y)); }
K(erf_f32) { I; R(erf(X * 0.03f)); }
K(fmod_f32) { I; R(fmod(X, Y)); }
K(remainder_f32) { I; R(remainder(X, Y)); }
K(expm1_f32) { I; R(expm1(X * 0.01f)); }
