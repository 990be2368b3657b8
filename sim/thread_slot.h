// A per-thread object reached through one pointer in the static TLS block. A thread_local with
// a constructor, in a shared library, costs a call to __tls_get_addr (and its guard) on every
// mention: 10 to 16 calls per empty dispatch on the emulated MEC, 5 % of its instructions. The
// pointer is constant-initialised and initial-exec (one %fs-relative load); the object itself
// lives on the heap, owned by an ordinary thread_local that frees it when the thread ends.
#pragma once
#include <memory>

namespace sim {

template <class T> class ThreadSlot {
public:
  static T& get() {
    if (T* p = fast_) [[likely]]
      return *p;
    return first_use();
  }

private:
  [[gnu::noinline]] static T& first_use() {
    // Ends with the thread; the pointer goes with it, so nothing reads a freed object.
    struct Owner {
      std::unique_ptr<T> object = std::make_unique<T>();
      ~Owner() { fast_ = nullptr; }
    };
    thread_local Owner owner;
    fast_ = owner.object.get();
    return *fast_;
  }
  // 8 bytes of static TLS per slot: the loader keeps a surplus for libraries dlopen'ed with
  // initial-exec variables (the ICD loader opens amcl so).
  static inline thread_local T* fast_ [[gnu::tls_model("initial-exec")]] = nullptr;
};

} // namespace sim
