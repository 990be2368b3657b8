// The image resource descriptor (T#, SQ_IMG_RSRC_WORD0..7) and the sampler descriptor (S#,
// SQ_IMG_SAMP_WORD0..3) of gfx11 and gfx12, field by field, with the pack and unpack helpers the
// driver (to build them) and the emulator (to read them) share.
//
// Sources:
// - T# and S# fields: ROCR-Runtime runtime/hsa-runtime/image/resource_gfx11.h and
//   resource_gfx12.h (the SQ_IMG_RSRC_WORD* / SQ_IMG_SAMP_WORD* bit fields), and Mesa
//   src/amd/common/ac_descriptors.c (ac_build_gfx10_texture_descriptor for gfx11,
//   ac_build_gfx12_texture_descriptor, ac_set_mutable_tex_desc_fields,
//   ac_build_sampler_descriptor).
// - IMG_FORMAT: the unified format table gfx11 and gfx12 share (Mesa's GFX11_FORMAT_*, and
//   LLVM's BUF_FMT_* as llvm-mc-22 encodes them for gfx1100 and gfx1201).
// - Enumerations (SQ_RSRC_IMG_*, SQ_SEL_*, SQ_TEX_CLAMP, SQ_TEX_XY_FILTER, border colours):
//   the same ROCR headers; they match Mesa's sid.h V_008F1C_* / V_008F30_* values.
// - Linear pitch: "GFX10.3+ can set a custom pitch for 1D and 2D non-array, but it must be a
//   multiple of 256B" (128 B on gfx12), ac_descriptors.c; DEPTH then holds pitch - 1.
// Pinned by tests/am/image_descriptor_test.cpp.
#pragma once
#include <array>
#include <cstdint>

namespace am::hw::image {

enum class Gen : uint8_t { gfx11, gfx12 };

// SQ_RSRC_IMG_TYPE (T# word 3 TYPE).
enum class Type : uint8_t {
  k1D = 8,
  k2D = 9,
  k3D = 10,
  kCube = 11,
  k1DArray = 12,
  k2DArray = 13,
  k2DMsaa = 14,
  k2DMsaaArray = 15,
};
inline constexpr bool is_array(Type t) {
  return t == Type::k1DArray || t == Type::k2DArray || t == Type::k2DMsaaArray;
}

// SQ_SEL_XYZW01: what one returned component holds (T# DST_SEL_*).
enum class Sel : uint8_t { k0 = 0, k1 = 1, kX = 4, kY = 5, kZ = 6, kW = 7 };

// The unified IMG_FORMAT numbers gfx11 and gfx12 share (the OpenCL-relevant subset and the
// packed formats next to them).
namespace fmt {
inline constexpr uint16_t kInvalid = 0, k8Unorm = 1, k8Snorm = 2, k8Uint = 5, k8Sint = 6,
                          k16Unorm = 7, k16Snorm = 8, k16Uint = 11, k16Sint = 12, k16Float = 13,
                          k8_8Unorm = 14, k8_8Snorm = 15, k8_8Uint = 18, k8_8Sint = 19,
                          k32Uint = 20, k32Sint = 21, k32Float = 22, k16_16Unorm = 23,
                          k16_16Snorm = 24, k16_16Uint = 27, k16_16Sint = 28, k16_16Float = 29,
                          k10_11_11Float = 30, k11_11_10Float = 31, k10_10_10_2Unorm = 32,
                          k2_10_10_10Unorm = 36, k8_8_8_8Unorm = 42, k8_8_8_8Snorm = 43,
                          k8_8_8_8Uint = 46, k8_8_8_8Sint = 47, k32_32Uint = 48, k32_32Sint = 49,
                          k32_32Float = 50, k16_16_16_16Unorm = 51, k16_16_16_16Snorm = 52,
                          k16_16_16_16Uint = 55, k16_16_16_16Sint = 56, k16_16_16_16Float = 57,
                          k32_32_32Uint = 58, k32_32_32Sint = 59, k32_32_32Float = 60,
                          k32_32_32_32Uint = 61, k32_32_32_32Sint = 62, k32_32_32_32Float = 63,
                          k8Srgb = 64, k8_8Srgb = 65, k8_8_8_8Srgb = 66;
}

// What a format's channels are in memory: how many, how wide, and how they convert.
enum class NumType : uint8_t { Unorm, Snorm, Uint, Sint, Float, Srgb };
struct FormatInfo {
  uint8_t channels = 0; // 0: not a format this table describes
  uint8_t bits = 0;     // per channel (all channels equal)
  NumType type = NumType::Unorm;
  constexpr unsigned bytes() const { return channels * bits / 8u; }
};
constexpr FormatInfo format_info(uint16_t f) {
  using N = NumType;
  switch (f) {
  case fmt::k8Unorm:
    return {1, 8, N::Unorm};
  case fmt::k8Snorm:
    return {1, 8, N::Snorm};
  case fmt::k8Uint:
    return {1, 8, N::Uint};
  case fmt::k8Sint:
    return {1, 8, N::Sint};
  case fmt::k8Srgb:
    return {1, 8, N::Srgb};
  case fmt::k16Unorm:
    return {1, 16, N::Unorm};
  case fmt::k16Snorm:
    return {1, 16, N::Snorm};
  case fmt::k16Uint:
    return {1, 16, N::Uint};
  case fmt::k16Sint:
    return {1, 16, N::Sint};
  case fmt::k16Float:
    return {1, 16, N::Float};
  case fmt::k32Uint:
    return {1, 32, N::Uint};
  case fmt::k32Sint:
    return {1, 32, N::Sint};
  case fmt::k32Float:
    return {1, 32, N::Float};
  case fmt::k8_8Unorm:
    return {2, 8, N::Unorm};
  case fmt::k8_8Snorm:
    return {2, 8, N::Snorm};
  case fmt::k8_8Uint:
    return {2, 8, N::Uint};
  case fmt::k8_8Sint:
    return {2, 8, N::Sint};
  case fmt::k8_8Srgb:
    return {2, 8, N::Srgb};
  case fmt::k16_16Unorm:
    return {2, 16, N::Unorm};
  case fmt::k16_16Snorm:
    return {2, 16, N::Snorm};
  case fmt::k16_16Uint:
    return {2, 16, N::Uint};
  case fmt::k16_16Sint:
    return {2, 16, N::Sint};
  case fmt::k16_16Float:
    return {2, 16, N::Float};
  case fmt::k32_32Uint:
    return {2, 32, N::Uint};
  case fmt::k32_32Sint:
    return {2, 32, N::Sint};
  case fmt::k32_32Float:
    return {2, 32, N::Float};
  case fmt::k32_32_32Uint:
    return {3, 32, N::Uint};
  case fmt::k32_32_32Sint:
    return {3, 32, N::Sint};
  case fmt::k32_32_32Float:
    return {3, 32, N::Float};
  case fmt::k8_8_8_8Unorm:
    return {4, 8, N::Unorm};
  case fmt::k8_8_8_8Snorm:
    return {4, 8, N::Snorm};
  case fmt::k8_8_8_8Uint:
    return {4, 8, N::Uint};
  case fmt::k8_8_8_8Sint:
    return {4, 8, N::Sint};
  case fmt::k8_8_8_8Srgb:
    return {4, 8, N::Srgb};
  case fmt::k16_16_16_16Unorm:
    return {4, 16, N::Unorm};
  case fmt::k16_16_16_16Snorm:
    return {4, 16, N::Snorm};
  case fmt::k16_16_16_16Uint:
    return {4, 16, N::Uint};
  case fmt::k16_16_16_16Sint:
    return {4, 16, N::Sint};
  case fmt::k16_16_16_16Float:
    return {4, 16, N::Float};
  case fmt::k32_32_32_32Uint:
    return {4, 32, N::Uint};
  case fmt::k32_32_32_32Sint:
    return {4, 32, N::Sint};
  case fmt::k32_32_32_32Float:
    return {4, 32, N::Float};
  default:
    return {};
  }
}

// SW_MODE 0 is linear; every other swizzle mode is a tiled layout (Addrlib's ADDR_SW_*).
inline constexpr uint8_t kSwModeLinear = 0;
// The row pitch a linear image must have, in bytes (ac_descriptors.c, see above).
constexpr unsigned linear_pitch_align(Gen g) {
  return g == Gen::gfx12 ? 128 : 256;
}
// The image's base address is 256-byte aligned (WORD0 holds address bits [39:8]).
inline constexpr unsigned kBaseAlign = 256;

// The 128-bit form (an instruction's R128 bit, gfx11) reads words 0..3 only: no depth, pitch or
// array range, so it serves 1D and 2D images; unpack it with words 4..7 zero.
// One image resource, unpacked. Sizes are counts (the descriptor stores count - 1).
struct Resource {
  uint64_t base = 0; // byte address, a multiple of kBaseAlign
  uint16_t format = fmt::kInvalid;
  uint32_t width = 1, height = 1;
  // 3D: slices; arrays: the last slice in view + 1; others: unused (see pitch).
  uint32_t depth = 1;
  // Row pitch in texels (linear 1D/2D only: stored in DEPTH/PITCH_MSB); 0 = the implicit one.
  uint32_t pitch = 0;
  uint32_t base_array = 0;
  Type type = Type::k2D;
  Sel dst_sel[4] = {Sel::kX, Sel::kY, Sel::kZ, Sel::kW};
  uint8_t sw_mode = kSwModeLinear;
  uint8_t base_level = 0, last_level = 0, max_mip = 0;
};

// Field positions, per generation (word, low bit, width).
struct Field {
  uint8_t word, lo, width;
};
struct ResourceLayout {
  Field base_hi, max_mip, format, width_lo, width_hi, height, dst_sel, base_level, last_level,
      sw_mode, type, depth, pitch_msb, base_array;
};
// gfx11: resource_gfx11.h; gfx12: resource_gfx12.h (BASE_LEVEL moved to word 1, widths grew).
inline constexpr ResourceLayout kResource11 = {
    {1, 0, 8},  {1, 16, 4}, {1, 20, 8}, {1, 30, 2}, {2, 0, 12}, {2, 14, 14}, {3, 0, 12},
    {3, 12, 4}, {3, 16, 4}, {3, 20, 5}, {3, 28, 4}, {4, 0, 13}, {4, 13, 1},  {4, 16, 13}};
inline constexpr ResourceLayout kResource12 = {
    {1, 0, 8},  {1, 12, 5}, {1, 17, 8}, {1, 30, 2}, {2, 0, 14}, {2, 14, 16}, {3, 0, 12},
    {1, 25, 5}, {3, 15, 5}, {3, 20, 5}, {3, 28, 4}, {4, 0, 14}, {4, 14, 2},  {4, 16, 13}};
constexpr const ResourceLayout& resource_layout(Gen g) {
  return g == Gen::gfx12 ? kResource12 : kResource11;
}

constexpr uint32_t get(const uint32_t* w, Field f) {
  return (w[f.word] >> f.lo) & ((1u << f.width) - 1u);
}
constexpr void put(uint32_t* w, Field f, uint32_t v) {
  const uint32_t mask = ((1u << f.width) - 1u) << f.lo;
  w[f.word] = (w[f.word] & ~mask) | ((v << f.lo) & mask);
}

// Whether DEPTH holds the pitch: linear 1D and 2D images that are not arrays (gfx10.3+).
constexpr bool depth_is_pitch(const Resource& r) {
  return r.sw_mode == kSwModeLinear && (r.type == Type::k1D || r.type == Type::k2D);
}

constexpr std::array<uint32_t, 8> pack(Gen g, const Resource& r) {
  const ResourceLayout& L = resource_layout(g);
  std::array<uint32_t, 8> w{};
  w[0] = uint32_t(r.base >> 8);
  put(w.data(), L.base_hi, uint32_t(r.base >> 40));
  put(w.data(), L.max_mip, r.max_mip);
  put(w.data(), L.format, r.format);
  const uint32_t wm1 = r.width - 1;
  put(w.data(), L.width_lo, wm1 & 3);
  put(w.data(), L.width_hi, wm1 >> 2);
  put(w.data(), L.height, r.height - 1);
  uint32_t sel = 0;
  for (int i = 0; i < 4; ++i) sel |= uint32_t(r.dst_sel[i]) << (3 * i);
  put(w.data(), L.dst_sel, sel);
  put(w.data(), L.base_level, r.base_level);
  put(w.data(), L.last_level, r.last_level);
  put(w.data(), L.sw_mode, r.sw_mode);
  put(w.data(), L.type, uint32_t(r.type));
  const uint32_t depth_field = depth_is_pitch(r) ? (r.pitch ? r.pitch - 1 : 0) : r.depth - 1;
  put(w.data(), L.depth, depth_field);
  put(w.data(), L.pitch_msb, depth_field >> L.depth.width);
  put(w.data(), L.base_array, r.base_array);
  return w;
}

constexpr Resource unpack_resource(Gen g, const uint32_t* w) {
  const ResourceLayout& L = resource_layout(g);
  Resource r;
  r.base = (uint64_t(get(w, L.base_hi)) << 40) | (uint64_t(w[0]) << 8);
  r.max_mip = uint8_t(get(w, L.max_mip));
  r.format = uint16_t(get(w, L.format));
  r.width = ((get(w, L.width_hi) << 2) | get(w, L.width_lo)) + 1;
  r.height = get(w, L.height) + 1;
  const uint32_t sel = get(w, L.dst_sel);
  for (int i = 0; i < 4; ++i) r.dst_sel[i] = Sel((sel >> (3 * i)) & 7);
  r.base_level = uint8_t(get(w, L.base_level));
  r.last_level = uint8_t(get(w, L.last_level));
  r.sw_mode = uint8_t(get(w, L.sw_mode));
  r.type = Type(get(w, L.type));
  const uint32_t depth_field = get(w, L.depth) | (get(w, L.pitch_msb) << L.depth.width);
  if (depth_is_pitch(r)) {
    r.pitch = depth_field + 1;
    r.depth = 1;
  } else {
    r.depth = depth_field + 1;
  }
  r.base_array = get(w, L.base_array);
  return r;
}

// The row pitch of a linear image in texels: the descriptor's own for 1D/2D, else the width
// rounded up to the linear pitch alignment (Addrlib's linear layout).
constexpr uint32_t row_pitch(Gen g, const Resource& r) {
  if (r.pitch) return r.pitch;
  const unsigned bpe = format_info(r.format).bytes();
  if (!bpe) return r.width;
  const uint32_t align = linear_pitch_align(g) / bpe ? linear_pitch_align(g) / bpe : 1;
  return (r.width + align - 1) / align * align;
}

// SQ_TEX_CLAMP: how a coordinate outside the image is brought back (S# CLAMP_X/Y/Z).
enum class Clamp : uint8_t {
  Wrap = 0,
  Mirror = 1,
  ClampLastTexel = 2,
  MirrorOnceLastTexel = 3,
  ClampHalfBorder = 4,
  MirrorOnceHalfBorder = 5,
  ClampBorder = 6,
  MirrorOnceBorder = 7,
};
// SQ_TEX_XY_FILTER (point, bilinear, and their anisotropic forms).
enum class XyFilter : uint8_t { Point = 0, Bilinear = 1, AnisoPoint = 2, AnisoBilinear = 3 };
// SQ_TEX_Z_FILTER and SQ_TEX_MIP_FILTER.
enum class ZFilter : uint8_t { None = 0, Point = 1, Linear = 2 };
enum class MipFilter : uint8_t { None = 0, Point = 1, Linear = 2 };
// SQ_TEX_BORDER_COLOR: the colour a border read returns; Register reads the border colour
// table BORDER_COLOR_PTR indexes.
enum class Border : uint8_t { TransBlack = 0, OpaqueBlack = 1, OpaqueWhite = 2, Register = 3 };

struct Sampler {
  Clamp clamp[3] = {Clamp::ClampLastTexel, Clamp::ClampLastTexel, Clamp::ClampLastTexel};
  bool force_unnormalized = false;
  XyFilter mag = XyFilter::Point, min = XyFilter::Point;
  ZFilter z = ZFilter::None;
  MipFilter mip = MipFilter::None;
  uint16_t min_lod = 0, max_lod = 0; // unsigned 4.8 fixed point
  Border border = Border::TransBlack;
  uint16_t border_ptr = 0;
};

struct SamplerLayout {
  Field clamp_x, clamp_y, clamp_z, force_unnormalized, min_lod, max_lod, mag, min, z, mip,
      border_ptr, border_type;
};
// Word 0 and the filters are the same on both; MIN/MAX_LOD grew to 13 bits on gfx12.
inline constexpr SamplerLayout kSampler11 = {{0, 0, 3},  {0, 3, 3},   {0, 6, 3},   {0, 15, 1},
                                             {1, 0, 12}, {1, 12, 12}, {2, 20, 2},  {2, 22, 2},
                                             {2, 24, 2}, {2, 26, 2},  {3, 18, 12}, {3, 30, 2}};
inline constexpr SamplerLayout kSampler12 = {{0, 0, 3},  {0, 3, 3},   {0, 6, 3},   {0, 15, 1},
                                             {1, 0, 13}, {1, 13, 13}, {2, 20, 2},  {2, 22, 2},
                                             {2, 24, 2}, {2, 26, 2},  {3, 18, 12}, {3, 30, 2}};
constexpr const SamplerLayout& sampler_layout(Gen g) {
  return g == Gen::gfx12 ? kSampler12 : kSampler11;
}

constexpr std::array<uint32_t, 4> pack(Gen g, const Sampler& s) {
  const SamplerLayout& L = sampler_layout(g);
  std::array<uint32_t, 4> w{};
  put(w.data(), L.clamp_x, uint32_t(s.clamp[0]));
  put(w.data(), L.clamp_y, uint32_t(s.clamp[1]));
  put(w.data(), L.clamp_z, uint32_t(s.clamp[2]));
  put(w.data(), L.force_unnormalized, s.force_unnormalized);
  put(w.data(), L.min_lod, s.min_lod);
  put(w.data(), L.max_lod, s.max_lod);
  put(w.data(), L.mag, uint32_t(s.mag));
  put(w.data(), L.min, uint32_t(s.min));
  put(w.data(), L.z, uint32_t(s.z));
  put(w.data(), L.mip, uint32_t(s.mip));
  put(w.data(), L.border_ptr, s.border_ptr);
  put(w.data(), L.border_type, uint32_t(s.border));
  return w;
}

constexpr Sampler unpack_sampler(Gen g, const uint32_t* w) {
  const SamplerLayout& L = sampler_layout(g);
  Sampler s;
  s.clamp[0] = Clamp(get(w, L.clamp_x));
  s.clamp[1] = Clamp(get(w, L.clamp_y));
  s.clamp[2] = Clamp(get(w, L.clamp_z));
  s.force_unnormalized = get(w, L.force_unnormalized);
  s.min_lod = uint16_t(get(w, L.min_lod));
  s.max_lod = uint16_t(get(w, L.max_lod));
  s.mag = XyFilter(get(w, L.mag));
  s.min = XyFilter(get(w, L.min));
  s.z = ZFilter(get(w, L.z));
  s.mip = MipFilter(get(w, L.mip));
  s.border_ptr = uint16_t(get(w, L.border_ptr));
  s.border = Border(get(w, L.border_type));
  return s;
}

} // namespace am::hw::image
