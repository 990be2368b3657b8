#include "mec.h"

#include "am/hw/pm4.h"
#include "am/hw/pm4_gcr.h"
#include "am/hw/sh_regs.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <time.h>

namespace sim {
namespace {

using namespace am::hw;

struct PacketError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

} // namespace

void Mec::activate(const HqdState& hqd) {
  forget_doorbell(); // before the queue is live again
  std::lock_guard lock(ring_mutex_);
  hqd_ = hqd;
  // What a queue's COMPUTE_* registers hold once it is made active again is nothing a driver
  // may count on (hardware restores them from the MQD it maps): the model clears them, so a
  // driver that keeps dispatch state across a queue reset dispatches from address 0, loudly.
  std::fill(std::begin(sh_regs_), std::end(sh_regs_), 0u);
  rptr_ = 0;
  last_wptr_ = 0;
  abort_ = false;
  clear_halt();
  active_ = true;
}

void Mec::deactivate() {
  abort_ = true;
  std::lock_guard lock(ring_mutex_);
  active_ = false;
}

void Mec::process(uint64_t wptr) {
  std::lock_guard lock(ring_mutex_);
  if (!active_ || stale_doorbell()) return;
  last_wptr_.store(wptr, std::memory_order_release);
  fetched_from_ = fetched_to_ = 0; // the ring may have been rewritten since the last doorbell
  // The read pointer goes back to memory before a packet that may take long (a dispatch, a
  // wait) and once caught up, rather than after every packet: the driver reads it only for
  // room on the ring.
  uint64_t reported = ~uint64_t(0);
  auto report_rptr = [&] {
    if (hqd_.rptr_report_va && reported != rptr_) {
      reported = rptr_;
      dev_.gmc().store32(hqd_.rptr_report_va, uint32_t(rptr_ % hqd_.ring_dwords));
    }
  };
  try {
    // abort_: a deactivation is waiting for this loop; nothing after the interrupted packet runs.
    // The pipe stopping (CP_MEC_RS64_CNTL, written by a packet of this very ring) ends the
    // fetch too; it goes on from rptr once the pipe runs again.
    while (rptr_ < wptr && !halted() && active_ && !abort_ && dev_.mec_pipe0_runs()) {
      const uint64_t at = rptr_.load(std::memory_order_relaxed);
      const uint32_t header = *ring_dwords(at, 1, wptr);
      uint32_t type = pm4::header_type(header);
      if (type == 2) { // one-dword filler
        advance(1);
        continue;
      }
      if (type != 3) throw PacketError("PM4 type-" + std::to_string(type) + " packet " + hex(header));
      uint32_t count = pm4::header_count(header);
      if (rptr_ + 1 + count > wptr) throw PacketError("packet runs past the write pointer");
      const uint32_t opcode = pm4::header_opcode(header);
      if (opcode == pm4::DISPATCH_DIRECT || opcode == pm4::DISPATCH_INDIRECT ||
          opcode == pm4::WAIT_REG_MEM || opcode == pm4::INDIRECT_BUFFER)
        report_rptr();
      const uint32_t* body = ring_dwords(at + 1, count, wptr);
      try {
        execute(header, std::span<const uint32_t>(body, count));
      } catch (const shader::MemoryFault& e) {
        // A packet's own memory access (WRITE_DATA, RELEASE_MEM, COPY_DATA...) that does not
        // translate: the VM fault is raised and the access dropped; the CP goes on with the
        // next packet. (A fault fetching the ring itself stops the queue below.)
        dev_.report_vm_fault(e.address, e.write, e.what());
      }
      advance(1 + count);
    }
    report_rptr();
  } catch (const PacketError& e) {
    report_rptr();
    // A packet the CP cannot execute: report CP_BAD_OPCODE and stop, as the MEC does.
    am::hw::ih::IvEntry iv;
    iv.client_id = am::hw::ih::CLIENTID_GRBM_CP;
    iv.source_id = am::hw::ih::SRCID_CP_BAD_OPCODE;
    iv.ring_id = am::hw::ih::cp_ring_id(1, 0, 0);
    iv.timestamp = dev_.gpu_clock();
    dev_.post_interrupt(iv);
    halt(std::string(e.what()) + " at ring dword " + std::to_string(rptr_));
  } catch (const shader::MemoryFault& e) {
    dev_.report_vm_fault(e.address, e.write, e.what());
    halt(e.what());
  }
}

// The CP fetches the ring ahead in blocks (at most two reads where the ring wraps), not one
// translated read per packet: fetch_ holds ring dwords [fetched_from_, fetched_to_).
void Mec::refill(uint64_t index, uint64_t count, uint64_t wptr) {
  const uint64_t n = std::min(wptr - index, std::max(count, kFetchDwords));
  fetch_.resize(n);
  const uint64_t at = index % hqd_.ring_dwords;
  const uint64_t first = std::min<uint64_t>(n, hqd_.ring_dwords - at);
  auto& gmc = dev_.gmc();
  if (first) gmc.read(hqd_.ring_va + 4 * at, fetch_.data(), 4 * first);
  if (n > first) gmc.read(hqd_.ring_va, fetch_.data() + first, 4 * (n - first));
  fetched_from_ = index;
  fetched_to_ = index + n;
}

void Mec::write_mem(uint64_t va, const void* data, size_t len) { dev_.gmc().write(va, data, len); }

void Mec::execute(uint32_t header, std::span<const uint32_t> body) {
  switch (pm4::header_opcode(header)) {
  case pm4::NOP: return;
  case pm4::SET_SH_REG: return set_sh_reg(body);
  case pm4::DISPATCH_DIRECT: return dispatch_direct(body);
  case pm4::DISPATCH_INDIRECT: return dispatch_indirect(body);
  case pm4::INDIRECT_BUFFER: return indirect_buffer(body);
  case pm4::WAIT_REG_MEM: return wait_reg_mem(body);
  case pm4::COPY_DATA: return copy_data(body);
  case pm4::SET_UCONFIG_REG: return set_uconfig_reg(body);
  case pm4::RELEASE_MEM: return release_mem(body);
  case pm4::WRITE_DATA: return write_data(body);
  case pm4::ACQUIRE_MEM: return acquire_mem(body);
  case pm4::EVENT_WRITE: return event_write(body);
  default:
    throw PacketError("unknown PM4 opcode " + hex(pm4::header_opcode(header)) + " (header " +
                      hex(header) + ")");
  }
}

// Runs the packets of an indirect buffer (VMID 0), then returns to the ring. An IB inside an IB
// is a second level the compute CP does not have; CHAIN (continue in another IB instead of
// returning) is not modelled.
void Mec::indirect_buffer(std::span<const uint32_t> body) {
  if (body.size() != 3) throw PacketError("INDIRECT_BUFFER needs 3 dwords");
  if (in_ib_) throw PacketError("INDIRECT_BUFFER inside an indirect buffer");
  const uint32_t control = body[2];
  if (!(control & pm4::INDIRECT_BUFFER_VALID)) throw PacketError("INDIRECT_BUFFER without VALID");
  if (control & pm4::INDIRECT_BUFFER_CHAIN) throw PacketError("chained INDIRECT_BUFFER is not modelled");
  if ((control >> 24) & 0xf) throw PacketError("INDIRECT_BUFFER for a VMID other than 0");
  const uint64_t va = uint64_t(body[0] & ~3u) | (uint64_t(body[1] & 0xffff) << 32);
  std::vector<uint32_t> ib(pm4::indirect_buffer_size(control));
  dev_.gmc().read(va, ib.data(), ib.size() * 4);
  in_ib_ = true;
  struct Leave {
    bool& flag;
    ~Leave() { flag = false; }
  } leave{in_ib_};
  for (size_t at = 0; at < ib.size() && !abort_;) {
    const uint32_t header = ib[at];
    if (pm4::header_type(header) == 2) {
      ++at;
      continue;
    }
    if (pm4::header_type(header) != 3) throw PacketError("PM4 type-" + std::to_string(pm4::header_type(header)) + " packet in an IB");
    const uint32_t count = pm4::header_count(header);
    if (at + 1 + count > ib.size()) throw PacketError("packet runs past the end of the IB");
    execute(header, std::span<const uint32_t>(ib).subspan(at + 1, count));
    at += 1 + count;
  }
}

// Stalls the queue until a dword in memory or a register, masked, compares true with the
// reference (soc15d.h WAIT_REG_MEM_FUNCTION: always, <, <=, ==, !=, >=, >). A queue reset
// (deactivate) ends the wait.
// EVENT_WRITE: the model runs each dispatch to completion before the next packet, so a
// CS_PARTIAL_FLUSH (wait for earlier dispatches) holds already. Other events (cache flushes
// with timestamps, pipeline stats...) are not modelled and stop the queue.
void Mec::event_write(std::span<const uint32_t> body) {
  if (body.empty()) throw PacketError("EVENT_WRITE without an event dword");
  const uint32_t type = pm4::event_write_type(body[0]);
  if (type != pm4::CS_PARTIAL_FLUSH)
    throw PacketError("EVENT_WRITE event type " + hex(type) + " is not modelled");
  if (pm4::event_write_index(body[0]) != pm4::kEventIndexCsPartialFlush || body.size() != 1)
    throw PacketError("EVENT_WRITE CS_PARTIAL_FLUSH needs EVENT_INDEX 4 and one dword");
}

void Mec::wait_reg_mem(std::span<const uint32_t> body) {
  if (body.size() != 6) throw PacketError("WAIT_REG_MEM needs 6 dwords");
  const uint32_t func = body[0] & 7;
  const bool memory = body[0] & pm4::WAIT_REG_MEM_MEM_SPACE;
  if (func > pm4::WAIT_GT) throw PacketError("WAIT_REG_MEM compare function " + std::to_string(func));
  if ((body[0] >> 6) & 3) throw PacketError("WAIT_REG_MEM write-wait-write operation is not modelled");
  const uint64_t va = uint64_t(body[1]) | (uint64_t(body[2]) << 32);
  if (memory && (va & 3)) throw PacketError("WAIT_REG_MEM address " + hex(va) + " not dword aligned");
  const uint32_t reference = body[3], mask = body[4];
  auto value = [&] {
    if (!memory) return dev_.reg_read(body[1]) & mask;
    uint32_t v;
    dev_.gmc().read(va, &v, 4);
    return v & mask;
  };
  auto satisfied = [&](uint32_t v) {
    switch (func) {
    case pm4::WAIT_ALWAYS: return true;
    case pm4::WAIT_LT: return v < reference;
    case pm4::WAIT_LE: return v <= reference;
    case pm4::WAIT_EQ: return v == reference;
    case pm4::WAIT_NE: return v != reference;
    case pm4::WAIT_GE: return v >= reference;
    default: return v > reference;
    }
  };
  while (!satisfied(value())) {
    if (abort_) return;
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

// COPY_DATA from a register, memory, an immediate or the GPU clock to memory or a register.
void Mec::copy_data(std::span<const uint32_t> body) {
  if (body.size() != 5) throw PacketError("COPY_DATA needs 5 dwords");
  const uint32_t src_sel = body[0] & 0xf, dst_sel = (body[0] >> 8) & 0xf;
  const bool wide = body[0] & pm4::COPY_DATA_COUNT_SEL;
  const uint64_t src = uint64_t(body[1]) | (uint64_t(body[2]) << 32);
  const uint64_t dst = uint64_t(body[3]) | (uint64_t(body[4]) << 32);
  uint64_t v = 0;
  switch (src_sel) {
  case pm4::COPY_DATA_REG:
    v = dev_.reg_read(body[1]) | (wide ? uint64_t(dev_.reg_read(body[1] + 1)) << 32 : 0);
    break;
  case pm4::COPY_DATA_MEM:
    if (src & (wide ? 7 : 3)) throw PacketError("COPY_DATA source " + hex(src) + " misaligned");
    dev_.gmc().read(src, &v, wide ? 8 : 4);
    break;
  case pm4::COPY_DATA_IMM: v = wide ? src : body[1]; break;
  case pm4::COPY_DATA_TIMESTAMP: v = dev_.gpu_clock(); break;
  default: throw PacketError("COPY_DATA source select " + std::to_string(src_sel) + " not modelled");
  }
  if (dst_sel == pm4::COPY_DATA_DST_MEM) {
    if (dst & (wide ? 7 : 3)) throw PacketError("COPY_DATA destination " + hex(dst) + " misaligned");
    write_mem(dst, &v, wide ? 8 : 4);
  } else if (dst_sel == pm4::COPY_DATA_REG) {
    dev_.reg_write(body[3], uint32_t(v));
    if (wide) dev_.reg_write(body[3] + 1, uint32_t(v >> 32));
  } else {
    throw PacketError("COPY_DATA destination select " + std::to_string(dst_sel) + " not modelled");
  }
}

void Mec::set_uconfig_reg(std::span<const uint32_t> body) {
  if (body.empty()) throw PacketError("SET_UCONFIG_REG without a register offset");
  const uint32_t first = pm4::kUconfigRegStart + (body[0] & 0xffff);
  if (first + body.size() - 1 > pm4::kUconfigRegEnd)
    throw PacketError("SET_UCONFIG_REG beyond the UCONFIG window");
  for (size_t i = 1; i < body.size(); ++i) dev_.reg_write(first + uint32_t(i - 1), body[i]);
}

void Mec::set_sh_reg(std::span<const uint32_t> body) {
  if (body.empty()) throw PacketError("SET_SH_REG without a register offset");
  const uint32_t first = body[0] & 0xffff;
  const size_t count = body.size() - 1;
  // Checked once for the run, not per register: six of these come with every dispatch.
  if (first + count > std::size(sh_regs_))
    throw PacketError("SET_SH_REG offset " + hex(std::max<uint64_t>(first, std::size(sh_regs_))) +
                      " outside the SH window");
  std::copy_n(body.data() + 1, count, sh_regs_ + first);
}

void Mec::dispatch_direct(std::span<const uint32_t> body) {
  if (body.size() != 4) throw PacketError("DISPATCH_DIRECT needs 4 dwords");
  dispatch({body[0], body[1], body[2]}, body[3]);
}

// On a compute queue DISPATCH_INDIRECT carries the address of the three work-group counts
// (Mesa radv: PKT3_DISPATCH_INDIRECT with a 64-bit address on compute rings).
void Mec::dispatch_indirect(std::span<const uint32_t> body) {
  if (body.size() != 3) throw PacketError("DISPATCH_INDIRECT needs 3 dwords");
  const uint64_t va = uint64_t(body[0]) | (uint64_t(body[1]) << 32);
  if (va & 3) throw PacketError("DISPATCH_INDIRECT address " + hex(va) + " not dword aligned");
  std::array<uint32_t, 3> grid;
  dev_.gmc().read(va, grid.data(), sizeof grid);
  dispatch(grid, body[2]);
}

void Mec::dispatch(std::array<uint32_t, 3> grid, uint32_t initiator) {
  auto sh = [&](uint32_t reg) { return sh_regs_[reg - sh::kShRegStart]; };
  if (!(initiator & sh::DISPATCH_COMPUTE_SHADER_EN))
    throw PacketError("DISPATCH_DIRECT without COMPUTE_SHADER_EN");
  shader::LaunchState L;
  L.pgm_addr = (uint64_t(sh(sh::regCOMPUTE_PGM_LO)) | (uint64_t(sh(sh::regCOMPUTE_PGM_HI)) << 32)) << 8;
  L.rsrc1 = sh(sh::regCOMPUTE_PGM_RSRC1);
  L.rsrc2 = sh(sh::regCOMPUTE_PGM_RSRC2);
  L.rsrc3 = sh(sh::regCOMPUTE_PGM_RSRC3);
  for (unsigned i = 0; i < 16; ++i) L.user_data[i] = sh(sh::regCOMPUTE_USER_DATA_0 + i);
  const bool partial = initiator & sh::DISPATCH_PARTIAL_TG_EN;
  for (unsigned i = 0; i < 3; ++i) {
    const uint32_t num_thread = sh(sh::regCOMPUTE_NUM_THREAD_X + i);
    L.group_size[i] = sh::num_thread_full(num_thread);
    L.last_group_size[i] = partial ? sh::num_thread_partial(num_thread) : L.group_size[i];
    if (partial && (L.last_group_size[i] == 0 || L.last_group_size[i] > L.group_size[i]))
      throw PacketError("PARTIAL_TG_EN with NUM_THREAD_PARTIAL " +
                        std::to_string(L.last_group_size[i]) + " for a group of " +
                        std::to_string(L.group_size[i]));
    L.start[i] = sh(sh::regCOMPUTE_START_X + i);
    L.grid_groups[i] = grid[i];
  }
  L.wave32 = initiator & sh::DISPATCH_CS_W32_EN;
  L.scratch_base = (uint64_t(sh(sh::regCOMPUTE_DISPATCH_SCRATCH_BASE_LO)) |
                    (uint64_t(sh(sh::regCOMPUTE_DISPATCH_SCRATCH_BASE_HI)) << 32)) << 8;
  L.tmpring_size = sh(sh::regCOMPUTE_TMPRING_SIZE);
  // The compute queue runs in VMID 0 (the driver's kernel queue).
  const uint32_t bases = dev_.sh_mem_bases(0);
  L.private_aperture = uint64_t(bases & 0xffff) << 48;
  L.gfx = dev_.shader_isa();
  L.shader_engines = dev_.shader_engines();
  L.shared_aperture = uint64_t(bases >> 16) << 48;
  L.alignment_mode = am::hw::sh_mem_alignment_mode(dev_.sh_mem_config(0));
  if (initiator & sh::DISPATCH_USE_THREAD_DIMENSIONS)
    throw PacketError("DISPATCH_DIRECT with USE_THREAD_DIMENSIONS is not modelled");
  if (!L.group_size[0] || !L.group_size[1] || !L.group_size[2] ||
      L.group_size[0] * L.group_size[1] * L.group_size[2] > 1024)
    throw PacketError("COMPUTE_NUM_THREAD_* describes an invalid workgroup");
  // AMCL_SIM_STATS=<file> appends one line per dispatch, for benchmarks and profiling; the
  // clock is read only then (tens of ns per read on a paravirtualised machine).
  static const char* stats = std::getenv("AMCL_SIM_STATS");
  const bool timed = stats && *stats;
  const auto t0 = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  const int64_t cpu0 = timed ? thread_cpu_ns() : 0;
  L.count_lanes = timed; // the stats line is its only reader
  shader::DispatchResult r = shader::run_dispatch(L, dev_.gmc(), workers_, &abort_, &programs_);
  ++dispatches_;
  if (timed)
    record_stats(stats, r, std::chrono::steady_clock::now() - t0,
                 std::chrono::nanoseconds(thread_cpu_ns() - cpu0));
  if (r.ok || abort_) return; // a queue reset kills waves without an interrupt
  // The waves are gone; the queue goes on with the next packet, as on hardware with
  // retry faults disabled. The driver learns of the fault from the IH ring.
  std::fprintf(stderr, "amcl sim: dispatch fault: %s\n", r.fault.c_str());
  if (r.memory_fault) {
    dev_.report_vm_fault(r.fault_address, r.fault_write, r.fault);
  } else {
    // The wave that could not go on halts with an illegal-instruction exception: an encoding
    // the model cannot decode, or an instruction (or operand) it does not execute, both what
    // the emulated SQ cannot run. Where it sat
    // is the model's choice (one shader engine and array; the host worker as its WGP, the wave
    // of the work-group spread over the WGP's four SIMDs), within HW_ID1's field widths.
    am::hw::sq::HwId1 id;
    id.wgp_id = r.fault_worker & 0xf;
    id.simd_id = r.fault_wave & 3;
    id.wave_id = (r.fault_wave >> 2) & 0x1f;
    dev_.report_wave_exception(r.wave_fault, id, r.fault_pc);
  }
}

int64_t Mec::thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void Mec::record_stats(const char* path, const shader::DispatchResult& r,
                       std::chrono::nanoseconds took, std::chrono::nanoseconds cpu) {
  if (FILE* f = std::fopen(path, "a")) {
    // cpu_ns: the MEC thread's CPU time, all of the dispatch's with AMCL_SIM_THREADS=1 (a
    // figure a loaded machine does not inflate as it does the wall time).
    std::fprintf(
        f,
        "dispatch waves=%llu instructions=%llu lane_instructions=%llu ns=%lld cpu_ns=%lld ok=%d\n",
        static_cast<unsigned long long>(r.waves), static_cast<unsigned long long>(r.instructions),
        static_cast<unsigned long long>(r.lane_instructions), static_cast<long long>(took.count()),
        static_cast<long long>(cpu.count()), r.ok ? 1 : 0);
    std::fclose(f);
  }
}

// ACQUIRE_MEM's GCR_CNTL: of the caches it names, the model has the instruction cache (the
// decoded programs, kept per code address until GLI_INV drops them). Data accesses go to memory
// directly, so the data-cache invalidations and write-backs have nothing to act on.
void Mec::acquire_mem(std::span<const uint32_t> body) {
  if (body.size() != pm4::kAcquireMemBodyDwords) throw PacketError("ACQUIRE_MEM needs 7 dwords");
  if (pm4::gcr_gli_inv(body[pm4::kAcquireMemGcrDword]) != 0) programs_.invalidate();
}

void Mec::release_mem(std::span<const uint32_t> body) {
  if (body.size() != 7) throw PacketError("RELEASE_MEM needs 7 dwords");
  const uint32_t sel = body[1];
  const uint32_t data_sel = sel >> 29, int_sel = (sel >> 24) & 7, dst_sel = (sel >> 16) & 3;
  const uint64_t addr = uint64_t(body[2]) | (uint64_t(body[3]) << 32);
  const uint64_t data = uint64_t(body[4]) | (uint64_t(body[5]) << 32);
  if (dst_sel != 0 && data_sel != pm4::DATA_SEL_NONE)
    throw PacketError("RELEASE_MEM dst_sel " + std::to_string(dst_sel) + " not modelled");
  switch (data_sel) {
  case pm4::DATA_SEL_NONE: break;
  case pm4::DATA_SEL_32: {
    if (addr & 3) throw PacketError("RELEASE_MEM 32-bit write to a misaligned address");
    dev_.gmc().store32(addr, uint32_t(data));
    break;
  }
  case pm4::DATA_SEL_64: case pm4::DATA_SEL_GPU_CLOCK: {
    if (addr & 7) throw PacketError("RELEASE_MEM 64-bit write to a misaligned address");
    dev_.gmc().store64(addr, data_sel == pm4::DATA_SEL_64 ? data : dev_.gpu_clock());
    break;
  }
  default: throw PacketError("RELEASE_MEM data_sel " + std::to_string(data_sel) + " not modelled");
  }
  if (int_sel != pm4::INT_SEL_NONE) {
    am::hw::ih::IvEntry iv;
    iv.client_id = am::hw::ih::CLIENTID_GRBM_CP;
    iv.source_id = am::hw::ih::SRCID_CP_EOP_INTERRUPT;
    iv.ring_id = am::hw::ih::cp_ring_id(1, 0, 0);
    iv.timestamp = dev_.gpu_clock();
    iv.src_data[0] = body[6]; // INT_CTXID
    dev_.post_interrupt(iv);
  }
}

void Mec::write_data(std::span<const uint32_t> body) {
  if (body.size() < 4) throw PacketError("WRITE_DATA needs at least 4 dwords");
  const uint32_t dst_sel = (body[0] >> 8) & 0xf;
  const uint64_t addr = uint64_t(body[1]) | (uint64_t(body[2]) << 32);
  if (dst_sel == pm4::WRITE_DATA_DST_MEM) {
    write_mem(addr, body.data() + 3, 4 * (body.size() - 3));
  } else if (dst_sel == pm4::WRITE_DATA_DST_REG) {
    for (size_t i = 3; i < body.size(); ++i) dev_.reg_write(uint32_t(addr + i - 3), body[i]);
  } else {
    throw PacketError("WRITE_DATA dst_sel " + std::to_string(dst_sel) + " not modelled");
  }
}

} // namespace sim
