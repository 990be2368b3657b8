// Orders the CPU's stores to device-visible memory before a following doorbell or register
// write. Rings and packets may sit in write-combined BAR memory, whose stores x86 does not
// order by itself: a release fence compiles to nothing there, SFENCE drains the WC buffers
// (Intel SDM vol. 3 §11.3.1; Linux's wmb() is SFENCE on x86-64 for the same reason).
#pragma once

namespace am {

inline void device_write_barrier() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

} // namespace am
