#include "device_fault.h"

#include "compiler/disassembler.h"

#include <cstdio>
#include <span>

namespace amcl::rt {

std::string describe_failure(const am::DeviceError& e, const std::string& gfx) {
  if (!e.wave_fault) return e.what();
  const am::WaveFault& f = *e.wave_fault;
  if (f.kind != am::WaveFault::Kind::IllegalInstruction || f.words == 0) return e.what();
  const auto inst = compiler::disassemble_one(gfx, std::span<const uint32_t>(f.dwords, f.words));
  // The instruction's own dwords when it decodes; all that were read when it does not.
  const unsigned shown = inst.valid ? inst.size / 4 : f.words;
  char buf[64];
  std::snprintf(buf, sizeof buf, "shader exception at pc 0x%llx: illegal instruction ",
                static_cast<unsigned long long>(f.pc));
  std::string s = buf + inst.text + " (";
  for (unsigned i = 0; i < shown; ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%08x", i ? " " : "", f.dwords[i]);
    s += buf;
  }
  s += ")";
  // What the driver added after its own first line (other faults of the same wait).
  const std::string what = e.what();
  if (const size_t more = what.find(" (and "); more != std::string::npos) s += what.substr(more);
  return s;
}

} // namespace amcl::rt
