#include "dispatch.h"

#include "am/hw/sh_regs.h"
#include "image.h"
#include "local_size.h"
#include "printf_output.h"
#include "sampler.h"
#include "scheduler.h"

#include <cstdio>

#include <algorithm>
#include <cstring>

namespace amcl::rt {
namespace {

using namespace am::hw::sh;

// A dispatch's slot in its queue's kernel-argument ring: the dispatch packet, then the
// arguments (CL_DEVICE_MAX_PARAMETER_SIZE 4096 bytes plus the hidden ones at most).
constexpr uint32_t kPacketOffset = 0;    // hsa_kernel_dispatch_packet_t (64 bytes)
constexpr uint32_t kTimesOffset = 128;   // GPU timestamps of the dispatch's start and end
constexpr uint32_t kKernargOffset = 256; // kernel arguments follow, 256-byte aligned
constexpr uint64_t kSlotAlign = 256;
static_assert(kKernargRingBytes % kSlotAlign == 0 && kMaxKernargSlotBytes % kSlotAlign == 0);

// Frees memory earlier dispatches of `q` may still be using once they have finished.
void free_after_submitted(cl_command_queue q, am::Device& dev, const am::Allocation& a) {
  if (a) q->deferred_frees.push_back({a, dev.submitted(am::Engine::Compute)});
}
void collect_deferred_frees(cl_command_queue q, am::Device& dev) {
  if (q->deferred_frees.empty()) return;
  const uint64_t done = dev.completed(am::Engine::Compute);
  std::erase_if(q->deferred_frees, [&](const auto& f) {
    if (f.second > done) return false;
    dev.free(f.first);
    return true;
  });
}

template <class T> void put(uint8_t* base, size_t off, T v) {
  std::memcpy(base + off, &v, sizeof v);
}

// CL_DEVICE_PRINTF_BUFFER_SIZE: what one kernel may print.
constexpr uint64_t kPrintfBufferBytes = 1 << 20;

// Writes what the finished kernel printed to stdout, in one piece.
void print_records(cl_command_queue q, const std::vector<compiler::PrintfFormat>& formats) {
  const uint8_t* buf = q->printf_buffer.cpu;
  uint32_t used = 0;
  std::memcpy(&used, buf, 4);
  used = std::min<uint32_t>(used, uint32_t(q->printf_buffer.size - kPrintfHeaderBytes));
  const std::string text = format_printf_records(formats, {buf + kPrintfHeaderBytes, used});
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

} // namespace

ArgSnapshot::~ArgSnapshot() {
  for (cl_mem m : buffers) release(m);
  for (cl_sampler s : samplers) release(s);
}

Launch::Launch(const Launch& o)
    : kernel(o.kernel), dims(o.dims), empty(o.empty), ring_bytes(o.ring_bytes), args(o.args) {
  std::memcpy(global, o.global, sizeof global);
  std::memcpy(local, o.local, sizeof local);
  std::memcpy(offset, o.offset, sizeof offset);
  retain(kernel);
}

void Launch::reset() {
  args.reset(); // the buffers go before the kernel
  if (kernel) release(kernel);
  kernel = nullptr;
}

namespace {

// The kernel's current arguments as a snapshot: the one an earlier launch made, while it is
// alive and clSetKernelArg has not been called since, or a new one.
std::shared_ptr<const ArgSnapshot> snapshot_args(cl_kernel k) {
  std::lock_guard lock(k->snapshot_mutex);
  if (auto shared = k->snapshot.lock()) return shared;
  const compiler::KernelInfo& info = *k->info;
  auto snap = std::make_shared<ArgSnapshot>();
  snap->values = k->arg_values;
  snap->local_sizes = k->local_sizes;
  snap->svm = k->arg_svm;
  for (const compiler::KernelArg& a : info.args)
    snap->prints |= a.kind == compiler::ArgKind::HiddenPrintfBuffer;
  for (size_t i = 0; i < k->explicit_args.size(); ++i) {
    const compiler::ArgKind kind = info.args[k->explicit_args[i]].kind;
    if (kind == compiler::ArgKind::Sampler) {
      cl_sampler s;
      std::memcpy(&s, snap->values[i].data(), sizeof s);
      if (!valid(s)) throw ClError{CL_INVALID_KERNEL_ARGS, "a sampler argument was released"};
      retain(s);
      snap->samplers.push_back(s);
      continue;
    }
    if ((kind != compiler::ArgKind::GlobalBuffer && kind != compiler::ArgKind::Image) ||
        snap->svm[i])
      continue;
    cl_mem m;
    std::memcpy(&m, snap->values[i].data(), sizeof m);
    if (!m) continue;
    // Kernels do not hold their buffer arguments: one released since clSetKernelArg is a stale
    // handle, whose memory may already hold another object (the arena reuses it).
    if (!valid(m) || (kind == compiler::ArgKind::Image) != bool(m->image))
      throw ClError{CL_INVALID_KERNEL_ARGS, "a buffer argument was released"};
    retain(m);
    snap->buffers.push_back(m);
  }
  k->snapshot = snap;
  return snap;
}

// Where a __local argument's memory starts when the work-group's LDS is used up to `end`:
// aligned to its pointee type (a long16* to 128 bytes: the CTS's
// kernel_memory_alignment_local), and to at least 16.
uint64_t local_arg_offset(uint64_t end, const compiler::KernelArg& a) {
  const uint64_t align = std::max<uint64_t>(16, a.pointee_align);
  return (end + align - 1) & ~(align - 1);
}

} // namespace

Launch prepare_launch(cl_kernel k, cl_device_id device, cl_uint dims, const size_t* offset,
                      const size_t* global, const size_t* local) {
  // The kernel as compiled for this device (its limits and attributes may differ by target).
  const compiler::KernelInfo* for_device = k->info_for(device);
  if (!for_device) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, "no executable for this device"};
  const compiler::KernelInfo& info = *for_device;
  if (dims < 1 || dims > 3) throw ClError{CL_INVALID_WORK_DIMENSION, ""};
  for (size_t i = 0; i < k->arg_set.size(); ++i)
    if (!k->arg_set[i]) throw ClError{CL_INVALID_KERNEL_ARGS, ""};
  Launch L;
  // No global size, or a zero in one of its dimensions: the command "trivially succeeds"
  // once its waits are done (OpenCL 2.1 and later; an error before).
  L.empty = !global || std::any_of(global, global + dims, [](size_t v) { return v == 0; });
  if (L.empty) return L;
  size_t* g = L.global;
  size_t* l = L.local;
  size_t* o = L.offset;
  for (cl_uint i = 0; i < dims; ++i) {
    g[i] = global[i];
    if (offset) o[i] = offset[i];
    // The largest global id, offset + size - 1, must fit a size_t.
    if (o[i] > ~size_t(0) - g[i] + 1) throw ClError{CL_INVALID_GLOBAL_OFFSET, ""};
  }
  const bool reqd = info.reqd_workgroup_size[0] != 0;
  if (local) {
    for (cl_uint i = 0; i < dims; ++i) {
      if (local[i] == 0 || local[i] > 1024) throw ClError{CL_INVALID_WORK_ITEM_SIZE, ""};
      l[i] = local[i];
      // Kernels of OpenCL C < 2.0 or built with -cl-uniform-work-group-size need whole
      // work-groups; the others may end each dimension with a partial one (OpenCL 3.0 §5.10).
      if (g[i] % l[i] && info.uniform_work_group_size)
        throw ClError{CL_INVALID_WORK_GROUP_SIZE, ""};
    }
    for (cl_uint i = 0; reqd && i < 3; ++i)
      if (l[i] != info.reqd_workgroup_size[i]) throw ClError{CL_INVALID_WORK_GROUP_SIZE, ""};
  } else if (reqd) {
    // reqd_work_group_size decides; it must then fit the NDRange like an explicit size.
    for (cl_uint i = 0; i < 3; ++i) {
      l[i] = info.reqd_workgroup_size[i];
      if ((i >= dims && l[i] != 1) || (g[i] % l[i] && info.uniform_work_group_size))
        throw ClError{CL_INVALID_WORK_GROUP_SIZE, ""};
    }
  } else {
    // Up to 256 work-items, whole groups, spread over the dimensions (local_size.h).
    choose_local_size(dims, g, std::min<size_t>(256, info.max_flat_workgroup_size), l);
  }
  if (l[0] * l[1] * l[2] > info.max_flat_workgroup_size)
    throw ClError{CL_INVALID_WORK_GROUP_SIZE, ""};
  for (int i = 0; i < 3; ++i)
    if ((g[i] + l[i] - 1) / l[i] > 0xffffffffull) throw ClError{CL_INVALID_GLOBAL_WORK_SIZE, ""};

  L.kernel = k;
  retain(k);
  L.dims = dims;
  // The arguments as they are now: later clSetKernelArg calls do not change this launch, and
  // the buffers it uses stay alive until it has run.
  L.args = snapshot_args(k);
  // The work-group's local memory, static and from __local arguments, as submit_launch lays
  // it out: more than the device has cannot run.
  uint64_t lds = info.group_segment_size;
  for (size_t i = 0; i < k->explicit_args.size(); ++i)
    if (const compiler::KernelArg& a = info.args[k->explicit_args[i]];
        a.kind == compiler::ArgKind::DynamicSharedPointer)
      lds = local_arg_offset(lds, a) + L.args->local_sizes[i];
  if (lds > kLocalMemoryBytes) throw ClError{CL_OUT_OF_RESOURCES, "local memory exceeds 64 KiB"};
  L.ring_bytes = uint32_t((kKernargOffset + info.kernarg_size + kSlotAlign - 1) / kSlotAlign *
                          kSlotAlign);
  if (L.ring_bytes > kMaxKernargSlotBytes)
    throw ClError{CL_OUT_OF_RESOURCES, "kernel arguments too large"};
  return L;
}

bool kernarg_room(cl_command_queue q, size_t batched, uint64_t batched_bytes, uint64_t bytes) {
  if (q->in_flight.size() + batched >= kDispatchesInFlight) return false;
  // Live slots span from the oldest dispatch in flight to the head. The batch wraps past the
  // ring's end at most once, wasting less than one slot there.
  const uint64_t live =
      q->in_flight.empty() ? 0 : q->kernarg_head - q->in_flight.front().at.kernarg_start;
  return live + batched_bytes + bytes + kMaxKernargSlotBytes <= kKernargRingBytes;
}

_cl_command_queue::Submitted submit_launch(cl_command_queue q, const Launch& L, bool more_follow,
                                           bool own_slot) {
  cl_kernel k = L.kernel;
  const compiler::KernelInfo& info = *k->info_for(q->device); // prepare_launch checked it exists
  const size_t* g = L.global;
  const size_t* l = L.local;
  const size_t* o = L.offset;
  const cl_uint dims = L.dims;
  am::Device& dev = *q->device->am;
  collect_deferred_frees(q, dev);
  if (!q->kernargs) q->kernargs = dev.alloc_vram(kKernargRingBytes + kMaxKernargSlotBytes);
  // The slot follows the last one in the ring; one that would run past the ring's end starts
  // at its beginning instead (the scheduler keeps the ring from overtaking live slots). A
  // launch run to completion as host work takes the slot past the ring's end: it may run while
  // the ring is full (out of order), and nothing else of the queue runs meanwhile.
  const uint64_t bytes = L.ring_bytes;
  uint64_t start = q->kernarg_head;
  if (start % kKernargRingBytes + bytes > kKernargRingBytes)
    start += kKernargRingBytes - start % kKernargRingBytes;
  const uint64_t slot = own_slot ? kKernargRingBytes : start % kKernargRingBytes;
  uint8_t* base = q->kernargs.cpu + slot;
  std::memset(base, 0, kKernargOffset + info.kernarg_size);
  uint8_t* args = base + kKernargOffset;

  // Dynamic LDS for __local arguments follows the kernel's static LDS.
  uint32_t lds = info.group_segment_size;
  for (size_t i = 0; i < k->explicit_args.size(); ++i) {
    const compiler::KernelArg& a = info.args[k->explicit_args[i]];
    switch (a.kind) {
    case compiler::ArgKind::DynamicSharedPointer:
      lds = uint32_t(local_arg_offset(lds, a));
      put<uint32_t>(args, a.offset, lds);
      lds += uint32_t(L.args->local_sizes[i]);
      break;
    case compiler::ArgKind::GlobalBuffer: {
      if (L.args->svm[i]) { // the host address is the GPU address (runtime/svm.h)
        std::memcpy(args + a.offset, L.args->values[i].data(), sizeof(uint64_t));
        break;
      }
      cl_mem m;
      std::memcpy(&m, L.args->values[i].data(), sizeof m);
      put<uint64_t>(args, a.offset, m ? m->va() : 0);
      break;
    }
    case compiler::ArgKind::Image: { // the descriptor block for this card (image_abi.h)
      cl_mem m;
      std::memcpy(&m, L.args->values[i].data(), sizeof m);
      put<uint64_t>(args, a.offset, image_block_va(m, q->device));
      break;
    }
    case compiler::ArgKind::Sampler: {
      cl_sampler s;
      std::memcpy(&s, L.args->values[i].data(), sizeof s);
      put<uint64_t>(args, a.offset, sampler_block_va(s, q->device));
      break;
    }
    default:
      std::memcpy(args + a.offset, L.args->values[i].data(),
                  std::min<size_t>(a.size, L.args->values[i].size()));
    }
  }
  if (lds > kLocalMemoryBytes) throw ClError{CL_OUT_OF_RESOURCES, "local memory exceeds 64 KiB"};
  // Hidden arguments (code object v5).
  for (const compiler::KernelArg& a : info.args) {
    const int d = a.dim;
    switch (a.kind) {
    case compiler::ArgKind::HiddenBlockCount:
      put<uint32_t>(args, a.offset, uint32_t(g[d] / l[d]));
      break;
    case compiler::ArgKind::HiddenGroupSize:
      put<uint16_t>(args, a.offset, uint16_t(l[d]));
      break;
    case compiler::ArgKind::HiddenRemainder:
      put<uint16_t>(args, a.offset, uint16_t(g[d] % l[d]));
      break;
    case compiler::ArgKind::HiddenGlobalOffset:
      put<uint64_t>(args, a.offset, uint64_t(o[d]));
      break;
    case compiler::ArgKind::HiddenGridDims:
      put<uint16_t>(args, a.offset, uint16_t(dims));
      break;
    case compiler::ArgKind::HiddenPrintfBuffer:
      if (!q->printf_buffer) {
        q->printf_buffer = dev.alloc_system(kPrintfBufferBytes);
        std::memset(q->printf_buffer.cpu, 0, q->printf_buffer.size);
      } else {
        // The lowering reserves a string argument's bytes up to its size but writes only the
        // dwords the string covers, so what an earlier kernel left would show through
        // (printf("%s", "\"%%\"") printed an earlier record's tail): clear what it used.
        uint32_t used = 0;
        std::memcpy(&used, q->printf_buffer.cpu, 4);
        used = std::min<uint32_t>(used, uint32_t(q->printf_buffer.size - kPrintfHeaderBytes));
        std::memset(q->printf_buffer.cpu + kPrintfHeaderBytes, 0, used);
      }
      put<uint32_t>(q->printf_buffer.cpu, 0, 0);
      put<uint32_t>(q->printf_buffer.cpu, 4, uint32_t(q->printf_buffer.size - kPrintfHeaderBytes));
      put<uint64_t>(args, a.offset, q->printf_buffer.va);
      break;
    default:
      break; // heap, queues...: left zero, not provided yet
    }
  }

  const uint64_t kernarg_va = q->kernargs.va + slot + kKernargOffset;
  const uint64_t packet_va = q->kernargs.va + slot + kPacketOffset;
  const uint64_t kd_va = k->loaded_for(q->device)->image.va + info.descriptor_offset;
  const uint64_t code_va = kd_va + uint64_t(info.entry_offset);
  // hsa_kernel_dispatch_packet_t, for kernels that read their dispatch pointer.
  put<uint16_t>(base, 2, uint16_t(dims));
  for (int i = 0; i < 3; ++i) put<uint16_t>(base, 4 + 2 * i, uint16_t(l[i]));
  for (int i = 0; i < 3; ++i) put<uint32_t>(base, 12 + 4 * i, uint32_t(g[i]));
  put<uint32_t>(base, 28, lds);
  put<uint64_t>(base, 32, kd_va);
  put<uint64_t>(base, 40, kernarg_va);

  // User SGPRs in the order AMDGPUUsage defines them.
  uint32_t user[16] = {};
  unsigned n = 0;
  auto push64 = [&](uint64_t v) { user[n++] = uint32_t(v), user[n++] = uint32_t(v >> 32); };
  if (info.uses_private_segment_buffer()) n += 4;
  if (info.uses_dispatch_ptr()) push64(packet_va);
  if (info.uses_queue_ptr()) push64(0);
  if (info.uses_kernarg_ptr()) push64(kernarg_va);
  if (info.uses_dispatch_id()) push64(0);
  if (info.uses_flat_scratch_init()) push64(0);
  if (info.uses_private_segment_size()) user[n++] = 0;

  uint32_t rsrc2 = info.rsrc2 & ~(0x1ffu << 15);
  rsrc2 |= ((lds + 511) / 512) << 15; // LDS_SIZE in 512-byte granules

  am::Pm4Builder pm4;
  // The registers the kernel and its work-group shape set: left off the ring when the ring's
  // last dispatch set the same (am::Device::submit_compute), as with a kernel enqueued again.
  am::Pm4Builder state;
  // Dispatches follow each other on the ring without the host waiting in between; the CP must
  // not start this one while the previous one still runs (an in-order queue). Then the data
  // caches are invalidated, so this one reads what the previous one wrote: the wait before the
  // invalidation, as radv's gfx10_cs_emit_cache_flush orders CS_PARTIAL_FLUSH and ACQUIRE_MEM.
  // (The instruction cache is the driver's: am::Device::note_code_written.)
  pm4.cs_partial_flush();
  pm4.acquire_mem_data();
  // Profiling: the GPU clock once the dispatches before have finished, and at end of pipe.
  const bool profiled = q->properties & CL_QUEUE_PROFILING_ENABLE;
  const uint64_t times_va = q->kernargs.va + slot + kTimesOffset;
  if (profiled) pm4.copy_data_to_mem(am::hw::pm4::COPY_DATA_TIMESTAMP, 0, times_va, true);
  if (rsrc2_scratch_en(info.rsrc2)) {
    // Private memory: one slot per wave the hardware may run at once; each slot holds the
    // private segment of the wave's 32 lanes. WAVES counts one shader engine's slots since
    // gfx11 (Mesa ac_get_scratch_tmpring_size, tinygrad ops_amd.py _ensure_has_local_memory),
    // each engine's after the one before: the buffer holds WAVES x engines.
    const uint64_t wave_bytes = std::max<uint64_t>(
        kScratchWaveGranule,
        (uint64_t(info.private_segment_size) * info.wavefront_size + kScratchWaveGranule - 1) /
            kScratchWaveGranule * kScratchWaveGranule);
    const bool gfx12 = dev.info().gfx.starts_with("gfx12");
    if (wave_bytes > uint64_t(tmpring_wavesize_max(gfx12)) * kScratchWaveGranule)
      throw ClError{CL_OUT_OF_RESOURCES, "private memory per work-item too large"};
    const uint64_t engines = std::max(1u, dev.info().shader_engines);
    uint64_t waves = std::min<uint64_t>(uint64_t(dev.info().compute_units) * 32,
                                        (256ull << 20) / wave_bytes) / engines;
    waves = std::max<uint64_t>(32, std::min<uint64_t>(waves, 0xfff)); // per engine
    if (q->scratch.size < waves * engines * wave_bytes) {
      free_after_submitted(q, dev, q->scratch);
      q->scratch = {};
      q->scratch = dev.alloc_vram_gpu(waves * engines * wave_bytes); // only waves touch it
    }
    state.set_sh_regs(regCOMPUTE_DISPATCH_SCRATCH_BASE_LO,
                      {uint32_t(q->scratch.va >> 8), uint32_t(q->scratch.va >> 40)});
    state.set_sh_regs(regCOMPUTE_TMPRING_SIZE,
                      {tmpring_size(uint32_t(waves), uint32_t(wave_bytes), gfx12)});
  }
  state.set_sh_regs(regCOMPUTE_PGM_LO, {uint32_t(code_va >> 8), uint32_t(code_va >> 40)});
  state.set_sh_regs(regCOMPUTE_PGM_RSRC1, {info.rsrc1, rsrc2});
  state.set_sh_regs(regCOMPUTE_PGM_RSRC3, {info.rsrc3});
  // A dimension that does not divide evenly ends with a partial work-group of the remainder.
  // START_X..Z and NUM_THREAD_X..Z are consecutive registers: one packet.
  uint32_t start_and_threads[6] = {0, 0, 0}, groups[3];
  bool partial = false;
  for (int i = 0; i < 3; ++i) {
    const size_t rest = g[i] % l[i];
    partial |= rest != 0;
    start_and_threads[3 + i] = num_thread(uint32_t(l[i]), uint32_t(rest ? rest : l[i]));
    groups[i] = uint32_t((g[i] + l[i] - 1) / l[i]);
  }
  static_assert(regCOMPUTE_NUM_THREAD_X == regCOMPUTE_START_X + 3);
  state.set_sh_regs(regCOMPUTE_START_X, start_and_threads, 6);
  // The user SGPRs the wave is given (COMPUTE_PGM_RSRC2.USER_SGPR), as radv sets them: the
  // rest of the 16 registers are never read.
  if (const uint32_t count = std::min(16u, rsrc2_user_sgpr(info.rsrc2)))
    pm4.set_sh_regs(regCOMPUTE_USER_DATA_0, user, count);
  uint32_t initiator = DISPATCH_COMPUTE_SHADER_EN | DISPATCH_FORCE_START_AT_000;
  if (info.wavefront_size == 32) initiator |= DISPATCH_CS_W32_EN;
  if (partial) initiator |= DISPATCH_PARTIAL_TG_EN;
  pm4.dispatch_direct(groups[0], groups[1], groups[2], initiator);
  if (profiled) pm4.release_mem_timestamp(times_va + 8);
  const uint64_t done = dev.submit_compute(pm4, more_follow, &state);
  if (!own_slot) q->kernarg_head = start + bytes; // taken once the dispatch is on the ring
  return {done, profiled ? reinterpret_cast<const uint64_t*>(base + kTimesOffset) : nullptr,
          start};
}

void run_launch(cl_command_queue q, const Launch& L) {
  q->device->am->wait(am::Engine::Compute, submit_launch(q, L, false, true).done);
  if (L.prints()) print_records(q, L.kernel->loaded_for(q->device)->code.printf_formats);
}

cl_event enqueue_ndrange(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* offset,
                         const size_t* global, const size_t* local, const cl_event* waits,
                         cl_uint nwait, bool want_event) {
  Launch launch = prepare_launch(k, q->device, dims, offset, global, local);
  if (launch.empty) return enqueue(q, CL_COMMAND_NDRANGE_KERNEL, waits, nwait, nullptr, false);
  if (launch.prints()) // its output is written once it has finished: run it to completion
    return enqueue(q, CL_COMMAND_NDRANGE_KERNEL, waits, nwait,
                   [q, launch = std::move(launch)] { run_launch(q, launch); }, false);
  return enqueue_dispatch(q, CL_COMMAND_NDRANGE_KERNEL, waits, nwait, std::move(launch),
                          want_event);
}

} // namespace amcl::rt
