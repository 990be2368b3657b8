#include "packet_target.h"

#include "am/hw/pm4.h"
#include "am/hw/sdma_v6.h"
#include "sim/gpu.h"

#include <chrono>
#include <cstdlib>
#include <iterator>

namespace amcl_fuzz {
namespace {

// The random streams hang after the device's short limit (200 ms); the well-formed packet after
// them may take longer than that on a loaded machine (two sanitized test processes on two
// cores) without anything being wrong.
constexpr std::chrono::milliseconds kRecoveryLimit{10000};

// Words that matter to parsers more often than uniformly random ones would be.
uint32_t word(Choices& c) {
  switch (c.pick(6)) {
  case 0: return 0;
  case 1: return ~0u;
  case 2: return uint32_t(c.pick(64));
  default: return uint32_t(c.bits());
  }
}

} // namespace

PacketTarget::PacketTarget(unsigned card) {
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  dev_ = std::make_unique<am::Device>(sim::open_emulated_gpu("gfx1100", card));
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  mem_ = dev_->alloc_vram(4096);
}

PacketTarget::~PacketTarget() { dev_->free(mem_); }

std::string PacketTarget::check_recovered(am::Engine e) {
  const uint32_t marker = uint32_t(++streams);
  try {
    if (e == am::Engine::Compute) {
      am::Pm4Builder ok;
      ok.write_data_mem(mem_.va, {marker});
      dev_->wait(e, dev_->submit_compute(ok), kRecoveryLimit);
    } else {
      am::SdmaBuilder ok;
      ok.const_fill(mem_.va, marker, 64);
      dev_->wait(e, dev_->submit_sdma(ok), kRecoveryLimit);
    }
  } catch (const am::DeviceError& err) {
    return std::string("the queue did not recover: ") + err.what();
  }
  if (reinterpret_cast<volatile uint32_t*>(mem_.cpu)[0] != marker)
    return "the queue did not execute the well-formed packet after the stream";
  return "";
}

std::string PacketTarget::run_pm4(Choices& c) {
  using namespace am::hw::pm4;
  static const uint32_t kOpcodes[] = {NOP,          DISPATCH_DIRECT, WRITE_DATA,     RELEASE_MEM,
                                      ACQUIRE_MEM,  SET_SH_REG,      EVENT_WRITE,    COPY_DATA,
                                      WAIT_REG_MEM, INDIRECT_BUFFER, SET_UCONFIG_REG};
  am::Pm4Builder b;
  for (uint64_t p = 0, n = 1 + c.pick(6); p < n; ++p) {
    const uint32_t op = c.pick(4) ? kOpcodes[c.pick(std::size(kOpcodes))] : uint32_t(c.pick(256));
    const uint32_t body = uint32_t(c.pick(12));
    if (c.pick(16) == 0)
      b.raw(word(c)); // not even a type-3 header
    else
      b.raw(packet3_compute(op, body));
    for (uint32_t i = 0; i < body; ++i) b.raw(word(c));
  }
  try {
    dev_->wait(am::Engine::Compute, dev_->submit_compute(b));
  } catch (const am::DeviceError&) {
    ++device_errors;
  }
  return check_recovered(am::Engine::Compute);
}

std::string PacketTarget::run_sdma(Choices& c) {
  using namespace am::hw::sdma;
  static const uint32_t kOps[] = {OP_NOP,  OP_COPY,        OP_WRITE,      OP_INDIRECT, OP_FENCE,
                                  OP_TRAP, OP_POLL_REGMEM, OP_CONST_FILL, OP_TIMESTAMP};
  am::SdmaBuilder b;
  for (uint64_t p = 0, n = 1 + c.pick(4); p < n; ++p) {
    const uint32_t op = c.pick(4) ? kOps[c.pick(std::size(kOps))] : uint32_t(c.pick(256));
    b.words().push_back(header(op, uint32_t(c.pick(8))) | (uint32_t(c.pick(4)) << 16));
    for (uint64_t i = 0, body = c.pick(10); i < body; ++i) b.words().push_back(word(c));
  }
  try {
    dev_->wait(am::Engine::Sdma, dev_->submit_sdma(b));
  } catch (const am::DeviceError&) {
    ++device_errors;
  }
  return check_recovered(am::Engine::Sdma);
}

} // namespace amcl_fuzz
