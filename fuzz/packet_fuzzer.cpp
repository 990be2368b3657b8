// libFuzzer target: the bytes are the decisions that build one command stream for the
// compute queue (AMCL_FUZZ_PM4) or the SDMA queue (AMCL_FUZZ_SDMA) of an emulated gfx1100,
// through the driver's real rings (fuzz/packet_target.cpp).
#include "fuzzer_main.h"
#include "packet_target.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static amcl_fuzz::PacketTarget target(3); // card 3: this process's own emulated GPU
  amcl_fuzz::ByteChoices choices(data, size);
#if defined(AMCL_FUZZ_PM4)
  amcl_fuzz::require(target.run_pm4(choices));
#else
  amcl_fuzz::require(target.run_sdma(choices));
#endif
  return 0;
}
