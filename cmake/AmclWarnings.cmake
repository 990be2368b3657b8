# Warnings on and clean for amcl's own targets (third-party headers are SYSTEM includes).
function(amcl_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
    -Wno-unused-parameter -Wno-missing-field-initializers
    # GCC's local-only shadow warning; clang (the libFuzzer build) has no equivalent.
    $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
endfunction()
