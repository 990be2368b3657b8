// OpenCL C image functions (OpenCL C 3.0 §6.15.15 "Image Read and Write Functions" and
// §6.15.16 "Image Query Functions") over amcl's image and sampler blocks (image_abi.h, appended
// before this file): reads lower to image_load (sampler-less) or image_sample_lz (sampled),
// writes to image_store, and the queries read the block. libclc 22 has no image functions for
// amdgcn. Appended to workitem_builtins.cl (its typedefs and OVERLOAD); the S# table that
// __translate_sampler_initializer returns from is generated for the target (sampler_table.cpp).
//
// The intrinsics' operands: LLVM IntrinsicsAMDGPU.td, AMDGPUImageDimIntrinsics (dmask, the
// coordinates, the T# as <8 x i32>, the S# as <4 x i32> and the unorm bit for samples, then
// texfailctrl and cachepolicy).

#define IMG_DMASK 15 /* all four components */

#define IMG_INTRINSICS(R, S)                                                                       \
  R img_load_1d_##R(uint m, int x, uint8 t, int tfe,                                               \
                    int cp) __asm("llvm.amdgcn.image.load.1d." #S ".i32.v8i32");                   \
  R img_load_2d_##R(uint m, int x, int y, uint8 t, int tfe,                                        \
                    int cp) __asm("llvm.amdgcn.image.load.2d." #S ".i32.v8i32");                   \
  R img_load_3d_##R(uint m, int x, int y, int z, uint8 t, int tfe,                                 \
                    int cp) __asm("llvm.amdgcn.image.load.3d." #S ".i32.v8i32");                   \
  R img_load_1darray_##R(uint m, int x, int l, uint8 t, int tfe,                                   \
                         int cp) __asm("llvm.amdgcn.image.load.1darray." #S ".i32.v8i32");         \
  R img_load_2darray_##R(uint m, int x, int y, int l, uint8 t, int tfe,                            \
                         int cp) __asm("llvm.amdgcn.image.load.2darray." #S ".i32.v8i32");         \
  R img_sample_1d_##R(uint m, float x, uint8 t, uint4 s, bool unorm, int tfe,                      \
                      int cp) __asm("llvm.amdgcn.image.sample.lz.1d." #S ".f32.v8i32.v4i32");      \
  R img_sample_2d_##R(uint m, float x, float y, uint8 t, uint4 s, bool unorm, int tfe,             \
                      int cp) __asm("llvm.amdgcn.image.sample.lz.2d." #S ".f32.v8i32.v4i32");      \
  R img_sample_3d_##R(uint m, float x, float y, float z, uint8 t, uint4 s, bool unorm, int tfe,    \
                      int cp) __asm("llvm.amdgcn.image.sample.lz.3d." #S ".f32.v8i32.v4i32");      \
  R img_sample_1darray_##R(uint m, float x, float l, uint8 t, uint4 s, bool unorm, int tfe,        \
                           int cp) __asm("llvm.amdgcn.image.sample.lz.1darray." #S                 \
                                         ".f32.v8i32.v4i32");                                      \
  R img_sample_2darray_##R(uint m, float x, float y, float l, uint8 t, uint4 s, bool unorm,        \
                           int tfe, int cp) __asm("llvm.amdgcn.image.sample.lz.2darray." #S        \
                                                  ".f32.v8i32.v4i32");
IMG_INTRINSICS(float4, v4f32)
IMG_INTRINSICS(int4, v4i32)
// A store's data is a float vector (llvm_anyfloat_ty); integer texels are stored by their bits.
void img_store_1d(float4 v, uint m, int x, uint8 t, int tfe,
                  int cp) __asm("llvm.amdgcn.image.store.1d.v4f32.i32.v8i32");
void img_store_2d(float4 v, uint m, int x, int y, uint8 t, int tfe,
                  int cp) __asm("llvm.amdgcn.image.store.2d.v4f32.i32.v8i32");
void img_store_3d(float4 v, uint m, int x, int y, int z, uint8 t, int tfe,
                  int cp) __asm("llvm.amdgcn.image.store.3d.v4f32.i32.v8i32");
void img_store_1darray(float4 v, uint m, int x, int l, uint8 t, int tfe,
                       int cp) __asm("llvm.amdgcn.image.store.1darray.v4f32.i32.v8i32");
void img_store_2darray(float4 v, uint m, int x, int y, int l, uint8 t, int tfe,
                       int cp) __asm("llvm.amdgcn.image.store.2darray.v4f32.i32.v8i32");

// The image block behind an image argument, and its parts.
#define IMG_BLOCK(img) __builtin_astype(img, __constant uint*)
#define IMG_READ_T(b) (*(__constant uint8*)((b) + AMCL_IMAGE_READ_TSHARP))
#define IMG_WRITE_T(b) (*(__constant uint8*)((b) + AMCL_IMAGE_WRITE_TSHARP))
#define IMG_SSHARP(s)                                                                              \
  (*(__constant uint4*)(__builtin_astype(s, __constant uint*) + AMCL_SAMPLER_SSHARP))

// An array coordinate selects layer clamp(rint(c), 0, n - 1) (OpenCL C 3.0 §8.4 "Selecting an
// Image from an Image Array"); computed here so the instruction gets an exact layer.
static inline float img_layer_f(__constant uint* b, float c) {
  const float last = (float)(b[AMCL_IMAGE_ARRAY_SIZE] - 1);
  return __builtin_fminf(__builtin_fmaxf(__builtin_rintf(c), 0.0f), last);
}
static inline float img_layer_i(__constant uint* b, int c) {
  const int last = (int)b[AMCL_IMAGE_ARRAY_SIZE] - 1;
  return (float)(c < 0 ? 0 : c > last ? last : c);
}
// An integer coordinate read with a sampler reads texel c: its centre, unnormalized.
static inline float img_centre(int c) {
  return (float)c + 0.5f;
}

// Sampler-less reads (image_load through the read T#, whose DST_SEL already orders the
// channels) and sampled reads (image_sample_lz: LOD 0, as a compute kernel has no
// derivatives), for the float and int results; uint reads reinterpret the int ones.
#define IMG_READERS(R)                                                                             \
  static inline R img_ld_1d_##R(__constant uint* b, int c) {                                       \
    return img_load_1d_##R(IMG_DMASK, c, IMG_READ_T(b), 0, 0);                                     \
  }                                                                                                \
  static inline R img_ld_1dbuf_##R(__constant uint* b, int c) {                                    \
    if ((uint)c >= b[AMCL_IMAGE_WIDTH]) return (R)0; /* the last row is partial */                 \
    return img_load_2d_##R(IMG_DMASK, c % AMCL_IMAGE_BUFFER_ROW, c / AMCL_IMAGE_BUFFER_ROW,        \
                           IMG_READ_T(b), 0, 0);                                                   \
  }                                                                                                \
  static inline R img_ld_1darr_##R(__constant uint* b, int2 c) {                                   \
    return img_load_1darray_##R(IMG_DMASK, c.x, c.y, IMG_READ_T(b), 0, 0);                         \
  }                                                                                                \
  static inline R img_ld_2d_##R(__constant uint* b, int2 c) {                                      \
    return img_load_2d_##R(IMG_DMASK, c.x, c.y, IMG_READ_T(b), 0, 0);                              \
  }                                                                                                \
  static inline R img_ld_2darr_##R(__constant uint* b, int4 c) {                                   \
    return img_load_2darray_##R(IMG_DMASK, c.x, c.y, c.z, IMG_READ_T(b), 0, 0);                    \
  }                                                                                                \
  static inline R img_ld_3d_##R(__constant uint* b, int4 c) {                                      \
    return img_load_3d_##R(IMG_DMASK, c.x, c.y, c.z, IMG_READ_T(b), 0, 0);                         \
  }                                                                                                \
  static inline R img_sf_1d_##R(__constant uint* b, uint4 s, float c) {                            \
    return img_sample_1d_##R(IMG_DMASK, c, IMG_READ_T(b), s, false, 0, 0);                         \
  }                                                                                                \
  static inline R img_sf_1darr_##R(__constant uint* b, uint4 s, float2 c) {                        \
    return img_sample_1darray_##R(IMG_DMASK, c.x, img_layer_f(b, c.y), IMG_READ_T(b), s, false, 0, \
                                  0);                                                              \
  }                                                                                                \
  static inline R img_sf_2d_##R(__constant uint* b, uint4 s, float2 c) {                           \
    return img_sample_2d_##R(IMG_DMASK, c.x, c.y, IMG_READ_T(b), s, false, 0, 0);                  \
  }                                                                                                \
  static inline R img_sf_2darr_##R(__constant uint* b, uint4 s, float4 c) {                        \
    return img_sample_2darray_##R(IMG_DMASK, c.x, c.y, img_layer_f(b, c.z), IMG_READ_T(b), s,      \
                                  false, 0, 0);                                                    \
  }                                                                                                \
  static inline R img_sf_3d_##R(__constant uint* b, uint4 s, float4 c) {                           \
    return img_sample_3d_##R(IMG_DMASK, c.x, c.y, c.z, IMG_READ_T(b), s, false, 0, 0);             \
  }                                                                                                \
  /* Integer coordinates need an unnormalized nearest sampler (§6.15.15.1): the unorm bit */      \
  /* makes them so whatever the S# says. */                                                        \
  static inline R img_si_1d_##R(__constant uint* b, uint4 s, int c) {                              \
    return img_sample_1d_##R(IMG_DMASK, img_centre(c), IMG_READ_T(b), s, true, 0, 0);              \
  }                                                                                                \
  static inline R img_si_1darr_##R(__constant uint* b, uint4 s, int2 c) {                          \
    return img_sample_1darray_##R(IMG_DMASK, img_centre(c.x), img_layer_i(b, c.y), IMG_READ_T(b),  \
                                  s, true, 0, 0);                                                  \
  }                                                                                                \
  static inline R img_si_2d_##R(__constant uint* b, uint4 s, int2 c) {                             \
    return img_sample_2d_##R(IMG_DMASK, img_centre(c.x), img_centre(c.y), IMG_READ_T(b), s, true,  \
                             0, 0);                                                                \
  }                                                                                                \
  static inline R img_si_2darr_##R(__constant uint* b, uint4 s, int4 c) {                          \
    return img_sample_2darray_##R(IMG_DMASK, img_centre(c.x), img_centre(c.y),                     \
                                  img_layer_i(b, c.z), IMG_READ_T(b), s, true, 0, 0);              \
  }                                                                                                \
  static inline R img_si_3d_##R(__constant uint* b, uint4 s, int4 c) {                             \
    return img_sample_3d_##R(IMG_DMASK, img_centre(c.x), img_centre(c.y), img_centre(c.z),         \
                             IMG_READ_T(b), s, true, 0, 0);                                        \
  }
IMG_READERS(float4)
IMG_READERS(int4)

// Writes go through the write T# (identity DST_SEL, image_abi.h): (r, g, b, a) is put in the
// memory order of the channel order first. Channel order values: CL/cl.h.
#define IMG_TO_MEMORY_ORDER(R)                                                                     \
  static inline R img_memory_order_##R(R v, uint order) {                                          \
    switch (order) {                                                                               \
    case 0x10B1: /* CL_A */                                                                        \
      return v.wxyz;                                                                               \
    case 0x10B3: /* CL_RA */                                                                       \
      return v.xwyz;                                                                               \
    case 0x10B6: /* CL_BGRA */                                                                     \
    case 0x10C2: /* CL_sBGRA */                                                                    \
      return v.zyxw;                                                                               \
    case 0x10B7: /* CL_ARGB */                                                                     \
      return v.wxyz;                                                                               \
    case 0x10C3: /* CL_ABGR */                                                                     \
      return v.wzyx;                                                                               \
    default: /* R, RG, RGB, RGBA, their x forms, INTENSITY, LUMINANCE, DEPTH, sRGB(A/x) */         \
      return v;                                                                                    \
    }                                                                                              \
  }
IMG_TO_MEMORY_ORDER(float4)
IMG_TO_MEMORY_ORDER(int4)

// write_imagei/ui convert with saturation to the channel type (OpenCL C 3.0 §8.3.2); values
// come in as the bits of int4, unsigned types compare them unsigned. Channel types: CL/cl.h.
static inline int4 img_saturate_int4(int4 v, uint type) {
  const uint4 u = __builtin_astype(v, uint4);
  switch (type) {
  case 0x10D7: /* CL_SIGNED_INT8 */
    return __builtin_elementwise_min(__builtin_elementwise_max(v, (int4)-128), (int4)127);
  case 0x10D8: /* CL_SIGNED_INT16 */
    return __builtin_elementwise_min(__builtin_elementwise_max(v, (int4)-32768), (int4)32767);
  case 0x10DA: /* CL_UNSIGNED_INT8 */
    return __builtin_astype(__builtin_elementwise_min(u, (uint4)255), int4);
  case 0x10DB: /* CL_UNSIGNED_INT16 */
    return __builtin_astype(__builtin_elementwise_min(u, (uint4)65535), int4);
  default:
    return v;
  }
}
static inline float4 img_saturate_float4(float4 v, uint type) {
  (void)type;
  return v; // the hardware's float conversion clamps to the format
}
#define IMG_BITS(v) __builtin_astype(v, float4)
#define IMG_WRITERS(R)                                                                             \
  static inline R img_mem_##R(__constant uint* b, R v) {                                           \
    return img_memory_order_##R(img_saturate_##R(v, b[AMCL_IMAGE_CHANNEL_DATA_TYPE]),              \
                                b[AMCL_IMAGE_CHANNEL_ORDER]);                                      \
  }                                                                                                \
  static inline void img_st_1d_##R(__constant uint* b, int c, R v) {                               \
    img_store_1d(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c, IMG_WRITE_T(b), 0, 0);                 \
  }                                                                                                \
  static inline void img_st_1dbuf_##R(__constant uint* b, int c, R v) {                            \
    if ((uint)c >= b[AMCL_IMAGE_WIDTH]) return; /* the last row is partial */                      \
    img_store_2d(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c % AMCL_IMAGE_BUFFER_ROW,                \
                 c / AMCL_IMAGE_BUFFER_ROW, IMG_WRITE_T(b), 0, 0);                                 \
  }                                                                                                \
  static inline void img_st_1darr_##R(__constant uint* b, int2 c, R v) {                           \
    img_store_1darray(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c.x, c.y, IMG_WRITE_T(b), 0, 0);     \
  }                                                                                                \
  static inline void img_st_2d_##R(__constant uint* b, int2 c, R v) {                              \
    img_store_2d(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c.x, c.y, IMG_WRITE_T(b), 0, 0);          \
  }                                                                                                \
  static inline void img_st_2darr_##R(__constant uint* b, int4 c, R v) {                           \
    img_store_2darray(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c.x, c.y, c.z, IMG_WRITE_T(b), 0,    \
                      0);                                                                          \
  }                                                                                                \
  static inline void img_st_3d_##R(__constant uint* b, int4 c, R v) {                              \
    img_store_3d(IMG_BITS(img_mem_##R(b, v)), IMG_DMASK, c.x, c.y, c.z, IMG_WRITE_T(b), 0, 0);     \
  }
IMG_WRITERS(float4)
IMG_WRITERS(int4)

// The four reads (float, int, uint, half results) of one parameter list, each calling FN's
// float4 or int4 form with ARGS.
#define IMG_READ_FAMILY(PARAMS, FN, ARGS)                                                          \
  OVERLOAD float4 read_imagef PARAMS {                                                             \
    return FN##_float4 ARGS;                                                                       \
  }                                                                                                \
  OVERLOAD int4 read_imagei PARAMS {                                                               \
    return FN##_int4 ARGS;                                                                         \
  }                                                                                                \
  OVERLOAD uint4 read_imageui PARAMS {                                                             \
    return __builtin_astype(FN##_int4 ARGS, uint4);                                                \
  }                                                                                                \
  OVERLOAD half4 read_imageh PARAMS {                                                              \
    return __builtin_convertvector(FN##_float4 ARGS, half4);                                       \
  }
// The builtins of one image type D (1d, 1dbuf, 1darr, 2d, 2darr, 3d) and access ACC.
#define IMG_READ_NO_SAMPLER(ACC, T, D, IC)                                                         \
  IMG_READ_FAMILY((ACC T img, IC c), img_ld_##D, (IMG_BLOCK(img), c))
#define IMG_READ_SAMPLED(T, D, IC, FC)                                                             \
  IMG_READ_FAMILY((read_only T img, sampler_t s, IC c), img_si_##D,                                \
                  (IMG_BLOCK(img), IMG_SSHARP(s), c))                                              \
  IMG_READ_FAMILY((read_only T img, sampler_t s, FC c), img_sf_##D,                                \
                  (IMG_BLOCK(img), IMG_SSHARP(s), c))
#define IMG_WRITE(ACC, T, D, IC)                                                                   \
  OVERLOAD void write_imagef(ACC T img, IC c, float4 v) {                                          \
    img_st_##D##_float4(IMG_BLOCK(img), c, v);                                                     \
  }                                                                                                \
  OVERLOAD void write_imagei(ACC T img, IC c, int4 v) {                                            \
    img_st_##D##_int4(IMG_BLOCK(img), c, v);                                                       \
  }                                                                                                \
  OVERLOAD void write_imageui(ACC T img, IC c, uint4 v) {                                          \
    img_st_##D##_int4(IMG_BLOCK(img), c, __builtin_astype(v, int4));                               \
  }                                                                                                \
  OVERLOAD void write_imageh(ACC T img, IC c, half4 v) {                                           \
    img_st_##D##_float4(IMG_BLOCK(img), c, __builtin_convertvector(v, float4));                    \
  }
// Queries every image type answers (§6.15.16).
#define IMG_QUERY(ACC, T)                                                                          \
  OVERLOAD int get_image_width(ACC T img) {                                                        \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_WIDTH];                                                  \
  }                                                                                                \
  OVERLOAD int get_image_channel_data_type(ACC T img) {                                            \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_CHANNEL_DATA_TYPE];                                      \
  }                                                                                                \
  OVERLOAD int get_image_channel_order(ACC T img) {                                                \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_CHANNEL_ORDER];                                          \
  }
// cl_khr_mipmap_image's query, for the types that extension gives levels.
#define IMG_QUERY_LEVELS(ACC, T)                                                                   \
  OVERLOAD int get_image_num_mip_levels(ACC T img) {                                               \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_NUM_MIP_LEVELS];                                         \
  }
#define IMG_QUERY_HEIGHT(ACC, T)                                                                   \
  OVERLOAD int get_image_height(ACC T img) {                                                       \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_HEIGHT];                                                 \
  }
#define IMG_QUERY_ARRAY(ACC, T)                                                                    \
  OVERLOAD size_t get_image_array_size(ACC T img) {                                                \
    return IMG_BLOCK(img)[AMCL_IMAGE_ARRAY_SIZE];                                                  \
  }

#define IMG_ACCESS(ACC)                                                                            \
  IMG_QUERY(ACC, image1d_t)                                                                        \
  IMG_QUERY(ACC, image1d_buffer_t)                                                                 \
  IMG_QUERY(ACC, image1d_array_t)                                                                  \
  IMG_QUERY(ACC, image2d_t)                                                                        \
  IMG_QUERY(ACC, image2d_array_t)                                                                  \
  IMG_QUERY(ACC, image3d_t) IMG_QUERY_LEVELS(ACC, image1d_t)                                       \
      IMG_QUERY_LEVELS(ACC, image1d_array_t) IMG_QUERY_LEVELS(ACC, image2d_t)                      \
          IMG_QUERY_LEVELS(ACC, image2d_array_t) IMG_QUERY_LEVELS(ACC, image3d_t)                  \
              IMG_QUERY_HEIGHT(ACC, image2d_t) IMG_QUERY_HEIGHT(ACC, image2d_array_t)              \
                  IMG_QUERY_HEIGHT(ACC, image3d_t) IMG_QUERY_ARRAY(ACC, image1d_array_t)           \
                      IMG_QUERY_ARRAY(ACC, image2d_array_t) OVERLOAD int                           \
                      get_image_depth(ACC image3d_t img) {                                         \
    return (int)IMG_BLOCK(img)[AMCL_IMAGE_DEPTH];                                                  \
  }                                                                                                \
  OVERLOAD int2 get_image_dim(ACC image2d_t img) {                                                 \
    return (int2)(get_image_width(img), get_image_height(img));                                    \
  }                                                                                                \
  OVERLOAD int2 get_image_dim(ACC image2d_array_t img) {                                           \
    return (int2)(get_image_width(img), get_image_height(img));                                    \
  }                                                                                                \
  OVERLOAD int4 get_image_dim(ACC image3d_t img) {                                                 \
    return (int4)(get_image_width(img), get_image_height(img), get_image_depth(img), 0);           \
  }
IMG_ACCESS(read_only)
IMG_ACCESS(write_only)
IMG_ACCESS(read_write)

// M(ACC, type, D, integer coordinate) for each image type.
#define IMG_EVERY_TYPE(M, ACC)                                                                     \
  M(ACC, image1d_t, 1d, int)                                                                       \
  M(ACC, image1d_buffer_t, 1dbuf, int)                                                             \
  M(ACC, image1d_array_t, 1darr, int2)                                                             \
  M(ACC, image2d_t, 2d, int2)                                                                      \
  M(ACC, image2d_array_t, 2darr, int4)                                                             \
  M(ACC, image3d_t, 3d, int4)
IMG_EVERY_TYPE(IMG_READ_NO_SAMPLER, read_only)
IMG_EVERY_TYPE(IMG_READ_NO_SAMPLER, read_write)
IMG_EVERY_TYPE(IMG_WRITE, write_only)
IMG_EVERY_TYPE(IMG_WRITE, read_write)
IMG_READ_SAMPLED(image1d_t, 1d, int, float)
IMG_READ_SAMPLED(image1d_array_t, 1darr, int2, float2)
IMG_READ_SAMPLED(image2d_t, 2d, int2, float2)
IMG_READ_SAMPLED(image2d_array_t, 2darr, int4, float4)
IMG_READ_SAMPLED(image3d_t, 3d, int4, float4)

// cl_khr_depth_images (clang declares its functions with the image features): a depth image is
// a one-channel float image, read and written as the first component.
#define IMG_DEPTH_QUERIES(ACC, T)                                                                  \
  IMG_QUERY(ACC, T)                                                                                \
  IMG_QUERY_HEIGHT(ACC, T)                                                                         \
  OVERLOAD int2 get_image_dim(ACC T img) {                                                         \
    return (int2)(get_image_width(img), get_image_height(img));                                    \
  }
#define IMG_DEPTH(ACC)                                                                             \
  IMG_DEPTH_QUERIES(ACC, image2d_depth_t)                                                          \
  IMG_DEPTH_QUERIES(ACC, image2d_array_depth_t)                                                    \
  IMG_QUERY_ARRAY(ACC, image2d_array_depth_t)
IMG_DEPTH(read_only)
IMG_DEPTH(write_only)
IMG_DEPTH(read_write)
#define IMG_DEPTH_READ(ACC)                                                                        \
  OVERLOAD float read_imagef(ACC image2d_depth_t img, int2 c) {                                    \
    return img_ld_2d_float4(IMG_BLOCK(img), c).x;                                                  \
  }                                                                                                \
  OVERLOAD float read_imagef(ACC image2d_array_depth_t img, int4 c) {                              \
    return img_ld_2darr_float4(IMG_BLOCK(img), c).x;                                               \
  }
#define IMG_DEPTH_WRITE(ACC)                                                                       \
  OVERLOAD void write_imagef(ACC image2d_depth_t img, int2 c, float v) {                           \
    img_st_2d_float4(IMG_BLOCK(img), c, (float4)(v, 0.0f, 0.0f, 0.0f));                            \
  }                                                                                                \
  OVERLOAD void write_imagef(ACC image2d_array_depth_t img, int4 c, float v) {                     \
    img_st_2darr_float4(IMG_BLOCK(img), c, (float4)(v, 0.0f, 0.0f, 0.0f));                         \
  }
IMG_DEPTH_READ(read_only)
IMG_DEPTH_READ(read_write)
IMG_DEPTH_WRITE(write_only)
IMG_DEPTH_WRITE(read_write)
OVERLOAD float read_imagef(read_only image2d_depth_t img, sampler_t s, int2 c) {
  return img_si_2d_float4(IMG_BLOCK(img), IMG_SSHARP(s), c).x;
}
OVERLOAD float read_imagef(read_only image2d_depth_t img, sampler_t s, float2 c) {
  return img_sf_2d_float4(IMG_BLOCK(img), IMG_SSHARP(s), c).x;
}
OVERLOAD float read_imagef(read_only image2d_array_depth_t img, sampler_t s, int4 c) {
  return img_si_2darr_float4(IMG_BLOCK(img), IMG_SSHARP(s), c).x;
}
OVERLOAD float read_imagef(read_only image2d_array_depth_t img, sampler_t s, float4 c) {
  return img_sf_2darr_float4(IMG_BLOCK(img), IMG_SSHARP(s), c).x;
}

// A program-scope or literal sampler: clang passes its value (the CLK_* bits) here and uses the
// pointer as the sampler argument. amcl_sampler_blocks holds one sampler block per 6-bit value,
// generated for the compile target (compiler/sampler_table.cpp, prepended to this source).
__constant uint* __translate_sampler_initializer(int bits) {
  return amcl_sampler_blocks + (uint)(bits & 63) * (AMCL_SAMPLER_BLOCK_BYTES / 4);
}
