#include "device_caps.h"

#include "compiler/spirv_translator.h"

#include <cstring>

namespace amcl::rt {
namespace {

// cl_khr_il_program where SPIR-V programs work: amcl was built with the translator and its
// helper (amcl-spirv) is installed.
std::vector<Capability> with_il_program(std::vector<Capability> caps) {
  if (!compiler::spirv_translator_path().empty())
    caps.push_back({"cl_khr_il_program", CL_MAKE_VERSION(1, 0, 0)});
  return caps;
}

} // namespace

// Only what the emulated shader core and the runtime really implement. cl_khr_fp16 waits for
// the emulator's f16 instructions to be complete.
const std::vector<Capability>& device_extensions() {
  static const std::vector<Capability> caps = {
      {"cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_device_uuid", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_pci_bus_info", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_amd_device_attribute_query", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_shuffle", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_shuffle_relative", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_non_uniform_vote", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_non_uniform_arithmetic", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_extended_types", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_ballot", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_clustered_reduce", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_subgroup_rotate", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0)},
  };
  static const std::vector<Capability> with_il = with_il_program(caps);
  return with_il;
}

const std::vector<Capability>& platform_extensions() {
  static const std::vector<Capability> caps = {
      {"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)},
      {"cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0)},
  };
  static const std::vector<Capability> with_il = with_il_program(caps);
  return with_il;
}

// Half precision is reported as the cl_khr_fp16 extension only: clang 22 does not know the
// __opencl_c_fp16 feature macro, and a reported feature must be one kernels can test for.
const std::vector<Capability>& opencl_c_features() {
  static const std::vector<Capability> caps = {
      {"__opencl_c_fp64", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_int64", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_atomic_order_acq_rel", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_atomic_order_seq_cst", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_atomic_scope_device", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_program_scope_global_variables", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_generic_address_space", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_subgroups", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_images", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_read_write_images", CL_MAKE_VERSION(3, 0, 0)},
      {"__opencl_c_3d_image_writes", CL_MAKE_VERSION(3, 0, 0)},
  };
  return caps;
}

// OpenCL C 2.0 is not listed: it makes SVM, pipes, device-side enqueue and work-group
// collective functions mandatory, and amcl offers none of them yet. OpenCL C 3.0 makes them
// optional features, reported by opencl_c_features().
const std::vector<cl_version>& opencl_c_versions() {
  static const std::vector<cl_version> versions = {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                                                   CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)};
  return versions;
}

std::vector<std::string> cl_std_values() {
  std::vector<std::string> out;
  for (cl_version v : opencl_c_versions())
    out.push_back("CL" + std::to_string(CL_VERSION_MAJOR(v)) + "." + std::to_string(CL_VERSION_MINOR(v)));
  return out;
}

std::vector<std::string> names(const std::vector<Capability>& caps) {
  std::vector<std::string> out;
  for (const auto& c : caps) out.emplace_back(c.name);
  return out;
}

std::string joined_names(const std::vector<Capability>& caps) {
  std::string s;
  for (const auto& c : caps) s += (s.empty() ? "" : " ") + std::string(c.name);
  return s;
}

std::vector<cl_name_version> with_versions(const std::vector<Capability>& caps) {
  std::vector<cl_name_version> out(caps.size());
  for (size_t i = 0; i < caps.size(); ++i) {
    out[i].version = caps[i].version;
    std::strncpy(out[i].name, caps[i].name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    out[i].name[CL_NAME_VERSION_MAX_NAME_SIZE - 1] = '\0';
  }
  return out;
}

} // namespace amcl::rt
