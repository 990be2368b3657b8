// The emulator's image instructions alone (stop 37, issues 31/34): image_load of integer
// coordinates over a 2D array and a 3D image (the CTS's sampler-less reads), image_sample_lz
// with a nearest (and a bilinear) sampler and the unorm bit (read_image* with a sampler and integer
// coordinates), and image_store (write_image*), each as a wave32 of 32 lanes per instruction
// like a CTS kernel's, on the shader core with no card around it. Prints lane-instructions per
// second; under callgrind the instruction count of exec_image is the repeatable figure:
//
//   valgrind --tool=callgrind --toggle-collect='*exec_image*' build/bench/image_instructions <name>
//
// Hand-assembled gfx11 MIMG words (llvm-mc-22 -mcpu=gfx1100 -show-encoding, the assembly beside
// each); descriptors from am/hw/image_descriptor.h.
#include "am/hw/image_descriptor.h"
#include "sim/shader/executor.h"
#include "sim/shader/translation_cache.h"

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace sim::shader;
namespace img = am::hw::image;

constexpr uint64_t kBase = 0x100000, kCode = kBase, kImage = kBase + 0x10000;
constexpr uint64_t kSize = 1ull << 20;

struct Memory : MemoryPort {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kSize, 0);
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    if (va < kBase || va - kBase + len > bytes.size()) throw MemoryFault(va, write, "unmapped");
    return bytes.data() + (va - kBase);
  }
};

enum class Kind { Load, Sample, SampleLinear, Store };
struct Workload {
  const char* name;
  Kind kind;
  uint32_t word[2];
  img::Type type;
  uint16_t format;
  img::Sel sel[4];
  unsigned w, h, d; // d: layers or depth
};
constexpr img::Sel X = img::Sel::kX, Y = img::Sel::kY, Z = img::Sel::kZ, W = img::Sel::kW,
                   S0 = img::Sel::k0, S1 = img::Sel::k1;
// clang-format off
const Workload kWorkloads[] = {
    // image_load v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
    {"load_2darray_r8ui", Kind::Load, {0xF0000F14u, 0x00020400u}, img::Type::k2DArray,
     img::fmt::k8Uint, {X, S0, S0, S1}, 61, 17, 9},
    {"load_2darray_rgba8", Kind::Load, {0xF0000F14u, 0x00020400u}, img::Type::k2DArray,
     img::fmt::k8_8_8_8Unorm, {X, Y, Z, W}, 61, 17, 9},
    // image_load v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D
    {"load_3d_rgba16f", Kind::Load, {0xF0000F08u, 0x00020400u}, img::Type::k3D,
     img::fmt::k16_16_16_16Float, {X, Y, Z, W}, 29, 13, 11},
    {"load_3d_bgra8", Kind::Load, {0xF0000F08u, 0x00020400u}, img::Type::k3D,
     img::fmt::k8_8_8_8Unorm, {Z, Y, X, W}, 29, 13, 11},
    // image_sample_lz v[4:7], v[10:12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm
    {"sample_2darray_rgba8", Kind::Sample, {0xF07C0F94u, 0x1002040Au}, img::Type::k2DArray,
     img::fmt::k8_8_8_8Unorm, {X, Y, Z, W}, 61, 17, 9},
    // image_sample_lz v[4:7], v[10:12], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D unorm
    {"sample_3d_r32f", Kind::Sample, {0xF07C0F88u, 0x1002040Au}, img::Type::k3D,
     img::fmt::k32Float, {X, S0, S0, S1}, 29, 13, 11},
    // The first sample with a bilinear sampler (four taps a lane: the general path).
    {"linear_2darray_rgba8", Kind::SampleLinear, {0xF07C0F94u, 0x1002040Au}, img::Type::k2DArray,
     img::fmt::k8_8_8_8Unorm, {X, Y, Z, W}, 61, 17, 9},
    // image_store v[4:7], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D
    {"store_3d_rgba8", Kind::Store, {0xF0180F08u, 0x00020400u}, img::Type::k3D,
     img::fmt::k8_8_8_8Unorm, {X, Y, Z, W}, 29, 13, 11},
};
// clang-format on

constexpr unsigned kPerWave = 16; // image instructions between the wave's start and s_endpgm

// Runs `groups` waves of kPerWave instructions over the image's texels in order (x fastest, as
// a CTS kernel's work-items are laid out); returns the lane-instructions run and the seconds
// the waves took (the setup not counted).
uint64_t run(const Workload& wl, unsigned groups, double& seconds) {
  Memory mem;
  for (unsigned i = 0; i < kPerWave; ++i) {
    std::memcpy(&mem.bytes[kCode - kBase + 8 * i], wl.word, 8);
  }
  const uint32_t endpgm = 0xBFB00000u;
  std::memcpy(&mem.bytes[kCode - kBase + 8 * kPerWave], &endpgm, 4);
  for (size_t i = kImage - kBase; i < mem.bytes.size(); ++i)
    mem.bytes[i] = uint8_t(i * 2654435761u >> 13);

  img::Resource r;
  r.base = kImage;
  r.format = wl.format;
  r.width = wl.w;
  r.height = wl.h;
  r.depth = wl.d;
  r.type = wl.type;
  for (unsigned c = 0; c < 4; ++c) r.dst_sel[c] = wl.sel[c];
  const auto t = img::pack(img::Gen::gfx11, r);
  img::Sampler s; // nearest (or bilinear), clamp to the last texel
  if (wl.kind == Kind::SampleLinear) s.mag = s.min = img::XyFilter::Bilinear;
  const auto st = img::pack(img::Gen::gfx11, s);

  Program program(mem, kCode, Gfx::v11);
  TranslationCache cache(mem);
  Executor executor(program, cache, 0);
  Wave wave;
  wave.restart(false, 16);
  wave.sgpr[src::kExecLo] = ~0u;
  for (unsigned i = 0; i < 8; ++i) wave.sgpr[8 + i] = t[i];
  for (unsigned i = 0; i < 4; ++i) wave.sgpr[16 + i] = st[i];

  const uint64_t texels = uint64_t(wl.w) * wl.h * wl.d;
  uint64_t gid = 0, lanes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned g = 0; g < groups; ++g) {
    for (unsigned l = 0; l < 32; ++l, ++gid) {
      const uint64_t i = gid % texels;
      const uint32_t x = uint32_t(i % wl.w), y = uint32_t(i / wl.w % wl.h),
                     z = uint32_t(i / wl.w / wl.h);
      wave.v(0, l) = x, wave.v(1, l) = y, wave.v(2, l) = z;
      wave.v(10, l) = std::bit_cast<uint32_t>(float(x) + 0.5f);
      wave.v(11, l) = std::bit_cast<uint32_t>(float(y) + 0.5f);
      wave.v(12, l) =
          std::bit_cast<uint32_t>(wl.type == img::Type::k3D ? float(z) + 0.5f : float(z));
      for (unsigned c = 0; c < 4; ++c)
        wave.v(4 + c, l) = std::bit_cast<uint32_t>(0.25f * float(c + l % 3));
    }
    wave.pc = kCode;
    wave.done = false;
    executor.run(wave, lanes);
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return lanes;
}

} // namespace

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "";
  const unsigned groups = argc > 2 ? unsigned(std::stoul(argv[2])) : 4000;
  std::printf("%-22s %14s %12s\n", "workload", "lane-insts", "Mlane/s");
  for (const Workload& wl : kWorkloads) {
    if (!only.empty() && only != wl.name) continue;
    double s = 0;
    const uint64_t lanes = run(wl, groups, s);
    std::printf("%-22s %14llu %12.1f\n", wl.name, (unsigned long long)lanes, lanes / s / 1e6);
  }
  return 0;
}
