// Float math on work-group-uniform values: the compiler keeps it in scalar registers, which
// gfx12 computes with its scalar float ALU (s_add_f32, s_fmac_f32, s_cmp_lt_f32, ...; gfx11
// moves it to the vector ALU). Each work-group reads one element of a and b.
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define G size_t g = get_group_id(0), i = get_global_id(0)
#define X as_float(a[g])
#define Y as_float(b[g])

K(uniform_add_sub_f32) { G; float x = X, y = Y; out[i] = as_uint((x + y) * 0.5f - (x - y)); }
K(uniform_mul_f32) { G; out[i] = as_uint(X * Y * 3.0f); }
K(uniform_fma_f32) { G; out[i] = as_uint(fma(X, Y, 1.25f) + fma(X, 2.5f, Y)); }
K(uniform_minmax_f32) { G; out[i] = as_uint(fmin(X, Y) * 2.0f + fmax(X, -Y)); }
K(uniform_rounding_f32) { G; float x = X * 1.7f; out[i] = as_uint(ceil(x) + floor(x) * 2.0f + trunc(x) * 4.0f + rint(x) * 8.0f); }
K(uniform_cvt_fi) { G; float x = X * 100.0f; out[i] = (uint)((int)x) + (uint)(x > 0.0f ? x : -x) * 3u; }
K(uniform_int_to_float_f32) { G; out[i] = as_uint((float)(int)(a[g] ^ b[g]) * 0.25f + (float)(b[g] >> 7)); }
K(uniform_compare_f32) {
  G; float x = X, y = Y;
  out[i] = as_uint((x < y ? 1.0f : 0.0f) + (x <= y ? 2.0f : 0.0f) + (x > 1.0f ? 4.0f : 0.0f) +
                   (x != y ? 8.0f : 0.0f) + (isless(x, 2.5f) ? 16.0f : 0.0f));
}
K(uniform_select_f32) { G; float x = X, y = Y; out[i] = as_uint(x * x > y ? x - y : y * 0.5f); }
