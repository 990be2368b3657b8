#include "packet_names.h"

#include "hw/pm4.h"
#include "hw/sdma_v6.h"

#include <vector>

namespace am {
namespace {

// "A x3, B, C": consecutive equal names counted.
std::string runs(const std::vector<const char*>& names) {
  std::string s;
  for (size_t i = 0; i < names.size();) {
    size_t j = i;
    while (j < names.size() && std::string(names[j]) == names[i]) ++j;
    if (!s.empty()) s += ", ";
    s += names[i];
    if (j - i > 1) s += " x" + std::to_string(j - i);
    i = j;
  }
  return s.empty() ? "(empty)" : s;
}

} // namespace

std::string pm4_packet_names(std::span<const uint32_t> words) {
  std::vector<const char*> names;
  for (size_t at = 0; at < words.size();) {
    const uint32_t h = words[at];
    if (h == hw::pm4::kType2Nop) {
      names.push_back("NOP"), ++at;
    } else if (hw::pm4::header_type(h) == 3) {
      names.push_back(hw::pm4::opcode_name(hw::pm4::header_opcode(h)));
      at += 1 + hw::pm4::header_count(h);
    } else {
      names.push_back("(not a type-3 header)");
      break;
    }
  }
  return runs(names);
}

std::string sdma_packet_names(std::span<const uint32_t> words, std::span<const size_t> starts) {
  std::vector<const char*> names;
  for (size_t at : starts)
    if (at < words.size())
      names.push_back(hw::sdma::packet_name(hw::sdma::header_op(words[at]),
                                            hw::sdma::header_sub_op(words[at])));
  return runs(names);
}

} // namespace am
