// cl_amd_device_attribute_query: the AMD device queries (board name, topology, SIMDs, LDS,
// graphics IP...) that clinfo, OpenMM, hashcat and ROCm-tuned programs read from an AMD GPU.
#pragma once
#include "objects.h"

#include <optional>

namespace amcl::rt {

// The answer to `param` when it is one of the extension's queries; nullopt otherwise.
std::optional<cl_int> amd_device_info(cl_device_id d, cl_device_info param, size_t n, void* p,
                                      size_t* r);

} // namespace amcl::rt
