// Reader and loader of AMDGPU code objects (ELF64, EM_AMDGPU, HSA ABI) as LLVM AMDGPUUsage
// describes them, read with LLVM's Object library: the target from e_flags, the loadable
// image from PT_LOAD segments, the dynamic relocations the loader applies, each kernel's
// 64-byte kernel descriptor (symbol "<name>.kd") and its NT_AMDGPU_METADATA entry (MessagePack).
// Untrusted input: every offset is bounds-checked; a bad object is an error, never a crash.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace amcl::compiler {

// What the launcher must put in an argument's kernarg slot, from its .value_kind
// (AMDGPUUsage "Code Object V3+ Metadata"), decoded once when the code object is read.
enum class ArgKind : uint8_t {
  ByValue,
  GlobalBuffer,
  DynamicSharedPointer, // __local pointer: an LDS offset the launcher assigns
  HiddenBlockCount,     // hidden_block_count_{x,y,z}: uint32
  HiddenGroupSize,      // hidden_group_size_{x,y,z}: uint16
  HiddenRemainder,      // hidden_remainder_{x,y,z}: uint16
  HiddenGlobalOffset,   // hidden_global_offset_{x,y,z}: uint64
  HiddenGridDims,       // hidden_grid_dims: uint16
  HiddenPrintfBuffer,   // hidden_printf_buffer: global pointer to the printf buffer
  HiddenOther,          // other hidden_* arguments: left zero
  Image,                // image*_t: the address of the image's descriptor block (image_abi.h)
  Sampler,              // sampler_t: the address of the sampler's descriptor block
  Other,                // kinds amcl does not bind (pipes, queues)
};

struct KernelArg {
  std::string name, type_name;
  std::string value_kind; // by_value, global_buffer, dynamic_shared_pointer, hidden_*...
  ArgKind kind = ArgKind::Other;
  uint8_t dim = 0;           // x/y/z = 0/1/2 for the per-dimension hidden kinds
  std::string address_space; // global, local, constant, private, generic
  std::string access_qual;
  uint32_t offset = 0, size = 0;
  uint32_t pointee_align = 0; // __local pointers: the pointee type's alignment (0: not given)
  bool is_const = false, is_volatile = false, is_restrict = false;
  bool hidden() const { return value_kind.rfind("hidden_", 0) == 0; }
};

struct KernelInfo {
  std::string name;
  uint64_t descriptor_offset = 0; // virtual address of the kernel descriptor in the image
  int64_t entry_offset = 0;       // kernel_code_entry_byte_offset (from the descriptor)
  uint32_t group_segment_size = 0, private_segment_size = 0;
  uint32_t kernarg_size = 0, kernarg_align = 8;
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t code_properties = 0;
  uint32_t wavefront_size = 32, sgpr_count = 0, vgpr_count = 0;
  uint32_t sgpr_spill_count = 0, vgpr_spill_count = 0;
  uint32_t max_flat_workgroup_size = 1024;
  std::array<uint32_t, 3> reqd_workgroup_size{}; // zeros when absent
  // .uniform_work_group_size: the global size must be a multiple of the work-group size (clang
  // sets it for OpenCL C < 2.0 and for -cl-uniform-work-group-size).
  bool uniform_work_group_size = false;
  std::array<uint32_t, 3> workgroup_size_hint{};
  std::string vec_type_hint;
  std::vector<KernelArg> args;
  // The OpenCL C attributes the metadata records, written as in source
  // ("vec_type_hint(ushort3) reqd_work_group_size(4,2,1) work_group_size_hint(8,1,1)").
  std::string source_attributes() const;

  // kernel_code_properties bits (AMDGPUUsage, "Kernel Descriptor").
  bool uses_dispatch_ptr() const { return code_properties & (1u << 1); }
  bool uses_queue_ptr() const { return code_properties & (1u << 2); }
  bool uses_kernarg_ptr() const { return code_properties & (1u << 3); }
  bool uses_dispatch_id() const { return code_properties & (1u << 4); }
  bool uses_flat_scratch_init() const { return code_properties & (1u << 5); }
  bool uses_private_segment_size() const { return code_properties & (1u << 6); }
  bool uses_private_segment_buffer() const { return code_properties & (1u << 0); }
};

// One printf call site, from the code object's amdhsa.printf metadata (AMDGPUUsage, "Code
// Object V3+ Metadata"): "ID:N:S0:...:S(N-1):Format". Each record the kernel writes is the
// call's id (uint32) followed by N arguments of the given byte sizes.
struct PrintfFormat {
  uint32_t id = 0;
  std::vector<uint32_t> arg_sizes;
  std::string format; // with LLVM's escapes (\n, \72 for ':', ...) undone
};
// Parses one amdhsa.printf entry; nullopt when malformed.
std::optional<PrintfFormat> parse_printf_format(const std::string& entry);

// One dynamic relocation, resolved as far as the file allows (AMDGPUUsage "Relocation
// Records"): at load, the field at `offset` in the image gets value + (relative ? the image's
// load address : 0), all 64 bits or one 32-bit half.
struct Relocation {
  enum class Field : uint8_t { Word64, Low32, High32 };
  uint64_t offset = 0;
  Field field = Field::Word64;
  bool relative = true; // S + A of a defined symbol, or B + A: moves with the image
  uint64_t value = 0;   // symbol value + addend, or the addend alone
};

// A PT_LOAD segment: filesz bytes from the file at `offset` go to `vaddr` in the image.
struct Segment {
  uint64_t vaddr = 0, offset = 0, filesz = 0;
};

struct CodeObject {
  std::vector<uint8_t> elf;
  std::string target;      // "gfx1100"
  uint64_t image_size = 0; // bytes spanned by PT_LOAD segments from address 0
  std::vector<Segment> segments;
  std::vector<Relocation> relocations;
  // Bytes of program-scope variables in the global address space (OpenCL's
  // CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE): the data objects in writable sections.
  uint64_t global_variable_size = 0;
  std::vector<KernelInfo> kernels;
  std::vector<PrintfFormat> printf_formats;
  const KernelInfo* find(const std::string& name) const;
  // Copies the loadable segments into `image` (image_size bytes, zero-filled gaps) and applies
  // the relocations for an image the GPU sees at `load_address`.
  void load(uint8_t* image, uint64_t load_address) const;
};

std::optional<CodeObject> read_code_object(std::span<const uint8_t> bytes, std::string* error);

// The LLVM processor name for an EF_AMDGPU_MACH value, or "" when amcl does not know it.
std::string target_from_mach(uint32_t mach);

} // namespace amcl::compiler
