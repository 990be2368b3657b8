#include "image.h"

#include "image_format.h"
#include "memory.h"
#include "staging.h"

#include "am/hw/image_descriptor.h"
#include "compiler/image_abi.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

namespace amcl::rt {
namespace {

namespace img = am::hw::image;

img::Gen gen_of(cl_device_id d) {
  return d->info().gfx.rfind("gfx12", 0) == 0 ? img::Gen::gfx12 : img::Gen::gfx11;
}

bool is_array_type(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}
// Images whose T# holds an explicit row pitch (linear 1D and 2D, not arrays: image_descriptor.h).
bool has_explicit_pitch(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE2D;
}

// The row pitch in bytes every device of the context reads an image of this type with.
size_t device_row_pitch(cl_context c, const _cl_mem::Image& im, uint16_t hw_format) {
  const cl_image_desc& d = im.desc;
  const size_t row = d.image_width * im.element_size;
  if (d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) return row;
  if (d.image_type == CL_MEM_OBJECT_IMAGE2D && d.buffer)
    return d.image_row_pitch ? d.image_row_pitch : row;
  size_t pitch = 0;
  for (cl_device_id dev : c->devices) {
    const img::Gen g = gen_of(dev);
    if (has_explicit_pitch(d.image_type)) {
      // Any multiple of the alignment will do: the strictest generation's.
      const size_t align = img::linear_pitch_align(g);
      pitch = std::max(pitch, (row + align - 1) / align * align);
      continue;
    }
    // Arrays and 3D: the pitch the hardware derives from the width (Addrlib's linear layout).
    img::Resource r;
    r.format = hw_format;
    r.width = uint32_t(d.image_width);
    const size_t implicit = size_t(img::row_pitch(g, r)) * im.element_size;
    // One storage serves every card: both generations must lay the rows out alike.
    if (pitch && implicit != pitch)
      throw ClError{CL_IMAGE_FORMAT_NOT_SUPPORTED,
                    "gfx11 and gfx12 pad this image's rows differently"};
    pitch = implicit;
  }
  return pitch;
}

// The T# of `m` for generation `g`, with the read swizzle or the identity one (image_abi.h).
std::array<uint32_t, 8> tsharp(cl_mem m, img::Gen g, bool for_reads) {
  const _cl_mem::Image& im = *m->image;
  const cl_image_desc& d = im.desc;
  const HwImageFormat hw = *hw_image_format(im.format);
  img::Resource r;
  r.base = m->va();
  r.format = hw.format;
  r.width = uint32_t(d.image_width);
  if (for_reads) std::copy(hw.dst_sel, hw.dst_sel + 4, r.dst_sel);
  const uint32_t pitch_texels = uint32_t(im.row_pitch / im.element_size);
  switch (d.image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
    r.type = img::Type::k1D;
    r.pitch = pitch_texels;
    break;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: // a 2D view, AMCL_IMAGE_BUFFER_ROW texels a row
    r.type = img::Type::k2D;
    r.width = uint32_t(std::min<size_t>(d.image_width, AMCL_IMAGE_BUFFER_ROW));
    r.height = uint32_t((d.image_width + AMCL_IMAGE_BUFFER_ROW - 1) / AMCL_IMAGE_BUFFER_ROW);
    r.pitch = AMCL_IMAGE_BUFFER_ROW;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    r.type = img::Type::k2D;
    r.height = uint32_t(d.image_height);
    r.pitch = pitch_texels;
    break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    r.type = img::Type::k1DArray;
    r.depth = uint32_t(d.image_array_size);
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    r.type = img::Type::k2DArray;
    r.height = uint32_t(d.image_height);
    r.depth = uint32_t(d.image_array_size);
    break;
  default: // CL_MEM_OBJECT_IMAGE3D
    r.type = img::Type::k3D;
    r.height = uint32_t(d.image_height);
    r.depth = uint32_t(d.image_depth);
    break;
  }
  return img::pack(g, r);
}

// The AMCL_IMAGE_BLOCK_BYTES block of `m` for generation `g` (compiler/image_abi.h).
void write_block(cl_mem m, img::Gen g, uint32_t* block) {
  const _cl_mem::Image& im = *m->image;
  const cl_image_desc& d = im.desc;
  std::memset(block, 0, AMCL_IMAGE_BLOCK_BYTES);
  const auto read = tsharp(m, g, true), write = tsharp(m, g, false);
  std::copy(read.begin(), read.end(), block + AMCL_IMAGE_READ_TSHARP);
  std::copy(write.begin(), write.end(), block + AMCL_IMAGE_WRITE_TSHARP);
  const bool has_height = d.image_type == CL_MEM_OBJECT_IMAGE2D ||
                          d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          d.image_type == CL_MEM_OBJECT_IMAGE3D;
  block[AMCL_IMAGE_WIDTH] = uint32_t(d.image_width);
  block[AMCL_IMAGE_HEIGHT] = has_height ? uint32_t(d.image_height) : 1;
  block[AMCL_IMAGE_DEPTH] = d.image_type == CL_MEM_OBJECT_IMAGE3D ? uint32_t(d.image_depth) : 1;
  block[AMCL_IMAGE_ARRAY_SIZE] = is_array_type(d.image_type) ? uint32_t(d.image_array_size) : 0;
  block[AMCL_IMAGE_CHANNEL_DATA_TYPE] = im.format.image_channel_data_type;
  block[AMCL_IMAGE_CHANNEL_ORDER] = im.format.image_channel_order;
  block[AMCL_IMAGE_NUM_MIP_LEVELS] = d.num_mip_levels;
  block[AMCL_IMAGE_NUM_SAMPLES] = d.num_samples;
  block[AMCL_IMAGE_OBJECT_TYPE] = d.image_type;
  block[AMCL_IMAGE_ELEMENT_BYTES] = uint32_t(im.element_size);
}

// The image's extent as origin and region address it (image.h: image_extent).
void extent_of(const cl_image_desc& d, size_t extent[3]) {
  extent[0] = d.image_width;
  extent[1] = extent[2] = 1;
  switch (d.image_type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    extent[1] = d.image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    extent[1] = d.image_height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    extent[1] = d.image_height;
    extent[2] = d.image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    extent[1] = d.image_height;
    extent[2] = d.image_depth;
    break;
  default:
    break;
  }
}

// Rows (and slices) of host data at the host pitches, packed at the device pitches.
std::vector<uint8_t> device_layout_of(const _cl_mem::Image& im, const uint8_t* host, size_t size) {
  std::vector<uint8_t> out(size);
  size_t extent[3];
  extent_of(im.desc, extent);
  // A 1D array's layers are its rows: the host's slice pitch separates them.
  const bool layers_are_rows = im.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  const size_t host_row = layers_are_rows ? im.host_slice_pitch : im.host_row_pitch;
  const size_t dev_row = layers_are_rows ? im.slice_pitch : im.row_pitch;
  for (size_t z = 0; z < extent[2]; ++z)
    for (size_t y = 0; y < extent[1]; ++y)
      std::memcpy(out.data() + z * im.slice_pitch + y * dev_row,
                  host + z * im.host_slice_pitch + y * host_row, extent[0] * im.element_size);
  return out;
}

} // namespace

ImageLimits image_limits(cl_device_id d) {
  // T# field widths (image_descriptor.h): WIDTH and HEIGHT 14 bits on gfx11 (16 on gfx12, of
  // which amcl uses 14 alike), DEPTH 13 (gfx11) or 14 bits, BASE_ARRAY 13 bits; the pitch is
  // DEPTH with PITCH_MSB above it. A 1D buffer is AMCL_IMAGE_BUFFER_ROW wide and as many rows.
  const img::Gen g = gen_of(d);
  const img::ResourceLayout& L = img::resource_layout(g);
  ImageLimits l{};
  l.width_2d = l.height_2d = l.width_3d = l.height_3d = 16384;
  l.depth_3d = size_t(1) << L.depth.width;
  l.array_size = size_t(1) << L.base_array.width;
  l.buffer_size = size_t(AMCL_IMAGE_BUFFER_ROW) * 16384;
  l.max_pitch = size_t(1) << (L.depth.width + L.pitch_msb.width);
  // A pitch in texels that is a multiple of this is a multiple of the byte alignment for
  // every element size; the base address likewise (kBaseAlign bytes).
  l.pitch_align = img::linear_pitch_align(g);
  l.base_align = img::kBaseAlign;
  return l;
}

ImageLimits image_limits(cl_context c) {
  ImageLimits l = image_limits(c->devices[0]);
  for (cl_device_id d : c->devices) {
    const ImageLimits x = image_limits(d);
    l.depth_3d = std::min(l.depth_3d, x.depth_3d);
    l.array_size = std::min(l.array_size, x.array_size);
    l.max_pitch = std::min(l.max_pitch, x.max_pitch);
    l.pitch_align = std::max(l.pitch_align, x.pitch_align);
    l.base_align = std::max(l.base_align, x.base_align);
  }
  return l;
}

size_t image_element_size(const cl_image_format& f) {
  auto hw = hw_image_format(f);
  return hw ? hw->element_size : 0;
}

cl_mem create_image(cl_context context, cl_mem_flags flags, const cl_image_format& format,
                    const cl_image_desc& desc, void* host_ptr,
                    std::vector<cl_mem_properties> properties) {
  const HwImageFormat hw = *hw_image_format(format);
  auto m = std::make_unique<_cl_mem>();
  m->context = context;
  retain(context); // released by ~_cl_mem, also when creation fails below
  m->flags = flags;
  m->properties = std::move(properties);
  m->image = std::make_unique<_cl_mem::Image>();
  _cl_mem::Image& im = *m->image;
  im.format = format;
  im.desc = desc;
  im.element_size = hw.element_size;
  im.row_pitch = device_row_pitch(context, im, hw.format);
  const cl_mem_object_type t = desc.image_type;
  const size_t rows =
      t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D
          ? desc.image_height
          : 1;
  im.slice_pitch = im.row_pitch * rows;
  const size_t slices = t == CL_MEM_OBJECT_IMAGE3D ? desc.image_depth
                        : is_array_type(t)         ? desc.image_array_size
                                                   : 1;
  m->size = im.slice_pitch * slices;
  // A buffer's bytes or the application's texels are defined from the start.
  im.texels_defined = desc.buffer || (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  if (desc.buffer) {
    m->parent = desc.buffer; // the storage; CL_MEM_ASSOCIATED_MEMOBJECT
    retain(desc.buffer);
    m->host_ptr = desc.buffer->host_ptr;
  } else {
    m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  }
  // The host pointer's pitches (the description's, or tightly packed).
  im.host_row_pitch =
      desc.image_row_pitch ? desc.image_row_pitch : desc.image_width * im.element_size;
  im.host_slice_pitch = desc.image_slice_pitch             ? desc.image_slice_pitch
                        : t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im.host_row_pitch
                                                           : im.host_row_pitch * rows;
  try {
    if (!desc.buffer) m->alloc = alloc_in_context(context, m->size);
    im.descriptors = alloc_in_context(context, 2 * AMCL_IMAGE_BLOCK_BYTES, Visibility::CpuVisible);
  } catch (const am::DeviceError&) {
    throw ClError{CL_MEM_OBJECT_ALLOCATION_FAILURE, ""}; // ~_cl_mem frees what was done
  }
  for (img::Gen g : {img::Gen::gfx11, img::Gen::gfx12}) {
    uint32_t block[AMCL_IMAGE_BLOCK_BYTES / 4];
    write_block(m.get(), g, block);
    std::memcpy(im.descriptors.cpu + (g == img::Gen::gfx12 ? AMCL_IMAGE_BLOCK_BYTES : 0), block,
                sizeof block);
  }
  if (!desc.buffer && (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
    const std::vector<uint8_t> bytes =
        device_layout_of(im, static_cast<const uint8_t*>(host_ptr), m->size);
    cl_device_id d = context->devices[0];
    std::lock_guard lock(d->staging_mutex);
    copy_to_device(*d->am, d->staging, m->alloc.va, bytes.data(), bytes.size());
  }
  return m.release();
}

uint64_t image_block_va(cl_mem image, cl_device_id d) {
  return image->image->descriptors.va + (gen_of(d) == img::Gen::gfx12 ? AMCL_IMAGE_BLOCK_BYTES : 0);
}

void image_extent(cl_mem image, size_t extent[3]) {
  extent_of(image->image->desc, extent);
}

Rect image_device_rect(cl_mem image, const size_t* origin) {
  const _cl_mem::Image& im = *image->image;
  // A 1D array's second coordinate is its layer: rows one slice pitch apart.
  const size_t row =
      im.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im.slice_pitch : im.row_pitch;
  return Rect{{origin[0] * im.element_size, origin[1], origin[2]}, row, im.slice_pitch};
}

} // namespace amcl::rt
