// Where the GPU firmware files are and which belong to a card: Linux's amdgpu names them after
// the IP block and version they serve (gc_11_0_0_mec.bin, psp_13_0_0_sos.bin, ...) under
// /lib/firmware/amdgpu (Debian: firmware-amd-graphics).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace am {

// $AMCL_FIRMWARE_DIR when set, else /lib/firmware/amdgpu.
std::filesystem::path firmware_dir();

// The graphics-core (GC) firmware files in `dir` for an LLVM processor ("gfx1100" -> every
// gc_11_0_0_* file), sorted; empty when there are none or the processor is unknown.
std::vector<std::string> gc_firmware_files(const std::filesystem::path& dir, const std::string& gfx);

} // namespace am
