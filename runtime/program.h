// Programs: builds, compiles and links through compiler/ for each device's target, and the
// code objects loaded into each card's VRAM with their relocations applied. The entry point
// has checked the handles, device lists and options pointers.
#pragma once
#include "objects.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace amcl::rt {

// What a program holds for one of its devices (objects.h).
using ProgramBuild = _cl_program::Build;

cl_program create_program_with_source(cl_context context, std::string source);

// clCreateProgramWithIL: a SPIR-V module for every device of the context. A module whose
// header is wrong is CL_INVALID_VALUE; anything else wrong shows at build, in the log.
// CL_INVALID_OPERATION when no device of the context takes SPIR-V.
cl_program create_program_with_il(cl_context context, std::span<const uint8_t> il);

// clSetProgramSpecializationConstant for the next build of `p` (made from IL).
void set_specialization_constant(cl_program p, cl_uint spec_id, size_t size, const void* value);

// The SPIR-V versions devices take ("SPIR-V_1.0 ... SPIR-V_1.5"); none when amcl was built or
// installed without the translator.
const std::vector<cl_name_version>& il_versions();

// One binary per device: a compiled object, a library, or an executable that is loaded at
// once. A binary that is none of them gets CL_INVALID_BINARY in `binary_status` (if given),
// and the program is then not made (CL_INVALID_BINARY).
cl_program create_program_with_binary(cl_context context, const std::vector<cl_device_id>& devices,
                                      const std::vector<std::span<const uint8_t>>& binaries,
                                      cl_int* binary_status);

// clBuildProgram for `devices` of `p`: source built, or binaries linked into executables.
// Returns the first device's error (each device's status and log say what happened).
cl_int build_program(cl_program p, const std::vector<cl_device_id>& devices,
                     const std::string& options);

// A header for clCompileProgram: the name #include uses, and the source.
using NamedHeader = std::pair<std::string, std::string>;
cl_int compile_program(cl_program p, const std::vector<cl_device_id>& devices,
                       const std::string& options, const std::vector<NamedHeader>& headers);

// clLinkProgram: a new program for `devices` linking the compiled objects and libraries of
// `inputs`. A link that fails with CL_LINK_PROGRAM_FAILURE still makes the program, so that its
// log can be read: it is stored in `failed` before the error is thrown.
cl_program link_program(cl_context context, const std::vector<cl_device_id>& devices,
                        const std::string& options, const std::vector<cl_program>& inputs,
                        cl_program& failed);

// What an executable holds, for the program queries.
std::vector<std::string> kernel_names(const ProgramBuild& b);
size_t global_variable_size(const ProgramBuild& b);

} // namespace amcl::rt
