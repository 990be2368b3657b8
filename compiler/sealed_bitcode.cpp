#include "sealed_bitcode.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace amcl::compiler {
namespace {

constexpr uint8_t kMagic[8] = {'A', 'M', 'C', 'L', 'B', 'C', 0, 1};
constexpr size_t kHeader = sizeof kMagic + 8 + 32;

std::array<uint8_t, 32> digest(std::span<const uint8_t> payload) {
  return llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(payload.data(), payload.size()));
}

} // namespace

std::vector<uint8_t> seal_bitcode(std::span<const uint8_t> bitcode) {
  std::vector<uint8_t> out(kHeader + bitcode.size());
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  const uint64_t n = bitcode.size();
  for (int i = 0; i < 8; ++i) out[sizeof kMagic + i] = uint8_t(n >> (8 * i));
  const auto h = digest(bitcode);
  std::copy(h.begin(), h.end(), out.begin() + sizeof kMagic + 8);
  std::copy(bitcode.begin(), bitcode.end(), out.begin() + kHeader);
  return out;
}

bool looks_sealed(std::span<const uint8_t> binary) {
  return binary.size() >= sizeof kMagic && std::memcmp(binary.data(), kMagic, sizeof kMagic) == 0;
}

std::optional<std::span<const uint8_t>> unseal_bitcode(std::span<const uint8_t> binary) {
  if (!looks_sealed(binary) || binary.size() < kHeader) return std::nullopt;
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= uint64_t(binary[sizeof kMagic + i]) << (8 * i);
  if (n != binary.size() - kHeader) return std::nullopt;
  const auto payload = binary.subspan(kHeader);
  const auto h = digest(payload);
  if (!std::equal(h.begin(), h.end(), binary.begin() + sizeof kMagic + 8)) return std::nullopt;
  return payload;
}

} // namespace amcl::compiler
