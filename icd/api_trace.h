// AMCL_API_TRACE: one line per OpenCL call an application makes into amcl (its arguments, the
// error code or object it returned, the time it took), to stderr ("1") or to a file named by
// the variable. When set at load, the dispatch table holds generated wrappers
// (trace_entry_points.inc) that log through TraceCall and forward to the real entry points.
#pragma once
#include <CL/cl.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace amcl::icd {

// The OpenCL name of an error code ("CL_INVALID_VALUE"), or the number for an unknown one.
std::string cl_status_name(cl_int code);

// True when AMCL_API_TRACE asks for a trace (read once, when the library loads).
bool api_trace_enabled();

class TraceCall {
public:
  explicit TraceCall(const char* function);
  TraceCall(const TraceCall&) = delete;
  TraceCall& operator=(const TraceCall&) = delete;

  void arg(const char* name, const char* text); // a string, quoted (options, kernel names)
  template <class R, class... A> void arg(const char* name, R (*callback)(A...)) {
    begin(name);
    line_ += callback ? "<callback>" : "NULL";
  }
  template <class T> void arg(const char* name, T* pointer) {
    pointer_arg(name, reinterpret_cast<const void*>(pointer));
  }
  template <class T>
  requires std::is_integral_v<T>
  void arg(const char* name, T value) {
    std::is_signed_v<T> ? signed_arg(name, int64_t(value)) : unsigned_arg(name, uint64_t(value));
  }
  void hex(const char* name, uint64_t value);                        // flags, info names
  void sizes(const char* name, const size_t* values, cl_uint count); // work sizes, origins

  cl_int status(cl_int code); // logs the call with its result and passes the code on
  void handle(const void* object, cl_int code);
  void done(); // a call that returns nothing

  cl_int err = CL_SUCCESS; // stands in for a null errcode_ret, so the error is still seen

private:
  void pointer_arg(const char* name, const void* p);
  void signed_arg(const char* name, int64_t v);
  void unsigned_arg(const char* name, uint64_t v);
  void begin(const char* name);
  void finish(const std::string& result);

  std::string line_;
  bool first_ = true;
  std::chrono::steady_clock::time_point start_;
};

} // namespace amcl::icd
