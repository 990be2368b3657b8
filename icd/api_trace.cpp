#include "api_trace.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace amcl::icd {
namespace {

// Where trace lines go: stderr for "1" (or "stderr"), else the file named, appended to.
struct Sink {
  FILE* file = nullptr;
  std::mutex mutex;
  Sink() {
    const char* v = std::getenv("AMCL_API_TRACE");
    if (!v || !*v || std::strcmp(v, "0") == 0) return;
    if (std::strcmp(v, "1") == 0 || std::strcmp(v, "stderr") == 0) {
      file = stderr;
      return;
    }
    file = std::fopen(v, "a");
    if (!file) std::fprintf(stderr, "amcl: AMCL_API_TRACE: cannot open %s\n", v);
  }
};
Sink& sink() {
  static Sink s; // never destroyed before the last call: the file closes with the process
  return s;
}

// Long strings (program sources never pass here, but options can be long) are cut.
constexpr size_t kMaxString = 200;

} // namespace

std::string cl_status_name(cl_int code) {
  switch (code) {
#define X(name)                                                                                    \
  case name:                                                                                       \
    return #name;
    X(CL_SUCCESS)
    X(CL_DEVICE_NOT_FOUND)
    X(CL_DEVICE_NOT_AVAILABLE)
    X(CL_COMPILER_NOT_AVAILABLE)
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    X(CL_OUT_OF_RESOURCES)
    X(CL_OUT_OF_HOST_MEMORY)
    X(CL_PROFILING_INFO_NOT_AVAILABLE)
    X(CL_MEM_COPY_OVERLAP)
    X(CL_IMAGE_FORMAT_MISMATCH)
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    X(CL_BUILD_PROGRAM_FAILURE)
    X(CL_MAP_FAILURE)
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    X(CL_COMPILE_PROGRAM_FAILURE)
    X(CL_LINKER_NOT_AVAILABLE)
    X(CL_LINK_PROGRAM_FAILURE)
    X(CL_DEVICE_PARTITION_FAILED)
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    X(CL_INVALID_VALUE)
    X(CL_INVALID_DEVICE_TYPE)
    X(CL_INVALID_PLATFORM)
    X(CL_INVALID_DEVICE)
    X(CL_INVALID_CONTEXT)
    X(CL_INVALID_QUEUE_PROPERTIES)
    X(CL_INVALID_COMMAND_QUEUE)
    X(CL_INVALID_HOST_PTR)
    X(CL_INVALID_MEM_OBJECT)
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    X(CL_INVALID_IMAGE_SIZE)
    X(CL_INVALID_SAMPLER)
    X(CL_INVALID_BINARY)
    X(CL_INVALID_BUILD_OPTIONS)
    X(CL_INVALID_PROGRAM)
    X(CL_INVALID_PROGRAM_EXECUTABLE)
    X(CL_INVALID_KERNEL_NAME)
    X(CL_INVALID_KERNEL_DEFINITION)
    X(CL_INVALID_KERNEL)
    X(CL_INVALID_ARG_INDEX)
    X(CL_INVALID_ARG_VALUE)
    X(CL_INVALID_ARG_SIZE)
    X(CL_INVALID_KERNEL_ARGS)
    X(CL_INVALID_WORK_DIMENSION)
    X(CL_INVALID_WORK_GROUP_SIZE)
    X(CL_INVALID_WORK_ITEM_SIZE)
    X(CL_INVALID_GLOBAL_OFFSET)
    X(CL_INVALID_EVENT_WAIT_LIST)
    X(CL_INVALID_EVENT)
    X(CL_INVALID_OPERATION)
    X(CL_INVALID_GL_OBJECT)
    X(CL_INVALID_BUFFER_SIZE)
    X(CL_INVALID_MIP_LEVEL)
    X(CL_INVALID_GLOBAL_WORK_SIZE)
    X(CL_INVALID_PROPERTY)
    X(CL_INVALID_IMAGE_DESCRIPTOR)
    X(CL_INVALID_COMPILER_OPTIONS)
    X(CL_INVALID_LINKER_OPTIONS)
    X(CL_INVALID_DEVICE_PARTITION_COUNT)
    X(CL_INVALID_PIPE_SIZE)
    X(CL_INVALID_DEVICE_QUEUE)
    X(CL_INVALID_SPEC_ID)
    X(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef X
  default:
    return "error " + std::to_string(code);
  }
}

bool api_trace_enabled() {
  return sink().file != nullptr;
}

TraceCall::TraceCall(const char* function) : start_(std::chrono::steady_clock::now()) {
  line_.reserve(256);
  line_ += "amcl[";
  line_ += std::to_string(gettid());
  line_ += "] ";
  line_ += function;
  line_ += '(';
}

void TraceCall::begin(const char* name) {
  if (!first_) line_ += ", ";
  first_ = false;
  line_ += name;
  line_ += '=';
}

void TraceCall::arg(const char* name, const char* text) {
  begin(name);
  if (!text) {
    line_ += "NULL";
    return;
  }
  const size_t n = strnlen(text, kMaxString + 1);
  line_ += '"';
  line_.append(text, std::min(n, kMaxString));
  line_ += n > kMaxString ? "...\"" : "\"";
}

void TraceCall::pointer_arg(const char* name, const void* p) {
  begin(name);
  char buf[32];
  std::snprintf(buf, sizeof buf, p ? "%p" : "NULL", p);
  line_ += buf;
}

void TraceCall::signed_arg(const char* name, int64_t v) {
  begin(name);
  line_ += std::to_string(v);
}

void TraceCall::unsigned_arg(const char* name, uint64_t v) {
  begin(name);
  line_ += std::to_string(v);
}

void TraceCall::hex(const char* name, uint64_t value) {
  begin(name);
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, value);
  line_ += buf;
}

void TraceCall::sizes(const char* name, const size_t* values, cl_uint count) {
  if (!values || count == 0 || count > 3) return pointer_arg(name, values);
  begin(name);
  line_ += '{';
  for (cl_uint i = 0; i < count; ++i) {
    if (i) line_ += ',';
    line_ += std::to_string(values[i]);
  }
  line_ += '}';
}

void TraceCall::finish(const std::string& result) {
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
  char tail[48];
  std::snprintf(tail, sizeof tail, " (%.1f us)\n", us);
  line_ += ") = ";
  line_ += result;
  line_ += tail;
  Sink& s = sink();
  std::lock_guard lock(s.mutex);
  std::fwrite(line_.data(), 1, line_.size(), s.file);
  std::fflush(s.file);
}

cl_int TraceCall::status(cl_int code) {
  finish(cl_status_name(code));
  return code;
}

void TraceCall::handle(const void* object, cl_int code) {
  char buf[32];
  std::snprintf(buf, sizeof buf, object ? "%p" : "NULL", object);
  finish(std::string(buf) + " " + cl_status_name(code));
}

void TraceCall::done() {
  finish("void");
}

} // namespace amcl::icd
