// A reference on a CL object for as long as a command needs it (captured by the command's work).
#pragma once
#include "objects.h"

namespace amcl::rt {

template <class T> class Hold {
public:
  explicit Hold(T* h) : h_(h) { retain(h_); }
  Hold(const Hold& o) : h_(o.h_) { retain(h_); }
  Hold& operator=(const Hold&) = delete;
  ~Hold() { release(h_); }
  T* operator->() const { return h_; }
  T* get() const { return h_; }

private:
  T* h_;
};

} // namespace amcl::rt
