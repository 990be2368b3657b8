// sim::ThreadSlot: one object per thread, the same on every call from that thread, freed when
// the thread ends.
#include "sim/thread_slot.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

std::atomic<int> alive{0};

struct Counted {
  Counted() { ++alive; }
  ~Counted() { --alive; }
  int value = 0;
};

} // namespace

TEST(ThreadSlot, OneObjectPerThreadFreedWithIt) {
  const int before = alive.load();
  Counted& mine = sim::ThreadSlot<Counted>::get();
  mine.value = 1;
  EXPECT_EQ(&sim::ThreadSlot<Counted>::get(), &mine);
  const Counted* theirs = nullptr;
  std::thread other([&] {
    Counted& c = sim::ThreadSlot<Counted>::get();
    EXPECT_EQ(c.value, 0); // fresh, not this thread's
    c.value = 2;
    EXPECT_EQ(alive.load(), before + 2);
    theirs = &c;
  });
  other.join();
  EXPECT_NE(theirs, &mine);
  EXPECT_EQ(alive.load(), before + 1); // the other thread's went with it
  EXPECT_EQ(sim::ThreadSlot<Counted>::get().value, 1);
}
