// amcl::rt::RingQueue — a FIFO in one growable circular array. push_back and pop_front move no
// other element and allocate only when the queue outgrows its capacity (which it keeps). A
// queue's pending commands and dispatches in flight live in these: std::deque allocates a node
// per element once the element is larger than half of its 512-byte node, as a command is, and
// that malloc and free ran under the scheduler's lock on every enqueue and every retirement.
#pragma once
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace amcl::rt {

template <class T> class RingQueue {
public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return slots_[(head_ + i) & mask()]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask()]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }

  void push_back(T&& value) {
    if (size_ == slots_.size()) grow();
    (*this)[size_] = std::move(value);
    ++size_;
  }
  // A new last element, built in the slot (a default T: slots are reset when emptied), for the
  // caller to fill without moving a whole T in.
  T& append() {
    if (size_ == slots_.size()) grow();
    ++size_;
    return back();
  }
  // The slot keeps no resources of what it held: it is reset to a default T.
  void pop_front() {
    front() = T();
    head_ = (head_ + 1) & mask();
    --size_;
  }
  // Removes element `i`, the others keeping their order: the shorter side moves up by one
  // (taking the oldest element costs what pop_front does).
  void erase(size_t i) {
    if (i < size_ / 2) {
      for (size_t j = i; j > 0; --j) (*this)[j] = std::move((*this)[j - 1]);
      pop_front();
      return;
    }
    for (size_t j = i; j + 1 < size_; ++j) (*this)[j] = std::move((*this)[j + 1]);
    back() = T();
    --size_;
  }
  T take(size_t i) {
    T value = std::move((*this)[i]);
    erase(i);
    return value;
  }

private:
  size_t mask() const { return slots_.size() - 1; } // the capacity is a power of two
  void grow() {
    std::vector<T> bigger(std::max<size_t>(8, slots_.size() * 2));
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0;
};

} // namespace amcl::rt
