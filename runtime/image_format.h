// OpenCL image formats and the hardware formats that serve them: which channel order and data
// type pairs the specification allows, which of them amcl offers (and for which access), and
// the IMG_FORMAT and DST_SEL a T# needs for each (am/hw/image_descriptor.h).
#pragma once
#include "objects.h"

#include "am/hw/image_descriptor.h"

#include <optional>
#include <vector>

namespace amcl::rt {

// How one offered format is stored and read.
struct HwImageFormat {
  uint16_t format;               // IMG_FORMAT of the memory channels
  am::hw::image::Sel dst_sel[4]; // what the read T# returns as (r, g, b, a)
  unsigned element_size;         // bytes per texel
  bool writable;                 // the store path can write it (sRGB cannot)
};

// Whether the order and type form a format the OpenCL 3.0 specification defines (its table
// "List of supported Image Channel Order Values" and the types each order may take).
bool valid_image_format(const cl_image_format& f);

// The hardware format for an offered CL format, or nullopt when amcl does not offer it.
std::optional<HwImageFormat> hw_image_format(const cl_image_format& f);

// clGetSupportedImageFormats: every offered format usable with `flags` (write access excludes
// the read-only ones). The same list for every image type.
std::vector<cl_image_format> supported_image_formats(cl_mem_flags flags);

} // namespace amcl::rt
