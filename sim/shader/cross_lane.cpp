// Data moved between lanes: DPP's source-lane selection for a VALU instruction and the DS
// crossbar (ds_swizzle_b32, ds_permute_b32, ds_bpermute_b32), following the RDNA3 ISA manual.
// The VALU's own lane reads and writes (v_readlane, v_permlane16, ...) are in valu.cpp.
#include "executor.h"

#include <string>

namespace sim::shader {

// DPP (RDNA3 ISA manual, "Data Parallel Processing"): lane l reads src0 from a source lane of
// its row of 16 (DPP16) or group of 8 (DPP8). A DPP16 source lane outside the row, or disabled
// in EXEC without FI, is invalid: BOUND_CTRL makes it read 0, else the lane is not written;
// ROW_MASK and BANK_MASK (rows of 16, banks of 4 lanes) also leave lanes unwritten. DPP8 reads a
// disabled lane as 0 unless FI. Model: the sources land in a staging VGPR past the wave's own,
// and the plain instruction runs with EXEC limited to the lanes DPP writes.
void Executor::exec_dpp(Wave& w, const Inst& in) {
  const uint32_t exec = w.exec();
  const Dpp& d = in.dpp;
  const unsigned staging = w.num_vgprs; // the row Wave::restart keeps past the wave's own
  const bool dpp8 = d.kind != DppKind::Dpp16;
  uint32_t write = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    unsigned src = lane;
    bool valid = true;
    if (dpp8) {
      src = (lane & ~7u) | ((d.sel8 >> (3 * (lane & 7))) & 7);
    } else {
      if (!((d.row_mask >> (w.lane_id(lane) >> 4)) & 1) ||
          !((d.bank_mask >> ((lane >> 2) & 3)) & 1))
        continue;
      const unsigned c = d.ctrl, n = c & 15, row = lane & ~15u, in_row = lane & 15;
      if (c <= 0xff)
        src = (lane & ~3u) | ((c >> (2 * (lane & 3))) & 3);
      else if ((c & ~15u) == 0x100 && n)
        valid = in_row + n < 16, src = lane + n; // row_shl
      else if ((c & ~15u) == 0x110 && n)
        valid = in_row >= n, src = lane - n; // row_shr
      else if ((c & ~15u) == 0x120 && n)
        src = row | ((in_row - n) & 15); // row_ror
      else if (c == 0x140)
        src = row | (15 - in_row); // row_mirror
      else if (c == 0x141)
        src = (lane & ~7u) | (7 - (lane & 7)); // row_half_mirror
      else if ((c & ~15u) == 0x150)
        src = row | n; // row_share
      else if ((c & ~15u) == 0x160)
        src = row | (in_row ^ n); // row_xmask
      else
        instruction_fault(w, in, "DPP control " + hex(c) + " does not exist on gfx11");
    }
    if (valid && !((exec >> src) & 1) && !(dpp8 ? d.kind == DppKind::Dpp8Fi : d.fi)) valid = false;
    uint32_t value = 0;
    if (valid)
      value = vreg(w, in.src[0], src);
    else if (!dpp8 && !d.bound_ctrl)
      continue;
    w.vrow[staging * kWaveSize + lane] = value;
    write |= 1u << lane;
  }
  Inst plain = in;
  plain.dpp = Dpp{};
  plain.src[0] = uint16_t(src::kVgpr0 + staging);
  uint32_t& exec_reg = w.sgpr[src::kExecLo + w.half];
  w.num_vgprs = staging + 1;
  exec_reg = write;
  try {
    if (in.format == Format::VOPC)
      exec_vopc(w, plain);
    else if (in.format == Format::VOP3P)
      exec_vop3p(w, plain);
    else
      exec_valu(w, plain);
  } catch (...) {
    w.num_vgprs = staging;
    exec_reg = exec;
    throw;
  }
  w.num_vgprs = staging;
  if (!(in.format == Format::VOPC && in.cmpx)) exec_reg = exec; // v_cmpx sets EXEC
}

// The DS crossbar moves (RDNA3 ISA manual, DS_SWIZZLE_B32 / DS_PERMUTE_B32 / DS_BPERMUTE_B32):
// lanes exchange a VGPR without touching LDS, over the whole wave (both passes of a wave64).
// EXEC applies to the lanes read (an inactive source gives 0) and to the lanes written.
void Executor::exec_ds_cross_lane(Wave& w, const Inst& in) {
  const unsigned n = w.lanes();
  const uint64_t exec = w.exec_mask();
  const bool swizzle = in.op == Op::ds_swizzle_b32;
  const uint16_t data_reg = swizzle ? in.src[0] : in.src[1]; // swizzle's data sits in ADDR
  uint32_t addr[64] = {}, data[64] = {}, out[64] = {};
  for (unsigned l = 0; l < n; ++l) {
    w.select_half(l / kWaveSize);
    data[l] = vreg(w, data_reg, l % kWaveSize);
    if (!swizzle) addr[l] = vreg(w, in.src[0], l % kWaveSize);
  }
  w.select_half(0);
  auto active = [&](unsigned l) { return ((exec >> l) & 1) != 0; };
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  switch (in.op) {
  case Op::ds_swizzle_b32: {
    const uint32_t off = uint32_t(in.imm) & 0xffff;
    for (unsigned l = 0; l < n; ++l) {
      unsigned src;
      if ((off & 0xff00) == 0x8000) // QDMode: within each group of 4 lanes
        src = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
      else if (!(off & 0x8000)) // BitMode: and, or, xor masks on the lane's id within 32
        src = (l & ~31u) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
      else
        instruction_fault(
            w, in, "ds_swizzle_b32 offset " + hex(off) + " (rotate/FFT mode) is not implemented");
      out[l] = active(src) ? data[src] : 0;
    }
    break;
  }
  case Op::ds_bpermute_b32: // each lane reads the lane its byte address names
  case Op::ds_bpermute_fi_b32: { // ... inactive ones too (RDNA4 ISA manual, DS_BPERMUTE_FI_B32)
    const bool fi = in.op == Op::ds_bpermute_fi_b32;
    for (unsigned l = 0; l < n; ++l) {
      const unsigned src = ((addr[l] + offset) / 4) % n;
      out[l] = fi || active(src) ? data[src] : 0;
    }
    break;
  }
  default: // ds_permute_b32: each active lane writes the lane its byte address names
    for (unsigned l = 0; l < n; ++l)
      if (active(l)) out[((addr[l] + offset) / 4) % n] = data[l];
    break;
  }
  for (unsigned l = 0; l < n; ++l) {
    if (!active(l)) continue;
    w.select_half(l / kWaveSize);
    vreg(w, in.dst, l % kWaveSize) = out[l];
  }
  w.select_half(0);
}

} // namespace sim::shader
