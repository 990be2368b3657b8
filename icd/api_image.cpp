// Image objects: creation (OpenCL 3.0 clCreateImage's error list), the supported formats and
// the queries. The checks are here; runtime/image.h makes the images.
#include "api_util.h"
#include "mem_flags.h"
#include "runtime/image.h"
#include "runtime/image_format.h"

using namespace amcl;
using namespace amcl::icd;

namespace {

bool is_image_type(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

// The buffer an image is made from (1D buffer images, 2D images from a buffer): its flags,
// which the image inherits where it does not give its own, and its alignment.
cl_mem_flags image_from_buffer_flags(cl_context context, const cl_image_desc& d, cl_mem_flags flags,
                                     void* host_ptr, const rt::ImageLimits& limits) {
  cl_mem b = d.buffer;
  if (!rt::valid(b) || b->image || b->context != context) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (host_ptr) fail(CL_INVALID_HOST_PTR);
  if (flags & rt::kHostPointerFlags) fail(CL_INVALID_VALUE);
  check_sub_buffer_flags(b->flags, flags); // no access the buffer does not allow
  // The T# base address is kBaseAlign bytes aligned (image_descriptor.h); buffers start on
  // pages, sub-buffers wherever their offset puts them.
  if (b->offset % limits.base_align) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  const cl_mem_flags access = rt::kDeviceAccessFlags, host = rt::kHostAccessFlags;
  return (flags & access ? flags & access : b->flags & access) |
         (flags & host ? flags & host : b->flags & host) | (b->flags & rt::kHostPointerFlags);
}

// The sizes and pitches of the description, for an element of `es` bytes.
void check_image_desc(const cl_image_desc& d, size_t es, bool has_host_ptr,
                      const rt::ImageLimits& l) {
  const cl_mem_object_type t = d.image_type;
  const bool array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  const bool has_height =
      t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  if (d.image_width == 0 || (has_height && d.image_height == 0) ||
      (t == CL_MEM_OBJECT_IMAGE3D && d.image_depth == 0) || (array && d.image_array_size == 0))
    fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (d.num_mip_levels != 0 || d.num_samples != 0) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  // A buffer only for the types made from one (an image from an image is not offered).
  if (d.buffer && t != CL_MEM_OBJECT_IMAGE1D_BUFFER && t != CL_MEM_OBJECT_IMAGE2D)
    fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (!d.buffer && t == CL_MEM_OBJECT_IMAGE1D_BUFFER) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  // The device limits (CL_INVALID_IMAGE_SIZE).
  const bool too_big =
      t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? d.image_width > l.buffer_size
      : t == CL_MEM_OBJECT_IMAGE3D
          ? d.image_width > l.width_3d || d.image_height > l.height_3d || d.image_depth > l.depth_3d
          : d.image_width > l.width_2d || (has_height && d.image_height > l.height_2d) ||
                (array && d.image_array_size > l.array_size);
  if (too_big) fail(CL_INVALID_IMAGE_SIZE);
  // Pitches: of the host memory, or of the buffer of a 2D image made from one.
  const size_t row = d.image_width * es;
  if (d.buffer && t == CL_MEM_OBJECT_IMAGE2D) {
    const size_t pitch = d.image_row_pitch ? d.image_row_pitch : row;
    if (pitch < row || pitch % es || (pitch / es) % l.pitch_align || pitch / es > l.max_pitch ||
        pitch * d.image_height > d.buffer->size)
      fail(CL_INVALID_IMAGE_DESCRIPTOR);
    return;
  }
  if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (row > d.buffer->size) fail(CL_INVALID_IMAGE_SIZE);
    return;
  }
  if (!has_host_ptr) {
    if (d.image_row_pitch || d.image_slice_pitch) fail(CL_INVALID_IMAGE_DESCRIPTOR);
    return;
  }
  const size_t pitch = d.image_row_pitch ? d.image_row_pitch : row;
  if (pitch < row || pitch % es) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (t == CL_MEM_OBJECT_IMAGE3D || array) {
    const size_t min_slice = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? pitch : pitch * d.image_height;
    if (d.image_slice_pitch && (d.image_slice_pitch < min_slice || d.image_slice_pitch % pitch))
      fail(CL_INVALID_IMAGE_DESCRIPTOR);
  }
}

cl_mem create_checked_image(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                            const cl_image_desc* desc, void* host_ptr,
                            const cl_mem_properties* properties) {
  require(context, CL_INVALID_CONTEXT);
  // OpenCL 3.0 defines no image properties; extensions that add some are not supported.
  if (properties && properties[0] != 0) fail(CL_INVALID_PROPERTY);
  check_mem_flags(flags, kBufferFlags);
  if (!format || !rt::valid_image_format(*format)) fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  if (!desc || !is_image_type(desc->image_type)) fail(CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d = *desc;
  const rt::ImageLimits limits = rt::image_limits(context);
  if (d.buffer) {
    flags = image_from_buffer_flags(context, d, flags, host_ptr, limits);
  } else {
    if (!(flags & rt::kDeviceAccessFlags)) flags |= CL_MEM_READ_WRITE;
    const bool needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (needs_ptr != (host_ptr != nullptr)) fail(CL_INVALID_HOST_PTR);
  }
  const auto hw = rt::hw_image_format(*format);
  // An unsupported format has no element size to check pitches with: a valid one has one.
  if (!hw) fail(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  check_image_desc(d, hw->element_size, host_ptr != nullptr, limits);
  if (!hw->writable && (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE)))
    fail(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_ulong max_alloc = 0;
  clGetDeviceInfo(context->devices[0], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                  nullptr);
  const cl_mem_object_type t = d.image_type;
  const size_t texels =
      d.image_width * (t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? d.image_array_size : 1) *
      (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D
           ? d.image_height
           : 1) *
      (t == CL_MEM_OBJECT_IMAGE3D         ? d.image_depth
       : t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d.image_array_size
                                          : 1);
  if (texels > max_alloc / hw->element_size) fail(CL_INVALID_IMAGE_SIZE);
  std::vector<cl_mem_properties> kept;
  if (properties) kept = {0};
  return rt::create_image(context, flags, *format, d, host_ptr, std::move(kept));
}

} // namespace

extern "C" {

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties* properties,
                                               cl_mem_flags flags, const cl_image_format* format,
                                               const cl_image_desc* desc, void* host_ptr,
                                               cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&] {
    return create_checked_image(context, flags, format, desc, host_ptr, properties);
  });
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* format, const cl_image_desc* desc,
                                 void* host_ptr, cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&] {
    return create_checked_image(context, flags, format, desc, host_ptr, nullptr);
  });
}

// OpenCL 1.1's creators, deprecated but exported: clCreateImage with the description they imply.
cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* format, size_t width, size_t height,
                                   size_t row_pitch, void* host_ptr, cl_int* errcode_ret) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = width;
  d.image_height = height;
  d.image_row_pitch = row_pitch;
  return clCreateImage(context, flags, format, &d, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* format, size_t width, size_t height,
                                   size_t depth, size_t row_pitch, size_t slice_pitch,
                                   void* host_ptr, cl_int* errcode_ret) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = width;
  d.image_height = height;
  d.image_depth = depth;
  d.image_row_pitch = row_pitch;
  d.image_slice_pitch = slice_pitch;
  return clCreateImage(context, flags, format, &d, host_ptr, errcode_ret);
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format* formats, cl_uint* num_formats) {
  if (!rt::valid(context)) return CL_INVALID_CONTEXT;
  if (!is_image_type(image_type)) return CL_INVALID_VALUE;
  return guarded([&] {
    check_mem_flags(flags, kBufferFlags | CL_MEM_KERNEL_READ_AND_WRITE);
    if (num_entries == 0 && formats) fail(CL_INVALID_VALUE);
    const std::vector<cl_image_format> list = rt::supported_image_formats(flags);
    for (size_t i = 0; formats && i < list.size() && i < num_entries; ++i) formats[i] = list[i];
    if (num_formats) *num_formats = cl_uint(list.size());
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param, size_t size, void* value,
                                  size_t* size_ret) {
  if (!rt::valid(m) || !m->image) return CL_INVALID_MEM_OBJECT;
  const _cl_mem::Image& im = *m->image;
  const cl_image_desc& d = im.desc;
  const cl_mem_object_type t = d.image_type;
  const bool array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  const bool has_height =
      t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
  // The pitches of the image as the host sees it (the CTS's clGetInfo expects them): those given
  // with a host pointer, else tightly packed; the device's padding is amcl's own.
  const size_t row_pitch = im.host_row_pitch;
  const size_t slice_pitch = (t == CL_MEM_OBJECT_IMAGE3D || array) ? im.host_slice_pitch : 0;
  auto sz = [&](size_t v) { return rt::write_info(v, size, value, size_ret); };
  switch (param) {
  case CL_IMAGE_FORMAT:
    return rt::write_info(im.format, size, value, size_ret);
  case CL_IMAGE_ELEMENT_SIZE:
    return sz(im.element_size);
  case CL_IMAGE_ROW_PITCH:
    return sz(row_pitch);
  case CL_IMAGE_SLICE_PITCH:
    return sz(slice_pitch);
  case CL_IMAGE_WIDTH:
    return sz(d.image_width);
  case CL_IMAGE_HEIGHT:
    return sz(has_height ? d.image_height : 0);
  case CL_IMAGE_DEPTH:
    return sz(t == CL_MEM_OBJECT_IMAGE3D ? d.image_depth : 0);
  case CL_IMAGE_ARRAY_SIZE:
    return sz(array ? d.image_array_size : 0);
  case CL_IMAGE_BUFFER:
    return rt::write_info(d.buffer, size, value, size_ret);
  case CL_IMAGE_NUM_MIP_LEVELS:
    return rt::write_info(d.num_mip_levels, size, value, size_ret);
  case CL_IMAGE_NUM_SAMPLES:
    return rt::write_info(d.num_samples, size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
