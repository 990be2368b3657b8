#include "sdma_builder.h"

#include <algorithm>
#include <stdexcept>

namespace am {

using namespace hw;

void SdmaBuilder::copy_linear(uint64_t dst, uint64_t src, uint64_t bytes) {
  while (bytes) {
    uint64_t n = std::min<uint64_t>(bytes, sdma::kCopyLinearMaxBytes);
    emit_header(sdma::header(sdma::OP_COPY, sdma::SUBOP_COPY_LINEAR));
    emit(uint32_t(n - 1));
    emit(0); // parameters: no swap, linear
    emit(uint32_t(src));
    emit(uint32_t(src >> 32));
    emit(uint32_t(dst));
    emit(uint32_t(dst >> 32));
    dst += n, src += n, bytes -= n;
  }
}

void SdmaBuilder::const_fill(uint64_t dst, uint32_t pattern, uint64_t bytes) {
  if ((dst | bytes) & 3) throw std::invalid_argument("SDMA CONST_FILL needs dword alignment");
  while (bytes) {
    uint64_t n = std::min<uint64_t>(bytes, sdma::kCopyLinearMaxBytes);
    emit_header(sdma::header(sdma::OP_CONST_FILL) | sdma::const_fill_size(2));
    emit(uint32_t(dst));
    emit(uint32_t(dst >> 32));
    emit(pattern);
    emit(uint32_t(n - 1));
    dst += n, bytes -= n;
  }
}

void SdmaBuilder::fence(uint64_t address, uint32_t value) { fence(address, value, 0); }

void SdmaBuilder::fence(uint64_t address, uint32_t value, uint32_t mtype) {
  emit_header(sdma::header(sdma::OP_FENCE) | sdma::fence_mtype(mtype));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(value);
}

void SdmaBuilder::trap(uint32_t context) {
  emit_header(sdma::header(sdma::OP_TRAP));
  emit(context & 0x0fffffff);
}

void SdmaBuilder::timestamp(uint64_t address) {
  emit_header(sdma::header(sdma::OP_TIMESTAMP, sdma::SUBOP_TIMESTAMP_GET_GLOBAL));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
}

void SdmaBuilder::nop(uint32_t payload_dwords) {
  emit_header(sdma::header(sdma::OP_NOP) | (payload_dwords << 16));
  for (uint32_t i = 0; i < payload_dwords; ++i) emit(0);
}

void SdmaBuilder::write_linear(uint64_t dst, const std::vector<uint32_t>& values) {
  if (values.empty() || values.size() > 0x100000 || (dst & 3))
    throw std::invalid_argument("SDMA WRITE needs 1..2^20 dwords at a dword-aligned address");
  emit_header(sdma::header(sdma::OP_WRITE, sdma::SUBOP_WRITE_LINEAR));
  emit(uint32_t(dst));
  emit(uint32_t(dst >> 32));
  emit(uint32_t(values.size() - 1));
  for (uint32_t v : values) emit(v);
}

void SdmaBuilder::poll_mem(uint64_t address, uint32_t func, uint32_t reference, uint32_t mask) {
  emit_header(sdma::header(sdma::OP_POLL_REGMEM) | sdma::poll_regmem_func(func) |
              sdma::POLL_REGMEM_MEM_POLL);
  emit(uint32_t(address) & ~3u);
  emit(uint32_t(address >> 32));
  emit(reference);
  emit(mask);
  emit((0xfffu << 16) | 4u); // retry count, poll interval
}

void SdmaBuilder::copy_sub_window(const SdmaSurface& dst, const SdmaSurface& src,
                                  uint32_t log2_bytes, uint32_t width, uint32_t height,
                                  uint32_t depth) {
  const uint32_t shift = sdma::sub_window_pitch_shift(sdma_major_);
  auto ok = [&](const SdmaSurface& s) {
    return s.x < (1u << 14) && s.y < (1u << 14) && s.z < (1u << 13) && s.pitch >= 1 &&
           s.pitch <= (1u << (32 - shift)) && s.slice_pitch >= 1 && s.slice_pitch <= (1u << 28);
  };
  if (!ok(dst) || !ok(src) || log2_bytes > 4 || width < 1 || width > (1u << 14) || height < 1 ||
      height > (1u << 14) || depth < 1 || depth > (1u << 13))
    throw std::invalid_argument("SDMA sub-window copy outside its bitfields");
  emit_header(sdma::header(sdma::OP_COPY, sdma::SUBOP_COPY_LINEAR_SUB_WIND) | (log2_bytes << 29));
  for (const SdmaSurface* s : {&src, &dst}) {
    emit(uint32_t(s->va));
    emit(uint32_t(s->va >> 32));
    emit(s->x | (s->y << 16));
    emit(s->z | ((s->pitch - 1) << shift));
    emit(s->slice_pitch - 1);
  }
  emit((width - 1) | ((height - 1) << 16));
  emit(depth - 1);
}

} // namespace am
