// OpenCL work-item functions for amcl's dispatch ABI (code object v5 hidden kernel arguments,
// LLVM AMDGPUUsage "Code Object V5 Metadata"): libclc's amdgcn versions read a different
// implicit-argument layout, so these definitions are linked ahead of libclc and win.
// Compiled in process, without the default OpenCL header, for the amdgcn-amd-amdhsa target.
typedef unsigned long size_t;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char uchar;
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
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

// Sub-groups (cl_khr_subgroups, OpenCL C 3.0 §6.15.16 with __opencl_c_subgroups): a sub-group
// is one wave (wave32 unless the program was built with -mwavefrontsize64; these builtins are
// compiled once for each, AMCL_WAVE64 telling which), so a work-group's sub-groups are its
// consecutive runs of SG_WAVE work-items in local linear order, the order in which the
// dispatcher packs work-items into waves. The last sub-group of a work-group whose size is not
// a multiple of SG_WAVE is partial: its missing lanes are off in EXEC. The collectives walk the
// active lanes in order (readlane of a uniform lane), which is exact for every type and for
// partial sub-groups, at the cost of one step per active lane. Lane masks (sg_mask) are EXEC's
// width.
#define SG OVERLOAD __attribute__((convergent))
#ifdef AMCL_WAVE64
#define SG_WAVE 64u
typedef ulong sg_mask;
static inline sg_mask sg_active(void) { return __builtin_amdgcn_read_exec(); }
static inline sg_mask sg_ballot(int predicate) { return __builtin_amdgcn_ballot_w64(predicate != 0); }
static inline uint sg_lane(void) { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }
#define SG_CTZ(m) ((uint)__builtin_ctzl(m))
#define SG_CLZ(m) ((uint)__builtin_clzl(m))
#define SG_POPCOUNT(m) ((uint)__builtin_popcountl(m))
#else
#define SG_WAVE 32u
typedef uint sg_mask;
static inline sg_mask sg_active(void) { return __builtin_amdgcn_read_exec_lo(); }
static inline sg_mask sg_ballot(int predicate) { return __builtin_amdgcn_ballot_w32(predicate != 0); }
static inline uint sg_lane(void) { return __builtin_amdgcn_mbcnt_lo(~0u, 0u); }
#define SG_CTZ(m) ((uint)__builtin_ctz(m))
#define SG_CLZ(m) ((uint)__builtin_clz(m))
#define SG_POPCOUNT(m) ((uint)__builtin_popcount(m))
#endif
#define SG_FULL ((sg_mask)~(sg_mask)0)
// The mask of lanes 0..n-1 (n <= SG_WAVE).
static inline sg_mask sg_below(uint n) { return n >= SG_WAVE ? SG_FULL : ((sg_mask)1 << n) - 1; }
static inline uint sg_local_linear_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}
static inline uint sg_enqueued_linear_size(void) {
  return get_enqueued_local_size(0) * get_enqueued_local_size(1) * get_enqueued_local_size(2);
}

OVERLOAD uint get_sub_group_id(void) { return get_local_linear_id() / SG_WAVE; }
OVERLOAD uint get_sub_group_local_id(void) { return sg_lane(); }
OVERLOAD uint get_num_sub_groups(void) { return (sg_local_linear_size() + SG_WAVE - 1) / SG_WAVE; }
OVERLOAD uint get_enqueued_num_sub_groups(void) {
  return (sg_enqueued_linear_size() + SG_WAVE - 1) / SG_WAVE;
}
OVERLOAD uint get_sub_group_size(void) {
  const uint rest = sg_local_linear_size() - get_sub_group_id() * SG_WAVE;
  return rest < SG_WAVE ? rest : SG_WAVE;
}
OVERLOAD uint get_max_sub_group_size(void) {
  const uint n = sg_enqueued_linear_size();
  return n < SG_WAVE ? n : SG_WAVE;
}

// A wave executes in lock step, so a sub-group barrier only orders memory: wait for this
// lane's outstanding accesses of the named kinds (the fence), then keep the compiler from
// moving accesses across it (wave_barrier).
SG void sub_group_barrier(uint flags) {
  if (flags) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  __builtin_amdgcn_wave_barrier();
}
// The scope parameter's type mangles by its enum name (..._Z17sub_group_barrierj12memory_scope).
typedef enum memory_scope { amcl_memory_scope_any } memory_scope;
SG void sub_group_barrier(uint flags, memory_scope scope) { sub_group_barrier(flags); }

SG int sub_group_all(int predicate) { return sg_ballot(predicate) == sg_active(); }
SG int sub_group_any(int predicate) { return sg_ballot(predicate) != 0; }

// Lane l's value of x (l uniform and active).
static inline uint sg_read32(uint x, uint l) { return __builtin_amdgcn_readlane(x, l); }
static inline ulong sg_read64(ulong x, uint l) {
  return sg_read32((uint)x, l) | ((ulong)sg_read32((uint)(x >> 32), l) << 32);
}
#define SG_READ_int(x, l) __builtin_astype(sg_read32(__builtin_astype(x, uint), l), int)
#define SG_READ_uint(x, l) sg_read32(x, l)
#define SG_READ_float(x, l) __builtin_astype(sg_read32(__builtin_astype(x, uint), l), float)
#define SG_READ_long(x, l) __builtin_astype(sg_read64(__builtin_astype(x, ulong), l), long)
#define SG_READ_ulong(x, l) sg_read64(x, l)
#define SG_READ_double(x, l) __builtin_astype(sg_read64(__builtin_astype(x, ulong), l), double)
// The narrow types travel in the low bits of a dword.
#define SG_READ_char(x, l) ((char)sg_read32((uint)(uchar)(x), l))
#define SG_READ_uchar(x, l) ((uchar)sg_read32((uint)(x), l))
#define SG_READ_short(x, l) ((short)sg_read32((uint)(ushort)(x), l))
#define SG_READ_ushort(x, l) ((ushort)sg_read32((uint)(x), l))
#define SG_READ_half(x, l) \
  __builtin_astype((ushort)sg_read32((uint)__builtin_astype(x, ushort), l), half)

#define SG_ADD(a, b) ((a) + (b))
#define SG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define SG_MAX(a, b) ((b) > (a) ? (b) : (a))

// Reduce, inclusive and exclusive scan of one operation over the active lanes, named REDUCE,
// INCL and EXCL; IDENT is the operation's identity, which the exclusive scan returns in the
// first active lane (§6.15.16); IN maps the argument first (logical operations take 0/1).
#define SG_FOLD(T, REDUCE, INCL, EXCL, OP, IDENT, IN)                                           \
  SG_FOLD_FN(T, REDUCE(T arg), OP, IDENT, IN, 1,                                                 \
             SG_DPP_USE_##OP, SG_DPP_REDUCE(T, SG_DPP_OF_##OP, x))                               \
  SG_FOLD_FN(T, INCL(T arg), OP, IDENT, IN, l <= me,                                             \
             SG_DPP_USE_##OP, SG_DPP_SCAN(T, SG_DPP_OF_##OP, IDENT, x, 0))                        \
  SG_FOLD_FN(T, EXCL(T arg), OP, IDENT, IN, l < me,                                              \
             SG_DPP_USE_##OP, SG_DPP_SCAN(T, SG_DPP_OF_##OP, IDENT, x, 1))
// A whole-wave32 add/min/max of a 32-bit integer type when every lane is active: a butterfly over
// each row of 16 lanes with DPP row_xmask (1, 2, 4, 8), then the two rows' results combined:
// 4 DPP steps and 2 readlanes instead of a 32-step walk. Integer operations only: they are
// associative, so the order does not show (a float sum's rounding would). The combining
// operations are clang's elementwise min/max, not selects: LLVM 22 turns a select on a DPP value into
// a branch and sinks the DPP move into it, where its source lanes are disabled (a miscompile
// fixed upstream by llvm-project#183334, "Ensure all DPP instructions are convergent").
#define SG_DPP_OK(T) (SG_WAVE == 32 && sizeof(T) == 4 && (T)0.5f == (T)0)
#define SG_DPP_USE_SG_ADD 1
#define SG_DPP_USE_SG_MIN 1
#define SG_DPP_USE_SG_MAX 1
#define SG_DPP_USE_SG_MUL 0
#define SG_DPP_USE_SG_AND 0
#define SG_DPP_USE_SG_OR 0
#define SG_DPP_USE_SG_XOR 0
#define SG_DPP_USE_SG_LAND 0
#define SG_DPP_USE_SG_LOR 0
#define SG_DPP_USE_SG_LXOR 0
#define SG_DPP_OF_SG_ADD(a, b) ((a) + (b))
#define SG_DPP_OF_SG_MIN(a, b) __builtin_elementwise_min(a, b)
#define SG_DPP_OF_SG_MAX(a, b) __builtin_elementwise_max(a, b)
// The others never take the DPP path; these only keep the dead branch compiling.
#define SG_DPP_OF_SG_MUL SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_AND SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_OR SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_XOR SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_LAND SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_LOR SG_DPP_OF_SG_ADD
#define SG_DPP_OF_SG_LXOR SG_DPP_OF_SG_ADD
// (Plain casts, not astype: they also compile for the types SG_DPP_OK turns away.)
#define SG_DPP_STEP(T, C, v, CTRL) v = (T)C(v, (T)__builtin_amdgcn_update_dpp(0, (int)v, CTRL, 0xf, 0xf, false))
#define SG_DPP_REDUCE(T, C, x)                                                                   \
  ({                                                                                             \
    T v_ = (x);                                                                                  \
    SG_DPP_STEP(T, C, v_, 0x161);                                                                \
    SG_DPP_STEP(T, C, v_, 0x162);                                                                \
    SG_DPP_STEP(T, C, v_, 0x164);                                                                \
    SG_DPP_STEP(T, C, v_, 0x168);                                                                \
    (T)C((T)__builtin_amdgcn_readlane((int)v_, 0), (T)__builtin_amdgcn_readlane((int)v_, 16));   \
  })
// Clustered reductions: the butterfly stops at the cluster size (uniform across the wave, so
// every lane still runs each DPP step); clusters of 32 add the cross-row combination.
#define SG_DPP_CLUSTERED(T, C, x, CS)                                                            \
  ({                                                                                             \
    T v_ = (x);                                                                                  \
    if ((CS) > 1) SG_DPP_STEP(T, C, v_, 0x161);                                                  \
    if ((CS) > 2) SG_DPP_STEP(T, C, v_, 0x162);                                                  \
    if ((CS) > 4) SG_DPP_STEP(T, C, v_, 0x164);                                                  \
    if ((CS) > 8) SG_DPP_STEP(T, C, v_, 0x168);                                                  \
    if ((CS) > 16)                                                                               \
      v_ = (T)C((T)__builtin_amdgcn_readlane((int)v_, 0), (T)__builtin_amdgcn_readlane((int)v_, 16)); \
    v_;                                                                                          \
  })
// Whole-wave scans the same way: a Hillis-Steele scan inside each row (row_shr 1, 2, 4, 8; a
// lane whose source falls off the row keeps the identity DPP leaves it), the upper row then
// combined with the lower row's total; the exclusive scan is the inclusive one shifted a lane
// (row_shr 1, with lane 16 taking lane 15's value across the row boundary).
#define SG_DPP_SHR(T, I, v, CTRL) (T)__builtin_amdgcn_update_dpp((int)(I), (int)(v), CTRL, 0xf, 0xf, false)
#define SG_DPP_SCAN(T, C, I, x, EXCLUSIVE)                                                       \
  ({                                                                                             \
    const uint me_ = sg_lane();                                                                  \
    T v_ = (x);                                                                                  \
    v_ = (T)C(v_, SG_DPP_SHR(T, I, v_, 0x111));                                                  \
    v_ = (T)C(v_, SG_DPP_SHR(T, I, v_, 0x112));                                                  \
    v_ = (T)C(v_, SG_DPP_SHR(T, I, v_, 0x114));                                                  \
    v_ = (T)C(v_, SG_DPP_SHR(T, I, v_, 0x118));                                                  \
    const T low_total_ = (T)__builtin_amdgcn_readlane((int)v_, 15);                              \
    if (me_ >= 16) v_ = (T)C(v_, low_total_);                                                    \
    if (EXCLUSIVE) {                                                                             \
      const T at15_ = (T)__builtin_amdgcn_readlane((int)v_, 15);                                 \
      v_ = SG_DPP_SHR(T, I, v_, 0x111);                                                          \
      if (me_ == 16) v_ = at15_;                                                                 \
    }                                                                                            \
    v_;                                                                                          \
  })
// One function SIGNATURE folding OP over the active lanes l (in order) for which KEEP holds;
// `me` is the calling lane. With FAST, a whole wave of a 32-bit integer type returns FAST_RESULT.
#define SG_FOLD_FN(T, SIGNATURE, OP, IDENT, IN, KEEP, FAST, FAST_RESULT)                         \
  SG T SIGNATURE {                                                                               \
    const T x = IN(arg);                                                                         \
    if (FAST && SG_DPP_OK(T) && sg_active() == SG_FULL) return FAST_RESULT;                     \
    const uint me = sg_lane();                                                                   \
    T acc = IDENT;                                                                               \
    for (sg_mask m = sg_active(); m; m &= m - 1) {                                               \
      const uint l = SG_CTZ(m);                                                                  \
      const T v = SG_READ_##T(x, l);                                                             \
      if (KEEP) acc = (T)OP(acc, v);                                                             \
    }                                                                                            \
    return acc;                                                                                  \
  }
#define SG_SAME(x) (x)
#define SG_BOOL(x) ((int)((x) != 0))

// cl_khr_subgroups' collectives, and cl_khr_subgroup_non_uniform_arithmetic's of the same
// operation (the walk over active lanes is already what "non-uniform" asks for).
#define SG_COLLECTIVE(T, NAME, OP, IDENT)                                                        \
  SG_FOLD(T, sub_group_reduce_##NAME, sub_group_scan_inclusive_##NAME,                           \
          sub_group_scan_exclusive_##NAME, OP, IDENT, SG_SAME)                                   \
  SG_NON_UNIFORM(T, NAME, OP, IDENT)
#define SG_NON_UNIFORM(T, NAME, OP, IDENT)                                                       \
  SG_FOLD(T, sub_group_non_uniform_reduce_##NAME, sub_group_non_uniform_scan_inclusive_##NAME,   \
          sub_group_non_uniform_scan_exclusive_##NAME, OP, IDENT, SG_SAME)                       \
  SG_CLUSTERED(T, sub_group_clustered_reduce_##NAME, OP, IDENT, SG_SAME)
// cl_khr_subgroup_clustered_reduce: the reduction over the active lanes of this lane's cluster
// (consecutive lanes, `clustersize` a power of two up to the sub-group size).
#define SG_CLUSTERED(T, NAME, OP, IDENT, IN)                                                     \
  SG_FOLD_FN(T, NAME(T arg, uint clustersize), OP, IDENT, IN, l / clustersize == me / clustersize, \
             SG_DPP_USE_##OP, SG_DPP_CLUSTERED(T, SG_DPP_OF_##OP, x, clustersize))

#define SG_MUL(a, b) ((a) * (b))
#define SG_AND(a, b) ((a) & (b))
#define SG_OR(a, b) ((a) | (b))
#define SG_XOR(a, b) ((a) ^ (b))
#define SG_LAND(a, b) ((a) && (b))
#define SG_LOR(a, b) ((a) || (b))
#define SG_LXOR(a, b) ((a) != (b))

#define SG_TYPE(T, MIN_VALUE, MAX_VALUE)                                                         \
  SG T sub_group_broadcast(T x, uint id) { return SG_READ_##T(x, id); }                          \
  SG_COLLECTIVE(T, add, SG_ADD, (T)0)                                                            \
  SG_COLLECTIVE(T, min, SG_MIN, MAX_VALUE)                                                       \
  SG_COLLECTIVE(T, max, SG_MAX, MIN_VALUE)                                                       \
  SG_NON_UNIFORM(T, mul, SG_MUL, (T)1)
// The narrow integer types: cl_khr_subgroup_extended_types adds them to cl_khr_subgroups'
// broadcast and collectives.
#define SG_NARROW_TYPE(T, MIN_VALUE, MAX_VALUE) SG_TYPE(T, MIN_VALUE, MAX_VALUE)
// Bitwise operations, integer types only.
#define SG_BITWISE(T)                                                                            \
  SG_NON_UNIFORM(T, and, SG_AND, (T)~(T)0)                                                       \
  SG_NON_UNIFORM(T, or, SG_OR, (T)0)                                                             \
  SG_NON_UNIFORM(T, xor, SG_XOR, (T)0)

SG_TYPE(int, (int)0x80000000, 0x7fffffff)
SG_TYPE(uint, 0u, 0xffffffffu)
SG_TYPE(long, (long)0x8000000000000000ul, 0x7fffffffffffffffl)
SG_TYPE(ulong, 0ul, 0xfffffffffffffffful)
SG_TYPE(float, -__builtin_inff(), __builtin_inff())
SG_TYPE(double, -__builtin_inf(), __builtin_inf())
SG_NARROW_TYPE(char, (char)-128, (char)127)
SG_NARROW_TYPE(uchar, (uchar)0, (uchar)255)
SG_NARROW_TYPE(short, (short)-32768, (short)32767)
SG_NARROW_TYPE(ushort, (ushort)0, (ushort)65535)
SG_BITWISE(char)
SG_BITWISE(uchar)
SG_BITWISE(short)
SG_BITWISE(ushort)
SG_BITWISE(int)
SG_BITWISE(uint)
SG_BITWISE(long)
SG_BITWISE(ulong)
// Logical operations on predicates (results 0 or 1).
SG_FOLD(int, sub_group_non_uniform_reduce_logical_and,
        sub_group_non_uniform_scan_inclusive_logical_and,
        sub_group_non_uniform_scan_exclusive_logical_and, SG_LAND, 1, SG_BOOL)
SG_FOLD(int, sub_group_non_uniform_reduce_logical_or, sub_group_non_uniform_scan_inclusive_logical_or,
        sub_group_non_uniform_scan_exclusive_logical_or, SG_LOR, 0, SG_BOOL)
SG_FOLD(int, sub_group_non_uniform_reduce_logical_xor,
        sub_group_non_uniform_scan_inclusive_logical_xor,
        sub_group_non_uniform_scan_exclusive_logical_xor, SG_LXOR, 0, SG_BOOL)
SG_CLUSTERED(int, sub_group_clustered_reduce_logical_and, SG_LAND, 1, SG_BOOL)
SG_CLUSTERED(int, sub_group_clustered_reduce_logical_or, SG_LOR, 0, SG_BOOL)
SG_CLUSTERED(int, sub_group_clustered_reduce_logical_xor, SG_LXOR, 0, SG_BOOL)
SG_TYPE(half, (half)-__builtin_inff(), (half)__builtin_inff())

// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative: each lane reads the value of
// another lane of its sub-group, which may differ from lane to lane. Walking the active lanes
// with a uniform readlane lets every lane pick the one it wants; a lane naming an inactive or
// nonexistent lane (undefined by the extensions) keeps its own value.
#define SG_SHUFFLE(T)                                                                            \
  static inline T sg_shuffle_##T(T x, uint from) {                                               \
    T r = x;                                                                                     \
    for (sg_mask m = sg_active(); m; m &= m - 1) {                                               \
      const uint l = SG_CTZ(m);                                                                  \
      const T v = SG_READ_##T(x, l);                                                             \
      if (l == from) r = v;                                                                      \
    }                                                                                            \
    return r;                                                                                    \
  }                                                                                              \
  SG T sub_group_shuffle(T x, uint id) { return sg_shuffle_##T(x, id); }                         \
  SG T sub_group_shuffle_xor(T x, uint mask) { return sg_shuffle_##T(x, sg_lane() ^ mask); }     \
  SG T sub_group_shuffle_up(T x, uint delta) { return sg_shuffle_##T(x, sg_lane() - delta); }    \
  SG T sub_group_shuffle_down(T x, uint delta) { return sg_shuffle_##T(x, sg_lane() + delta); }

// cl_khr_subgroup_non_uniform_vote: votes over the lanes active at the call.
SG int sub_group_elect(void) { return sg_lane() == SG_CTZ(sg_active()); }
SG int sub_group_non_uniform_all(int predicate) { return sg_ballot(predicate) == sg_active(); }
SG int sub_group_non_uniform_any(int predicate) { return sg_ballot(predicate) != 0; }
#define SG_ALL_EQUAL(T)                                                                          \
  SG int sub_group_non_uniform_all_equal(T x) {                                                  \
    const T first = SG_READ_##T(x, SG_CTZ(sg_active()));                                         \
    return sg_ballot(x == first) == sg_active();                                                 \
  }

// cl_khr_subgroup_rotate: the value of the lane `delta` places further on, wrapping around the
// sub-group (or the lane's cluster of `clustersize`).
#define SG_ROTATE(T)                                                                             \
  SG T sub_group_rotate(T x, int delta) {                                                        \
    const int n = (int)get_sub_group_size(), me = (int)sg_lane();                                \
    return sg_shuffle_##T(x, (uint)(((me + delta) % n + n) % n));                                \
  }                                                                                              \
  SG T sub_group_clustered_rotate(T x, int delta, uint clustersize) {                            \
    const int cs = (int)clustersize, me = (int)sg_lane(), base = me / cs * cs;                   \
    return sg_shuffle_##T(x, (uint)(base + ((me - base + delta) % cs + cs) % cs));               \
  }

#define SG_ANY_TYPE(T) SG_SHUFFLE(T) SG_ALL_EQUAL(T) SG_ROTATE(T)
SG_ANY_TYPE(char)
SG_ANY_TYPE(uchar)
SG_ANY_TYPE(short)
SG_ANY_TYPE(ushort)
SG_ANY_TYPE(int)
SG_ANY_TYPE(uint)
SG_ANY_TYPE(long)
SG_ANY_TYPE(ulong)
SG_ANY_TYPE(float)
SG_ANY_TYPE(double)
SG_ANY_TYPE(half)

// Vectors, element by element (cl_khr_subgroup_extended_types' sub_group_broadcast and
// cl_khr_subgroup_ballot's sub_group_non_uniform_broadcast take every vector type).
#define SG_VECTOR_TYPES(T)                                                                       \
  typedef T T##2 __attribute__((ext_vector_type(2)));                                            \
  typedef T T##3 __attribute__((ext_vector_type(3)));                                            \
  typedef T T##4 __attribute__((ext_vector_type(4)));                                            \
  typedef T T##8 __attribute__((ext_vector_type(8)));                                            \
  typedef T T##16 __attribute__((ext_vector_type(16)));
#define SG_VECTOR_READ(T, N)                                                                     \
  static inline T##N sg_read_##T##N(T##N x, uint l) {                                            \
    T##N r;                                                                                      \
    for (int i = 0; i < N; ++i) r[i] = SG_READ_##T(x[i], l);                                     \
    return r;                                                                                    \
  }                                                                                              \
  SG T##N sub_group_broadcast(T##N x, uint id) { return sg_read_##T##N(x, id); }                 \
  SG T##N sub_group_non_uniform_broadcast(T##N x, uint id) { return sg_read_##T##N(x, id); }
// cl_khr_subgroup_ballot's broadcasts of scalars: from a uniform lane, or from the first
// active one.
#define SG_BALLOT_SCALAR(T)                                                                      \
  SG T sub_group_non_uniform_broadcast(T x, uint id) { return SG_READ_##T(x, id); }              \
  SG T sub_group_broadcast_first(T x) { return SG_READ_##T(x, SG_CTZ(sg_active())); }
#define SG_EVERY_WIDTH(T)                                                                        \
  SG_VECTOR_TYPES(T)                                                                             \
  SG_VECTOR_READ(T, 2) SG_VECTOR_READ(T, 3) SG_VECTOR_READ(T, 4) SG_VECTOR_READ(T, 8)            \
  SG_VECTOR_READ(T, 16) SG_BALLOT_SCALAR(T)
SG_EVERY_WIDTH(char)
SG_EVERY_WIDTH(uchar)
SG_EVERY_WIDTH(short)
SG_EVERY_WIDTH(ushort)
SG_EVERY_WIDTH(int)
SG_EVERY_WIDTH(uint)
SG_EVERY_WIDTH(long)
SG_EVERY_WIDTH(ulong)
SG_EVERY_WIDTH(float)
SG_EVERY_WIDTH(double)
SG_EVERY_WIDTH(half)

// cl_khr_subgroup_ballot's masks: bit i of a mask stands for the work-item with sub-group local
// id i. A wave32 sub-group uses only the first component, a wave64 one the first two.
static inline uint4 sg_to_vector(sg_mask m) {
  return (uint4)((uint)m, SG_WAVE == 64 ? (uint)((ulong)m >> 32) : 0u, 0u, 0u);
}
SG uint4 sub_group_ballot(int predicate) { return sg_to_vector(sg_ballot(predicate)); }
static inline uint sg_bit(uint4 v, uint i) { return i < 128 ? (v[i / 32] >> (i % 32)) & 1u : 0u; }
// The bits of `v` that stand for lanes of a sub-group: up to the largest sub-group's size,
// also in a partial one (the CTS's subgroup_functions_ballot counts them so).
static inline sg_mask sg_in_group(uint4 v) {
  const sg_mask m = SG_WAVE == 64 ? (sg_mask)((ulong)v.x | (ulong)v.y << 32) : (sg_mask)v.x;
  return m & sg_below(get_max_sub_group_size());
}
SG int sub_group_inverse_ballot(uint4 v) { return (int)sg_bit(v, sg_lane()); }
SG int sub_group_ballot_bit_extract(uint4 v, uint index) { return (int)sg_bit(v, index); }
SG uint sub_group_ballot_bit_count(uint4 v) { return SG_POPCOUNT(sg_in_group(v)); }
SG uint sub_group_ballot_inclusive_scan(uint4 v) {
  return SG_POPCOUNT(sg_in_group(v) & sg_below(sg_lane() + 1));
}
SG uint sub_group_ballot_exclusive_scan(uint4 v) {
  return SG_POPCOUNT(sg_in_group(v) & sg_below(sg_lane()));
}
// Undefined by the extension when no bit is set; these return 0xffffffff then.
SG uint sub_group_ballot_find_lsb(uint4 v) {
  const sg_mask m = sg_in_group(v);
  return m ? SG_CTZ(m) : ~0u;
}
SG uint sub_group_ballot_find_msb(uint4 v) {
  const sg_mask m = sg_in_group(v);
  return m ? SG_WAVE - 1u - SG_CLZ(m) : ~0u;
}
OVERLOAD uint4 get_sub_group_eq_mask(void) { return sg_to_vector((sg_mask)1 << sg_lane()); }
OVERLOAD uint4 get_sub_group_ge_mask(void) { return sg_to_vector(~sg_below(sg_lane())); }
OVERLOAD uint4 get_sub_group_gt_mask(void) { return sg_to_vector(~sg_below(sg_lane() + 1)); }
OVERLOAD uint4 get_sub_group_le_mask(void) { return sg_to_vector(sg_below(sg_lane() + 1)); }
OVERLOAD uint4 get_sub_group_lt_mask(void) { return sg_to_vector(sg_below(sg_lane())); }

// Memory fences with the memory order and scope known only at run time (the enums' values are
// clang's __ATOMIC_* and __OPENCL_MEMORY_SCOPE_*, as opencl-c-base.h defines them); a relaxed
// order orders nothing, and so does the work-item scope.
typedef enum memory_order { amcl_memory_order_any } memory_order;
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define FENCE_AT(ORDER, scope)                                                                   \
  switch (scope) {                                                                               \
  case __OPENCL_MEMORY_SCOPE_WORK_ITEM: break;                                                   \
  case __OPENCL_MEMORY_SCOPE_SUB_GROUP: __builtin_amdgcn_fence(ORDER, "wavefront"); break;       \
  case __OPENCL_MEMORY_SCOPE_WORK_GROUP: __builtin_amdgcn_fence(ORDER, "workgroup"); break;      \
  case __OPENCL_MEMORY_SCOPE_DEVICE: __builtin_amdgcn_fence(ORDER, "agent"); break;              \
  default: __builtin_amdgcn_fence(ORDER, ""); break;                                             \
  }
static inline void fence(int order, int scope) {
  switch (order) {
  case __ATOMIC_ACQUIRE: FENCE_AT(__ATOMIC_ACQUIRE, scope) break;
  case __ATOMIC_RELEASE: FENCE_AT(__ATOMIC_RELEASE, scope) break;
  case __ATOMIC_ACQ_REL: FENCE_AT(__ATOMIC_ACQ_REL, scope) break;
  case __ATOMIC_SEQ_CST: FENCE_AT(__ATOMIC_SEQ_CST, scope) break;
  default: break;
  }
}

// OpenCL C 3.0 §6.15.9 "Synchronization Functions" and §6.15.11 "Memory Fence Functions".
// work_group_barrier: every work-item of the work-group waits for the others; with fence
// flags, the memory accesses before it are visible, at `scope`, to those after it.
#define CONVERGENT OVERLOAD __attribute__((convergent))
CONVERGENT void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  if (flags) fence(__ATOMIC_RELEASE, scope);
  __builtin_amdgcn_s_barrier();
  if (flags) fence(__ATOMIC_ACQUIRE, scope);
}
CONVERGENT void work_group_barrier(cl_mem_fence_flags flags) {
  work_group_barrier(flags, (memory_scope)__OPENCL_MEMORY_SCOPE_WORK_GROUP);
}
OVERLOAD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope) {
  if (flags) fence(order, scope);
}
// §6.15.10 "Address Space Qualifier Functions": the fence flag for the memory a generic
// pointer points to (private memory takes the global flag).
OVERLOAD cl_mem_fence_flags get_fence(__generic void* p) {
  return __builtin_amdgcn_is_shared(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
OVERLOAD cl_mem_fence_flags get_fence(const __generic void* p) { return get_fence((__generic void*)p); }

// §6.15.13 "Async Copies from Global to Local Memory, Local to Global Memory, and Prefetch".
// amcl copies synchronously: the work-group's work-items share the copy out, each taking the
// elements i = its local linear id, then every local-linear-size-th after it (the actual size
// of its work-group, which is smaller in the partial work-group of a non-uniform NDRange), and
// wait_group_events is a work-group barrier that makes the copies visible. The returned event
// is the one given (the specification lets copies share an event; zero is as good as any to
// the barrier). Elements travel as the integer type of their size, 3-component vectors with
// their padding (they are 4 components in memory).
static inline size_t async_step(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}
#define ASYNC_LOOP(i, n) for (size_t i = get_local_linear_id(), step_ = async_step(); i < (n); i += step_)
// T: the element type; C: the type it is copied as.
#define ASYNC_COPY(T, C)                                                                         \
  OVERLOAD event_t async_work_group_copy(__local T* dst, const __global T* src, size_t n,        \
                                         event_t event) {                                        \
    ASYNC_LOOP(i, n)((__local C*)dst)[i] = ((const __global C*)src)[i];                          \
    return event;                                                                                \
  }                                                                                              \
  OVERLOAD event_t async_work_group_copy(__global T* dst, const __local T* src, size_t n,        \
                                         event_t event) {                                        \
    ASYNC_LOOP(i, n)((__global C*)dst)[i] = ((const __local C*)src)[i];                          \
    return event;                                                                                \
  }                                                                                              \
  OVERLOAD event_t async_work_group_strided_copy(__local T* dst, const __global T* src,          \
                                                 size_t n, size_t src_stride, event_t event) {   \
    ASYNC_LOOP(i, n)((__local C*)dst)[i] = ((const __global C*)src)[i * src_stride];             \
    return event;                                                                                \
  }                                                                                              \
  OVERLOAD event_t async_work_group_strided_copy(__global T* dst, const __local T* src,          \
                                                 size_t n, size_t dst_stride, event_t event) {   \
    ASYNC_LOOP(i, n)((__global C*)dst)[i * dst_stride] = ((const __local C*)src)[i];             \
    return event;                                                                                \
  }                                                                                              \
  /* A hint only: nothing to do on a GPU whose loads go through its caches anyway. */            \
  OVERLOAD void prefetch(const __global T* p, size_t n) {                                        \
    (void)p;                                                                                     \
    (void)n;                                                                                     \
  }
// Every width of T, copied as the same widths of the integer type C of T's size.
#define ASYNC_TYPE(T, C)                                                                         \
  ASYNC_COPY(T, C) ASYNC_COPY(T##2, C##2) ASYNC_COPY(T##3, C##4) ASYNC_COPY(T##4, C##4)           \
  ASYNC_COPY(T##8, C##8) ASYNC_COPY(T##16, C##16)
ASYNC_TYPE(char, uchar)
ASYNC_TYPE(uchar, uchar)
ASYNC_TYPE(short, ushort)
ASYNC_TYPE(ushort, ushort)
ASYNC_TYPE(int, uint)
ASYNC_TYPE(uint, uint)
ASYNC_TYPE(long, ulong)
ASYNC_TYPE(ulong, ulong)
ASYNC_TYPE(float, uint)
ASYNC_TYPE(double, ulong)
ASYNC_TYPE(half, ushort)

// The event list is a generic pointer in OpenCL C 2.0 and later, a private one before.
CONVERGENT void wait_group_events(int num_events, __generic event_t* event_list) {
  (void)num_events;
  (void)event_list;
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
CONVERGENT void wait_group_events(int num_events, __private event_t* event_list) {
  wait_group_events(num_events, (__generic event_t*)event_list);
}

// §6.15.12.7 "Atomic Fetch and Modify" on atomic_intptr_t and atomic_uintptr_t with an operand
// of another type (ptrdiff_t for add and sub, the other signedness for and, or, xor and min):
// the operation is that of the object's type, the operand converted to it. Without an order
// and scope: seq_cst at device scope.
#define ATOMIC_FETCH(KEY, AS, A, V, M)                                                           \
  OVERLOAD V atomic_fetch_##KEY##_explicit(volatile AS A* object, M operand, memory_order order, \
                                           memory_scope scope) {                                 \
    return __opencl_atomic_fetch_##KEY(object, (V)operand, order, scope);                        \
  }                                                                                              \
  OVERLOAD V atomic_fetch_##KEY##_explicit(volatile AS A* object, M operand, memory_order order) { \
    return __opencl_atomic_fetch_##KEY(object, (V)operand, order, __OPENCL_MEMORY_SCOPE_DEVICE);  \
  }                                                                                              \
  OVERLOAD V atomic_fetch_##KEY(volatile AS A* object, M operand) {                              \
    return __opencl_atomic_fetch_##KEY(object, (V)operand, __ATOMIC_SEQ_CST,                     \
                                       __OPENCL_MEMORY_SCOPE_DEVICE);                            \
  }
#define ATOMIC_POINTER_DIFFERENCE(AS)                                                            \
  ATOMIC_FETCH(add, AS, atomic_ulong, ulong, long) ATOMIC_FETCH(sub, AS, atomic_ulong, ulong, long)
#define ATOMIC_OTHER_SIGNEDNESS(KEY, AS)                                                         \
  ATOMIC_FETCH(KEY, AS, atomic_long, long, ulong) ATOMIC_FETCH(KEY, AS, atomic_ulong, ulong, long)
#define ATOMIC_MIXED_NAMED(AS)                                                                   \
  ATOMIC_OTHER_SIGNEDNESS(and, AS) ATOMIC_OTHER_SIGNEDNESS(or, AS)                               \
  ATOMIC_OTHER_SIGNEDNESS(xor, AS) ATOMIC_OTHER_SIGNEDNESS(min, AS)
ATOMIC_POINTER_DIFFERENCE(__global)
ATOMIC_POINTER_DIFFERENCE(__local)
ATOMIC_POINTER_DIFFERENCE(__generic)
ATOMIC_MIXED_NAMED(__global)
ATOMIC_MIXED_NAMED(__local)

// §6.15.12.6 "Atomic Compare and Exchange" with `expected` in another named address space than
// the object (libclc defines the same-space ones). The exchange works on a private copy of
// *expected, which takes the value found when the exchange fails. It compares bits, through the
// integer type AI/CI of the object's size: C11 §7.17.7.4 compares memory as memcmp does, and
// the float and double definitions as linked (libclc's same-space ones, and these before they
// went through the integer type) compared the old value as a number (v_cmp_eq_f32 after the
// cmpswap; the builtin called from a program compares bits), so an exchange from a NaN reported
// failure and -0 for +0 success without exchanging (found by tests/system/
// builtin_family_differential_test against PoCL); the floating-point objects get every
// address-space pair here.
#define ATOMIC_CMPXCHG_KIND(KIND, AS, A, C, EAS, AI, CI)                                         \
  OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A* object, EAS C* expected, \
                                                          C desired, memory_order success,        \
                                                          memory_order failure, memory_scope scope) { \
    CI e = __builtin_astype(*expected, CI);                                                      \
    const bool done = __opencl_atomic_compare_exchange_##KIND(                                    \
        (volatile AS AI*)object, &e, __builtin_astype(desired, CI), success, failure, scope);    \
    if (!done) *expected = __builtin_astype(e, C);                                               \
    return done;                                                                                 \
  }                                                                                              \
  OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A* object, EAS C* expected, \
                                                          C desired, memory_order success,        \
                                                          memory_order failure) {                \
    return atomic_compare_exchange_##KIND##_explicit(object, expected, desired, success, failure, \
                                                     (memory_scope)__OPENCL_MEMORY_SCOPE_DEVICE); \
  }                                                                                              \
  OVERLOAD bool atomic_compare_exchange_##KIND(volatile AS A* object, EAS C* expected, C desired) { \
    return atomic_compare_exchange_##KIND##_explicit(object, expected, desired,                  \
                                                     (memory_order)__ATOMIC_SEQ_CST,             \
                                                     (memory_order)__ATOMIC_SEQ_CST,             \
                                                     (memory_scope)__OPENCL_MEMORY_SCOPE_DEVICE); \
  }
#define ATOMIC_CMPXCHG(AS, A, C, EAS, AI, CI)                                                    \
  ATOMIC_CMPXCHG_KIND(strong, AS, A, C, EAS, AI, CI) ATOMIC_CMPXCHG_KIND(weak, AS, A, C, EAS, AI, CI)
#define ATOMIC_CMPXCHG_CROSS(A, C, AI, CI)                                                       \
  ATOMIC_CMPXCHG(__global, A, C, __local, AI, CI) ATOMIC_CMPXCHG(__global, A, C, __private, AI, CI) \
  ATOMIC_CMPXCHG(__local, A, C, __global, AI, CI) ATOMIC_CMPXCHG(__local, A, C, __private, AI, CI)
#define ATOMIC_CMPXCHG_SAME(A, C, AI, CI)                                                        \
  ATOMIC_CMPXCHG(__global, A, C, __global, AI, CI) ATOMIC_CMPXCHG(__local, A, C, __local, AI, CI) \
  ATOMIC_CMPXCHG(__generic, A, C, __generic, AI, CI)
ATOMIC_CMPXCHG_CROSS(atomic_int, int, atomic_int, int)
ATOMIC_CMPXCHG_CROSS(atomic_uint, uint, atomic_uint, uint)
ATOMIC_CMPXCHG_CROSS(atomic_long, long, atomic_long, long)
ATOMIC_CMPXCHG_CROSS(atomic_ulong, ulong, atomic_ulong, ulong)
ATOMIC_CMPXCHG_CROSS(atomic_float, float, atomic_uint, uint)
ATOMIC_CMPXCHG_SAME(atomic_float, float, atomic_uint, uint)
ATOMIC_CMPXCHG_CROSS(atomic_double, double, atomic_ulong, ulong)
ATOMIC_CMPXCHG_SAME(atomic_double, double, atomic_ulong, ulong)
