// Compiled objects and libraries (clCompileProgram, clLinkProgram -create-library) leave amcl
// as LLVM bitcode in a sealed envelope: magic, payload size and SHA-256 of the payload.
// LLVM's bitcode reader is not hardened against corrupt input (it can report a fatal error
// and exit the process), so a binary handed back to clCreateProgramWithBinary only reaches it
// once the seal proves it is the bitcode amcl wrote. Layout, little-endian:
//   "AMCLBC\0\1" | u64 payload bytes | 32-byte SHA-256(payload) | payload
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace amcl::compiler {

std::vector<uint8_t> seal_bitcode(std::span<const uint8_t> bitcode);
// True when `binary` starts with the envelope's magic (whatever the rest holds).
bool looks_sealed(std::span<const uint8_t> binary);
// The payload of an intact envelope; nullopt when the binary is not one or was altered.
std::optional<std::span<const uint8_t>> unseal_bitcode(std::span<const uint8_t> binary);

} // namespace amcl::compiler
