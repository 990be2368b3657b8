#include "va_space.h"

namespace am {

// Never destroyed: the runtime's submission thread may still free the memory of the last
// commands while the process runs its exit handlers.
VaSpace& VaSpace::process() {
  static auto* space = new VaSpace;
  return *space;
}

} // namespace am
