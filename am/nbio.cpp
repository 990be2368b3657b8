#include "nbio.h"

#include "debug_log.h"
#include "device_error.h"
#include "doorbells.h"
#include "hw/discovery.h"
#include "write_barrier.h"

namespace am {

using namespace hw;

void Nbio::init_sw(const IpDiscovery& ip) {
  const IpBlock* nbio = ip.find(discovery::NBIF_HWID);
  regs_ = nbio && nbio->bases.size() >= 3 ? nbio_regs_for_major(nbio->major) : nullptr;
  if (!regs_)
    throw DeviceError(pci_.address() + ": IP discovery lists no NBIO/NBIF amcl knows" +
                      (nbio ? " (NBIF " + version_of(*nbio) + ")" : std::string()));
  bases_ = RegisterBases::of(*nbio);
  AM_LOG(kDebugBlocks, pci_, "SOC: NBIF %s, register bases %s", version_of(*nbio).c_str(),
         bases_of(*nbio).c_str());
}

void Nbio::init_hw() {
  pci_.reg_write32(bases_(regs_->RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN), BIF_DOORBELL_APER_EN);
  pci_.reg_write32(bases_(regs_->REMAP_HDP_MEM_FLUSH_CNTL), kMmioRemapHdpMemFlush);
  // The CP's two ports take the whole aperture; SDMA 0's range starts at its doorbell and covers
  // its 20 queues' 64-bit doorbells (nbio_v4_3_sdma_doorbell_range).
  const uint32_t entry0 = bases_(regs_->S2A_DOORBELL_ENTRY_0_CTRL);
  write_reg_any(entry0 + kS2aCpEntry, s2a_doorbell_entry({true, kS2aAwidCp, 0, 0, 3}));
  write_reg_any(entry0 + kS2aCpEntry2, s2a_doorbell_entry({true, kS2aAwidCp2, 0, 0, 3}));
  write_reg_any(entry0 + kS2aSdma0Entry,
                s2a_doorbell_entry({true, kS2aAwidSdma0, kSdmaDoorbell, kS2aSdmaRangeSize, 3}));
  AM_LOG(kDebugBlocks, pci_,
         "SOC: doorbell aperture on, HDP flush at BAR5 0x%x, S2A doorbell routes for CP, CP2 and "
         "SDMA 0 (doorbell %u)",
         kMmioRemapHdpMemFlush, kSdmaDoorbell);
}

void Nbio::write_reg_any(uint32_t index, uint32_t value) {
  if (uint64_t(index) * 4 + 4 <= pci_.reg_bytes()) {
    pci_.reg_write32(index, value);
    return;
  }
  const uint32_t index2 = bases_(regs_->PCIE_INDEX2), data2 = bases_(regs_->PCIE_DATA2);
  pci_.reg_write32(index2, index * 4);
  (void)pci_.reg_read32(index2); // the index lands before the data
  pci_.reg_write32(data2, value);
  (void)pci_.reg_read32(data2);
}

void Nbio::flush_hdp() {
  device_write_barrier(); // the stores leave the CPU's write-combining buffers first
  pci_.reg_write32(kMmioRemapHdpMemFlush / 4, 0);
  (void)pci_.reg_read32(kMmioRemapHdpMemFlush / 4); // completes once the flush has
}

} // namespace am
