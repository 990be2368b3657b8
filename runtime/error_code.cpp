#include "error_code.h"

#include <cstdio>
#include <new>

namespace amcl::rt {

cl_int current_exception_code() noexcept {
  try {
    throw;
  } catch (const ClError& e) {
    return e.code;
  } catch (const am::DeviceError& e) {
    std::fprintf(stderr, "amcl: %s\n", e.what());
    return CL_OUT_OF_RESOURCES;
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

} // namespace amcl::rt
