#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)
#define X as_float(a[i])
#define Y as_float(b[i])
#define R(v) out[i] = as_uint((float)(v))

K(add_f32) { I; R(X + Y); }
K(sub_f32) { I; R(X - Y); }
K(mul_f32) { I; R(X * Y); }
K(div_f32) { I; R(X / Y); }
K(fma_f32) { I; R(fma(X, Y, 1.5f)); }
K(mad_f32) { I; R(X * Y + X); }
K(sqrt_f32) { I; R(sqrt(Y)); }
K(rsqrt_f32) { I; R(rsqrt(Y)); }
K(minmax_f32) { I; R(fmin(X, Y) + fmax(X, -Y)); }
K(floor_ceil_f32) { I; R(floor(X) * 3.0f + ceil(X)); }
K(round_trunc_f32) { I; R(round(X) - trunc(X) + rint(X)); }
K(fabs_copysign_f32) { I; R(fabs(X) + copysign(Y, X)); }
K(fract_f32) { I; float ip; R(fract(X, &ip) + ip * 0.001f); }
K(clamp_f32) { I; R(clamp(X, -10.0f, 10.0f)); }
K(mix_step_f32) { I; R(mix(X, Y, 0.25f) + step(0.0f, X)); }
K(compare_f32) { I; out[i] = (X < Y) | ((X == Y) << 1) | ((X >= Y) << 2) | (isnan(X) << 3); }
K(select_f32) { I; R(X > 0.0f ? X : Y); }
K(ldexp_frexp_f32) { I; int e; float m = frexp(X, &e); R(ldexp(m, e + 1) + (float)e); }
K(poly_f32) { I; float x = X * 0.01f; R(((x * 0.5f + 1.0f) * x + 2.0f) * x + 3.0f); }
K(dot_f32) { I; float4 p = (float4)(X, Y, X, 1.0f), q = (float4)(Y, X, 2.0f, X); R(dot(p, q)); }
