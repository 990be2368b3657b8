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

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

namespace sim::shader {

namespace img = am::hw::image;

namespace {

// The descriptor's layer count and the coordinate index that selects a layer, by type.
bool layered(img::Type t) {
  return img::is_array(t);
}

// Whether a resource has rows, so that a coordinate's second component addresses one: every 2D,
// 2D-array and 3D resource, a row of height 1 included (a load at y = 1 from it is out of
// range and returns 0, as any other; it read row 0 until stop 38).
bool has_rows(const img::Resource& r, unsigned height) {
  return height > 1 || r.type == img::Type::k2D || r.type == img::Type::k2DArray ||
         r.type == img::Type::k3D;
}

struct Texel {
  uint32_t c[4] = {0, 0, 0, 0};
};

// One texel between guest memory and a host buffer, in relaxed words of the widest size its
// alignment allows (as MemoryPort::read and write move it: other waves may touch the bytes).
template <class T> void move_words(uint8_t* dst, const uint8_t* src, unsigned n, bool to_guest) {
  for (unsigned i = 0; i < n; i += sizeof(T)) {
    T v;
    if (to_guest) {
      std::memcpy(&v, src + i, sizeof(T));
      std::atomic_ref<T>(*reinterpret_cast<T*>(dst + i)).store(v, std::memory_order_relaxed);
    } else {
      v = std::atomic_ref<T>(*reinterpret_cast<T*>(const_cast<uint8_t*>(src + i)))
              .load(std::memory_order_relaxed);
      std::memcpy(dst + i, &v, sizeof(T));
    }
  }
}
// `bpe` is a format's texel size (1, 2, 4, 8, 12 or 16); texels are aligned to it (to 4 for 12).
// Inline: a call per texel was a tenth of a lane of image_load under callgrind (stop 37).
[[gnu::always_inline]] inline void move_texel(uint8_t* guest, uint8_t* bytes, unsigned bpe,
                                              bool write) {
  uint8_t* dst = write ? guest : bytes;
  const uint8_t* src = write ? bytes : guest;
  switch (bpe) {
  case 1:
    return move_words<uint8_t>(dst, src, 1, write);
  case 2:
    return move_words<uint16_t>(dst, src, 2, write);
  case 8:
  case 16:
    return move_words<uint64_t>(dst, src, bpe, write);
  default:
    return move_words<uint32_t>(dst, src, bpe, write);
  }
}

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
  // The format's converters, picked once for the instruction's lanes.
  const TexelCodec codec = texel_codec(r.format);
  if (!f.channels || !codec.decode)
    instruction_fault(w, in, "image format " + std::to_string(r.format) + " is not modelled");
  if (r.last_level != r.base_level)
    instruction_fault(w, in, "images with more than one mip level are not modelled");
  const unsigned bpe = f.bytes();
  const bool array = layered(r.type);
  const unsigned layers = array ? r.depth : 1;
  const unsigned depth = r.type == img::Type::k3D ? r.depth : 1;
  const unsigned height = r.type == img::Type::k1D || r.type == img::Type::k1DArray ? 1 : r.height;
  const unsigned slice_coord = r.type == img::Type::k1DArray ? 1 : 2; // the layer's component
  const uint64_t row_bytes = uint64_t(img::row_pitch(gen, r)) * bpe;
  const uint64_t slice_bytes = row_bytes * height;
  const bool integer = is_integer(f.type);

  const bool sample = is_image_sample(in.op);
  img::Sampler s;
  if (sample) {
    uint32_t sw[4];
    for (unsigned i = 0; i < 4; ++i) sw[i] = w.sgpr[in.src[2] + i];
    s = img::unpack_sampler(gen, sw);
  }
  const uint32_t exec = w.exec();
  if (!exec) return;

  // Operand rows, found (and their VGPRs checked) once: address components, then data.
  const unsigned ncomp = image_components(in.op, in.img.dim);
  const uint32_t* arow[5] = {};
  for (unsigned i = 0; i < ncomp && i < 5; ++i)
    arow[i] = &vreg(w, uint16_t(src::kVgpr0 + image_vaddr(in.img, in.img.a16 ? i / 2 : i)), 0);
  uint32_t* drow[5] = {};
  const unsigned data_dwords = image_data_dwords(in);
  for (unsigned i = 0; i < data_dwords && i < 5; ++i) drow[i] = &vreg(w, in.dst, 0, i);
  const unsigned coords = image_coords(in.img.dim);

  // Texel memory: the page of the last read and of the last write kept across lanes (lanes
  // mostly walk a row); a texel that crosses a page (12-byte formats) takes the port's split
  // path. Translation faults name the instruction (the catch below).
  uint64_t cached_page[2] = {~0ull, ~0ull};
  uint8_t* host_page[2] = {nullptr, nullptr};
  // Inlined into the lane loop (stop 32): a call per texel showed in the CTS image suites.
  // The texel's host address, or nullptr when it crosses a page.
  auto host = [&](uint64_t addr, bool write) __attribute__((always_inline))->uint8_t* {
    if ((addr & 4095) + bpe > 4096) [[unlikely]]
      return nullptr;
    if ((addr >> 12) != cached_page[write]) {
      // Translated at the texel itself, so a fault reports the texel's address.
      uint8_t* p =
          cache_ ? cache_->translate(addr, bpe, write) : memory_.translate(addr, bpe, write);
      host_page[write] = p - (addr & 4095);
      cached_page[write] = addr >> 12;
    }
    return host_page[write] + (addr & 4095);
  };
  auto store_texel = [&](unsigned x, unsigned y, unsigned z, uint8_t* bytes)
      __attribute__((always_inline)) {
    const uint64_t addr = r.base + z * slice_bytes + y * row_bytes + uint64_t(x) * bpe;
    if (uint8_t* p = host(addr, true)) [[likely]]
      move_texel(p, bytes, bpe, true);
    else
      memory_.write(addr, bytes, bpe);
  };
  // A texel's components, read and decoded in one call of the format's (stop 37: the bytes'
  // trip through a buffer and the word-size switch were a fifth of a load's lane).
  auto fetch = [&](unsigned x, unsigned y, unsigned z, uint32_t out[4])
      __attribute__((always_inline)) {
    const uint64_t addr = r.base + z * slice_bytes + y * row_bytes + uint64_t(x) * bpe;
    if (const uint8_t* p = host(addr, false)) [[likely]] {
      codec.load(p, out);
    } else {
      uint8_t bytes[16];
      memory_.read(addr, bytes, bpe);
      codec.decode(bytes, out);
    }
  };
  auto in_range = [&](int64_t x, int64_t y, int64_t z) {
    return x >= 0 && x < int64_t(r.width) && y >= 0 && y < int64_t(height) && z >= 0 &&
           z < int64_t(array ? layers : depth);
  };
  // dst_sel, resolved once: each returned component's source (0..3: a channel, 4: 0, 5: 1).
  const uint32_t one = integer ? 1u : std::bit_cast<uint32_t>(1.0f);
  unsigned pick[4];
  for (unsigned c = 0; c < 4; ++c) {
    const unsigned sel = unsigned(r.dst_sel[c]);
    pick[c] = sel >= unsigned(img::Sel::kX) ? sel - unsigned(img::Sel::kX) : sel == 1 ? 5 : 4;
  }
  // A store writes memory channel m from the component dst_sel maps to it (the read's swizzle
  // inverted, so a BGRA view stores what it loads; the last such component wins); a channel no
  // component maps to takes the component of its own index.
  unsigned store_from[4] = {0, 1, 2, 3};
  for (unsigned c = 0; c < 4; ++c)
    if (pick[c] < 4) store_from[pick[c]] = c;
  // The returned components in VGPR order: the dmask's, each its v.c source (resinfo's sizes
  // unswizzled) or 4 for 0, 5 for 1; found once, not per lane.
  const bool resinfo = in.op == Op::image_get_resinfo;
  unsigned out_from[4] = {4, 4, 4, 4}, nout = 0;
  for (unsigned c = 0; c < 4; ++c)
    if ((in.img.dmask >> c) & 1) out_from[nout++] = resinfo ? c : pick[c];

  try {
    if (fast_paths && !sample && !resinfo && !in.img.d16 && !in.img.tfe) {
      // Sampler-less loads (read_image* without a sampler: the CTS's samplerlessReads) and
      // stores (write_image*) in a loop of their own (stop 37: the general loop's per-lane
      // tests of the operation, the a16 form and dst_sel's constants were most of a lane's
      // cost under callgrind). Each texel coordinate comes from the component the general path
      // takes it from, or reads 0 where that path uses 0; components are zero-extended, so one
      // unsigned compare with the bound is its signed range test. The mip level (the _mip
      // forms) must be 0.
      static constexpr uint32_t kZeros[kWaveSize] = {};
      const bool store = is_image_store(in.op);
      const bool mip = in.op == Op::image_load_mip || in.op == Op::image_store_mip;
      const bool a1d = r.type == img::Type::k1DArray;
      const unsigned none = 5;
      const unsigned from[4] = {0, !a1d && coords > 1 && has_rows(r, height) ? 1u : none,
                                a1d          ? (coords > 1 ? 1u : none)
                                : coords > 2 ? 2u
                                             : none,
                                mip ? coords : none};
      const uint32_t bound[3] = {r.width, height, array ? layers : depth};
      const uint32_t* row[4];
      for (unsigned i = 0; i < 4; ++i)
        row[i] = from[i] < ncomp && from[i] < 5 ? arow[from[i]] : kZeros;
      // A store's memory channel ch takes data VGPR k, the dmask's k-th component, when
      // store_from maps ch to a component the dmask has; else 0.
      const uint32_t* mrow[4];
      for (unsigned ch = 0; ch < 4; ++ch) {
        const unsigned c = store_from[ch];
        const unsigned k = unsigned(std::popcount(in.img.dmask & ((1u << c) - 1)));
        mrow[ch] = store && (in.img.dmask >> c) & 1 ? drow[k] : kZeros;
      }
      // Built for the a16 form and the plain one, and for four returned components (dmask 0xf,
      // as OpenCL's builtins ask) or any count: arrays indexed per lane stayed on the stack.
      auto lanes = [&]<bool kStore, bool kA16, bool kFour>() __attribute__((always_inline)) {
        const uint32_t *r0 = row[0], *r1 = row[1], *r2 = row[2], *r3 = row[3];
        const uint32_t b0 = bound[0], b1 = bound[1], b2 = bound[2];
        const unsigned s0 = 16 * (from[0] % 2), s1 = 16 * (from[1] % 2), s2 = 16 * (from[2] % 2),
                       s3 = 16 * (from[3] % 2);
        const unsigned f0 = out_from[0], f1 = out_from[1], f2 = out_from[2], f3 = out_from[3];
        uint32_t *d0 = drow[0], *d1 = drow[1], *d2 = drow[2], *d3 = drow[3];
        for (uint32_t m = exec; m; m &= m - 1) {
          const unsigned lane = unsigned(std::countr_zero(m));
          uint32_t x = r0[lane], y = r1[lane], z = r2[lane], level = r3[lane];
          if constexpr (kA16) {
            x = (x >> s0) & 0xffff, y = (y >> s1) & 0xffff, z = (z >> s2) & 0xffff;
            level = (level >> s3) & 0xffff;
          }
          if constexpr (kStore) {
            if ((x < b0) & (y < b1) & (z < b2) & (level == 0)) { // else dropped
              const uint32_t mem[4] = {mrow[0][lane], mrow[1][lane], mrow[2][lane], mrow[3][lane]};
              uint8_t bytes[16];
              codec.encode(mem, bytes);
              store_texel(x, y, z, bytes);
            }
            continue;
          }
          // The texel's components, then dst_sel's constants 0 and 1 (out_from's 4 and 5).
          uint32_t v[6] = {0, 0, 0, 0, 0, one};
          if ((x < b0) & (y < b1) & (z < b2) & (level == 0)) {
            fetch(x, y, z, v);
          }
          if constexpr (kFour) {
            d0[lane] = v[f0], d1[lane] = v[f1], d2[lane] = v[f2], d3[lane] = v[f3];
          } else {
            for (unsigned k = 0; k < nout; ++k) drow[k][lane] = v[out_from[k]];
          }
        }
      };
      if (store)
        in.img.a16 ? lanes.template operator()<true, true, false>()
                   : lanes.template operator()<true, false, false>();
      else if (in.img.a16)
        lanes.template operator()<false, true, false>();
      else if (nout == 4)
        lanes.template operator()<false, false, true>();
      else
        lanes.template operator()<false, false, false>();
      return;
    }
    if (fast_paths && sample && in.op != Op::image_sample_l && !in.img.a16 && !in.img.d16 &&
        !in.img.tfe) {
      // Samples at level 0 (read_image* with a sampler: the CTS's sampled reads) in a loop of
      // their own (stop 37), built for point filtering (and every integer format) and for
      // bilinear: the general path's axis_taps, layer and taps without its per-lane tests of
      // the filter and the operation. A point sample's one-tap filter sum, -0.0 + 1 * c,
      // quiets a signalling NaN (or flushes a denormal under the host's FTZ/DAZ): done here
      // with a 1 the compiler cannot fold. Bilinear sums its taps in the general path's order.
      static constexpr uint32_t kZeros[kWaveSize] = {};
      static volatile float kUnit = 1.0f;
      const float unit = kUnit;
      const bool normalized = !s.force_unnormalized && !in.img.unorm;
      const bool has_y = has_rows(r, height);
      const bool is3d = r.type == img::Type::k3D;
      const bool linear =
          !integer && (s.mag == img::XyFilter::Bilinear || s.mag == img::XyFilter::AnisoBilinear);
      const bool zlinear = s.z != img::ZFilter::Point;
      const uint32_t* row[3];
      for (unsigned i = 0; i < 3; ++i) row[i] = i < coords ? arow[i] : kZeros;
      auto lanes = [&]<bool kLinear, bool kFour>() __attribute__((always_inline)) {
        const unsigned f0 = out_from[0], f1 = out_from[1], f2 = out_from[2], f3 = out_from[3];
        uint32_t *d0 = drow[0], *d1 = drow[1], *d2 = drow[2], *d3 = drow[3];
        for (uint32_t m = exec; m; m &= m - 1) {
          const unsigned lane = unsigned(std::countr_zero(m));
          const float u[3] = {std::bit_cast<float>(row[0][lane]),
                              std::bit_cast<float>(row[1][lane]),
                              std::bit_cast<float>(row[2][lane])};
          const AxisTaps tx = axis_taps(u[0], r.width, normalized, kLinear, s.clamp[0]);
          const AxisTaps ty =
              has_y ? axis_taps(u[1], height, normalized, kLinear, s.clamp[1]) : AxisTaps{};
          const AxisTaps tz =
              is3d ? axis_taps(u[2], depth, normalized, kLinear && zlinear, s.clamp[2])
                   : AxisTaps{};
          uint32_t v[6] = {0, 0, 0, 0, 0, one};
          if constexpr (kLinear) {
            const int layer = array ? array_layer(u[slice_coord], layers) : 0;
            float a0 = -0.0f, a1 = -0.0f, a2 = -0.0f, a3 = -0.0f;
            for (unsigned k = 0; k < tz.count; ++k)
              for (unsigned j = 0; j < ty.count; ++j)
                for (unsigned i = 0; i < tx.count; ++i) {
                  uint32_t tap[4];
                  if (tx.border[i] || ty.border[j] || tz.border[k]) [[unlikely]] {
                    if (!border_color(s.border, false, tap))
                      instruction_fault(
                          w, in, "the border colour table (BORDER_COLOR_TYPE 3) is not modelled");
                  } else {
                    fetch(unsigned(tx.index[i]), unsigned(ty.index[j]),
                          unsigned(array ? layer : tz.index[k]), tap);
                  }
                  const float wgt = tx.weight[i] * ty.weight[j] * tz.weight[k];
                  a0 += wgt * std::bit_cast<float>(tap[0]);
                  a1 += wgt * std::bit_cast<float>(tap[1]);
                  a2 += wgt * std::bit_cast<float>(tap[2]);
                  a3 += wgt * std::bit_cast<float>(tap[3]);
                }
            v[0] = std::bit_cast<uint32_t>(a0), v[1] = std::bit_cast<uint32_t>(a1);
            v[2] = std::bit_cast<uint32_t>(a2), v[3] = std::bit_cast<uint32_t>(a3);
          } else if (tx.border[0] || ty.border[0] || tz.border[0]) [[unlikely]] {
            if (!border_color(s.border, integer, v))
              instruction_fault(w, in,
                                "the border colour table (BORDER_COLOR_TYPE 3) is not modelled");
          } else {
            const int z = array ? array_layer(u[slice_coord], layers) : tz.index[0];
            fetch(unsigned(tx.index[0]), unsigned(ty.index[0]), unsigned(z), v);
          }
          if (!kLinear && !integer)
            for (unsigned c = 0; c < 4; ++c)
              v[c] = std::bit_cast<uint32_t>(-0.0f + unit * std::bit_cast<float>(v[c]));
          if constexpr (kFour) {
            d0[lane] = v[f0], d1[lane] = v[f1], d2[lane] = v[f2], d3[lane] = v[f3];
          } else {
            for (unsigned k = 0; k < nout; ++k) drow[k][lane] = v[out_from[k]];
          }
        }
      };
      if (linear)
        nout == 4 ? lanes.template operator()<true, true>()
                  : lanes.template operator()<true, false>();
      else if (nout == 4)
        lanes.template operator()<false, true>();
      else
        lanes.template operator()<false, false>();
      return;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      // Address components: one per VGPR, or two 16-bit halves per VGPR under a16.
      uint32_t a[5] = {};
      for (unsigned i = 0; i < ncomp && i < 5; ++i) {
        if (in.img.a16) {
          const uint16_t h = uint16_t(arow[i][lane] >> (16 * (i % 2)));
          a[i] = sample ? std::bit_cast<uint32_t>(h2f(h)) : h;
        } else {
          a[i] = arow[i][lane];
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
        const int64_t x = a[0], y = coords > 1 && has_rows(r, height) ? a[1] : 0;
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
            uint32_t d = drow[in.img.d16 ? k / 2 : k][lane];
            if (in.img.d16) {
              const uint16_t h = uint16_t(d >> (16 * (k % 2)));
              d = integer ? h : std::bit_cast<uint32_t>(h2f(h));
            }
            comp[c] = d;
            ++k;
          }
          // Element by element: a 16-byte copy of the four separate stores above would stall.
          uint32_t mem[4];
          for (unsigned ch = 0; ch < 4; ++ch) mem[ch] = comp[store_from[ch]];
          uint8_t bytes[16];
          codec.encode(mem, bytes);
          store_texel(unsigned(x), unsigned(yy), unsigned(z), bytes);
          continue;
        }
        if (ok) fetch(unsigned(x), unsigned(yy), unsigned(z), v.c); // else 0 (no alpha default)
      } else {
        // Sampling: float coordinates, normalized unless the S# or the instruction says not.
        const bool normalized = !s.force_unnormalized && !in.img.unorm;
        float u[3] = {std::bit_cast<float>(a[0]), 0, 0};
        if (coords > 1) u[1] = std::bit_cast<float>(a[1]);
        if (coords > 2) u[2] = std::bit_cast<float>(a[2]);
        // sample_l's LOD picks the minification filter when positive; sample and sample_lz
        // read level 0 with the magnification filter (compute waves have no quad derivatives).
        const float lod = in.op == Op::image_sample_l ? std::bit_cast<float>(a[coords]) : 0.0f;
        const img::XyFilter xy = lod > 0 ? s.min : s.mag;
        const bool linear = xy == img::XyFilter::Bilinear || xy == img::XyFilter::AnisoBilinear;
        // A layer index is unnormalized and rounded to the nearest layer, clamped to the view.
        const int layer = array ? array_layer(u[slice_coord], layers) : 0;
        const AxisTaps tx = axis_taps(u[0], r.width, normalized, linear && !integer, s.clamp[0]);
        const AxisTaps ty = has_rows(r, height) ? axis_taps(u[1], height, normalized,
                                                            linear && !integer, s.clamp[1])
                                                : AxisTaps{};
        const AxisTaps tz =
            r.type == img::Type::k3D
                ? axis_taps(u[2], depth, normalized,
                            linear && !integer && s.z != img::ZFilter::Point, s.clamp[2])
                : AxisTaps{};
        // The filter's sum over the taps, in four scalars: the array it was spilled to the stack
        // and stalled every tap on reloading it (stop 32). They start at -0.0, the identity of
        // IEEE addition: from +0.0 a texel of -0.0 came back as +0.0.
        float a0 = -0.0f, a1 = -0.0f, a2 = -0.0f, a3 = -0.0f;
        for (unsigned k = 0; k < tz.count; ++k)
          for (unsigned j = 0; j < ty.count; ++j)
            for (unsigned i = 0; i < tx.count; ++i) {
              Texel tap;
              if (tx.border[i] || ty.border[j] || tz.border[k]) [[unlikely]] {
                if (!border_color(s.border, integer, tap.c))
                  instruction_fault(
                      w, in, "the border colour table (BORDER_COLOR_TYPE 3) is not modelled");
              } else {
                fetch(unsigned(tx.index[i]), unsigned(ty.index[j]),
                      unsigned(array ? layer : tz.index[k]), tap.c);
              }
              if (integer) {
                v = tap; // integer formats are not filtered: the nearest texel
                continue;
              }
              const float wgt = tx.weight[i] * ty.weight[j] * tz.weight[k];
              a0 += wgt * std::bit_cast<float>(tap.c[0]);
              a1 += wgt * std::bit_cast<float>(tap.c[1]);
              a2 += wgt * std::bit_cast<float>(tap.c[2]);
              a3 += wgt * std::bit_cast<float>(tap.c[3]);
            }
        if (!integer) {
          v.c[0] = std::bit_cast<uint32_t>(a0);
          v.c[1] = std::bit_cast<uint32_t>(a1);
          v.c[2] = std::bit_cast<uint32_t>(a2);
          v.c[3] = std::bit_cast<uint32_t>(a3);
        }
      }
      // dst_sel picks each returned component (not for resinfo, whose values are sizes); the
      // dmask's components go to consecutive VGPRs (d16: two halves per VGPR), then tfe's
      // status.
      unsigned k = 0;
      for (; k < nout; ++k) {
        const unsigned from = out_from[k];
        const uint32_t out = from < 4 ? v.c[from] : from == 5 ? one : 0u;
        if (in.img.d16) {
          const uint32_t h = integer || resinfo ? out & 0xffff : f2h(std::bit_cast<float>(out));
          uint32_t& d = drow[k / 2][lane];
          d = k % 2 ? (d & 0xffff) | (h << 16) : (d & 0xffff0000u) | h;
        } else {
          drow[k][lane] = out;
        }
      }
      if (in.img.tfe) drow[in.img.d16 ? (k + 1) / 2 : k][lane] = 0;
    }
  } catch (const MemoryFault& e) {
    throw ShaderFault(std::string(e.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                      e.address, e.write);
  }
}

} // namespace sim::shader
