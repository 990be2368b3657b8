// The image instructions' fast paths (sampler-less loads and stores, samples at level 0,
// sim/shader/image.cpp, stop 37) against the general lane loop, which defines their semantics:
// each instruction runs twice on the same random wave, image and descriptors, with
// Executor::fast_paths on and off, and the data VGPRs, the image's bytes (stores) and any fault
// must come out the same. Every modelled format, every resource type under every instruction
// dimension (a 2D load of a 2D array, of a 1-row 2D image...), random dst_sel, coordinates in
// and out of range (negative, past the edge, huge, NaN and infinite for samples), stored values
// of every kind, image bytes with NaN, infinite and denormal floats, a mip level other than 0,
// the a16 form, partial dmasks, point and bilinear samplers (and their anisotropic forms, every
// Z filter) with every clamp mode and border colour (the border colour table faults in both),
// a sparse EXEC now and then, in wave32 and wave64 on gfx11 and gfx12. The instruction words
// are llvm-mc-22 -show-encoding of the text beside them.
#include "am/hw/image_descriptor.h"
#include "sim/shader/image_format.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace sim::shader;
namespace img = am::hw::image;
using Memory = sim::test::FlatMemory<0x10000, 0x40000>;
constexpr uint64_t kCode = 0x10000, kImage = 0x20000;

struct Case {
  const char* text;
  std::vector<uint32_t> words;
};
// clang-format off
const Case kGfx11[] = {
    {"image_load v[4:7], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", {0xF0000F00u, 0x00020400u}},
    {"image_load v[4:7], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xF0000F04u, 0x00020400u}},
    {"image_load v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xF0000F08u, 0x00020400u}},
    {"image_load v[4:7], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xF0000F10u, 0x00020400u}},
    {"image_load v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY", {0xF0000F14u, 0x00020400u}},
    {"image_load_mip v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xF0040F04u, 0x00020400u}},
    {"image_load v[4:5], v[0:1], s[8:15] dmask:0x9 dim:SQ_RSRC_IMG_2D_ARRAY a16", {0xF0010914u, 0x00020400u}},
    {"image_load v4, v[0:1], s[8:15] dmask:0x2 dim:SQ_RSRC_IMG_2D", {0xF0000204u, 0x00020400u}},
    {"image_load v[4:6], v[0:2], s[8:15] dmask:0xe dim:SQ_RSRC_IMG_3D", {0xF0000E08u, 0x00020400u}},
    {"image_sample_lz v[4:7], v[10:11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xF07C0F04u, 0x1002040Au}},
    {"image_sample_lz v[4:7], v[10:11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm", {0xF07C0F84u, 0x1002040Au}},
    {"image_sample_lz v[4:7], v[10:12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm", {0xF07C0F94u, 0x1002040Au}},
    {"image_sample_lz v[4:7], v[10:12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xF07C0F08u, 0x1002040Au}},
    {"image_sample_lz v[4:7], v[10:11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xF07C0F10u, 0x1002040Au}},
    {"image_sample_lz v[4:7], v10, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D unorm", {0xF07C0F80u, 0x1002040Au}},
    {"image_sample v[4:6], v[10:11], s[8:15], s[16:19] dmask:0xb dim:SQ_RSRC_IMG_2D", {0xF06C0B04u, 0x1002040Au}},
    {"image_store v[4:7], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", {0xF0180F00u, 0x00020400u}},
    {"image_store v[4:7], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xF0180F04u, 0x00020400u}},
    {"image_store v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xF0180F08u, 0x00020400u}},
    {"image_store v[4:7], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xF0180F10u, 0x00020400u}},
    {"image_store v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY", {0xF0180F14u, 0x00020400u}},
    {"image_store_mip v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xF01C0F04u, 0x00020400u}},
    {"image_store v[4:5], v[0:1], s[8:15] dmask:0x6 dim:SQ_RSRC_IMG_2D_ARRAY a16", {0xF0190614u, 0x00020400u}},
    {"image_store v4, v[0:1], s[8:15] dmask:0x8 dim:SQ_RSRC_IMG_2D", {0xF0180804u, 0x00020400u}},
};
const Case kGfx12[] = {
    {"image_load v[4:7], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", {0xD3C00000u, 0x00001004u, 0x00000000u}},
    {"image_load v[4:7], [v0, v1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xD3C00001u, 0x00001004u, 0x00000100u}},
    {"image_load v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xD3C00002u, 0x00001004u, 0x00020100u}},
    {"image_load v[4:7], [v0, v1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xD3C00004u, 0x00001004u, 0x00000100u}},
    {"image_load v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY", {0xD3C00005u, 0x00001004u, 0x00020100u}},
    {"image_load_mip v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xD3C04001u, 0x00001004u, 0x00020100u}},
    {"image_load v[4:5], [v0, v1], s[8:15] dmask:0x9 dim:SQ_RSRC_IMG_2D_ARRAY a16", {0xD2400045u, 0x00001004u, 0x00000100u}},
    {"image_load v4, [v0, v1], s[8:15] dmask:0x2 dim:SQ_RSRC_IMG_2D", {0xD0800001u, 0x00001004u, 0x00000100u}},
    {"image_load v[4:6], [v0, v1, v2], s[8:15] dmask:0xe dim:SQ_RSRC_IMG_3D", {0xD3800002u, 0x00001004u, 0x00020100u}},
    {"image_sample_lz v[4:7], [v10, v11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xE7C7C001u, 0x08001004u, 0x00000B0Au}},
    {"image_sample_lz v[4:7], [v10, v11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm", {0xE7C7E001u, 0x08001004u, 0x00000B0Au}},
    {"image_sample_lz v[4:7], [v10, v11, v12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm", {0xE7C7E005u, 0x08001004u, 0x000C0B0Au}},
    {"image_sample_lz v[4:7], [v10, v11, v12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xE7C7C002u, 0x08001004u, 0x000C0B0Au}},
    {"image_sample_lz v[4:7], [v10, v11], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xE7C7C004u, 0x08001004u, 0x00000B0Au}},
    {"image_sample_lz v[4:7], v10, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D unorm", {0xE7C7E000u, 0x08001004u, 0x0000000Au}},
    {"image_sample v[4:6], [v10, v11], s[8:15], s[16:19] dmask:0xb dim:SQ_RSRC_IMG_2D", {0xE6C6C001u, 0x08001004u, 0x00000B0Au}},
    {"image_store v[4:7], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", {0xD3C18000u, 0x00001004u, 0x00000000u}},
    {"image_store v[4:7], [v0, v1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xD3C18001u, 0x00001004u, 0x00000100u}},
    {"image_store v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", {0xD3C18002u, 0x00001004u, 0x00020100u}},
    {"image_store v[4:7], [v0, v1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY", {0xD3C18004u, 0x00001004u, 0x00000100u}},
    {"image_store v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY", {0xD3C18005u, 0x00001004u, 0x00020100u}},
    {"image_store_mip v[4:7], [v0, v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", {0xD3C1C001u, 0x00001004u, 0x00020100u}},
    {"image_store v[4:5], [v0, v1], s[8:15] dmask:0x6 dim:SQ_RSRC_IMG_2D_ARRAY a16", {0xD1818045u, 0x00001004u, 0x00000100u}},
    {"image_store v4, [v0, v1], s[8:15] dmask:0x8 dim:SQ_RSRC_IMG_2D", {0xD2018001u, 0x00001004u, 0x00000100u}},
};
// clang-format on

std::vector<uint16_t> modelled_formats() {
  std::vector<uint16_t> v;
  for (uint16_t f = 0; f < 128; ++f)
    if (img::format_info(f).channels && texel_codec(f).decode) v.push_back(f);
  return v;
}

struct Outcome {
  std::vector<uint32_t> vgprs; // v4..v7 of every lane
  std::vector<uint8_t> image;  // the image's bytes after a store
  std::string fault;
};
constexpr size_t kImageBytes = 0x2000;

class ImageFastPath : public testing::TestWithParam<std::pair<Gfx, bool>> {
protected:
  std::mt19937 rng{1234};
  uint32_t pick(uint32_t n) { return uint32_t(rng() % n); }
  float real(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

  // An address component: for loads an integer near the image (or far past it), for samples
  // a float, normalized or in texels, sometimes a texel centre or not a number at all.
  uint32_t load_coord(unsigned size) {
    switch (pick(8)) {
    case 0:
      return uint32_t(-1 - int(pick(3))); // negative
    case 1:
      return size + pick(3);
    case 2:
      return pick(2) ? 0x7fffffffu : 0x80000000u + pick(5);
    case 3:
      return rng(); // anything: a16 takes its halves
    default:
      return pick(size);
    }
  }
  uint32_t sample_coord(unsigned size) {
    float f = 0;
    switch (pick(12)) {
    case 0:
      f = NAN;
      break;
    case 1:
      f = pick(2) ? INFINITY : -INFINITY;
      break;
    case 2:
      f = pick(2) ? 1e10f : -1e10f;
      break;
    case 3:
      f = pick(2) ? -0.0f : 0.0f;
      break;
    case 4:
      f = float(int(pick(size + 4)) - 2) + 0.5f; // a texel centre, in texels
      break;
    case 5:
      f = float(int(pick(size + 4)) - 2); // an edge, or a layer index
      break;
    case 6:
      f = real(-0.5f, 1.5f); // normalized
      break;
    default:
      f = real(-2.0f, float(size) + 2.0f);
      break;
    }
    return std::bit_cast<uint32_t>(f);
  }

  static std::vector<uint8_t> image_bytes(const Memory& mem) {
    const auto* p = &mem.bytes[kImage - 0x10000];
    return std::vector<uint8_t>(p, p + kImageBytes);
  }
  Outcome run(Memory& mem, const Case& c, const sim::shader::Wave& start, bool fast) {
    std::vector<uint32_t> code = c.words;
    code.push_back(sim::test::kEndpgm);
    sim::test::put_words(mem, kCode, std::span<const uint32_t>(code));
    sim::test::WaveRunner runner(mem, kCode, GetParam().first);
    sim::shader::Wave w = start;
    w.select_half(0); // the copy's own VGPRs
    const auto before = image_bytes(mem);
    Outcome o;
    Executor::fast_paths = fast;
    try {
      runner.run(w);
    } catch (const std::exception& e) {
      o.fault = e.what();
    }
    Executor::fast_paths = true;
    for (unsigned reg = 4; reg < 8; ++reg)
      for (unsigned l = 0; l < (w.wave64 ? 64u : 32u); ++l)
        o.vgprs.push_back(sim::test::lane_vgpr(w, reg, l));
    o.image = image_bytes(mem);
    std::memcpy(&mem.bytes[kImage - 0x10000], before.data(), kImageBytes); // as it was
    return o;
  }
};

TEST_P(ImageFastPath, AgreesWithTheGeneralPath) {
  const auto [gfx, wave64] = GetParam();
  const img::Gen gen = gfx == Gfx::v12 ? img::Gen::gfx12 : img::Gen::gfx11;
  const unsigned lanes = wave64 ? 64 : 32;
  const img::Type kTypes[] = {img::Type::k1D, img::Type::k2D, img::Type::k3D, img::Type::k1DArray,
                              img::Type::k2DArray};
  const img::Sel kSels[] = {img::Sel::k0, img::Sel::k1, img::Sel::kX,
                            img::Sel::kY, img::Sel::kZ, img::Sel::kW};
  // Float bit patterns the image bytes get now and then: NaNs (signalling and quiet, both
  // signs), infinities, denormals, -0.0.
  const uint32_t kSpecial[] = {0x7f800001u, 0xffa00000u, 0x7fc00001u, 0x7f800000u, 0x00000001u,
                               0x807fffffu, 0x80000000u, 0x7e00u,     0x7c01u};
  Memory mem;
  unsigned runs = 0, faults = 0;
  for (const Case& c :
       gfx == Gfx::v12 ? std::span<const Case>(kGfx12) : std::span<const Case>(kGfx11)) {
    for (const uint16_t format : modelled_formats()) {
      for (const img::Type type : kTypes) {
        SCOPED_TRACE(std::string(c.text) + ", format " + std::to_string(format) + ", type " +
                     std::to_string(unsigned(type)));
        img::Resource r;
        r.base = kImage;
        r.format = format;
        r.type = type;
        r.width = 1 + pick(9);
        r.height = type == img::Type::k1D || type == img::Type::k1DArray ? 1 : 1 + pick(5);
        r.depth = type == img::Type::k3D || img::is_array(type) ? 1 + pick(4) : 1;
        if (img::depth_is_pitch(r)) r.pitch = img::row_pitch(gen, r); // the linear pitch
        for (auto& s : r.dst_sel) s = pick(3) ? kSels[2 + pick(4)] : kSels[pick(6)];
        img::Sampler s;
        for (auto& m : s.clamp) m = img::Clamp(pick(8));
        s.force_unnormalized = pick(4) == 0;
        s.mag = s.min = img::XyFilter(pick(4)); // point, bilinear and their aniso forms
        s.z = img::ZFilter(pick(3));
        s.border = img::Border(pick(8) ? pick(3) : 3);
        for (size_t i = 0; i < kImageBytes; i += 4) {
          const uint32_t v = pick(6) ? uint32_t(rng()) : kSpecial[pick(std::size(kSpecial))];
          mem.put<uint32_t>(kImage + i, v);
        }
        sim::shader::Wave w;
        sim::test::start_wave(w, wave64, 16, kCode);
        const auto t = img::pack(gen, r);
        for (unsigned i = 0; i < 8; ++i) w.sgpr[8 + i] = t[i];
        const auto st = img::pack(gen, s);
        for (unsigned i = 0; i < 4; ++i) w.sgpr[16 + i] = st[i];
        const unsigned sizes[3] = {r.width, r.height, r.depth};
        for (unsigned l = 0; l < lanes; ++l) {
          w.select_half(l / 32);
          for (unsigned i = 0; i < 3; ++i) {
            w.v(i, l % 32) = load_coord(sizes[i]);
            w.v(10 + i, l % 32) = sample_coord(sizes[i]);
          }
          if (pick(3)) w.v(2, l % 32) = pick(2) ? 0 : 1; // image_load_mip's level, mostly 0
          for (unsigned i = 4; i < 8; ++i) w.v(i, l % 32) = rng();
        }
        w.select_half(0);
        if (pick(4) == 0) w.sgpr[src::kExecLo] = rng(); // a sparse EXEC
        const Outcome fast = run(mem, c, w, true);
        const Outcome general = run(mem, c, w, false);
        EXPECT_EQ(fast.fault, general.fault);
        ASSERT_EQ(fast.vgprs, general.vgprs);
        ASSERT_EQ(fast.image, general.image);
        ++runs;
        faults += !fast.fault.empty();
      }
    }
  }
  // The cases above reached both outcomes.
  EXPECT_GT(runs, 1000u);
  EXPECT_GT(faults, 0u);
  EXPECT_LT(faults, runs / 4);
}

INSTANTIATE_TEST_SUITE_P(Targets, ImageFastPath,
                         testing::Values(std::pair{Gfx::v11, false}, std::pair{Gfx::v11, true},
                                         std::pair{Gfx::v12, false}, std::pair{Gfx::v12, true}),
                         [](const testing::TestParamInfo<std::pair<Gfx, bool>>& i) {
                           return std::string(i.param.first == Gfx::v12 ? "gfx12" : "gfx11") +
                                  (i.param.second ? "_wave64" : "_wave32");
                         });

} // namespace
