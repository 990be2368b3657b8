#include "sdma_builder.h"

#include <algorithm>
#include <stdexcept>

namespace am {

using namespace hw;

void SdmaBuilder::copy_linear(uint64_t dst, uint64_t src, uint64_t bytes) {
  while (bytes) {
    uint64_t n = std::min<uint64_t>(bytes, sdma::kCopyLinearMaxBytes);
    emit(sdma::header(sdma::OP_COPY, sdma::SUBOP_COPY_LINEAR));
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
    emit(sdma::header(sdma::OP_CONST_FILL) | sdma::const_fill_size(2));
    emit(uint32_t(dst));
    emit(uint32_t(dst >> 32));
    emit(pattern);
    emit(uint32_t(n - 1));
    dst += n, bytes -= n;
  }
}

void SdmaBuilder::fence(uint64_t address, uint32_t value) {
  emit(sdma::header(sdma::OP_FENCE));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(value);
}

void SdmaBuilder::trap(uint32_t context) {
  emit(sdma::header(sdma::OP_TRAP));
  emit(context & 0x0fffffff);
}

void SdmaBuilder::timestamp(uint64_t address) {
  emit(sdma::header(sdma::OP_TIMESTAMP, sdma::SUBOP_TIMESTAMP_GET_GLOBAL));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
}

void SdmaBuilder::nop(uint32_t payload_dwords) {
  emit(sdma::header(sdma::OP_NOP) | (payload_dwords << 16));
  for (uint32_t i = 0; i < payload_dwords; ++i) emit(0);
}

} // namespace am
