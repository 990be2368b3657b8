// The error every failing device operation (boot, memory, queues, faults, hangs) throws.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace am {

// What the driver learnt of a wave the shader array stopped on an exception (the SQ interrupt
// word, then the wave's registers through SQ_IND_INDEX/SQ_IND_DATA, then the code at its PC).
struct WaveFault {
  enum class Kind {
    IllegalInstruction, // the exception register has ILLEGAL_INST
    Exception,          // another exception
  };
  Kind kind = Kind::IllegalInstruction;
  uint64_t pc = 0;
  uint32_t dwords[3] = {}; // the words at pc, as many as `words` says
  unsigned words = 0;      // 0: the pc is outside memory the driver allocated
  uint32_t exception = 0;  // TRAPSTS (GC 11) / EXCP_FLAG_PRIV (GC 12)
  const char* exception_name = "TRAPSTS";
  uint32_t hw_id1 = 0;
};

// A device-side failure (fault, hang, exhausted memory, a boot step the card refused) the
// caller must report. A shader exception carries the wave's fault, for the layers above to
// describe (the runtime names the instruction).
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
  DeviceError(const std::string& what, const std::optional<WaveFault>& fault)
      : std::runtime_error(what), wave_fault(fault) {}
  std::optional<WaveFault> wave_fault;
};

} // namespace am
