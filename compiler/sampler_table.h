// The sampler blocks behind OpenCL C's program-scope and literal samplers, as OpenCL C source.
#pragma once
#include <string>

namespace amcl::compiler {

// OpenCL C defining amcl_sampler_blocks: 64 sampler blocks (image_abi.h), block i the S# of
// sampler value i for `target`'s generation and the value itself, zero where i is no valid
// sampler value. image_builtins.cl's __translate_sampler_initializer indexes it.
std::string sampler_table_source(const std::string& target);

} // namespace amcl::compiler
