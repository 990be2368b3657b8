#include "build_target.h"

#include "compiler/compiler.h"

namespace amcl_fuzz {

using namespace amcl::compiler;

std::string exercise_build(const std::string& source, const std::string& options, BuildMode mode) {
  const BuildRequest req{source, options, "gfx1100"};
  // Uncached: the cache would turn every repeated input into a lookup.
  const BuildResult r = mode == BuildMode::Build ? build_uncached(req) : compile(req);
  if (r.ok && r.binary.empty()) return "a successful build produced no binary";
  if (!r.ok && r.log.empty()) return "a failed build must say why; options: " + options;
  return "";
}

std::string exercise_il_build(const std::vector<uint8_t>& module, BuildMode mode) {
  BuildRequest req;
  req.il = module;
  const BuildResult r = mode == BuildMode::Build ? build_uncached(req) : compile(req);
  if (r.ok && r.binary.empty()) return "a successful SPIR-V build produced no binary";
  if (!r.ok && r.log.empty()) return "a failed SPIR-V build must say why";
  return "";
}

} // namespace amcl_fuzz
