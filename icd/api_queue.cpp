// Command queues, events, markers and barriers (runtime/scheduler.h says how commands
// execute).
#include "api_util.h"
#include "enqueue.h"
#include "runtime/device_caps.h"
#include "runtime/queue.h"
#include "runtime/scheduler.h"

#include <algorithm>

using namespace amcl;
using namespace amcl::icd;

namespace {

// Every queue property OpenCL 3.0 defines; those beyond kHostQueueProperties are valid but
// not supported (CL_INVALID_QUEUE_PROPERTIES rather than CL_INVALID_VALUE).
constexpr cl_command_queue_properties kKnownQueueProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

} // namespace

extern "C" {

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties* props,
                                                                cl_int* errcode_ret) {
  return create<cl_command_queue>(errcode_ret, [&]() -> cl_command_queue {
    require(context, CL_INVALID_CONTEXT);
    if (!rt::valid(device) ||
        std::find(context->devices.begin(), context->devices.end(), device) == context->devices.end())
      throw ClError{CL_INVALID_DEVICE, ""};
    cl_command_queue_properties properties = 0;
    std::vector<cl_queue_properties> list;
    for (size_t i = 0; props && props[i]; i += 2) {
      if (props[i] == CL_QUEUE_PROPERTIES) {
        cl_command_queue_properties v = props[i + 1];
        if (v & ~kKnownQueueProperties) throw ClError{CL_INVALID_VALUE, ""};
        if (v & ~rt::kHostQueueProperties) throw ClError{CL_INVALID_QUEUE_PROPERTIES, ""};
        properties = v;
      } else if (props[i] == CL_QUEUE_SIZE) {
        throw ClError{CL_INVALID_QUEUE_PROPERTIES, ""};
      } else {
        throw ClError{CL_INVALID_VALUE, ""};
      }
      list.push_back(props[i]);
      list.push_back(props[i + 1]);
    }
    if (!list.empty()) list.push_back(0);
    return rt::create_queue(context, device, properties, std::move(list));
  });
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int* errcode_ret) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, properties, 0};
  return clCreateCommandQueueWithProperties(context, device, properties ? props : nullptr,
                                            errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue h) { return retain_handle(h, CL_INVALID_COMMAND_QUEUE); }

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue h) { return release_handle(h, CL_INVALID_COMMAND_QUEUE); }

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size,
                                         void* value, size_t* size_ret) {
  if (!rt::valid(q)) return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
  case CL_QUEUE_CONTEXT: return rt::write_info(q->context, size, value, size_ret);
  case CL_QUEUE_DEVICE: return rt::write_info(q->device, size, value, size_ret);
  case CL_QUEUE_REFERENCE_COUNT: return rt::write_info(cl_uint(q->refs), size, value, size_ret);
  case CL_QUEUE_PROPERTIES: return rt::write_info(q->properties, size, value, size_ret);
  case CL_QUEUE_PROPERTIES_ARRAY: return rt::write_info_vector(q->property_list, size, value, size_ret);
  case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;
  case CL_QUEUE_DEVICE_DEFAULT: return rt::write_info(cl_command_queue(nullptr), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

// OpenCL 1.0's way to switch queue properties (deprecated since 1.1, still in the ICD table).
cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties properties,
                                             cl_bool enable, cl_command_queue_properties* old_properties) {
  if (!rt::valid(q)) return CL_INVALID_COMMAND_QUEUE;
  if (properties & ~kKnownQueueProperties) return CL_INVALID_VALUE;
  if (properties & ~rt::kHostQueueProperties) return CL_INVALID_QUEUE_PROPERTIES;
  if (old_properties) *old_properties = q->properties;
  rt::set_queue_properties(q, properties, enable);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clFlush(cl_command_queue q) {
  if (!rt::valid(q)) return CL_INVALID_COMMAND_QUEUE;
  rt::flush(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!rt::valid(q)) return CL_INVALID_COMMAND_QUEUE;
  rt::finish(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nwait, const cl_event* wait,
                                               cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_wait_list(q, nwait, wait);
    // In order, a marker completes after everything before it; its wait list adds to that.
    return hand_back(rt::enqueue(q, CL_COMMAND_MARKER, wait, nwait, nullptr, false), event);
  });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nwait, const cl_event* wait,
                                                cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue(q, CL_COMMAND_BARRIER, wait, nwait, nullptr, false), event);
  });
}

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event* list) {
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; ++i)
    if (!rt::valid(list[i])) return CL_INVALID_EVENT;
  for (cl_uint i = 0; i < n; ++i)
    if (list[i]->context != list[0]->context) return CL_INVALID_CONTEXT;
  return rt::wait_for(list, n);
}

cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info param, size_t size, void* value,
                                  size_t* size_ret) {
  if (!rt::valid(e)) return CL_INVALID_EVENT;
  switch (param) {
  case CL_EVENT_COMMAND_QUEUE: return rt::write_info(e->queue, size, value, size_ret);
  case CL_EVENT_CONTEXT: return rt::write_info(e->context, size, value, size_ret);
  case CL_EVENT_COMMAND_TYPE: return rt::write_info(e->type, size, value, size_ret);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: return rt::write_info(cl_int(e->status), size, value, size_ret);
  case CL_EVENT_REFERENCE_COUNT: return rt::write_info(cl_uint(e->refs), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info param, size_t size, void* value,
                                           size_t* size_ret) {
  if (!rt::valid(e)) return CL_INVALID_EVENT;
  switch (param) {
  case CL_PROFILING_COMMAND_QUEUED: case CL_PROFILING_COMMAND_SUBMIT: case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END: case CL_PROFILING_COMMAND_COMPLETE: break;
  default: return CL_INVALID_VALUE;
  }
  // Only a completed command of a profiling queue has times (a failed one never completed);
  // its times are final once its status is (the scheduler writes them first).
  // (`timed`: enqueued while its queue profiled; clSetCommandQueueProperty may switch it since.)
  if (!e->timed || e->status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
  case CL_PROFILING_COMMAND_QUEUED: return rt::write_info(e->queued, size, value, size_ret);
  case CL_PROFILING_COMMAND_SUBMIT: return rt::write_info(e->submit, size, value, size_ret);
  case CL_PROFILING_COMMAND_START: return rt::write_info(e->start, size, value, size_ret);
  case CL_PROFILING_COMMAND_END: case CL_PROFILING_COMMAND_COMPLETE:
    return rt::write_info(e->end, size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  return create<cl_event>(errcode_ret, [&]() -> cl_event {
    require(context, CL_INVALID_CONTEXT);
    return rt::create_user_event(context);
  });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int status) {
  if (!rt::valid(e) || e->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (status > CL_COMPLETE) return CL_INVALID_VALUE;
  if (e->status <= CL_COMPLETE) return CL_INVALID_OPERATION; // already set
  rt::set_status(e, status);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int type,
                                      void(CL_CALLBACK* fn)(cl_event, cl_int, void*), void* data) {
  if (!rt::valid(e)) return CL_INVALID_EVENT;
  if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
  rt::add_callback(e, type, fn, data);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event* event) {
  if (!event) return CL_INVALID_VALUE;
  return clEnqueueMarkerWithWaitList(q, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) {
  return clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event* list) {
  if (!rt::valid(q)) return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !list) return CL_INVALID_VALUE;
  return clEnqueueBarrierWithWaitList(q, n, list, nullptr);
}

cl_int CL_API_CALL clRetainEvent(cl_event h) { return retain_handle(h, CL_INVALID_EVENT); }

cl_int CL_API_CALL clReleaseEvent(cl_event h) { return release_handle(h, CL_INVALID_EVENT); }

} // extern "C"
