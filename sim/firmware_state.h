// Which firmware runs on the emulated card. The PSP starts the SMU firmware when it loads it and
// the CP/SDMA firmware at the RLC autoload; until then those engines do nothing, as on hardware
// (a queue activated on a card whose MEC runs no firmware never fetches). A mode1 reset stops
// them all.
#pragma once
#include <atomic>

namespace sim {

struct FirmwareState {
  std::atomic<bool> smu_running{false};
  std::atomic<bool> imu_running{false}; // the IMU, which starts the RLC at the autoload
  std::atomic<bool> gfx_running{false}; // RLC autoloaded: MEC and SDMA firmware run
};

} // namespace sim
