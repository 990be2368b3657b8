// Entry points of features amcl's devices do not have: images and samplers
// (CL_DEVICE_IMAGE_SUPPORT false), pipes (CL_DEVICE_PIPE_SUPPORT false), intermediate-language
// programs (CL_DEVICE_IL_VERSION empty), native kernels (CL_EXEC_NATIVE_KERNEL not reported),
// program release callbacks, and GL sharing (cl_khr_gl_sharing not reported). Each checks the objects it is given first, as the
// OpenCL 3.0 specification lists those errors, then returns the error the specification gives
// for a device without the feature: CL_INVALID_OPERATION for creation and enqueue, and the
// invalid-object error where no such object can exist (an image, a sampler, a pipe).
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

// Images.
cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                 const cl_image_desc*, void*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                               cl_mem_flags, const cl_image_format*,
                                               const cl_image_desc*, void*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                   size_t, size_t, void*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                   size_t, size_t, size_t, size_t, void*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_int CL_API_CALL clGetImageInfo(cl_mem, cl_image_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}
cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem, cl_bool, const size_t*,
                                      const size_t*, size_t, size_t, void*, cl_uint,
                                      const cl_event*, cl_event*) {
  return unsupported_on(q);
}
cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem, cl_bool, const size_t*,
                                       const size_t*, size_t, size_t, const void*, cl_uint,
                                       const cl_event*, cl_event*) {
  return unsupported_on(q);
}
cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem, const void*, const size_t*,
                                      const size_t*, cl_uint, const cl_event*, cl_event*) {
  return unsupported_on(q);
}
cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem, cl_mem, const size_t*,
                                      const size_t*, const size_t*, cl_uint, const cl_event*,
                                      cl_event*) {
  return unsupported_on(q);
}
cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem, cl_mem, const size_t*,
                                              const size_t*, size_t, cl_uint, const cl_event*,
                                              cl_event*) {
  return unsupported_on(q);
}
cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem, cl_mem, size_t,
                                              const size_t*, const size_t*, cl_uint,
                                              const cl_event*, cl_event*) {
  return unsupported_on(q);
}
void* CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem, cl_bool, cl_map_flags,
                                    const size_t*, const size_t*, size_t*, size_t*, cl_uint,
                                    const cl_event*, cl_event*, cl_int* errcode_ret) {
  if (errcode_ret) *errcode_ret = unsupported_on(q);
  return nullptr;
}

// Samplers exist only for images.
cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool, cl_addressing_mode,
                                       cl_filter_mode, cl_int* errcode_ret) {
  return unsupported_in<cl_sampler>(context, errcode_ret);
}
cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties*,
                                                     cl_int* errcode_ret) {
  return unsupported_in<cl_sampler>(context, errcode_ret);
}
cl_int CL_API_CALL clRetainSampler(cl_sampler) {
  return CL_INVALID_SAMPLER;
}
cl_int CL_API_CALL clReleaseSampler(cl_sampler) {
  return CL_INVALID_SAMPLER;
}
cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
  return CL_INVALID_SAMPLER;
}

// Pipes.
cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                const cl_pipe_properties*, cl_int* errcode_ret) {
  return unsupported_in<cl_mem>(context, errcode_ret);
}
cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}

// Intermediate-language programs (SPIR-V) and what only they have.
cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void*, size_t,
                                             cl_int* errcode_ret) {
  return unsupported_in<cl_program>(context, errcode_ret);
}
cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint, size_t,
                                                      const void*) {
  return rt::valid(program) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
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
