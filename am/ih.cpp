#include "ih.h"

#include "debug_log.h"
#include "hw/discovery.h"
#include "memory_manager.h"
#include "trace_pci.h"

#include <cstring>

namespace am {
namespace {

constexpr uint64_t kIhRingBytes = 64 * 1024;

} // namespace

void Ih::init_sw(const IpDiscovery& ip) {
  const IpBlock* oss = ip.find(hw::discovery::OSSSYS_HWID);
  if (!oss || oss->bases.empty())
    throw DeviceError(pci_.address() + ": IP discovery lists no OSSSYS register bases");
  regs_ = hw::ih_regs_for_major(oss->major);
  if (!regs_)
    throw DeviceError(pci_.address() + ": OSSSYS IP version " + version_of(*oss) +
                      " is not known to amcl");
  oss_base_ = uint32_t(oss->bases[0]);
  AM_LOG(kDebugBlocks, pci_, "IH: OSSSYS %s, register bases %s", version_of(*oss).c_str(),
         bases_of(*oss).c_str());
}

void Ih::init_hw(MemoryManager& memory, SignalPage& signals) {
  ring_mem_ = memory.alloc_vram(kIhRingBytes);
  std::memset(ring_mem_.cpu, 0, kIhRingBytes);
  ring_.init(pci_, oss_base_, *regs_, ring_mem_, signals.memory(),
             SignalPage::offset(SignalPage::kIhWptr));
  AM_LOG(kDebugBlocks, pci_,
         "IH: ring at VA 0x%llx (%llu KiB), write pointer written back to 0x%llx",
         static_cast<unsigned long long>(ring_mem_.va),
         static_cast<unsigned long long>(kIhRingBytes >> 10),
         static_cast<unsigned long long>(signals.va(SignalPage::kIhWptr)));
}

void Ih::fini_hw() {
  pci_.reg_write32(oss_base_ + regs_->IH_RB_CNTL, 0);
}

void Ih::add_source(int client, uint8_t source, Handler handler) {
  sources_.push_back({client, source, std::move(handler)});
}

void Ih::service() {
  std::lock_guard serving(service_mutex_);
  for (const hw::ih::IvEntry& iv : ring_.drain()) {
    if (trace_detail::open_traces.load(std::memory_order_relaxed)) {
      uint32_t entry[hw::ih::kEntryDwords];
      hw::ih::encode(iv, entry);
      trace_interrupt(pci_, std::span<const uint32_t, 8>(entry, 8));
    }
    AM_LOG(kDebugPackets, pci_,
           "interrupt: client %u source %u ring %u vmid %u, data 0x%x 0x%x 0x%x 0x%x", iv.client_id,
           iv.source_id, iv.ring_id, iv.vmid, iv.src_data[0], iv.src_data[1], iv.src_data[2],
           iv.src_data[3]);
    for (const Source& s : sources_) {
      if (s.source != iv.source_id || (s.client != kAnyClient && s.client != iv.client_id))
        continue;
      if (std::optional<DeviceFault> fault = s.handler(iv)) {
        std::lock_guard lock(fault_mutex_);
        faults_.push_back(std::move(*fault));
      }
      break;
    }
  }
}

std::vector<DeviceFault> Ih::take_faults() {
  std::vector<DeviceFault> faults;
  std::lock_guard lock(fault_mutex_);
  faults.swap(faults_);
  return faults;
}

void Ih::discard_faults() {
  service();
  std::lock_guard lock(fault_mutex_);
  faults_.clear();
}

} // namespace am
