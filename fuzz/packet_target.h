// One input of the packet fuzzers: a command stream, built from fuzzer decisions, through the
// driver's real rings into the emulated MEC or SDMA engine. Whatever the packets say (unknown
// opcodes, wrong lengths, wild addresses and registers, dispatches of garbage), the host
// process survives, the driver reports errors as DeviceError, and the next well-formed
// submission on the same queue works.
#pragma once
#include "choices.h"

#include "am/device.h"

#include <memory>
#include <string>

namespace amcl_fuzz {

class PacketTarget {
public:
  // A device on emulated card `card` with a short hang timeout (random dispatches may spin).
  explicit PacketTarget(unsigned card);
  ~PacketTarget();

  // Each returns "" or what went wrong (the queue did not recover).
  std::string run_pm4(Choices& c);
  std::string run_sdma(Choices& c);

  size_t streams = 0, device_errors = 0;
  am::Device& device() { return *dev_; }

private:
  std::string check_recovered(am::Engine e);
  std::unique_ptr<am::Device> dev_;
  am::Allocation mem_;
};

} // namespace amcl_fuzz
