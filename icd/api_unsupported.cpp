// Entry points of features amcl's devices do not have: pipes (CL_DEVICE_PIPE_SUPPORT false),
// native kernels (CL_EXEC_NATIVE_KERNEL not reported), program release callbacks, and GL
// sharing (cl_khr_gl_sharing not reported). Each checks the objects it is given first, as the
// OpenCL 3.0 specification lists those errors, then returns the error the specification gives
// for a device without the feature: CL_INVALID_OPERATION for creation and enqueue, and the
// invalid-object error where no such object can exist (a pipe).
#include "api_util.h"

#include <CL/cl_gl.h>

using namespace amcl;
using namespace amcl::icd;

namespace {

// An enqueue on a valid queue of a device without the feature.
cl_int unsupported_on(cl_command_queue q) {
  return rt::valid(q) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

// GL sharing: no context is ever created from a GL context.
cl_mem no_gl_context(cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = CL_INVALID_CONTEXT;
  return nullptr;
}

// A creation in a valid context none of whose devices has the feature.
template <class T> T unsupported_in(cl_context context, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = rt::valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
  return nullptr;
}

} // namespace

extern "C" {

// Pipes.
cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                const cl_pipe_properties*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}

// Deprecated in 3.0: for destructors of program-scope globals, which OpenCL C programs do not have.
cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK* fn)(cl_program, void*), void*) {
  if (!rt::valid(program)) return CL_INVALID_PROGRAM;
  return fn ? CL_INVALID_OPERATION : CL_INVALID_VALUE;
}

// Native kernels (CL_DEVICE_EXECUTION_CAPABILITIES has CL_EXEC_KERNEL only).
cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK*)(void*), void*,
                                         size_t, cl_uint, const cl_mem*, const void**, cl_uint,
                                         const cl_event*, cl_event*) {
  return unsupported_on(q);
}

// GL sharing: no context is ever created from a GL context.
cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
  return no_gl_context(errcode_ret);
}
cl_mem CL_API_CALL clCreateFromGLTexture(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                         cl_int* errcode_ret) {
  return no_gl_context(errcode_ret);
}
cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                           cl_int* errcode_ret) {
  return no_gl_context(errcode_ret);
}
cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                                           cl_int* errcode_ret) {
  return no_gl_context(errcode_ret);
}
cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context, cl_mem_flags, cl_GLuint,
                                              cl_int* errcode_ret) {
  return no_gl_context(errcode_ret);
}
cl_int CL_API_CALL clGetGLObjectInfo(cl_mem, cl_gl_object_type*, cl_GLuint*) {
  return CL_INVALID_MEM_OBJECT;
}
cl_int CL_API_CALL clGetGLTextureInfo(cl_mem, cl_gl_texture_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}
cl_int CL_API_CALL clEnqueueAcquireGLObjects(cl_command_queue q, cl_uint, const cl_mem*, cl_uint,
                                             const cl_event*, cl_event*) {
  return rt::valid(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}
cl_int CL_API_CALL clEnqueueReleaseGLObjects(cl_command_queue q, cl_uint, const cl_mem*, cl_uint,
                                             const cl_event*, cl_event*) {
  return rt::valid(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}

} // extern "C"
