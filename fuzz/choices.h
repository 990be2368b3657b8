// Where a fuzzer's decisions come from. The bounded gtest loops draw them from a seeded
// generator; the libFuzzer targets read them from the input bytes, so coverage feedback steers
// every decision and a crashing input replays exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <random>

namespace amcl_fuzz {

class Choices {
public:
  virtual ~Choices() = default;
  // A number in [0, n); 0 when n is 0.
  virtual uint64_t pick(uint64_t n) = 0;
  // 64 arbitrary bits.
  virtual uint64_t bits() = 0;
  // True once the decisions have run out (never, for a generator).
  virtual bool exhausted() const { return false; }
  bool coin() { return pick(2) != 0; }
};

class SeededChoices final : public Choices {
public:
  explicit SeededChoices(uint64_t seed) : rng_(seed) {}
  uint64_t pick(uint64_t n) override { return n ? rng_() % n : 0; }
  uint64_t bits() override { return rng_(); }

private:
  std::mt19937_64 rng_;
};

// Decisions read from bytes: pick(n) takes as few bytes as n needs (one for n <= 256), so a
// mutation of one byte changes one decision. After the last byte every decision is 0.
class ByteChoices final : public Choices {
public:
  ByteChoices(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint64_t pick(uint64_t n) override {
    if (n <= 1) return 0;
    uint64_t v = 0;
    for (uint64_t range = n - 1; range; range >>= 8) v = (v << 8) | byte();
    return v % n;
  }
  uint64_t bits() override {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
    return v;
  }
  bool exhausted() const override { return p_ == end_; }

private:
  uint8_t byte() { return p_ == end_ ? 0 : *p_++; }
  const uint8_t* p_;
  const uint8_t* end_;
};

} // namespace amcl_fuzz
