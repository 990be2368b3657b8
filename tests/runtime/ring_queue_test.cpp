// RingQueue: FIFO order across wrap-around and growth, erase from the middle, and the slots
// releasing what they held.
#include "runtime/ring_queue.h"

#include <gtest/gtest.h>

#include <memory>

namespace {

using amcl::rt::RingQueue;

std::vector<int> contents(const RingQueue<int>& q) {
  std::vector<int> v;
  for (size_t i = 0; i < q.size(); ++i) v.push_back(q[i]);
  return v;
}

} // namespace

TEST(RingQueue, KeepsOrderAcrossWrapAroundAndGrowth) {
  RingQueue<int> q;
  int next = 0, expect = 0;
  // Push three, pop two, over and over: the head walks round the array while it grows.
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 3; ++i) q.push_back(int(next++));
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(q.front(), expect++);
      q.pop_front();
    }
  }
  ASSERT_EQ(q.size(), 40u);
  for (size_t i = 0; i < q.size(); ++i) EXPECT_EQ(q[i], expect + int(i));
  EXPECT_EQ(q.back(), next - 1);
}

TEST(RingQueue, EraseAndTakeKeepTheOthersInOrder) {
  RingQueue<int> q;
  for (int i = 0; i < 6; ++i) q.push_back(int(i));
  q.pop_front();
  q.pop_front();                                    // 2 3 4 5, not starting at slot 0
  for (int i = 6; i < 10; ++i) q.push_back(int(i)); // 2..9, wrapping
  EXPECT_EQ(q.take(3), 5);
  q.erase(0);
  EXPECT_EQ(contents(q), (std::vector<int>{3, 4, 6, 7, 8, 9}));
  q.erase(q.size() - 1);
  EXPECT_EQ(contents(q), (std::vector<int>{3, 4, 6, 7, 8}));
  q.erase(1); // front half: the elements before it move up
  EXPECT_EQ(contents(q), (std::vector<int>{3, 6, 7, 8}));
  q.push_back(10);
  EXPECT_EQ(contents(q), (std::vector<int>{3, 6, 7, 8, 10}));
}

TEST(RingQueue, SlotsLetGoOfWhatTheyHeld) {
  RingQueue<std::shared_ptr<int>> q;
  auto a = std::make_shared<int>(1), b = std::make_shared<int>(2), c = std::make_shared<int>(3);
  q.push_back(std::shared_ptr<int>(a));
  q.push_back(std::shared_ptr<int>(b));
  q.push_back(std::shared_ptr<int>(c));
  EXPECT_EQ(a.use_count(), 2);
  q.pop_front();
  EXPECT_EQ(a.use_count(), 1);
  q.erase(1);
  EXPECT_EQ(c.use_count(), 1);
  EXPECT_EQ(b.use_count(), 2);
  EXPECT_EQ(*q.front(), 2);
}

// append() hands out the new last slot empty (a default element), whatever the slot held
// before it was popped or erased, and across growth.
TEST(RingQueue, AppendGivesAnEmptySlotAtTheBack) {
  RingQueue<std::shared_ptr<int>> q;
  auto held = std::make_shared<int>(7);
  for (int round = 0; round < 20; ++round) {
    std::shared_ptr<int>& slot = q.append();
    ASSERT_EQ(slot, nullptr) << "round " << round;
    slot = held;
    q.push_back(std::make_shared<int>(round));
    if (round % 3 == 2) q.erase(q.size() - 1);
    q.pop_front();
  }
  long holding = 0;
  for (size_t i = 0; i < q.size(); ++i) holding += q[i] == held;
  EXPECT_GT(holding, 0);
  EXPECT_EQ(held.use_count(), 1 + holding); // popped and erased slots let go of it
}
