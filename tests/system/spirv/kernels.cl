// Kernels built both from this source and from the SPIR-V clang-22 makes of it
// (tests/system/spirv_program_test.cpp): every address space, program-scope variables,
// atomics (also through a generic pointer), barriers, math builtins and vectors.
__constant int table[4] = {1, 2, 3, 4};
__global int counter = 5;

int add_one(int* p) { return *p + 1; } // a generic pointer (OpenCL C 3.0)

kernel void mix(global int* out, local int* tmp, constant float* c, int n) {
  size_t i = get_global_id(0), l = get_local_id(0);
  int priv = (int)i;
  tmp[l] = add_one(&priv);
  barrier(CLK_LOCAL_MEM_FENCE);
  int other = tmp[(l + 1) % get_local_size(0)];
  float4 v = vload4(i & 1, c);
  float whole;
  float f = fract(v.y, &whole);
  out[i] = other + table[i & 3] + (int)(sin(v.x) * 100.0f) + (int)(f * 10.0f) + (int)whole + n;
}

kernel void atomics(global int* acc, global uint* mx) {
  atomic_add(acc, 1);
  atomic_max(mx, (uint)get_global_id(0));
  volatile atomic_int* generic_acc = (volatile atomic_int*)(acc + 1);
  atomic_fetch_add(generic_acc, 2);
  atomic_inc(&counter);
}

kernel void read_counter(global int* out) { out[0] = counter; }

kernel void vec(global float4* a, global const float4* b) {
  size_t i = get_global_id(0);
  a[i] = mad(a[i], b[i], (float4)(0.5f)) + sqrt(b[i]);
}

// The test turns the literal 12345 into specialization constant 7 of the module.
kernel void spec(global int* out) { out[get_global_id(0)] = 12345 + (int)get_global_id(0); }

// OpenCL C's float division may be 2.5 ulp off; so may SPIR-V's OpFDiv, and both must give the
// same bits.
kernel void divide(global float* a, global const float* b) {
  size_t i = get_global_id(0);
  a[i] = a[i] / b[i];
}
