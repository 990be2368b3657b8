// gfx12's GLOBAL_LOAD_TR_B128 / GLOBAL_LOAD_TR_B64 (RDNA4 ISA manual, 11.6 "WMMA Matrix Load Ops
// with Transpose"): lanes 0-31 each read 16 (b128: eight 16-bit elements) or 8 (b64: eight
// bytes) contiguous bytes holding 8 consecutive rows of one K of a column-major 16x16 matrix
// ("lane 0 loads ... K=0, M=0..7"), and the wave receives the matrix in the row-major WMMA
// operand layout: wave32 in 4 (b128) or 2 (b64) VGPRs, wave64 in 2 or 1, the addresses of lanes
// 32-63 ignored. Within each group of 8 lanes the transpose is an 8x8 one: lane 8g + j's element
// i lands in lane 8g + i's element j (wave32), which is what the WMMA layout (wmma_layout.h, from
// AMD's Matrix Instruction Calculator) and the manual's lane-0 example together require.
#include "executor.h"
#include "wmma_layout.h"

#include <cstring>
#include <string>

namespace sim::shader {

void Executor::exec_load_transpose(Wave& w, const Inst& in) {
  const uint64_t exec = w.exec_mask();
  // EXEC == 0: an S_NOP; any other EXEC but all ones is undefined (manual, 11.6.2).
  if (exec == 0) return;
  if (exec != (w.wave64 ? ~uint64_t(0) : 0xffffffffu))
    instruction_fault(w, in, "a transposing load with EXEC neither 0 nor all ones (undefined)");
  const unsigned bits = in.op == Op::load_tr_b128 ? 16 : 8, bytes = bits; // 8 elements a lane
  const bool saddr = in.soffset != src::kNull;
  const uint64_t sbase =
      saddr ? uint64_t(w.sgpr[in.soffset]) | (uint64_t(w.sgpr[in.soffset + 1]) << 32) : 0;
  const unsigned vaddr = in.src[0] - src::kVgpr0;
  uint8_t loaded[32][16];
  for (unsigned lane = 0; lane < 32; ++lane) {
    uint64_t addr = saddr ? sbase + w.whole_wave_v(vaddr, lane)
                          : uint64_t(w.whole_wave_v(vaddr, lane)) |
                                (uint64_t(w.whole_wave_v(vaddr + 1, lane)) << 32);
    addr += uint64_t(int64_t(in.imm));
    if (addr & 3) addr = misaligned_address(w, in, addr, 4);
    try {
      memory_.read(addr, loaded[lane], bytes);
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                            ")",
                        f.address, f.write);
    }
  }
  // Every element (row, k) of the matrix: which lane loaded it (from its wave32 place) and where
  // the wave keeps it. A destination VGPR beyond the wave's allocation is not written, as for
  // other loads (manual, "Out-of-range GPRs").
  const unsigned dst = in.dst - src::kVgpr0, esize = bits / 8;
  for (unsigned row = 0; row < 16; ++row)
    for (unsigned k = 0; k < 16; ++k) {
      const WmmaSlot at32 = wmma_input_slot(Gfx::v12, false, bits, 16, row, k);
      const unsigned element = (at32.gpr * 32 + at32.bit) / bits;
      const unsigned from = 8 * (at32.lane / 8) + element, index = at32.lane % 8;
      uint32_t value = 0;
      std::memcpy(&value, &loaded[from][index * esize], esize);
      const WmmaSlot to = w.wave64 ? wmma_input_slot(Gfx::v12, true, bits, 16, row, k) : at32;
      if (dst + to.gpr >= w.num_vgprs) continue;
      uint32_t& word = w.whole_wave_v(dst + to.gpr, to.lane);
      const uint32_t mask = ((1u << bits) - 1) << to.bit;
      word = (word & ~mask) | (value << to.bit);
    }
}

} // namespace sim::shader
