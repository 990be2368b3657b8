// A kernel launch as clEnqueueNDRangeKernel validated it: the NDRange and a snapshot of the
// kernel's arguments. Commands hold their launch inline (objects.h), so enqueueing a dispatch
// allocates nothing for it.
#pragma once
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace amcl::rt {

// A kernel's arguments as they were at enqueue, with references on the buffers they name. One
// snapshot serves every launch enqueued while the arguments stay unchanged (clSetKernelArg
// starts a new one), so enqueueing the same kernel again copies nothing.
struct ArgSnapshot {
  std::vector<std::vector<uint8_t>> values;
  std::vector<size_t> local_sizes;
  std::vector<bool> svm; // the value is an SVM address, not a cl_mem
  std::vector<cl_mem> buffers; // and images
  std::vector<cl_sampler> samplers;
  bool prints = false; // the kernel calls printf: its output is written once it has finished
  ArgSnapshot() = default;
  ArgSnapshot(const ArgSnapshot&) = delete;
  ArgSnapshot& operator=(const ArgSnapshot&) = delete;
  ~ArgSnapshot();
};

// A validated NDRange with a snapshot of the kernel's arguments; it holds a reference on the
// kernel (and, through the snapshot, on the buffers) until it is destroyed.
struct Launch {
  cl_kernel kernel = nullptr;
  cl_uint dims = 1;
  bool empty = false; // a zero-sized NDRange: nothing runs, the command completes
  // Bytes it takes of its queue's kernel-argument ring (runtime/dispatch.h kernarg_ring_bytes).
  uint32_t ring_bytes = 0;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  std::shared_ptr<const ArgSnapshot> args;
  bool prints() const { return args && args->prints; }
  Launch() = default;
  Launch(const Launch& other);
  // Moves, inline: a dispatch's launch moves about six times between enqueue and retirement
  // (into the command, the pending ring, the batch, the in-flight ring, the release list),
  // and out-of-line moves with memmove calls for the arrays were 12 % of the enqueueing
  // thread's instructions.
  Launch(Launch&& other) noexcept { take(other); }
  Launch& operator=(const Launch&) = delete;
  Launch& operator=(Launch&& other) noexcept {
    if (this != &other) {
      if (kernel || args) reset();
      take(other);
    }
    return *this;
  }
  ~Launch() {
    if (kernel || args) reset();
  }
  // Drops the references (kernel, snapshot) now rather than at destruction.
  void reset();

private:
  void take(Launch& o) noexcept {
    kernel = o.kernel;
    o.kernel = nullptr;
    dims = o.dims;
    empty = o.empty;
    ring_bytes = o.ring_bytes;
    std::memcpy(global, o.global, sizeof global);
    std::memcpy(local, o.local, sizeof local);
    std::memcpy(offset, o.offset, sizeof offset);
    args = std::move(o.args);
  }
};

} // namespace amcl::rt
