// The error every failing device operation (boot, memory, queues, faults, hangs) throws.
#pragma once
#include <stdexcept>

namespace am {

// A device-side failure (fault, hang, exhausted memory, a boot step the card refused) the
// caller must report.
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace am
