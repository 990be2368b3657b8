#include "va_space.h"

namespace am {

VaSpace& VaSpace::process() {
  static VaSpace space;
  return space;
}

} // namespace am
