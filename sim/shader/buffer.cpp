// Buffer instructions (MUBUF). Compute code LLVM builds for amcl uses only the cache invalidations,
// which change nothing in the model (its memory has no caches to go stale); a buffer load, store
// or atomic faults by name.
#include "executor.h"

namespace sim::shader {

void Executor::exec_buffer(Wave& w, const Inst& in) {
  if (in.op != Op::buffer_gl0_inv && in.op != Op::buffer_gl1_inv)
    instruction_fault(w, in, "unimplemented buffer instruction");
}

} // namespace sim::shader
