// Which firmware runs on the emulated card. The PSP starts the SMU firmware when it loads it and
// the CP/SDMA firmware at the RLC autoload; until then those engines do nothing, as on hardware
// (a queue activated on a card whose MEC runs no firmware never fetches). A mode1 reset stops
// them all.
#pragma once
#include <atomic>
#include <cstdint>

namespace sim {

struct FirmwareState {
  std::atomic<bool> smu_running{false};
  std::atomic<bool> imu_running{false}; // the IMU, which starts the RLC at the autoload
  std::atomic<bool> gfx_running{false}; // RLC autoloaded: MEC and SDMA firmware run
  // When the RLC autoload the PSP started completes (steady-clock ns; 0: none since reset),
  // and where the MEC firmware it loads is linked (kUnknownEntry: an image the model cannot
  // read that from). The MEC pipes start only after the one and at the other (mec_control.h).
  static constexpr uint64_t kUnknownEntry = ~0ull;
  std::atomic<int64_t> autoload_done_ns{0};
  std::atomic<uint64_t> mec_entry{kUnknownEntry};
};

} // namespace sim
