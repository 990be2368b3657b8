// Program-scope data as FFT, imaging and crypto libraries use it: __constant tables indexed at
// run time (reached through the code object's GOT, which the loader's relocations fill in),
// tables of structs and of pointers to other tables, and implicit conversions between vector
// pointer types (a warning, not an error, as in other clang-based OpenCL compilers).
#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

// cos and -sin of 2*pi*k/16, as a radix-16 FFT's twiddle factors.
__constant float twiddle_re[16] = {1.0f, 0.92387953f, 0.70710678f, 0.38268343f, 0.0f, -0.38268343f,
                                   -0.70710678f, -0.92387953f, -1.0f, -0.92387953f, -0.70710678f,
                                   -0.38268343f, 0.0f, 0.38268343f, 0.70710678f, 0.92387953f};
__constant float twiddle_im[16] = {0.0f, -0.38268343f, -0.70710678f, -0.92387953f, -1.0f, -0.92387953f,
                                   -0.70710678f, -0.38268343f, 0.0f, 0.38268343f, 0.70710678f,
                                   0.92387953f, 1.0f, 0.92387953f, 0.70710678f, 0.38268343f};
// A binomial filter's coefficients, and a table of structs.
__constant int filter_taps[8] = {1, 7, 21, 35, 35, 21, 7, 1};
typedef struct {
  uint mul, add;
  uchar shift;
} Step;
__constant Step steps[4] = {{3u, 1u, 1}, {5u, 7u, 2}, {0x9e3779b9u, 0x7f4a7c15u, 3}, {1u, 0u, 0}};
// Tables of pointers to other program-scope tables: relocations inside the data itself.
__constant uint sbox_a[4] = {0x63u, 0x7cu, 0x77u, 0x7bu};
__constant uint sbox_b[4] = {0xf2u, 0x6bu, 0x6fu, 0xc5u};
__constant uint* __constant sboxes[2] = {sbox_a, sbox_b};
__constant char* __constant names[3] = {"alpha", "beta", "gamma"};

// A butterfly with run-time-indexed twiddles: (x + i*y) * w.
K(twiddle_butterfly_f32) {
  I;
  const float x = as_float(a[i]), y = as_float(b[i]);
  const uint k = (uint)i & 15u;
  out[i] = as_uint(x * twiddle_re[k] - y * twiddle_im[k]);
}
K(twiddle_butterfly_imag_f32) {
  I;
  const float x = as_float(a[i]), y = as_float(b[i]);
  const uint k = ((uint)i * 7u) & 15u;
  out[i] = as_uint(x * twiddle_im[k] + y * twiddle_re[k]);
}
// A 1-D filter whose taps start at a data-dependent phase.
K(filter_constant_taps) {
  I;
  int acc = 0;
  for (uint t = 0; t < 8; ++t) acc += filter_taps[(b[i] + t) & 7u] * (int)(a[(i + t) & 255] & 0xffffu);
  out[i] = (uint)acc;
}
K(table_of_structs) {
  I;
  const Step s = steps[b[i] & 3u];
  out[i] = ((a[i] * s.mul) + s.add) >> s.shift;
}
K(table_of_pointers) {
  I;
  __constant uint* box = sboxes[b[i] & 1u];
  out[i] = box[a[i] & 3u] ^ sboxes[(b[i] >> 1) & 1u][(a[i] >> 2) & 3u];
}
K(string_table) {
  I;
  __constant char* s = names[b[i] % 3u];
  out[i] = (uint)s[a[i] % 4u] | (uint)s[0] << 8;
}
// float2* into float4* without a cast: clang 22 makes this an error by default; amcl, like
// other OpenCL compilers, warns and builds.
K(vector_pointer_cast) {
  I;
  __global uint2* pairs = (__global uint2*)out;
  __global uint4* quads = pairs;
  if (i < 64) quads[i] = (uint4)(a[i], b[i], a[i] ^ b[i], (uint)i);
}
