#include "image_format.h"

#include <array>

namespace amcl::rt {
namespace {

namespace img = am::hw::image;
using img::Sel;

// A data type's memory channel: width and conversion (nullopt for the packed types).
struct ChannelType {
  uint8_t bits;
  img::NumType type;
};
std::optional<ChannelType> channel_type(cl_channel_type t) {
  using N = img::NumType;
  switch (t) {
  case CL_UNORM_INT8:
    return ChannelType{8, N::Unorm};
  case CL_SNORM_INT8:
    return ChannelType{8, N::Snorm};
  case CL_UNSIGNED_INT8:
    return ChannelType{8, N::Uint};
  case CL_SIGNED_INT8:
    return ChannelType{8, N::Sint};
  case CL_UNORM_INT16:
    return ChannelType{16, N::Unorm};
  case CL_SNORM_INT16:
    return ChannelType{16, N::Snorm};
  case CL_UNSIGNED_INT16:
    return ChannelType{16, N::Uint};
  case CL_SIGNED_INT16:
    return ChannelType{16, N::Sint};
  case CL_HALF_FLOAT:
    return ChannelType{16, N::Float};
  case CL_UNSIGNED_INT32:
    return ChannelType{32, N::Uint};
  case CL_SIGNED_INT32:
    return ChannelType{32, N::Sint};
  case CL_FLOAT:
    return ChannelType{32, N::Float};
  default:
    return std::nullopt;
  }
}

// An offered channel order: memory channels and the read swizzle (OpenCL 3.0 "Image Channel
// Order": CL_LUMINANCE reads (L, L, L, 1), CL_INTENSITY (I, I, I, I), orders without alpha
// read alpha 1).
struct Order {
  cl_channel_order order;
  uint8_t channels;
  std::array<Sel, 4> sel;
  bool srgb;
};
constexpr Sel X = Sel::kX, Y = Sel::kY, Z = Sel::kZ, W = Sel::kW, k0 = Sel::k0, k1 = Sel::k1;
constexpr Order kOrders[] = {
    {CL_R, 1, {X, k0, k0, k1}, false},      {CL_A, 1, {k0, k0, k0, X}, false},
    {CL_INTENSITY, 1, {X, X, X, X}, false}, {CL_LUMINANCE, 1, {X, X, X, k1}, false},
    {CL_RG, 2, {X, Y, k0, k1}, false},      {CL_RA, 2, {X, k0, k0, Y}, false},
    {CL_RGBA, 4, {X, Y, Z, W}, false},      {CL_BGRA, 4, {Z, Y, X, W}, false},
    {CL_ARGB, 4, {Y, Z, W, X}, false},      {CL_ABGR, 4, {W, Z, Y, X}, false},
    {CL_sRGBA, 4, {X, Y, Z, W}, true},      {CL_sBGRA, 4, {Z, Y, X, W}, true},
};
const Order* find_order(cl_channel_order o) {
  for (const Order& x : kOrders)
    if (x.order == o) return &x;
  return nullptr;
}

constexpr cl_channel_type kTypes[] = {CL_UNORM_INT8,     CL_SNORM_INT8,   CL_UNSIGNED_INT8,
                                      CL_SIGNED_INT8,    CL_UNORM_INT16,  CL_SNORM_INT16,
                                      CL_UNSIGNED_INT16, CL_SIGNED_INT16, CL_HALF_FLOAT,
                                      CL_UNSIGNED_INT32, CL_SIGNED_INT32, CL_FLOAT};

// The IMG_FORMAT with these memory channels, or kInvalid.
uint16_t find_hw_format(unsigned channels, unsigned bits, img::NumType type) {
  for (uint16_t f = 1; f <= img::fmt::k8_8_8_8Srgb; ++f) {
    const img::FormatInfo fi = img::format_info(f);
    if (fi.channels == channels && fi.bits == bits && fi.type == type) return f;
  }
  return img::fmt::kInvalid;
}

} // namespace

bool valid_image_format(const cl_image_format& f) {
  const cl_channel_type t = f.image_channel_data_type;
  const bool eight_bit =
      t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
  const bool normalized_or_float = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 ||
                                   t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
                                   t == CL_HALF_FLOAT || t == CL_FLOAT;
  const bool packed = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 ||
                      t == CL_UNORM_INT_101010 || t == CL_UNORM_INT_101010_2;
  const bool plain = channel_type(t).has_value();
  switch (f.image_channel_order) {
  case CL_R:
  case CL_A:
  case CL_RG:
  case CL_RA:
  case CL_Rx:
  case CL_RGx:
    return plain;
  case CL_RGBA:
    return plain || t == CL_UNORM_INT_101010_2;
  case CL_RGB:
  case CL_RGBx:
    return packed && t != CL_UNORM_INT_101010_2;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return normalized_or_float;
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
    return eight_bit;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return t == CL_UNORM_INT8;
  case CL_DEPTH:
    return t == CL_UNORM_INT16 || t == CL_FLOAT;
  default:
    return false;
  }
}

std::optional<HwImageFormat> hw_image_format(const cl_image_format& f) {
  if (!valid_image_format(f)) return std::nullopt;
  const Order* o = find_order(f.image_channel_order);
  const std::optional<ChannelType> c = channel_type(f.image_channel_data_type);
  if (!o || !c) return std::nullopt;
  const img::NumType type = o->srgb ? img::NumType::Srgb : c->type;
  const uint16_t hw = find_hw_format(o->channels, c->bits, type);
  if (hw == img::fmt::kInvalid) return std::nullopt;
  return HwImageFormat{hw,
                       {o->sel[0], o->sel[1], o->sel[2], o->sel[3]},
                       unsigned(o->channels * c->bits / 8),
                       !o->srgb};
}

std::vector<cl_image_format> supported_image_formats(cl_mem_flags flags) {
  // CL_MEM_READ_WRITE (also the default, 0) asks for formats usable both ways.
  const bool write =
      (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) ||
      !(flags & CL_MEM_READ_ONLY);
  std::vector<cl_image_format> out;
  for (const Order& o : kOrders)
    for (cl_channel_type t : kTypes) {
      const cl_image_format f{o.order, t};
      if (auto hw = hw_image_format(f); hw && (hw->writable || !write)) out.push_back(f);
    }
  return out;
}

} // namespace amcl::rt
