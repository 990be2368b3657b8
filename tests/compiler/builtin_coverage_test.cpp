// Every builtin function OpenCL C declares for what an amcl device reports (its extensions,
// OpenCL C features and versions) links: amcl's builtins or libclc define it, or code
// generation lowers it. A declared function nothing defines would fail a program's link
// with an undefined symbol.
#include "compiler/builtin_coverage.h"
#include "runtime/device_caps.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <ostream>

using namespace amcl::compiler;

namespace {

// The declarations for a target, parsed once for all its tests.
const BuiltinDeclarations& declarations(const std::string& target) {
  static std::map<std::string, BuiltinDeclarations> parsed;
  auto it = parsed.find(target);
  if (it == parsed.end()) {
    DeclarationRequest req;
    req.target = target;
    req.c_versions = amcl::rt::cl_std_values();
    req.extensions = amcl::rt::names(amcl::rt::device_extensions());
    req.features = amcl::rt::names(amcl::rt::opencl_c_features());
    it = parsed.emplace(target, declared_builtins(req)).first;
  }
  return it->second;
}

struct Variant {
  const char* target;
  bool wave64;
};
void PrintTo(const Variant& v, std::ostream* os) {
  *os << v.target << (v.wave64 ? " wave64" : " wave32");
}

class BuiltinCoverageTest : public testing::TestWithParam<Variant> {};

TEST_P(BuiltinCoverageTest, EveryDeclaredBuiltinIsDefined) {
  const Variant v = GetParam();
  const BuiltinDeclarations& declared = declarations(v.target);
  ASSERT_TRUE(declared.ok) << declared.log;
  // The OpenCL C library is thousands of overloads; a parse that found few went wrong.
  EXPECT_GT(declared.functions.size(), 5000u);
  BuiltinCoverage coverage = builtin_coverage(declared.functions, v.target, v.wave64);
  ASSERT_TRUE(coverage.ok) << coverage.log;
  std::map<std::string, size_t> per_function;
  std::string missing;
  for (const DeclaredBuiltin& b : coverage.missing) {
    ++per_function[b.name];
    missing += "  " + b.signature + "  [" + b.mangled + "]" +
               (b.in_header ? "" : " (clang's table only)") + "\n";
  }
  std::string families;
  for (const auto& [name, n] : per_function)
    families += " " + name + " (" + std::to_string(n) + ")";
  std::printf(
      "builtin coverage %s%s: %zu builtins checked (%zu from opencl-c.h, %zu from clang's "
      "table), %zu missing, %zu lowered by code generation; %zu image functions not offered "
      "(no image support)\n",
      v.target, v.wave64 ? " wave64" : "", declared.functions.size(), declared.from_header,
      declared.from_table, coverage.missing.size(), coverage.lowered.size(),
      declared.image_functions.size());
  EXPECT_TRUE(coverage.missing.empty())
      << coverage.missing.size() << " declared builtins are not defined:" << families << "\n"
      << missing;
  // libclc's way to the work-group size: the enqueued one, wrong in a partial work-group.
  std::map<std::string, size_t> packet_readers;
  for (const DeclaredBuiltin& b : coverage.read_dispatch_packet) ++packet_readers[b.name];
  std::string readers;
  for (const auto& [name, n] : packet_readers)
    readers += " " + name + " (" + std::to_string(n) + ")";
  EXPECT_TRUE(coverage.read_dispatch_packet.empty())
      << "builtins that read the dispatch packet:" << readers;
  std::string helpers;
  for (const std::string& h : coverage.undefined_helpers) helpers += "  " + h + "\n";
  EXPECT_TRUE(coverage.undefined_helpers.empty())
      << "the builtin libraries call undefined functions:\n"
      << helpers;
}

INSTANTIATE_TEST_SUITE_P(Rdna, BuiltinCoverageTest,
                         testing::Values(Variant{"gfx1100", false}, Variant{"gfx1100", true},
                                         Variant{"gfx1201", false}, Variant{"gfx1201", true}),
                         [](const testing::TestParamInfo<Variant>& info) {
                           return std::string(info.param.target) +
                                  (info.param.wave64 ? "_wave64" : "_wave32");
                         });

} // namespace
