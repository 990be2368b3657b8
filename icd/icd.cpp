// The ICD's exported surface: clIcdGetPlatformIDsKHR, clGetExtensionFunctionAddress(+ForPlatform)
// and the dispatch table every object points at. Entry points amcl implements are strong
// definitions elsewhere in icd/; the rest come from the generated weak defaults, which return
// the spec's error for an unsupported operation, so the table is always completely filled.
#include "api_trace.h"
#include "runtime/objects.h"

#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

#include <cstring>

static cl_int CL_API_CALL amcl_unsupported_entry() { return CL_INVALID_OPERATION; }

#include "default_entry_points.inc"

// The real entry points, which AMCL_API_TRACE's wrappers log and forward to.
static cl_icd_dispatch amcl_traced;
#include "trace_entry_points.inc"

namespace {

const cl_icd_dispatch* make_table() {
  static cl_icd_dispatch table;
  amcl_fill_dispatch(table);
  // cl_khr_subgroups' entry point is the core function under its extension name.
  table.clGetKernelSubGroupInfoKHR = &clGetKernelSubGroupInfo;
  if (amcl::icd::api_trace_enabled()) {
    amcl_traced = table;
    amcl_fill_trace_dispatch(table);
  }
  return &table;
}

struct Init {
  Init() { amcl::rt::g_dispatch = make_table(); }
} init;

} // namespace

