// Contexts: the devices a program, buffer or queue may use together.
#pragma once
#include "objects.h"

#include <vector>

namespace amcl::rt {

using ContextNotify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

// A context of `devices` (distinct, checked) with its checked property list as
// CL_CONTEXT_PROPERTIES reports it (empty when none was given).
cl_context create_context(std::vector<cl_device_id> devices,
                          std::vector<cl_context_properties> properties, ContextNotify notify,
                          void* notify_data);

} // namespace amcl::rt
