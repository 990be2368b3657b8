// OpenCL objects as amcl implements them. Every object starts with the ICD dispatch-table
// pointer (the loader's contract), then a magic number that identifies its type so that a
// wrong or stale handle is rejected with the spec's error code instead of being used.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include "am/device.h"
#include "compiler/code_object.h"
#include "launch.h"
#include "queue_mutex.h"
#include "ring_queue.h"

#include <atomic>
#include <map>
#include <cstdint>
#include <functional>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace amcl::rt {
struct ArgSnapshot;

// The dispatch table every object points at (filled by icd/).
extern const cl_icd_dispatch* g_dispatch;

enum Magic : uint32_t {
  kPlatformMagic = 0x414D5031, kDeviceMagic = 0x414D4432, kContextMagic = 0x414D4333,
  kQueueMagic = 0x414D5134, kMemMagic = 0x414D4D35, kProgramMagic = 0x414D5036,
  kKernelMagic = 0x414D4B37, kEventMagic = 0x414D4538, kSamplerMagic = 0x414D5339,
};

// Thrown inside amcl and turned into an error code at the API boundary.
struct ClError {
  cl_int code;
  std::string message;
};

struct ObjectHeader {
  const cl_icd_dispatch* dispatch = g_dispatch;
  // Atomic: another thread may validate a handle while its last release clears the magic.
  std::atomic<uint32_t> magic;
  std::atomic<cl_uint> refs{1};
  explicit ObjectHeader(uint32_t m) : magic(m) {}

  // Object memory is type-stable: a released object's block keeps the dispatch pointer and a
  // zero magic and goes to a free list for the next object of its size, never back to the
  // system. The ICD loader dereferences a handle before amcl sees it, so a stale handle must
  // still point at readable memory with a dispatch table; amcl then rejects it by its magic.
  static void* operator new(size_t size);
  static void operator delete(void* block, size_t size);
};

} // namespace amcl::rt

struct _cl_platform_id : amcl::rt::ObjectHeader {
  _cl_platform_id() : ObjectHeader(amcl::rt::kPlatformMagic) {}
  std::vector<cl_device_id> devices;
};

struct _cl_device_id : amcl::rt::ObjectHeader {
  _cl_device_id() : ObjectHeader(amcl::rt::kDeviceMagic) {}
  cl_platform_id platform = nullptr;
  std::unique_ptr<am::Device> am; // null when another process holds the card: listed, but
  am::DeviceInfo held_identity;   // CL_DEVICE_AVAILABLE is false; what sysfs says of it,
  std::string held_by;            // and who holds it (runtime/device_backends.h)
  const am::DeviceInfo& info() const { return am ? am->info() : held_identity; }
  // Pinned staging memory for host data copied outside any queue (CL_MEM_COPY_HOST_PTR).
  std::mutex staging_mutex;
  am::Allocation staging;
};

struct _cl_context : amcl::rt::ObjectHeader {
  ~_cl_context();
  _cl_context() : ObjectHeader(amcl::rt::kContextMagic) {}
  std::vector<cl_device_id> devices;
  std::vector<cl_context_properties> properties;
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notify_data = nullptr;
  struct Callback {
    void(CL_CALLBACK* fn)(cl_context, void*);
    void* data;
  };
  std::vector<Callback> destructors; // clSetContextDestructorCallback
  // The host copy of a released image's last map, for the next image map that needs one (an
  // application making and mapping image after image would otherwise fault in fresh pages
  // for each; runtime/image_transfer.h).
  std::mutex spare_map_mutex;
  std::unique_ptr<void, void (*)(void*)> spare_map{nullptr, std::free};
  size_t spare_map_bytes = 0;
};

struct _cl_command_queue : amcl::rt::ObjectHeader {
  ~_cl_command_queue();
  _cl_command_queue() : ObjectHeader(amcl::rt::kQueueMagic) {}
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  std::vector<cl_queue_properties> property_list;
  std::mutex mutex;
  am::Allocation kernargs; // the kernel-argument ring of the dispatches in flight (runtime/dispatch.h)
  // Ring bytes handed out so far (written under `mutex` while the scheduler has the queue
  // `running`): the next slot starts here, modulo the ring's size.
  uint64_t kernarg_head = 0;
  // Dispatches on the ring without a doorbell yet (runtime/scheduler.cpp; written under
  // `mutex`, read without it by clFlush to skip the doorbell when there is none).
  std::atomic<size_t> unrung{0};
  // Memory replaced while dispatches may still use it, freed once the compute timeline passes
  // the value (guarded by `mutex`).
  std::vector<std::pair<am::Allocation, uint64_t>> deferred_frees;
  am::Allocation staging;  // pinned host memory for host<->device copies
  am::Allocation scratch;  // private memory of running waves (COMPUTE_TMPRING_SIZE)
  am::Allocation printf_buffer; // pinned host memory kernels print into (runtime/printf_output.h)
  // What a submitted dispatch leaves to watch: the compute timeline value that completes it
  // and, on a profiling queue, the GPU timestamps of its start and end (written by the CP).
  struct Submitted {
    uint64_t done = 0;
    const uint64_t* times = nullptr;
    uint64_t kernarg_start = 0; // where its slot starts in the ring's running byte count
  };
  // Guards `pending`, `running`, `in_flight`, `retiring` and `in_active`
  // (runtime/scheduler.cpp). Taken after the scheduler's global lock, never before it.
  amcl::rt::QueueMutex sched;
  // In the scheduler's set of active queues (written under both locks, read under either).
  bool in_active = false;
  // Commands not yet run, in order (runtime/scheduler.cpp).
  struct Command {
    cl_event event = nullptr;
    std::vector<cl_event> waits;
    std::function<void()> work;
    // Instead of `work`: a kernel dispatch that is submitted without waiting (see Submitted).
    // Its launch (with references on the kernel and, through the snapshot, the buffers) lives
    // until it has completed.
    bool dispatch = false;
    amcl::rt::Launch launch;
    // Recorded at enqueue from the queue's properties and the command type. Out of order, a
    // command starts once its wait list allows; `drain` also waits for every command enqueued
    // before it (a marker or barrier without a wait list), and nothing enqueued after a
    // `barrier` starts before it has completed.
    bool out_of_order = false, drain = false, barrier = false;
  };
  amcl::rt::RingQueue<Command> pending;
  bool running = false;
  // Dispatches on the device, oldest first, with the timeline value that completes each; one
  // thread at a time retires the oldest (`retiring`). A device error fails every dispatch that
  // was on the card with it, each when its own wait hears of it (am::Device::judge_faults): the
  // interrupt does not say which of them faulted.
  struct InFlight {
    Command cmd;
    Submitted at;
  };
  amcl::rt::RingQueue<InFlight> in_flight;
  bool retiring = false;
  // The compute timeline value the submission thread saw finished at its last look (guarded
  // by `sched`; runtime/scheduler.cpp, retire_oldest's leave_fresh).
  uint64_t swept = 0;
  // The unfinished dispatch (its timeline value) the submission thread last left to a waiter.
  uint64_t passed_over = 0;
  // The submission thread's hang judgement for the value it last left a wait for (written by
  // whoever holds `retiring`; runtime/scheduler.cpp).
  am::Device::WaitProgress left_wait;
  uint64_t left_wait_for = 0;
};

struct _cl_mem : amcl::rt::ObjectHeader {
  ~_cl_mem();
  _cl_mem() : ObjectHeader(amcl::rt::kMemMagic) {}
  cl_context context = nullptr;
  cl_mem_flags flags = 0;
  std::vector<cl_mem_properties> properties; // as given to clCreateBufferWithProperties
  size_t size = 0;
  void* host_ptr = nullptr;
  am::Allocation alloc; // on the context's first device, mapped into the others' page tables
  cl_mem parent = nullptr;
  size_t offset = 0;
  // CL_MEM_USE_HOST_PTR on SVM memory: `alloc` is that memory (runtime/svm.h), not owned.
  bool uses_svm_pointer = false;
  std::atomic<cl_uint> map_count{0};
  struct Callback {
    void(CL_CALLBACK* fn)(cl_mem, void*);
    void* data;
  };
  std::vector<Callback> destructors;
  // Live clEnqueueMapBuffer mappings: where the host sees [offset, offset+size).
  struct Mapping {
    void* ptr;
    size_t offset, size;
    cl_map_flags flags;
    bool owned; // host memory amcl allocated for the mapping (not the USE_HOST_PTR region)
    // Image maps (clEnqueueMapImage): the texels mapped, and the host pitches at `ptr`.
    bool image = false;
    size_t origin[3] = {}, region[3] = {};
    size_t row_pitch = 0, slice_pitch = 0;
  };
  std::vector<Mapping> maps;
  std::mutex map_mutex;
  // Set for images (runtime/image.h): their format, shape, device layout and descriptors. An
  // image made from a buffer has that buffer as `parent` (offset 0) and no storage of its own.
  struct Image {
    cl_image_format format{};
    cl_image_desc desc{}; // as given, mem_object included
    size_t element_size = 0;
    size_t row_pitch = 0, slice_pitch = 0; // of the device layout, in bytes
    size_t host_row_pitch = 0, host_slice_pitch = 0; // of host_ptr (CL_MEM_USE_HOST_PTR)
    // One AMCL_IMAGE_BLOCK_BYTES block per GPU generation (compiler/image_abi.h), on the
    // context's first device and mapped into the others, as buffers are.
    am::Allocation descriptors;
    // The host copy of the last finished map, kept for the next one (ROCclr keeps a memory
    // object's map memory the same way): an image mapped again and again would otherwise fault
    // in fresh pages each time. Guarded by map_mutex (runtime/image_transfer.h).
    std::unique_ptr<void, void (*)(void*)> spare_map{nullptr, std::free};
    size_t spare_map_bytes = 0;
    // False while the texels are undefined (OpenCL 3.0: an image made without host memory or
    // a buffer holds undefined texels until written): a map of it need not copy them out.
    // Set before any command that may write the image (a write, copy to it, fill, written
    // unmap, or being a kernel argument) is enqueued (runtime/image.h note_written).
    std::atomic<bool> texels_defined{false};
  };
  std::unique_ptr<Image> image;
  // The device address of the storage (an image from a sub-buffer: through two parents).
  uint64_t va() const { return parent ? parent->va() + offset : alloc.va; }
};

struct _cl_sampler : amcl::rt::ObjectHeader {
  ~_cl_sampler();
  _cl_sampler() : ObjectHeader(amcl::rt::kSamplerMagic) {}
  cl_context context = nullptr;
  cl_bool normalized_coords = CL_TRUE;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> properties; // as given to clCreateSamplerWithProperties
  // One AMCL_SAMPLER_BLOCK_BYTES block per GPU generation (compiler/image_abi.h).
  am::Allocation descriptors;
};

namespace amcl::rt {
// A build's executable: its code object and the image loaded from it into one device's VRAM,
// freed with its last holder. The program's build holds it and so does each kernel made from
// that build, so a program built again while launches of its earlier kernels wait to run
// leaves those launches the code they were enqueued with.
struct LoadedCode {
  LoadedCode(am::Device& device, compiler::CodeObject code, am::Allocation image)
      : device(device), code(std::move(code)), image(image) {}
  ~LoadedCode() { device.free(image); }
  LoadedCode(const LoadedCode&) = delete;
  LoadedCode& operator=(const LoadedCode&) = delete;
  am::Device& device;
  const compiler::CodeObject code;
  const am::Allocation image;
};
} // namespace amcl::rt

struct _cl_program : amcl::rt::ObjectHeader {
  ~_cl_program();
  _cl_program() : ObjectHeader(amcl::rt::kProgramMagic) {}
  cl_context context = nullptr;
  // The devices the program is for (the context's, or those given binaries) and what was built
  // for each, in the same order: devices of different targets get their own code, and every
  // device its own loaded image.
  std::vector<cl_device_id> devices;
  struct Build {
    std::string log;
    cl_build_status status = CL_BUILD_NONE;
    std::vector<uint8_t> binary; // code object, or bitcode for compiled objects and libraries
    cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    std::shared_ptr<const amcl::rt::LoadedCode> loaded; // the executable, when there is one
  };
  std::vector<Build> builds;
  std::string source;
  // clCreateProgramWithIL: the SPIR-V module, the size of each specialization constant it
  // declares (by SpecId) and the values clSetProgramSpecializationConstant gave.
  std::vector<uint8_t> il;
  std::map<uint32_t, uint32_t> spec_sizes;
  std::map<uint32_t, std::vector<uint8_t>> spec_values;
  std::string options;
  // Kernels the application holds (clBuildProgram and clCompileProgram refuse while any is);
  // launches waiting to run hold theirs too, but do not count.
  std::atomic<cl_uint> kernels_attached{0};
  bool from_binary = false;
  // This device's build, or nullptr when the program is not for it.
  Build* build_for(cl_device_id d) {
    for (size_t i = 0; i < devices.size(); ++i)
      if (devices[i] == d) return &builds[i];
    return nullptr;
  }
  // The first device's executable, if any (kernel names and argument layouts are the same on
  // every device: clCreateKernel checks).
  const Build* any_executable() const {
    for (const Build& b : builds)
      if (b.loaded) return &b;
    return nullptr;
  }
};

struct _cl_kernel : amcl::rt::ObjectHeader {
  ~_cl_kernel();
  _cl_kernel() : ObjectHeader(amcl::rt::kKernelMagic) {}
  cl_program program = nullptr;
  // The kernel in each of the program's devices' code (null where that device has none), and
  // `info`, the first of them: argument layouts agree across devices.
  std::vector<const amcl::compiler::KernelInfo*> infos;
  const amcl::compiler::KernelInfo* info = nullptr;
  // The executables `infos` point into, per device as they are (the program may build again).
  std::vector<std::shared_ptr<const amcl::rt::LoadedCode>> loaded;
  // The application's references (clRetainKernel, clReleaseKernel): when they end, the kernel
  // stops counting as attached to its program, whatever launches still hold it.
  std::atomic<cl_uint> app_refs{1};
  const amcl::compiler::KernelInfo* info_for(cl_device_id d) const {
    for (size_t i = 0; i < program->devices.size(); ++i)
      if (program->devices[i] == d) return infos[i];
    return nullptr;
  }
  const amcl::rt::LoadedCode* loaded_for(cl_device_id d) const {
    for (size_t i = 0; i < program->devices.size(); ++i)
      if (program->devices[i] == d) return loaded[i].get();
    return nullptr;
  }
  std::vector<size_t> explicit_args; // indices into info->args
  std::vector<std::vector<uint8_t>> arg_values;
  std::vector<size_t> local_sizes; // for __local args: requested bytes
  std::vector<bool> arg_set;
  std::vector<bool> arg_svm; // set by clSetKernelArgSVMPointer: the value is an address
  // The argument snapshot launches share while the arguments are unchanged (runtime/dispatch.cpp);
  // weak, so buffers are not kept alive once no launch needs them. clSetKernelArg resets it.
  std::mutex snapshot_mutex;
  std::weak_ptr<const amcl::rt::ArgSnapshot> snapshot;
};

struct _cl_event : amcl::rt::ObjectHeader {
  ~_cl_event();
  _cl_event() : ObjectHeader(amcl::rt::kEventMagic) {}
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_command_type type = 0;
  std::atomic<cl_int> status{CL_COMPLETE};
  bool owns_context = false; // user events hold a reference on their context
  // Profiling times, kept only for commands enqueued on a profiling queue (`timed`): a clock
  // read costs tens of ns on a paravirtualised machine, several per command.
  bool timed = false;
  cl_ulong queued = 0, submit = 0, start = 0, end = 0;
  struct Callback {
    void(CL_CALLBACK* fn)(cl_event, cl_int, void*);
    cl_int on;
    void* data;
  };
  std::vector<Callback> callbacks;
};

namespace amcl::rt {

template <class T> constexpr uint32_t magic_of();
template <> constexpr uint32_t magic_of<_cl_platform_id>() { return kPlatformMagic; }
template <> constexpr uint32_t magic_of<_cl_device_id>() { return kDeviceMagic; }
template <> constexpr uint32_t magic_of<_cl_context>() { return kContextMagic; }
template <> constexpr uint32_t magic_of<_cl_command_queue>() { return kQueueMagic; }
template <> constexpr uint32_t magic_of<_cl_mem>() { return kMemMagic; }
template <> constexpr uint32_t magic_of<_cl_program>() { return kProgramMagic; }
template <> constexpr uint32_t magic_of<_cl_kernel>() { return kKernelMagic; }
template <> constexpr uint32_t magic_of<_cl_event>() { return kEventMagic; }
template <> constexpr uint32_t magic_of<_cl_sampler>() { return kSamplerMagic; }

// True for addresses inside amcl's object arena (see ObjectHeader::operator new).
bool is_object_memory(const void* p);
// A live object of type T: made by amcl (so safe to read, whatever the caller passed) and not
// released (a released object's magic is zero).
template <class T> bool valid(T* h) {
  return h && is_object_memory(h) && h->magic.load(std::memory_order_relaxed) == magic_of<T>();
}

// Reference counting (OpenCL 3.0, "Retaining and Releasing Objects"): the last release
// destroys the object, whose destructor releases what it holds (context, program, queue).
template <class T> void retain(T* h) { ++h->refs; }
template <class T> void release(T* h) {
  if (--h->refs == 0) {
    h->magic.store(0, std::memory_order_relaxed); // a stale handle is rejected, not used
    delete h;
  }
}

// Writes a query result the way every clGet*Info does.
cl_int write_info(const void* data, size_t size, size_t param_value_size, void* param_value,
                  size_t* param_value_size_ret);
template <class T> cl_int write_info(const T& v, size_t n, void* p, size_t* r) {
  return write_info(&v, sizeof(T), n, p, r);
}
cl_int write_info_string(const std::string& s, size_t n, void* p, size_t* r);
template <class T> cl_int write_info_vector(const std::vector<T>& v, size_t n, void* p, size_t* r) {
  return write_info(v.data(), v.size() * sizeof(T), n, p, r);
}

// The platform and its devices (created on first use, never destroyed before exit).
cl_platform_id platform();
cl_int device_info(cl_device_id d, cl_device_info param, size_t n, void* p, size_t* r);
cl_int platform_info(cl_platform_info param, size_t n, void* p, size_t* r);
uint64_t host_time_ns();

} // namespace amcl::rt
