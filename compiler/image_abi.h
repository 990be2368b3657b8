/* How an image or sampler kernel argument reaches a kernel: amcl's own ABI, shared by the
 * runtime (C++, which builds the blocks) and the image builtins (OpenCL C, which read them).
 * Plain C preprocessor definitions so that both languages include this one file.
 *
 * clang lowers image2d_t, image3d_t, ... and sampler_t to `ptr addrspace(4)` (one 8-byte
 * kernarg slot each; value_kind "image" and "sampler" in the code-object metadata). amcl puts
 * there the device address of a descriptor block in VRAM, built for the generation of the
 * device the kernel runs on (T# and S# differ between gfx11 and gfx12: am/hw/image_descriptor.h).
 *
 * Image block: AMCL_IMAGE_BLOCK_BYTES, 64-byte aligned, dword offsets below.
 *   [0, 8)   T# for reads: its DST_SEL maps the memory components to the channel order
 *            (CL_BGRA, CL_LUMINANCE, ...), so loads and samples return (r, g, b, a) directly.
 *   [8, 16)  T# for writes: the same image with identity DST_SEL. Stores put components in
 *            memory order; the write builtins reorder (r, g, b, a) for the channel order.
 *   [16, 32) what get_image_* and the builtins' own checks read, AMCL_IMAGE_* below.
 * image1d_buffer_t: the T#s view the buffer as a linear 2D image of AMCL_IMAGE_BUFFER_ROW
 * texels per row (a 1D T# is limited to 16384 texels); coordinate x is (x % ROW, x / ROW), and
 * the builtins drop accesses with x outside [0, width) because the last row is partial.
 *
 * Sampler block: AMCL_SAMPLER_BLOCK_BYTES, dword offsets below.
 *   [0, 4)   S#
 *   4        the OpenCL sampler bits (CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_*),
 *            as a program-scope sampler_t initializer would give them.
 */
#ifndef AMCL_COMPILER_IMAGE_ABI_H
#define AMCL_COMPILER_IMAGE_ABI_H

#define AMCL_IMAGE_BLOCK_BYTES 128
#define AMCL_IMAGE_READ_TSHARP 0  /* dwords 0..7 */
#define AMCL_IMAGE_WRITE_TSHARP 8 /* dwords 8..15 */
#define AMCL_IMAGE_WIDTH 16       /* texels (image1d_buffer_t: elements) */
#define AMCL_IMAGE_HEIGHT 17      /* 1 for 1D images and 1D arrays */
#define AMCL_IMAGE_DEPTH 18       /* 1 unless 3D */
#define AMCL_IMAGE_ARRAY_SIZE 19  /* 0 unless an array */
#define AMCL_IMAGE_CHANNEL_DATA_TYPE 20 /* CL_UNORM_INT8, ... */
#define AMCL_IMAGE_CHANNEL_ORDER 21     /* CL_RGBA, ... */
#define AMCL_IMAGE_NUM_MIP_LEVELS 22
#define AMCL_IMAGE_NUM_SAMPLES 23
#define AMCL_IMAGE_OBJECT_TYPE 24 /* CL_MEM_OBJECT_IMAGE2D, ... */
#define AMCL_IMAGE_ELEMENT_BYTES 25
#define AMCL_IMAGE_BUFFER_ROW 16384

#define AMCL_SAMPLER_BLOCK_BYTES 32
#define AMCL_SAMPLER_SSHARP 0 /* dwords 0..3 */
#define AMCL_SAMPLER_BITS 4

#endif
