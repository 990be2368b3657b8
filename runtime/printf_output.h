// The host half of OpenCL C printf (OpenCL C 3.0 §6.15.14): after a kernel that prints has
// finished, the records it left in its printf buffer are formatted here, in buffer order.
#pragma once
#include "compiler/code_object.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace amcl::rt {

// Printf buffer layout shared with __printf_alloc (compiler/workitem_builtins.cl).
constexpr uint32_t kPrintfHeaderBytes = 8; // u32 bytes used by records, u32 bytes available

// Formats the records (each a format id and its arguments, as `formats` describe them).
// Stops at the first record it cannot interpret (the rest would be misread).
std::string format_printf_records(const std::vector<compiler::PrintfFormat>& formats,
                                  std::span<const uint8_t> records);

} // namespace amcl::rt
