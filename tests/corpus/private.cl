#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(private_array_static) { I; uint t[4] = {a[i], b[i], a[i] ^ b[i], 3}; out[i] = t[0] + t[3] * t[1]; }
K(private_array_dynamic) { I; uint t[16]; for (int k = 0; k < 16; ++k) t[k] = a[(i + k) & 255] * k; out[i] = t[b[i] & 15]; }
K(private_array_sort) { I; uint t[8]; for (int k = 0; k < 8; ++k) t[k] = a[(i * 8 + k) & 255];
  for (int p = 0; p < 8; ++p) for (int q = 0; q < 7 - p; ++q) if (t[q] > t[q + 1]) { uint s = t[q]; t[q] = t[q + 1]; t[q + 1] = s; }
  out[i] = t[b[i] & 7]; }
K(private_struct) { I; struct { uint x; ushort y; uchar z; } s = {a[i], (ushort)b[i], 9}; out[i] = s.x + s.y * s.z; }
K(private_big_array) { I; uint t[128]; for (int k = 0; k < 128; ++k) t[k] = k ^ a[i]; uint s = 0; for (int k = 0; k < 128; k += (b[i] & 3) + 1) s += t[k]; out[i] = s; }
K(private_pointer) { I; uint t[4] = {1, 2, 3, 4}; uint* p = &t[a[i] & 3]; *p += b[i]; out[i] = t[0] + t[1] + t[2] + t[3]; }
K(private_recurrence) { I; uint x = a[i]; for (int k = 0; k < 50; ++k) x = x * 1664525u + 1013904223u; out[i] = x; }
K(private_float_array_f32) { I; float t[8]; for (int k = 0; k < 8; ++k) t[k] = as_float(a[i]) * k; out[i] = as_uint(t[b[i] & 7]); }
