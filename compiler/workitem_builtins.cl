// OpenCL work-item functions for amcl's dispatch ABI (code object v5 hidden kernel arguments,
// LLVM AMDGPUUsage "Code Object V5 Metadata"): libclc's amdgcn versions read a different
// implicit-argument layout, so these definitions are linked ahead of libclc and win.
// Compiled in process, without the default OpenCL header, for the amdgcn-amd-amdhsa target.
typedef unsigned long size_t;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#define OVERLOAD __attribute__((overloadable, always_inline))

// Offsets of the hidden arguments from the implicit-argument pointer.
#define HIDDEN_BLOCK_COUNT 0   /* u32 x3: whole work-groups per dimension */
#define HIDDEN_GROUP_SIZE 12   /* u16 x3: enqueued work-group size */
#define HIDDEN_REMAINDER 18    /* u16 x3: size of the trailing partial work-group */
#define HIDDEN_GLOBAL_OFFSET 40 /* u64 x3 */
#define HIDDEN_GRID_DIMS 64    /* u16 */

static inline __constant char* implicit_args(void) {
  return (__constant char*)__builtin_amdgcn_implicitarg_ptr();
}
static inline uint block_count(uint d) {
  return ((__constant uint*)(implicit_args() + HIDDEN_BLOCK_COUNT))[d];
}
static inline uint group_size(uint d) {
  return ((__constant ushort*)(implicit_args() + HIDDEN_GROUP_SIZE))[d];
}
static inline uint remainder(uint d) {
  return ((__constant ushort*)(implicit_args() + HIDDEN_REMAINDER))[d];
}

OVERLOAD uint get_work_dim(void) { return *(__constant ushort*)(implicit_args() + HIDDEN_GRID_DIMS); }

OVERLOAD size_t get_global_offset(uint d) {
  return d < 3 ? ((__constant ulong*)(implicit_args() + HIDDEN_GLOBAL_OFFSET))[d] : 0;
}
OVERLOAD size_t get_group_id(uint d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workgroup_id_x();
  case 1: return __builtin_amdgcn_workgroup_id_y();
  case 2: return __builtin_amdgcn_workgroup_id_z();
  default: return 0;
  }
}
OVERLOAD size_t get_local_id(uint d) {
  switch (d) {
  case 0: return __builtin_amdgcn_workitem_id_x();
  case 1: return __builtin_amdgcn_workitem_id_y();
  case 2: return __builtin_amdgcn_workitem_id_z();
  default: return 0;
  }
}
OVERLOAD size_t get_enqueued_local_size(uint d) { return d < 3 ? group_size(d) : 1; }
OVERLOAD size_t get_num_groups(uint d) {
  return d < 3 ? (size_t)block_count(d) + (remainder(d) != 0) : 1;
}
OVERLOAD size_t get_local_size(uint d) {
  if (d >= 3) return 1;
  // The last work-group of a non-uniform NDRange is the partial one.
  return get_group_id(d) == block_count(d) && remainder(d) ? remainder(d) : group_size(d);
}
OVERLOAD size_t get_global_size(uint d) {
  return d < 3 ? (size_t)block_count(d) * group_size(d) + remainder(d) : 1;
}
OVERLOAD size_t get_global_id(uint d) {
  if (d >= 3) return 0;
  return get_group_id(d) * group_size(d) + get_local_id(d) + get_global_offset(d);
}
OVERLOAD size_t get_global_linear_id(void) {
  size_t id0 = get_global_id(0) - get_global_offset(0);
  size_t id1 = get_global_id(1) - get_global_offset(1);
  size_t id2 = get_global_id(2) - get_global_offset(2);
  return (id2 * get_global_size(1) + id1) * get_global_size(0) + id0;
}
OVERLOAD size_t get_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}

// printf (OpenCL C 3.0 §6.15.14). LLVM's AMDGPU printf lowering turns each call into
// __printf_alloc(record bytes) followed by stores of the format's id and the arguments
// (the formats themselves go to the code object's amdhsa.printf metadata). The buffer is the
// kernel's hidden_printf_buffer argument; amcl's runtime lays it out as
//   u32 bytes used by records | u32 bytes available for records | records...
// A record that does not fit is dropped (null), as the specification allows.
#define HIDDEN_PRINTF_BUFFER 72 /* global char* */
#define PRINTF_HEADER 8

__global char* __printf_alloc(uint bytes) {
  __global char* buf = (__global char*)*(__constant ulong*)(implicit_args() + HIDDEN_PRINTF_BUFFER);
  if (!buf) return 0;
  volatile __global atomic_uint* used = (volatile __global atomic_uint*)buf;
  const uint capacity = ((__global uint*)buf)[1];
  uint offset = __opencl_atomic_load(used, __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  do {
    if (bytes > capacity || offset > capacity - bytes) return 0;
  } while (!__opencl_atomic_compare_exchange_strong(used, &offset, offset + bytes, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE));
  return buf + PRINTF_HEADER + offset;
}

// to_global/to_local/to_private (OpenCL C 3.0 §6.15.10, with __opencl_c_generic_address_space):
// clang calls these by name and libclc does not provide them. The hardware tells the address
// spaces apart by the shared and private apertures.
__global void* __to_global(__generic void* p) {
  return __builtin_amdgcn_is_shared(p) || __builtin_amdgcn_is_private(p) ? 0 : (__global void*)p;
}
__local void* __to_local(__generic void* p) {
  return __builtin_amdgcn_is_shared(p) ? (__local void*)p : 0;
}
__private void* __to_private(__generic void* p) {
  return __builtin_amdgcn_is_private(p) ? (__private void*)p : 0;
}
