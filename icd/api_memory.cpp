// Buffer objects.
#include "api_util.h"
#include "enqueue.h"

using namespace amcl;
using namespace amcl::icd;

extern "C" {

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr,
                                                cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    require(context, CL_INVALID_CONTEXT);
    // OpenCL 3.0 defines no buffer properties; extensions that add some are not supported.
    if (properties && properties[0] != 0) throw ClError{CL_INVALID_PROPERTY, ""};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, flags, size, host_ptr, &err);
    if (!m) throw ClError{err, ""};
    if (properties) m->properties = {0};
    return m;
  });
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    require(context, CL_INVALID_CONTEXT);
    if (flags == 0) flags = CL_MEM_READ_WRITE;
    const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                               CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                               CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    auto count = [](cl_mem_flags f) { return __builtin_popcountll(f); };
    if ((flags & ~known) ||
        count(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1 ||
        count(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) > 1 ||
        ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
      throw ClError{CL_INVALID_VALUE, ""};
    bool needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (needs_ptr != (host_ptr != nullptr)) throw ClError{CL_INVALID_HOST_PTR, ""};
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(context->devices[0], CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr);
    if (size == 0 || size > max_alloc) throw ClError{CL_INVALID_BUFFER_SIZE, ""};
    auto m = std::make_unique<_cl_mem>();
    m->context = context;
    rt::retain(context); // released by ~_cl_mem, also when creation fails below
    m->flags = flags;
    m->size = size;
    m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
    am::Device& dev = *context->devices[0]->am;
    try {
      m->alloc = dev.alloc_vram(size);
      // One VA space for every card: the context's other devices map the same address to this
      // VRAM (through its BAR), so any of them can run commands on the buffer.
      for (size_t i = 1; i < context->devices.size(); ++i) context->devices[i]->am->map_peer(m->alloc);
    } catch (const am::DeviceError&) {
      throw ClError{CL_MEM_OBJECT_ALLOCATION_FAILURE, ""}; // ~_cl_mem unmaps and frees what was done
    }
    if (needs_ptr) {
      // Through the device's own staging buffer: creating a buffer needs no queue.
      cl_device_id d = context->devices[0];
      std::lock_guard lock(d->staging_mutex);
      copy_to_device(dev, d->staging, m->alloc.va, static_cast<const uint8_t*>(host_ptr), size);
    }
    return m.release();
  });
}

// The devices have no image support (CL_DEVICE_IMAGE_SUPPORT is false): every valid query
// succeeds with no formats.
cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format* formats, cl_uint* num_formats) {
  if (!rt::valid(context)) return CL_INVALID_CONTEXT;
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                             CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                             CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS |
                             CL_MEM_KERNEL_READ_AND_WRITE;
  switch (image_type) {
  case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D: break;
  default: return CL_INVALID_VALUE;
  }
  if ((flags & ~known) || (num_entries == 0 && formats)) return CL_INVALID_VALUE;
  if (num_formats) *num_formats = 0;
  return CL_SUCCESS;
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
  case CL_MEM_TYPE: return rt::write_info(cl_mem_object_type(CL_MEM_OBJECT_BUFFER), size, value, size_ret);
  case CL_MEM_FLAGS: return rt::write_info(m->flags, size, value, size_ret);
  case CL_MEM_SIZE: return rt::write_info(m->size, size, value, size_ret);
  case CL_MEM_HOST_PTR: return rt::write_info(m->host_ptr, size, value, size_ret);
  case CL_MEM_MAP_COUNT: return rt::write_info(cl_uint(m->map_count), size, value, size_ret);
  case CL_MEM_REFERENCE_COUNT: return rt::write_info(cl_uint(m->refs), size, value, size_ret);
  case CL_MEM_CONTEXT: return rt::write_info(m->context, size, value, size_ret);
  case CL_MEM_ASSOCIATED_MEMOBJECT: return rt::write_info(m->parent, size, value, size_ret);
  case CL_MEM_OFFSET: return rt::write_info(m->offset, size, value, size_ret);
  case CL_MEM_USES_SVM_POINTER: return rt::write_info(cl_bool(CL_FALSE), size, value, size_ret);
  case CL_MEM_PROPERTIES: return rt::write_info_vector(m->properties, size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

} // extern "C"
