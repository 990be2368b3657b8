// Random OpenCL API call sequences against one context and queue (see the .cpp).
#pragma once
#include "choices.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <memory>
#include <string>
#include <vector>

namespace amcl_fuzz {

class ApiCallSequence {
public:
  struct Handles {
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
  };
  ApiCallSequence(Handles h, Choices& c);
  ~ApiCallSequence();

  void step();        // one API call (sometimes a few that belong together)
  void release_all(); // completes user events, finishes the queue, drops every owned handle

  size_t calls() const;
  size_t released() const;
  // Promises amcl broke (a release of an owned handle failing): empty when all is well.
  const std::vector<std::string>& failures() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace amcl_fuzz
