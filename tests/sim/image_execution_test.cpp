// Image instructions on the emulated shader core: hand-assembled MIMG (gfx11) and VIMAGE/VSAMPLE
// (gfx12) words (llvm-mc-22 -show-encoding, the assembly beside each) over descriptors built
// with am/hw/image_descriptor.h, in wave32 and wave64. The expected values are written from the
// ISA manuals' descriptions: unorm is value / (2^n - 1), out-of-range loads return 0 and stores
// are dropped, dst_sel picks components, nearest takes floor(u * size), bilinear weighs the four
// texels around u * size - 0.5, and the clamp modes bring a texel index back or read the border.
#include "am/hw/image_descriptor.h"
#include "flat_memory.h"
#include "shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace sim::shader;
namespace img = am::hw::image;
using Memory = sim::test::FlatMemory<0x10000, 0x40000>;
constexpr uint64_t kCode = 0x10000, kImage = 0x20000;

enum Kind { kLoad, kStore, kSampleLz, kResinfo, kLoadD16, kLoadArray, kSampleLzXZ, kResinfoYW };
// clang-format off
const std::vector<uint32_t> kGfx11[] = {
    {0xF0000F04u, 0x00020402u}, // image_load v[4:7], v[2:3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xF0180F04u, 0x00020402u}, // image_store v[4:7], v[2:3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xF07C0F04u, 0x10020402u}, // image_sample_lz v[4:7], v[2:3], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xF05C0F04u, 0x00020402u}, // image_get_resinfo v[4:7], v2, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xF0020F04u, 0x00020402u}, // image_load v[4:5], v[2:3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D d16
    {0xF0000F14u, 0x00020402u}, // image_load v[4:7], v[2:4], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
    {0xF07C0504u, 0x10020402u}, // image_sample_lz v[4:5], v[2:3], s[8:15], s[16:19] dmask:0x5 dim:SQ_RSRC_IMG_2D
    {0xF05C0A04u, 0x00020402u}, // image_get_resinfo v[4:5], v2, s[8:15] dmask:0xa dim:SQ_RSRC_IMG_2D
};
const std::vector<uint32_t> kGfx12[] = {
    {0xD3C00001u, 0x00001004u, 0x00000302u}, // image_load v[4:7], [v2, v3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xD3C18001u, 0x00001004u, 0x00000302u}, // image_store v[4:7], [v2, v3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xE7C7C001u, 0x08001004u, 0x00000302u}, // image_sample_lz v[4:7], [v2, v3], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xD3C5C001u, 0x00001004u, 0x00000002u}, // image_get_resinfo v[4:7], v2, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    {0xD3C00021u, 0x00001004u, 0x00000302u}, // image_load v[4:5], [v2, v3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D d16
    {0xD3C00005u, 0x00001004u, 0x00040302u}, // image_load v[4:7], [v2, v3, v4], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
    {0xE547C001u, 0x08001004u, 0x00000302u}, // image_sample_lz v[4:5], [v2, v3], s[8:15], s[16:19] dmask:0x5 dim:SQ_RSRC_IMG_2D
    {0xD285C001u, 0x00001004u, 0x00000002u}, // image_get_resinfo v[4:5], v2, s[8:15] dmask:0xa dim:SQ_RSRC_IMG_2D
};
// clang-format on

struct Target {
  Gfx gfx;
  bool wave64;
};
std::string name(const testing::TestParamInfo<Target>& i) {
  return std::string(i.param.gfx == Gfx::v11 ? "gfx11" : "gfx12") +
         (i.param.wave64 ? "_wave64" : "_wave32");
}

class ImageExecution : public testing::TestWithParam<Target> {
protected:
  Memory mem;
  Wave w;
  img::Gen gen() const { return GetParam().gfx == Gfx::v12 ? img::Gen::gfx12 : img::Gen::gfx11; }
  unsigned lanes() const { return GetParam().wave64 ? 64 : 32; }
  void set_resource(const img::Resource& r) {
    const auto t = img::pack(gen(), r);
    for (unsigned i = 0; i < 8; ++i) w.sgpr[8 + i] = t[i];
  }
  void set_sampler(const img::Sampler& s) {
    const auto t = img::pack(gen(), s);
    for (unsigned i = 0; i < 4; ++i) w.sgpr[16 + i] = t[i];
  }
  uint32_t& v(unsigned reg, unsigned lane) {
    w.select_half(lane / 32);
    uint32_t& r = w.v(reg, lane % 32);
    w.select_half(0);
    return r;
  }
  // Runs one image instruction and s_endpgm on the prepared wave.
  void run(Kind k) {
    std::vector<uint32_t> code = (GetParam().gfx == Gfx::v11 ? kGfx11 : kGfx12)[k];
    code.push_back(sim::test::kEndpgm);
    sim::test::put_words(mem, kCode, std::span<const uint32_t>(code));
    sim::test::WaveRunner runner(mem, kCode, GetParam().gfx);
    w.pc = kCode; // each run starts the wave afresh
    w.done = false;
    runner.run(w);
  }
  void SetUp() override { sim::test::start_wave(w, GetParam().wave64, 16, kCode); }
};

img::Resource rgba8(unsigned width, unsigned height, unsigned pitch) {
  img::Resource r;
  r.base = kImage;
  r.format = img::fmt::k8_8_8_8Unorm;
  r.width = width;
  r.height = height;
  r.pitch = pitch;
  r.type = img::Type::k2D;
  return r;
}

float f(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits(float x) {
  return std::bit_cast<uint32_t>(x);
}

TEST_P(ImageExecution, LoadConvertsUnormAndReturnsZeroOutOfRange) {
  const unsigned W = 5, H = 3, pitch = 64;
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x)
      mem.put<uint32_t>(kImage + (y * pitch + x) * 4,
                        (x * 40) | (y * 100) << 8 | 7u << 16 | 255u << 24);
  set_resource(rgba8(W, H, pitch));
  for (unsigned l = 0; l < lanes(); ++l) v(2, l) = l % 7, v(3, l) = l / 7 % 4;
  run(kLoad);
  for (unsigned l = 0; l < lanes(); ++l) {
    const unsigned x = l % 7, y = l / 7 % 4;
    const bool in = x < W && y < H;
    EXPECT_EQ(f(v(4, l)), in ? float(x * 40 / 255.0) : 0.0f) << l;
    EXPECT_EQ(f(v(5, l)), in ? float(y * 100 / 255.0) : 0.0f) << l;
    EXPECT_EQ(f(v(6, l)), in ? float(7 / 255.0) : 0.0f) << l;
    EXPECT_EQ(f(v(7, l)), in ? 1.0f : 0.0f) << l;
  }
}

// A 2D image one row high still has rows: a load at y = 1 or 2 is out of range and returns 0,
// as it would from a taller image past its last row (the model read row 0 until stop 38).
TEST_P(ImageExecution, LoadPastTheOnlyRowReturnsZero) {
  const unsigned W = 5, pitch = 64;
  for (unsigned x = 0; x < W; ++x) mem.put<uint32_t>(kImage + x * 4, (x * 40) | 255u << 24);
  set_resource(rgba8(W, 1, pitch));
  for (unsigned l = 0; l < lanes(); ++l) v(2, l) = l % W, v(3, l) = l % 3;
  run(kLoad);
  for (unsigned l = 0; l < lanes(); ++l) {
    const bool in = l % 3 == 0;
    EXPECT_EQ(f(v(4, l)), in ? float(l % W * 40 / 255.0) : 0.0f) << l;
    EXPECT_EQ(f(v(7, l)), in ? 1.0f : 0.0f) << l;
  }
}

TEST_P(ImageExecution, DstSelServesBgra) {
  mem.put<uint32_t>(kImage, 10u | 20u << 8 | 30u << 16 | 40u << 24);
  img::Resource r = rgba8(1, 1, 64);
  r.dst_sel[0] = img::Sel::kZ;
  r.dst_sel[2] = img::Sel::kX;
  set_resource(r);
  run(kLoad);
  EXPECT_EQ(f(v(4, 0)), float(30 / 255.0));
  EXPECT_EQ(f(v(6, 0)), float(10 / 255.0));
}

// A dmask of fewer than four components packs the chosen ones into consecutive VGPRs, each
// through its dst_sel (a channel, or the constants 0 and 1); resinfo's sizes are not swizzled.
TEST_P(ImageExecution, PartialDmaskPacksTheChosenComponents) {
  mem.put<float>(kImage + 0, 1.5f);
  mem.put<float>(kImage + 4, 2.5f);
  mem.put<float>(kImage + 8, 3.5f);
  mem.put<float>(kImage + 12, 4.5f);
  img::Resource r = rgba8(2, 1, 64);
  r.format = img::fmt::k32_32_32_32Float;
  img::Sampler s; // point, clamp to the last texel
  set_sampler(s);
  const img::Sel sels[2][4] = {{img::Sel::kW, img::Sel::k1, img::Sel::kX, img::Sel::k0},
                               {img::Sel::k1, img::Sel::kY, img::Sel::k0, img::Sel::kX}};
  const float want[2][2] = {{4.5f, 1.5f}, {1.0f, 0.0f}}; // components 0 and 2 of each
  for (unsigned c = 0; c < 2; ++c) {
    for (unsigned i = 0; i < 4; ++i) r.dst_sel[i] = sels[c][i];
    set_resource(r);
    for (unsigned l = 0; l < lanes(); ++l) {
      v(2, l) = bits(0.25f), v(3, l) = bits(0.5f);
      v(6, l) = 0xdeadbeefu; // beyond the two components: untouched
    }
    run(kSampleLzXZ);
    for (unsigned l = 0; l < lanes(); l += 7) {
      EXPECT_EQ(f(v(4, l)), want[c][0]) << "case " << c << " lane " << l;
      EXPECT_EQ(f(v(5, l)), want[c][1]) << "case " << c << " lane " << l;
      EXPECT_EQ(v(6, l), 0xdeadbeefu) << "case " << c << " lane " << l;
    }
  }
  img::Resource q = rgba8(5, 3, 64);
  q.dst_sel[1] = img::Sel::k0; // a swizzle resinfo ignores
  set_resource(q);
  v(2, 0) = 0;
  run(kResinfoYW);
  EXPECT_EQ(v(4, 0), 3u); // height
  EXPECT_EQ(v(5, 0), 1u); // mip levels
}

TEST_P(ImageExecution, StoreRoundsClampsAndDropsOutOfRange) {
  const unsigned W = 4, H = 2, pitch = 64;
  set_resource(rgba8(W, H, pitch));
  for (unsigned l = 0; l < lanes(); ++l) {
    v(2, l) = l % 6, v(3, l) = l / 6 % 3;
    v(4, l) = bits(float(l) / 64), v(5, l) = bits(2.0f), v(6, l) = bits(-1.0f),
         v(7, l) = bits(0.5f);
  }
  run(kStore);
  std::vector<int> writer(W * H, -1);
  for (unsigned l = 0; l < lanes(); ++l)
    if (l % 6 < W && l / 6 % 3 < H) writer[(l / 6 % 3) * W + l % 6] = int(l);
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x) {
      const int l = writer[y * W + x];
      const uint32_t want =
          l < 0 ? 0 : uint32_t(std::nearbyint(l / 64.0 * 255)) | 255u << 8 | 128u << 24;
      EXPECT_EQ(mem.get<uint32_t>(kImage + (y * pitch + x) * 4), want) << x << "," << y;
    }
  EXPECT_EQ(mem.get<uint32_t>(kImage + W * 4), 0u); // past the row: nothing written
}

// The reference sampler: one channel of an R32F image, nearest or bilinear, per the ISA text.
float reference(const std::vector<float>& texels, unsigned W, unsigned H, float u, float vv,
                bool linear, img::Clamp mode, float border) {
  auto at = [&](int x, int y) {
    auto fix = [&](int i, int n, bool& out) {
      switch (mode) {
      case img::Clamp::Wrap:
        return ((i % n) + n) % n;
      case img::Clamp::Mirror: {
        const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
      }
      case img::Clamp::ClampLastTexel:
        return std::clamp(i, 0, n - 1);
      default:
        out = out || i < 0 || i >= n;
        return i;
      }
    };
    bool out = false;
    const int xx = fix(x, int(W), out), yy = fix(y, int(H), out);
    return out ? border : texels[size_t(yy) * W + size_t(xx)];
  };
  if (!linear) return at(int(std::floor(u * W)), int(std::floor(vv * H)));
  const float s = u * W - 0.5f, t = vv * H - 0.5f;
  const int x0 = int(std::floor(s)), y0 = int(std::floor(t));
  const float a = s - std::floor(s), b = t - std::floor(t);
  return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) +
         (1 - a) * b * at(x0, y0 + 1) + a * b * at(x0 + 1, y0 + 1);
}

TEST_P(ImageExecution, SampleFiltersAndAddressModes) {
  const unsigned W = 4, H = 3, pitch = 64;
  std::vector<float> texels(W * H);
  for (unsigned i = 0; i < W * H; ++i) texels[i] = float(i * i % 11) / 4;
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x)
      mem.put<float>(kImage + (y * pitch + x) * 4, texels[y * W + x]);
  img::Resource r = rgba8(W, H, pitch);
  r.format = img::fmt::k32Float;
  set_resource(r);
  for (bool linear : {false, true})
    for (img::Clamp mode : {img::Clamp::ClampLastTexel, img::Clamp::ClampBorder, img::Clamp::Wrap,
                            img::Clamp::Mirror}) {
      img::Sampler s;
      s.clamp[0] = s.clamp[1] = s.clamp[2] = mode;
      s.mag = s.min = linear ? img::XyFilter::Bilinear : img::XyFilter::Point;
      s.border = img::Border::OpaqueBlack;
      set_sampler(s);
      for (unsigned l = 0; l < lanes(); ++l) {
        v(2, l) = bits(-1.3f + 0.11f * float(l));
        v(3, l) = bits(1.7f - 0.07f * float(l));
      }
      run(kSampleLz);
      for (unsigned l = 0; l < lanes(); ++l) {
        const float want = reference(texels, W, H, -1.3f + 0.11f * float(l),
                                     1.7f - 0.07f * float(l), linear, mode, 0.0f);
        EXPECT_NEAR(f(v(4, l)), want, 1e-5)
            << "lane " << l << " linear " << linear << " mode " << int(mode);
        EXPECT_EQ(f(v(5, l)), 0.0f);
        EXPECT_NEAR(f(v(7, l)), 1.0f, 1e-6); // alpha of a one-channel format (and of OPAQUE_BLACK)
      }
    }
}

TEST_P(ImageExecution, UnnormalizedNearestSample) {
  mem.put<float>(kImage + 4 * 2, 7.5f);
  img::Resource r = rgba8(4, 1, 64);
  r.format = img::fmt::k32Float;
  set_resource(r);
  img::Sampler s;
  s.force_unnormalized = true;
  set_sampler(s);
  v(2, 0) = bits(2.9f);
  v(3, 0) = bits(0.2f);
  run(kSampleLz);
  EXPECT_EQ(f(v(4, 0)), 7.5f);
}

TEST_P(ImageExecution, SamplesOfNegativeZeroKeepTheSign) {
  // A texel of -0.0 sampled is -0.0, point or bilinear: the filter's sum started from +0.0,
  // and +0.0 + -0.0 is +0.0. A NaN texel stays NaN under a point sample.
  for (unsigned x = 0; x < 4; ++x) mem.put<float>(kImage + 4 * x, -0.0f);
  mem.put<uint32_t>(kImage + 64, 0x7fc00001u); // row 1, texel 0: a quiet NaN with a payload
  img::Resource r = rgba8(4, 2, 16);
  r.format = img::fmt::k32Float;
  set_resource(r);
  for (bool linear : {false, true}) {
    img::Sampler s;
    s.force_unnormalized = true;
    s.mag = s.min = linear ? img::XyFilter::Bilinear : img::XyFilter::Point;
    set_sampler(s);
    v(2, 0) = bits(1.7f);
    v(3, 0) = bits(0.2f);
    v(2, 1) = bits(0.2f);
    v(3, 1) = bits(1.2f);
    run(kSampleLz);
    EXPECT_EQ(v(4, 0), bits(-0.0f)) << "linear " << linear;
    if (!linear) EXPECT_EQ(v(4, 1), 0x7fc00001u);
  }
}

TEST_P(ImageExecution, ResinfoAndArrayLoadAndHalfData) {
  img::Resource r = rgba8(9, 5, 0);
  r.type = img::Type::k2DArray;
  r.format = img::fmt::k16_16_16_16Sint;
  r.depth = 3; // layers
  set_resource(r);
  run(kResinfo);
  EXPECT_EQ(v(4, 0), 9u);
  EXPECT_EQ(v(5, 0), 5u);
  EXPECT_EQ(v(6, 0), 3u);
  EXPECT_EQ(v(7, 0), 1u);
  // Layer 2, (x 3, y 4): the implicit pitch is 9 texels of 8 bytes rounded up to the alignment.
  const uint64_t pitch = img::row_pitch(gen(), r);
  EXPECT_EQ(pitch, GetParam().gfx == Gfx::v12 ? 16u : 32u);
  const uint64_t at = kImage + ((2 * 5 + 4) * pitch + 3) * 8;
  mem.put<uint64_t>(at, 0xfffe000300020001ull); // 1, 2, 3, -2
  for (unsigned l = 0; l < lanes(); ++l) v(2, l) = 3, v(3, l) = 4, v(4, l) = l ? 3 : 2;
  run(kLoadArray);
  EXPECT_EQ(v(4, 0), 1u);
  EXPECT_EQ(v(7, 0), uint32_t(-2));
  EXPECT_EQ(v(4, 1), 0u); // layer 3 of 3: out of range
  // A half-float image read with d16: two halves per VGPR.
  img::Resource h = rgba8(1, 1, 64);
  h.format = img::fmt::k16_16_16_16Float;
  set_resource(h);
  mem.put<uint64_t>(kImage, 0x3c00400042004400ull); // 4.0, 3.0, 2.0, 1.0 (halves, high first)
  v(2, 0) = v(3, 0) = 0;
  run(kLoadD16);
  EXPECT_EQ(v(4, 0), 0x42004400u);
  EXPECT_EQ(v(5, 0), 0x3c004000u);
}

TEST_P(ImageExecution, TiledImageFaultsByName) {
  img::Resource r = rgba8(4, 4, 64);
  r.sw_mode = 9;
  set_resource(r);
  try {
    run(kLoad);
    ADD_FAILURE() << "no fault";
  } catch (const ShaderFault& e) {
    EXPECT_NE(std::string(e.what()).find("SW_MODE 9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("image_load"), std::string::npos) << e.what();
  }
}

// 12-byte texels (RGB 32-bit) are the ones that can straddle a 4 KiB page: with rows of 448
// texels (5,376 bytes), texel 234 of row 1 holds bytes 8,184..8,195 and texel 341 of row 0
// bytes 4,092..4,103. Loads and stores there read and write all 12.
TEST_P(ImageExecution, TwelveByteTexelsAcrossAPage) {
  img::Resource r = rgba8(400, 2, 448);
  r.format = img::fmt::k32_32_32Uint;
  set_resource(r);
  const uint64_t row = 448 * 12;
  for (unsigned x = 232; x < 237; ++x)
    for (unsigned c = 0; c < 3; ++c) mem.put<uint32_t>(kImage + row + x * 12 + c * 4, x * 10 + c);
  for (unsigned l = 0; l < lanes(); ++l) v(2, l) = 232 + l % 5, v(3, l) = 1;
  run(kLoad);
  for (unsigned l = 0; l < lanes(); ++l) {
    const unsigned x = 232 + l % 5;
    EXPECT_EQ(v(4, l), x * 10) << l;
    EXPECT_EQ(v(5, l), x * 10 + 1) << l;
    EXPECT_EQ(v(6, l), x * 10 + 2) << l;
    EXPECT_EQ(v(7, l), 1u) << l; // alpha of an integer format
  }
  for (unsigned l = 0; l < lanes(); ++l)
    v(2, l) = 341, v(3, l) = 0, v(4, l) = 0xa0 + l, v(5, l) = 0xb0 + l, v(6, l) = 0xc0 + l;
  run(kStore);
  const unsigned last = lanes() - 1; // lanes store in order: the last one's texel stays
  EXPECT_EQ(mem.get<uint32_t>(kImage + 341 * 12), 0xa0 + last);
  EXPECT_EQ(mem.get<uint32_t>(kImage + 341 * 12 + 4), 0xb0 + last);
  EXPECT_EQ(mem.get<uint32_t>(kImage + 341 * 12 + 8), 0xc0 + last);
}

// A texel outside mapped memory is a fault that names the instruction and the address.
TEST_P(ImageExecution, UnmappedTexelFaultsWithTheInstruction) {
  img::Resource r = rgba8(64, 2, 64);
  r.base = 0x4ff00; // row 1 starts at 0x50000, past the memory
  set_resource(r);
  for (unsigned l = 0; l < lanes(); ++l) v(2, l) = l % 4, v(3, l) = l == 3 ? 1 : 0;
  try {
    run(kLoad);
    ADD_FAILURE() << "no fault";
  } catch (const ShaderFault& e) {
    EXPECT_NE(std::string(e.what()).find("image_load"), std::string::npos) << e.what();
    EXPECT_EQ(e.address, 0x5000cu) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, ImageExecution,
                         testing::Values(Target{Gfx::v11, false}, Target{Gfx::v11, true},
                                         Target{Gfx::v12, false}, Target{Gfx::v12, true}),
                         name);

} // namespace
