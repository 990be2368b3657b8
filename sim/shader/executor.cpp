// The shader core's interpreter loop: fetches each instruction of a wave from its Program and
// hands it to the file of its family (salu.cpp, sopp.cpp, smem.cpp, valu.cpp, vopc.cpp,
// vop3p.cpp, vopd.cpp, cross_lane.cpp, flat.cpp, ds.cpp, atomics.cpp, buffer.cpp), running a
// wave64's vector instructions as two passes of 32 lanes (RDNA3 ISA manual, "Wave32 and Wave64").
#include "executor.h"
#include "wmma_layout.h"

#include <array>
#include <bit>
#include <cstdio>
#include <string>

namespace sim::shader {

namespace {

// Program-control instructions that only steer the hardware's scheduling (dependency hints,
// clauses, counter waits): memory is performed in program order here, so they only advance
// the pc. LLVM puts several in every short kernel (a memory-bound one: 8 of 26). Same list as
// the no-op cases of exec_sopp.
constexpr auto kSchedulingHints = [] {
  std::array<bool, size_t(Op::kCount)> t{};
  for (Op op : {Op::s_nop, Op::s_clause, Op::s_delay_alu, Op::s_waitcnt, Op::s_waitcnt_depctr,
                Op::s_set_inst_prefetch_distance, Op::s_wait_loadcnt, Op::s_wait_storecnt,
                Op::s_wait_samplecnt, Op::s_wait_bvhcnt, Op::s_wait_expcnt, Op::s_wait_dscnt,
                Op::s_wait_kmcnt, Op::s_wait_loadcnt_dscnt, Op::s_wait_storecnt_dscnt})
    t[size_t(op)] = true;
  return t;
}();

} // namespace

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

void instruction_fault(const Wave& w, const Inst& in, const std::string& what) {
  throw ShaderFault(what + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")");
}

// Inlined into step: an extra call level per vector instruction costs the ALU-bound kernels
// several percent.
AMCL_INLINE inline void Executor::exec_vector(Wave& w, const Inst& in) {
  // VOP1/2/3/C first, by a range test: the jump table of a switch over every format was an
  // indirect branch per instruction, and perf put a fifth of the wave loop's samples on it.
  static_assert(Format::VOP2 < Format::VOP1 && Format::VOP1 < Format::VOPC &&
                Format::VOPC < Format::VOP3 && Format::VOP3 < Format::VOP3SD);
  if (in.format >= Format::VOP2 && in.format <= Format::VOP3SD) [[likely]] {
    if (in.dpp.kind != DppKind::None) [[unlikely]]
      exec_dpp(w, in);
    else if (in.format == Format::VOPC)
      exec_vopc(w, in);
    // The fast rows first: they take none of exec_valu's lane-uniform operations, and skip its
    // set-up (about 40 host instructions a call, callgrind).
    else if (!fast_paths || !exec_valu_fast(w, in))
      exec_valu(w, in, false);
    return;
  }
  switch (in.format) {
  case Format::FLAT:
    exec_flat(w, in);
    return;
  case Format::DS:
    exec_ds(w, in);
    return;
  case Format::MIMG:
    exec_image(w, in);
    return;
  case Format::VOPD:
    exec_vopd(w, in);
    return;
  case Format::VOP3P:
    if (in.dpp.kind != DppKind::None) [[unlikely]]
      exec_dpp(w, in);
    else
      exec_vop3p(w, in);
    return;
  default:
    instruction_fault(w, in, "not a vector instruction");
  }
}

uint64_t Executor::run(Wave& w, uint64_t& lane_instructions, uint64_t budget) {
  budget_ = budget;
  return count_lanes_ ? run_turn<true>(w, lane_instructions)
                      : run_turn<false>(w, lane_instructions);
}

template <bool CountLanes> uint64_t Executor::run_turn(Wave& w, uint64_t& lane_instructions) {
  uint64_t count = 0;
  ready_gather_ = nullptr;
  // The instruction run last and where it ends: a wave that falls through takes its link.
  const Program::Node* last = nullptr;
  uint64_t last_end = ~uint64_t(0);
  while (!w.done && !w.at_barrier && count < budget_) {
    const uint64_t pc = w.pc;
    const Program::Node* node =
        pc == last_end ? &program_.next(*last, pc, memory_) : &program_.node_at(pc, memory_);
    const Inst& in = node->inst;
    if (gather_yield_ && in.format == Format::FLAT) {
      if (w.prefetched_pc == w.pc) {
        w.prefetched_pc = ~uint64_t(0); // its lines were requested: it runs now
        if (w.id_in_group < gather_hosts_.size() && gather_hosts_[w.id_in_group].pc == w.pc)
          ready_gather_ = &gather_hosts_[w.id_in_group];
      } else if (prefetch_gather(w, in)) {
        w.prefetched_pc = w.pc;
        break; // the turn ends before the gather, which is neither run nor counted yet
      }
    }
    const bool scalar = in.format <= Format::SMEM;
    if constexpr (CountLanes) {
      // A full EXEC skips the count.
      const uint64_t exec = w.exec_mask();
      lane_instructions += scalar                              ? 1
                           : exec == ~0ull >> (64 - w.lanes()) ? w.lanes()
                                                               : lane_count(exec);
    }
    if (!scalar && in.format != Format::MUBUF && !w.wave64) {
      // A wave32 vector instruction (no branch; the pc is its own while it runs): step's
      // format switch and pc moves skipped, about 15 host instructions of each.
      exec_vector(w, in);
      w.pc = pc + in.size;
    } else if (in.format == Format::SOPP && kSchedulingHints[size_t(in.op)]) {
      w.pc += in.size;
    } else {
      step(w, in);
    }
    ready_gather_ = nullptr;
    last = node;
    last_end = pc + in.size;
    // Checking the abort flag every 64K instructions keeps it off the hot path.
    if ((++count & 0xffff) == 0) {
      if (abort_ && abort_->load(std::memory_order_relaxed))
        throw ShaderFault("dispatch aborted by a queue reset at pc " + hex(w.pc));
      if (stop_ && stop_->load(std::memory_order_relaxed)) {
        w.done = true; // another work-group faulted: the dispatch is over
        break;
      }
    }
  }
  return count;
}

void Executor::step(Wave& w, const Inst& in) {
  const uint64_t next = w.pc + in.size;
  w.pc = next; // branches overwrite it; they are relative to the next instruction
  switch (in.format) {
  case Format::SOP1:
  case Format::SOP2:
  case Format::SOPC:
  case Format::SOPK:
    w.pc -= in.size;
    exec_salu(w, in);
    if (w.pc == next - in.size) w.pc = next;
    return;
  case Format::SOPP: {
    uint64_t here = next - in.size;
    w.pc = here;
    exec_sopp(w, in);
    if (w.pc == here) w.pc = next;
    return;
  }
  case Format::SMEM:
    w.pc -= in.size;
    exec_smem(w, in);
    w.pc = next;
    return;
  case Format::MUBUF:
    w.pc -= in.size;
    exec_buffer(w, in);
    w.pc = next;
    return;
  default:
    w.pc -= in.size;
    if (w.wave64) [[unlikely]]
      exec_wave64(w, in);
    else
      exec_vector(w, in);
    w.pc = next;
    return;
  }
}

void Executor::exec_wave64(Wave& w, const Inst& in) {
  // The operations on one lane of the whole wave run once, on the half holding that lane.
  auto on_lane = [&](unsigned lane, auto&& f) {
    w.select_half(lane / kWaveSize);
    f(lane % kWaveSize);
    w.select_half(0);
  };
  // One matrix product for the whole wave.
  if (in.wmma) return exec_wmma(w, in);
  if (is_load_transpose(in.op)) return exec_load_transpose(w, in); // one 16x16 matrix per wave
  switch (in.op) {
  case Op::v_readfirstlane_b32: {
    const uint64_t exec = w.exec_mask();
    on_lane(exec ? unsigned(std::countr_zero(exec)) : 0,
            [&](unsigned l) { swrite(w, in.dst, vread(w, in, 0, l)); });
    return;
  }
  case Op::v_readlane_b32:
    on_lane(sread(w, in, in.src[1]) & 63,
            [&](unsigned l) { swrite(w, in.dst, vread(w, in, 0, l)); });
    return;
  case Op::v_writelane_b32: {
    const uint32_t value = sread(w, in, in.src[0]);
    on_lane(sread(w, in, in.src[1]) & 63, [&](unsigned l) { vreg(w, in.dst, l) = value; });
    return;
  }
  case Op::ds_swizzle_b32:
  case Op::ds_permute_b32:
  case Op::ds_bpermute_b32:
  case Op::ds_bpermute_fi_b32:
    exec_ds_cross_lane(w, in);
    return;
  case Op::ds_append:
  case Op::ds_consume:
    exec_ds_counter(w, in); // one counter update for the whole wave
    return;
  // clang-format off
  case Op::v_s_exp_f32: case Op::v_s_exp_f16: case Op::v_s_log_f32: case Op::v_s_log_f16:
  case Op::v_s_rcp_f32: case Op::v_s_rcp_f16: case Op::v_s_rsq_f32: case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    // clang-format on
    exec_valu_scalar(w, in); // one scalar result for the wave, computed once
    return;
  case Op::v_permlane64_b32: {
    // Lane l takes lane l ^ 32's src0 (RDNA3 ISA manual); both halves read before either writes.
    uint32_t from[2][kWaveSize];
    for (unsigned h = 0; h < 2; ++h) {
      w.select_half(h);
      for (unsigned l = 0; l < kWaveSize; ++l) from[h][l] = vread(w, in, 0, l);
    }
    for (unsigned h = 0; h < 2; ++h) {
      w.select_half(h);
      for (unsigned l = 0; l < kWaveSize; ++l)
        if ((w.exec() >> l) & 1) vreg(w, in.dst, l) = from[h ^ 1][l];
    }
    w.select_half(0);
    return;
  }
  default:
    break;
  }
  held_mask_.held = false;
  try {
    exec_vector(w, in);
    w.select_half(1);
    exec_vector(w, in);
  } catch (...) {
    w.select_half(0);
    throw;
  }
  w.select_half(0);
  if (held_mask_.held) swrite(w, held_mask_.code, held_mask_.value);
}

} // namespace sim::shader
