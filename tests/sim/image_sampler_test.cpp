// Sampler addressing along one axis: a repeated normalized coordinate is wrapped before it is
// scaled, so linear filtering gives a texel centre its whole weight as OpenCL's formula does.
#include "sim/shader/image_sampler.h"

#include <gtest/gtest.h>

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

} // namespace
