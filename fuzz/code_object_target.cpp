#include "code_object_target.h"

#include "compiler/code_object.h"
#include "compiler/compiler.h"

namespace amcl_fuzz {

using namespace amcl::compiler;

std::string exercise_code_object(const std::vector<uint8_t>& bytes) {
  if (classify_binary(bytes) != BinaryKind::Executable) return "";
  std::string err;
  auto co = read_code_object(bytes, &err);
  if (!co) return "classified as executable but unreadable: " + err;
  if (co->image_size == 0 || co->image_size > (256u << 20))
    return "image size " + std::to_string(co->image_size) + " outside (0, 256 MiB]";
  std::vector<uint8_t> image(co->image_size);
  co->load(image.data(), 0x7fff00000000ull);
  for (const KernelInfo& k : co->kernels) {
    if (k.descriptor_offset + 64 > co->image_size)
      return "kernel " + k.name + ": descriptor outside the image";
    const int64_t entry = int64_t(k.descriptor_offset) + k.entry_offset;
    if (entry < 0 || uint64_t(entry) >= co->image_size)
      return "kernel " + k.name + ": entry point outside the image";
  }
  return "";
}

} // namespace amcl_fuzz
