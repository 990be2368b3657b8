// libFuzzer target: the bytes are the decisions of a sequence of OpenCL API calls
// (fuzz/api_call_sequence.cpp) through the ICD loader against one context and queue that live
// for the whole run; each input releases everything it created. The loader finds this build's
// amcl unless OCL_ICD_VENDORS says otherwise.
#include "api_call_sequence.h"
#include "fuzzer_main.h"
#include "tests/support/amcl_platform.h"

#include <cstdio>
#include <cstdlib>

namespace {

amcl_fuzz::ApiCallSequence::Handles handles;

void CL_CALLBACK ignore_notes(const char*, const void*, size_t, void*) {}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("OCL_ICD_VENDORS", AMCL_ICD_DIR, 0);
  cl_platform_id platform = amcl_test::amcl_platform();
  cl_int err = CL_SUCCESS;
  if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &handles.device, nullptr) ||
      !(handles.context =
            clCreateContext(nullptr, 1, &handles.device, ignore_notes, nullptr, &err)) ||
      !(handles.queue =
            clCreateCommandQueueWithProperties(handles.context, handles.device, nullptr, &err))) {
    std::fprintf(stderr, "api_fuzzer: no amcl device through the ICD loader (error %d)\n", err);
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  amcl_fuzz::ByteChoices choices(data, size);
  amcl_fuzz::ApiCallSequence sequence(handles, choices);
  while (!choices.exhausted()) sequence.step();
  sequence.release_all();
  for (const std::string& failure : sequence.failures()) amcl_fuzz::require(failure);
  return 0;
}
