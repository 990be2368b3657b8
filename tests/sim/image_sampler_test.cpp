// Sampler addressing along one axis: a repeated normalized coordinate is wrapped before it is
// scaled, so linear filtering gives a texel centre its whole weight as OpenCL's formula does.
#include "sim/shader/image_sampler.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using am::hw::image::Clamp;

TEST(ImageSampler, RepeatWrapsTheNormalizedCoordinateBeforeScaling) {
  // CTS kernel_read_write 2D: x = -0.038922 on a 167-texel row. fract(x) * 167 is 160.5 in
  // float, a texel centre: all the weight on texel 160. Scaling first gave -6.49998 and a
  // weight of 2e-5 on texel 161, enough to show a huge float texel there.
  const float x = -0x1.3ed9aep-5f;
  const sim::shader::AxisTaps t = sim::shader::axis_taps(x, 167, true, true, Clamp::Wrap);
  ASSERT_EQ(t.count, 2u);
  EXPECT_EQ(t.index[0], 160);
  EXPECT_EQ(t.index[1], 161);
  EXPECT_EQ(t.weight[0], 1.0f);
  EXPECT_EQ(t.weight[1], 0.0f);
  EXPECT_FALSE(t.border[0] || t.border[1]);
  // The last texel's right neighbour wraps to texel 0.
  const sim::shader::AxisTaps e = sim::shader::axis_taps(0.999f, 10, true, true, Clamp::Wrap);
  EXPECT_EQ(e.index[0], 9);
  EXPECT_EQ(e.index[1], 0);
  // Nearest filtering of a negative coordinate.
  const sim::shader::AxisTaps n = sim::shader::axis_taps(-0.05f, 10, true, false, Clamp::Wrap);
  EXPECT_EQ(n.index[0], 9);
}

TEST(ImageSampler, CoordinatesFarOutsideTheImageClampAsNearOnes) {
  // An unnormalized x of 1e10 on a clamp-to-edge sampler reads the last texel, as x = 11 does;
  // converted to int unchecked it became INT_MIN (x86's cvttss2si) and read the first.
  for (bool linear : {false, true}) {
    const auto far = sim::shader::axis_taps(1e10f, 10, false, linear, Clamp::ClampLastTexel);
    const auto near = sim::shader::axis_taps(11.0f, 10, false, linear, Clamp::ClampLastTexel);
    for (unsigned k = 0; k < far.count; ++k) EXPECT_EQ(far.index[k], near.index[k]) << linear;
    const auto below = sim::shader::axis_taps(-1e10f, 10, false, linear, Clamp::ClampLastTexel);
    EXPECT_EQ(below.index[0], 0) << linear;
    // Infinities too, and with a border: every tap is a border texel.
    const auto inf = sim::shader::axis_taps(INFINITY, 10, false, linear, Clamp::ClampBorder);
    for (unsigned k = 0; k < inf.count; ++k) EXPECT_TRUE(inf.border[k]) << linear;
    const auto ninf = sim::shader::axis_taps(-INFINITY, 10, true, linear, Clamp::ClampBorder);
    for (unsigned k = 0; k < ninf.count; ++k) EXPECT_TRUE(ninf.border[k]) << linear;
  }
  // Normalized repeat of an infinity (its fraction is NaN) and a NaN coordinate read texel 0's
  // neighbourhood, not an index from an undefined conversion.
  for (float bad : {INFINITY, NAN}) {
    const auto t = sim::shader::axis_taps(bad, 10, true, false, Clamp::Wrap);
    EXPECT_EQ(t.index[0], 0);
    EXPECT_FALSE(t.border[0]);
  }
}

TEST(ImageSampler, FloorToIntIsStdFloor) {
  // Every float in [-2^31, 2^31) of a random sweep and the edges: negative fractions, integers,
  // the values next to them, the largest floats with a fraction (below 2^23), -0.0 and the
  // denormals (stop 37: the truncation replaced std::floor in axis_taps and the array layer).
  std::vector<float> v = {0.0f,
                          -0.0f,
                          0.5f,
                          -0.5f,
                          1.0f,
                          -1.0f,
                          -1.5f,
                          0x1.fffffep22f,
                          -0x1.fffffep22f,
                          0x1p23f,
                          -0x1p23f,
                          0x1p30f,
                          -0x1p30f,
                          -0x1p31f,
                          0x1.fffffep30f,
                          std::nextafter(0.0f, -1.0f),
                          std::nextafter(-1.0f, 0.0f),
                          std::nextafter(-1.0f, -2.0f)};
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1664525u + 1013904223u;
    const float f = std::bit_cast<float>(x);
    if (f >= -0x1p31f && f < 0x1p31f) v.push_back(f);
  }
  for (const float f : v) EXPECT_EQ(sim::shader::floor_to_int(f), int(std::floor(f))) << f;
  // The layer: round half up, clamped, saturating past int's range (the GPU's conversion);
  // NaN, layer 0.
  EXPECT_EQ(sim::shader::array_layer(1.49f, 4), 1);
  EXPECT_EQ(sim::shader::array_layer(1.5f, 4), 2);
  EXPECT_EQ(sim::shader::array_layer(-0.5f, 4), 0);
  EXPECT_EQ(sim::shader::array_layer(-0.51f, 4), 0);
  EXPECT_EQ(sim::shader::array_layer(7.0f, 4), 3);
  EXPECT_EQ(sim::shader::array_layer(3e9f, 4), 3);
  EXPECT_EQ(sim::shader::array_layer(INFINITY, 4), 3);
  EXPECT_EQ(sim::shader::array_layer(-3e9f, 4), 0);
  EXPECT_EQ(sim::shader::array_layer(-INFINITY, 4), 0);
  EXPECT_EQ(sim::shader::array_layer(NAN, 4), 0);
  EXPECT_EQ(sim::shader::array_layer(2e9f, 4), 3);
}

} // namespace
