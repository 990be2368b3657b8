// Image kernels for spirv_program_test, compiled to SPIR-V by clang 22 at build time: a program-
// scope sampler, a sampler argument, image queries and writes (the translator gives image
// handles their own address space; amcl's image ABI is the one of OpenCL C programs).
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void scale_image(read_only image2d_t src, write_only image2d_t dst) {
  const int2 p = (int2)(get_global_id(0), get_global_id(1));
  const float4 v = read_imagef(src, nearest, p);
  write_imagef(dst, p, v * 2.0f + (float4)(get_image_width(src), get_image_height(src), 0, 0));
}

kernel void sample_row(read_only image2d_t src, sampler_t s, global float4* out) {
  const int i = get_global_id(0);
  out[i] = read_imagef(src, s, (float2)(i + 0.5f, 1.5f));
}

kernel void read_uint(read_only image2d_t src, global uint4* out) {
  const int i = get_global_id(0);
  out[i] = read_imageui(src, (int2)(i, 0)); // sampler-less
}
