// Buffer objects: creation, sub-buffers, callbacks, queries.
#include "api_util.h"
#include "mem_flags.h"
#include "runtime/svm.h"

using namespace amcl;
using namespace amcl::icd;

namespace {

// clCreateBuffer's checks, also clCreateBufferWithProperties' once its properties are (a
// non-null list is kept, as the empty list it must be, for CL_MEM_PROPERTIES).
cl_mem create_checked_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                             const cl_mem_properties* properties) {
  require(context, CL_INVALID_CONTEXT);
  if (flags == 0) flags = CL_MEM_READ_WRITE;
  check_mem_flags(flags, kBufferFlags);
  bool needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needs_ptr != (host_ptr != nullptr)) throw ClError{CL_INVALID_HOST_PTR, ""};
  cl_ulong max_alloc = 0;
  clGetDeviceInfo(context->devices[0], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                  nullptr);
  if (size == 0 || size > max_alloc) throw ClError{CL_INVALID_BUFFER_SIZE, ""};
  // OpenCL 3.0: a buffer on SVM memory may not be larger than the allocation it starts in.
  if (flags & CL_MEM_USE_HOST_PTR)
    if (auto svm = rt::svm_region(context, host_ptr, 0);
        svm && size > svm->size - size_t(static_cast<uint8_t*>(host_ptr) - svm->base))
      throw ClError{CL_INVALID_BUFFER_SIZE, ""};
  std::vector<cl_mem_properties> kept;
  if (properties) kept = {0};
  return rt::create_buffer(context, flags, size, host_ptr, std::move(kept));
}

} // namespace

extern "C" {

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr,
                                                cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    require(context, CL_INVALID_CONTEXT);
    // OpenCL 3.0 defines no buffer properties; extensions that add some are not supported.
    if (properties && properties[0] != 0) throw ClError{CL_INVALID_PROPERTY, ""};
    return create_checked_buffer(context, flags, size, host_ptr, properties);
  });
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    return create_checked_buffer(context, flags, size, host_ptr, nullptr);
  });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void* info, cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    require(parent, CL_INVALID_MEM_OBJECT);
    if (parent->parent || parent->image) throw ClError{CL_INVALID_MEM_OBJECT, ""};
    if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) throw ClError{CL_INVALID_VALUE, ""};
    const auto* region = static_cast<const cl_buffer_region*>(info);
    if (region->size == 0) throw ClError{CL_INVALID_BUFFER_SIZE, ""};
    if (region->origin > parent->size || region->size > parent->size - region->origin)
      throw ClError{CL_INVALID_VALUE, ""};
    cl_uint align_bits = 0;
    clGetDeviceInfo(parent->context->devices[0], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                    &align_bits, nullptr);
    if (region->origin % (align_bits / 8)) throw ClError{CL_MISALIGNED_SUB_BUFFER_OFFSET, ""};
    // Access flags are inherited unless given, and may not widen the parent's.
    check_sub_buffer_flags(parent->flags, flags);
    return rt::create_sub_buffer(parent, flags, region->origin, region->size);
  });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem h) { return retain_handle(h, CL_INVALID_MEM_OBJECT); }

cl_int CL_API_CALL clReleaseMemObject(cl_mem h) { return release_handle(h, CL_INVALID_MEM_OBJECT); }

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK* fn)(cl_mem, void*),
                                                    void* data) {
  if (!rt::valid(m)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  m->destructors.push_back({fn, data});
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void* value,
                                      size_t* size_ret) {
  if (!rt::valid(m)) return CL_INVALID_MEM_OBJECT;
  switch (param) {
  case CL_MEM_TYPE:
    return rt::write_info(m->image ? m->image->desc.image_type : cl_mem_object_type(CL_MEM_OBJECT_BUFFER),
                          size, value, size_ret);
  case CL_MEM_FLAGS: return rt::write_info(m->flags, size, value, size_ret);
  case CL_MEM_SIZE: return rt::write_info(m->size, size, value, size_ret);
  case CL_MEM_HOST_PTR: return rt::write_info(m->host_ptr, size, value, size_ret);
  case CL_MEM_MAP_COUNT: return rt::write_info(cl_uint(m->map_count), size, value, size_ret);
  case CL_MEM_REFERENCE_COUNT: return rt::write_info(cl_uint(m->refs), size, value, size_ret);
  case CL_MEM_CONTEXT: return rt::write_info(m->context, size, value, size_ret);
  case CL_MEM_ASSOCIATED_MEMOBJECT: return rt::write_info(m->parent, size, value, size_ret);
  case CL_MEM_OFFSET: return rt::write_info(m->offset, size, value, size_ret);
  case CL_MEM_USES_SVM_POINTER:
    return rt::write_info(cl_bool((m->parent ? m->parent : m)->uses_svm_pointer), size, value,
                          size_ret);
  case CL_MEM_PROPERTIES: return rt::write_info_vector(m->properties, size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

} // extern "C"
