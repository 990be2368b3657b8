// am::Pci — everything a PCI function gives a driver, and nothing more (DESIGN.md, "The PCI
// boundary"). The real backends (sysfs, vfio-pci) and the emulated GPU (sim::Gpu) implement
// it; the AM driver reaches hardware only through it.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace am {

// PCI config space: the command register and the bits amcl sets (PCI Local Bus spec 3.0, 6.2.2).
inline constexpr uint32_t kPciCommand = 0x04;
inline constexpr uint16_t kPciCommandMemory = 1u << 1, kPciCommandBusMaster = 1u << 2;

class Pci {
public:
  virtual ~Pci() = default;

  // Config space (vendor/device ids at 0x00, command at 0x04, revision/class at 0x08).
  virtual uint32_t config_read32(uint32_t offset) = 0;
  // Sets the command register's memory-space and bus-master bits: without bus mastering the
  // device can neither reach system memory nor signal MSIs. Nobody else sets it for a user-space
  // driver (vfio-pci leaves it to the user; unbinding amdgpu clears it; a mode1 reset clears it
  // again). Throws std::runtime_error when config space cannot be written.
  virtual void enable_bus_master() = 0;
  // Writes a config-space dword (a BAR, the command register). Throws std::runtime_error when
  // config space cannot be written.
  virtual void config_write32(uint32_t offset, uint32_t value) = 0;
  // After the header came back from a reset that cleared config space: re-arms what the
  // backend keeps beyond it (vfio: the MSI capability the kernel programmed). Default: nothing.
  virtual void after_config_restore() {}

  // BAR5: MMIO registers, addressed by dword index. An index past the BAR reaches nothing
  // (reads all ones); registers there are reached through NBIO's PCIe index/data pair.
  virtual uint32_t reg_read32(uint32_t index) = 0;
  virtual void reg_write32(uint32_t index, uint32_t value) = 0;
  virtual uint64_t reg_bytes() const = 0; // the size of BAR5

  // BAR2: doorbells, addressed by dword index; rings use 64-bit doorbells.
  virtual void doorbell_write64(uint32_t index, uint64_t value) = 0;

  // BAR0: the VRAM aperture, plain memory the CPU maps: the first bar0_size() bytes of VRAM.
  // Without resizable BAR it is far smaller than VRAM (256 MiB of a 7900 XTX's 24 GiB); the
  // card's VRAM size is RCC_CONFIG_MEMSIZE (am/vram_access.h), and nothing past the BAR has a
  // CPU address.
  virtual uint8_t* vram() = 0;
  virtual uint64_t bar0_size() const = 0;

  // DMA: make host pages reachable by the device (and pin them). `host` and `size` are page
  // aligned. Returns the bus address of every 4 KiB page, for the PTEs: with vfio-pci each page
  // is mapped at iova = its physical address, so neighbouring pages need not be neighbours on
  // the bus. Throws std::runtime_error when the mapping fails. dma_unmap takes the same range.
  virtual std::vector<uint64_t> dma_map(void* host, uint64_t size) = 0;
  virtual void dma_unmap(void* host, uint64_t size) = 0;

  // Blocks until the device raises an interrupt or the timeout passes; true on interrupt.
  virtual bool wait_interrupt(std::chrono::microseconds timeout) = 0;

  // "0000:03:00.0" for hardware, "sim:0" for an emulated device.
  virtual std::string address() const = 0;
  virtual bool emulated() const = 0;

  uint16_t vendor_id() { return uint16_t(config_read32(0) & 0xffff); }
  uint16_t device_id() { return uint16_t(config_read32(0) >> 16); }
};

} // namespace am
