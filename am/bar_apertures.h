// The VRAM apertures (BAR0) of the real cards this process drives, with their bus addresses.
// Another card reaches a card's VRAM through that BAR (peer-to-peer, Device::map_peer). This
// process's mapping of a BAR is a PFN map, which /proc/self/pagemap does not translate, so a
// peer mapping looks the bus address up here instead: bus = BAR start + offset into it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace am {

void register_aperture(const void* cpu, uint64_t size, uint64_t bus);
void unregister_aperture(const void* cpu);
// The bus address of [host, host + size) if it lies wholly within one registered aperture.
std::optional<uint64_t> aperture_bus_address(const void* host, uint64_t size);
// The bus address of every 4 KiB page of a range that starts at `bus` (Pci::dma_map's answer).
std::vector<uint64_t> contiguous_pages(uint64_t bus, uint64_t size);

// BAR `index`'s start from a device's sysfs "resource" file (Linux
// drivers/pci/pci-sysfs.c resource_show: one "0x%016llx 0x%016llx 0x%016llx" line of start, end
// and flags per resource, BARs first). Nothing when the file or the line is missing or the BAR
// is unassigned (start 0).
std::optional<uint64_t> sysfs_bar_start(const std::filesystem::path& device_dir, unsigned index);

} // namespace am
