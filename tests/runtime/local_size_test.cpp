// The work-group size amcl picks when the application gives none: whole groups that divide
// every dimension, as many work-items as fit the cap, odd sizes spread over the dimensions.
#include "runtime/local_size.h"

#include <gtest/gtest.h>

namespace {

struct Picked {
  size_t l[3] = {1, 1, 1};
};

Picked pick(cl_uint dims, size_t x, size_t y = 1, size_t z = 1, size_t cap = 256) {
  const size_t g[3] = {x, y, z};
  Picked p;
  amcl::rt::choose_local_size(dims, g, cap, p.l);
  return p;
}

TEST(LocalSize, PowersOfTwoFillTheCap) {
  const Picked p = pick(1, 1 << 20);
  EXPECT_EQ(p.l[0], 256u);
  const Picked q = pick(2, 512, 512);
  EXPECT_EQ(q.l[0], 256u);
  EXPECT_EQ(q.l[1], 1u);
}

TEST(LocalSize, OddSizesTakeTheirLargestDivisors) {
  const Picked p = pick(3, 329, 349, 202); // 7 * 47, a prime, 2 * 101
  EXPECT_EQ(p.l[0], 47u);
  EXPECT_EQ(p.l[1], 1u);
  EXPECT_EQ(p.l[2], 2u);
  const Picked q = pick(1, 1000);
  EXPECT_EQ(q.l[0], 250u);
  // A prime width leaves the group to the next dimension.
  const Picked r = pick(2, 257, 96);
  EXPECT_EQ(r.l[0], 1u);
  EXPECT_EQ(r.l[1], 96u);
}

TEST(LocalSize, GroupsDivideTheRangeAndRespectTheCap) {
  for (size_t x : {1u, 3u, 17u, 100u, 453u, 4096u})
    for (size_t y : {1u, 5u, 64u, 353u})
      for (size_t cap : {1u, 64u, 256u, 1024u}) {
        const Picked p = pick(3, x, y, 6, cap);
        EXPECT_EQ(x % p.l[0], 0u);
        EXPECT_EQ(y % p.l[1], 0u);
        EXPECT_EQ(6 % p.l[2], 0u);
        EXPECT_LE(p.l[0] * p.l[1] * p.l[2], cap) << x << " " << y << " " << cap;
      }
  const Picked tiny = pick(2, 7, 3, 1, 0); // a cap of 0 still gives a group
  EXPECT_EQ(tiny.l[0] * tiny.l[1], 1u);
}

} // namespace
