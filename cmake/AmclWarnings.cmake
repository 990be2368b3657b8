# Warnings on and clean for amcl's own targets (third-party headers are SYSTEM includes).
function(amcl_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
    -Wno-unused-parameter -Wno-missing-field-initializers)
endfunction()
