// Image instructions (gfx11 MIMG, gfx12 VIMAGE/VSAMPLE) over linear images: loads, stores and
// samples at mip level 0, and image_get_resinfo (RDNA3/RDNA4 ISA manuals, "Image Memory
// Instructions"). The T# and S# come from SGPRs as am/hw/image_descriptor.h lays them out;
// texels go through the same memory port as global accesses, so GMC translation and faults
// apply. A tiled (SW_MODE != 0) image, a format amcl does not convert, more than one mip level
// or the border colour table are faults that name themselves.
#include "executor.h"
#include "float_ops.h"
#include "image_format.h"
#include "image_isa.h"
#include "image_sampler.h"

#include <bit>
#include <cmath>

namespace sim::shader {

namespace img = am::hw::image;

namespace {

// The descriptor's layer count and the coordinate index that selects a layer, by type.
bool layered(img::Type t) {
  return img::is_array(t);
}

struct Texel {
  uint32_t c[4] = {0, 0, 0, 0};
};

} // namespace

void Executor::exec_image(Wave& w, const Inst& in) {
  const img::Gen gen = in.gfx == Gfx::v12 ? img::Gen::gfx12 : img::Gen::gfx11;
  uint32_t t[8] = {};
  for (unsigned i = 0; i < (in.img.r128 ? 4u : 8u); ++i) t[i] = w.sgpr[in.src[1] + i];
  const img::Resource r = img::unpack_resource(gen, t);
  if (unsigned(r.type) < unsigned(img::Type::k1D))
    instruction_fault(
        w, in, "image resource of type " + std::to_string(unsigned(r.type)) + " (not an image)");
  if (r.sw_mode != img::kSwModeLinear)
    instruction_fault(w, in,
                      "tiled image (SW_MODE " + std::to_string(r.sw_mode) + ") is not modelled");
  const img::FormatInfo f = img::format_info(r.format);
  if (!f.channels)
    instruction_fault(w, in, "image format " + std::to_string(r.format) + " is not modelled");
  if (r.last_level != r.base_level)
    instruction_fault(w, in, "images with more than one mip level are not modelled");
  const unsigned bpe = f.bytes();
  const uint64_t pitch = img::row_pitch(gen, r);
  const bool array = layered(r.type);
  const unsigned layers = array ? r.depth : 1;
  const unsigned depth = r.type == img::Type::k3D ? r.depth : 1;
  const unsigned height = r.type == img::Type::k1D || r.type == img::Type::k1DArray ? 1 : r.height;
  const unsigned slice_coord = r.type == img::Type::k1DArray ? 1 : 2; // the layer's component

  const bool sample = is_image_sample(in.op);
  img::Sampler s;
  if (sample) {
    uint32_t sw[4];
    for (unsigned i = 0; i < 4; ++i) sw[i] = w.sgpr[in.src[2] + i];
    s = img::unpack_sampler(gen, sw);
  }

  // One texel's bytes at in-range coordinates (x, y, z or layer), read or written through the
  // memory port; a translation fault names the instruction.
  auto access = [&](unsigned x, unsigned y, unsigned z, uint8_t* bytes, bool write) {
    const uint64_t addr = r.base + ((uint64_t(z) * height + y) * pitch + x) * bpe;
    try {
      if (write)
        memory_.write(addr, bytes, bpe);
      else
        memory_.read(addr, bytes, bpe);
    } catch (const MemoryFault& e) {
      throw ShaderFault(std::string(e.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                            ")",
                        e.address, e.write);
    }
  };
  auto fetch = [&](unsigned x, unsigned y, unsigned z, Texel& out) {
    uint8_t bytes[16];
    access(x, y, z, bytes, false);
    decode_texel(f, bytes, out.c);
  };
  auto in_range = [&](int64_t x, int64_t y, int64_t z) {
    return x >= 0 && x < int64_t(r.width) && y >= 0 && y < int64_t(height) && z >= 0 &&
           z < int64_t(array ? layers : depth);
  };

  const unsigned ncomp = image_components(in.op, in.img.dim);
  const uint32_t exec = w.exec();
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    // Address components: one per VGPR, or two 16-bit halves per VGPR under a16.
    uint32_t a[5] = {};
    for (unsigned i = 0; i < ncomp && i < 5; ++i) {
      if (in.img.a16) {
        const uint32_t v = vreg(w, uint16_t(src::kVgpr0 + image_vaddr(in.img, i / 2)), lane);
        const uint16_t h = uint16_t(v >> (16 * (i % 2)));
        a[i] = sample ? std::bit_cast<uint32_t>(h2f(h)) : h;
      } else {
        a[i] = vreg(w, uint16_t(src::kVgpr0 + image_vaddr(in.img, i)), lane);
      }
    }
    Texel v;
    if (in.op == Op::image_get_resinfo) {
      if (a[0] == 0) { // level 0: width, height, depth or layers, mip levels
        v.c[0] = r.width;
        v.c[1] = r.type == img::Type::k1DArray ? layers : height;
        v.c[2] = array ? (r.type == img::Type::k1DArray ? 0 : layers) : depth;
        v.c[3] = r.last_level - r.base_level + 1u;
      }
    } else if (!sample) {
      const unsigned coords = image_coords(in.img.dim);
      const int64_t x = a[0], y = coords > 1 && height > 1 ? a[1] : 0;
      int64_t z = coords > 2 ? a[2] : 0;
      if (r.type == img::Type::k1DArray) z = coords > 1 ? a[1] : 0;
      const bool level0 =
          !(in.op == Op::image_load_mip || in.op == Op::image_store_mip) || a[coords] == 0;
      const int64_t yy = r.type == img::Type::k1DArray ? 0 : y;
      const bool ok = level0 && in_range(x, yy, z);
      if (is_image_store(in.op)) {
        if (!ok) continue; // out of range: dropped
        // The data VGPRs hold the dmask's components in order; the absent ones store as 0.
        uint32_t comp[4] = {0, 0, 0, 0};
        unsigned k = 0;
        for (unsigned c = 0; c < 4; ++c) {
          if (!((in.img.dmask >> c) & 1)) continue;
          uint32_t d = vreg(w, in.dst, lane, in.img.d16 ? k / 2 : k);
          if (in.img.d16) {
            const uint16_t h = uint16_t(d >> (16 * (k % 2)));
            d = is_integer(f.type) ? h : std::bit_cast<uint32_t>(h2f(h));
          }
          comp[c] = d;
          ++k;
        }
        // A store writes memory channel m from the component dst_sel maps to it (the read's
        // swizzle inverted, so a BGRA view stores what it loads); any other dst_sel: as is.
        uint32_t mem[4] = {comp[0], comp[1], comp[2], comp[3]};
        for (unsigned c = 0; c < 4; ++c) {
          const unsigned sel = unsigned(r.dst_sel[c]);
          if (sel >= unsigned(img::Sel::kX)) mem[sel - unsigned(img::Sel::kX)] = comp[c];
        }
        uint8_t bytes[16];
        encode_texel(f, mem, bytes);
        access(unsigned(x), unsigned(yy), unsigned(z), bytes, true);
        continue;
      }
      if (ok) fetch(unsigned(x), unsigned(yy), unsigned(z), v); // else 0 (no alpha default)
    } else {
      // Sampling: float coordinates, normalized unless the S# or the instruction says not.
      const bool normalized = !s.force_unnormalized && !in.img.unorm;
      const unsigned coords = image_coords(in.img.dim);
      float u[3] = {std::bit_cast<float>(a[0]), 0, 0};
      if (coords > 1) u[1] = std::bit_cast<float>(a[1]);
      if (coords > 2) u[2] = std::bit_cast<float>(a[2]);
      // sample_l's LOD picks the minification filter when positive; sample and sample_lz read
      // level 0 with the magnification filter (compute waves have no quad derivatives here).
      const float lod = in.op == Op::image_sample_l ? std::bit_cast<float>(a[coords]) : 0.0f;
      const img::XyFilter xy = lod > 0 ? s.min : s.mag;
      const bool linear = xy == img::XyFilter::Bilinear || xy == img::XyFilter::AnisoBilinear;
      const bool integer = is_integer(f.type);
      // A layer index is unnormalized and rounded to the nearest layer, clamped to the view.
      int layer = 0;
      if (array) {
        const float lc = u[slice_coord];
        layer = int(std::floor(lc + 0.5f));
        layer = layer < 0 ? 0 : layer >= int(layers) ? int(layers) - 1 : layer;
      }
      const AxisTaps tx = axis_taps(u[0], r.width, normalized, linear && !integer, s.clamp[0]);
      const AxisTaps ty = height > 1 || r.type == img::Type::k2D || r.type == img::Type::k2DArray ||
                                  r.type == img::Type::k3D
                              ? axis_taps(u[1], height, normalized, linear && !integer, s.clamp[1])
                              : AxisTaps{};
      const AxisTaps tz =
          r.type == img::Type::k3D
              ? axis_taps(u[2], depth, normalized, linear && !integer && s.z != img::ZFilter::Point,
                          s.clamp[2])
              : AxisTaps{};
      uint32_t border[4];
      float acc[4] = {0, 0, 0, 0};
      for (unsigned k = 0; k < tz.count; ++k)
        for (unsigned j = 0; j < ty.count; ++j)
          for (unsigned i = 0; i < tx.count; ++i) {
            Texel tap;
            if (tx.border[i] || ty.border[j] || tz.border[k]) {
              if (!border_color(s.border, integer, border))
                instruction_fault(w, in,
                                  "the border colour table (BORDER_COLOR_TYPE 3) is not modelled");
              for (unsigned c = 0; c < 4; ++c) tap.c[c] = border[c];
            } else {
              fetch(unsigned(tx.index[i]), unsigned(ty.index[j]),
                    unsigned(array ? layer : tz.index[k]), tap);
            }
            if (integer) {
              v = tap; // integer formats are not filtered: the nearest texel
              continue;
            }
            const float wgt = tx.weight[i] * ty.weight[j] * tz.weight[k];
            for (unsigned c = 0; c < 4; ++c) acc[c] += wgt * std::bit_cast<float>(tap.c[c]);
          }
      if (!integer)
        for (unsigned c = 0; c < 4; ++c) v.c[c] = std::bit_cast<uint32_t>(acc[c]);
    }
    // dst_sel picks each returned component (not for resinfo, whose values are sizes).
    Texel out = v;
    if (in.op != Op::image_get_resinfo) {
      const uint32_t one = is_integer(f.type) ? 1u : std::bit_cast<uint32_t>(1.0f);
      for (unsigned c = 0; c < 4; ++c) {
        const unsigned sel = unsigned(r.dst_sel[c]);
        out.c[c] = sel == 0 ? 0u : sel == 1 ? one : sel >= 4 ? v.c[sel - 4] : 0u;
      }
    }
    // The dmask's components in consecutive VGPRs (d16: two halves per VGPR), then tfe's status.
    unsigned k = 0;
    for (unsigned c = 0; c < 4; ++c) {
      if (!((in.img.dmask >> c) & 1)) continue;
      if (in.img.d16) {
        const uint32_t h = is_integer(f.type) || in.op == Op::image_get_resinfo
                               ? out.c[c] & 0xffff
                               : f2h(std::bit_cast<float>(out.c[c]));
        uint32_t& d = vreg(w, in.dst, lane, k / 2);
        d = k % 2 ? (d & 0xffff) | (h << 16) : (d & 0xffff0000u) | h;
      } else {
        vreg(w, in.dst, lane, k) = out.c[c];
      }
      ++k;
    }
    if (in.img.tfe) vreg(w, in.dst, lane, in.img.d16 ? (k + 1) / 2 : k) = 0;
  }
}

} // namespace sim::shader
