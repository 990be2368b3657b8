// Helpers shared by the entry points: handle checks and exception-to-error translation.
#pragma once
#include "runtime/error_code.h"
#include "runtime/objects.h"

namespace amcl::icd {

using rt::ClError;

// Runs `body`, returning its cl_int or the error an exception carries.
template <class F> cl_int guarded(F&& body) {
  try {
    return body();
  } catch (const ClError& e) {
    return e.code;
  } catch (...) {
    return rt::current_exception_code();
  }
}

// For creators: stores the error in errcode_ret and returns the object or null.
template <class T, class F> T create(cl_int* errcode_ret, F&& body) {
  T result = nullptr;
  cl_int err = guarded([&] {
    result = body();
    return CL_SUCCESS;
  });
  if (errcode_ret) *errcode_ret = err;
  return err == CL_SUCCESS ? result : nullptr;
}

template <class T> cl_int retain_handle(T* h, cl_int invalid) {
  if (!rt::valid(h)) return invalid;
  rt::retain(h);
  return CL_SUCCESS;
}

template <class T> cl_int release_handle(T* h, cl_int invalid) {
  if (!rt::valid(h)) return invalid;
  rt::release(h);
  return CL_SUCCESS;
}

// Throws the error code the caller's check found.
[[noreturn]] inline void fail(cl_int code) {
  throw ClError{code, ""};
}

template <class T> void require(T* h, cl_int code) {
  if (!rt::valid(h)) throw ClError{code, "invalid handle"};
}

} // namespace amcl::icd
