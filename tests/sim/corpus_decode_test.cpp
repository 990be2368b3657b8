// Decode agreement over the kernel corpus (tests/corpus): every instruction LLVM 22 emits for
// gfx1100 (RDNA3), gfx1200 and gfx1201 (RDNA4), as wave32 and as wave64 (-mwavefrontsize64)
// code, decodes, and prints exactly as llvm-objdump-22 prints it.
#include "compiler/compiler.h"
#include "sim/shader/isa.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#ifdef AMCL_LLVM_OBJDUMP
namespace {

struct Tally {
  size_t checked = 0, mismatched = 0, undecodable = 0;
  std::map<std::string, size_t> unknown;       // mnemonic of what failed -> count
  std::map<std::string, std::string> examples; // one example per failing mnemonic
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void check_object(const std::vector<uint8_t>& binary, const std::string& target, bool wave64,
                  Tally& t, const std::string& file) {
  const auto gfx = target.starts_with("gfx12") ? sim::shader::Gfx::v12 : sim::shader::Gfx::v11;
  char path[] = "/tmp/amcl-corpus-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, binary.data(), binary.size()), ssize_t(binary.size()));
  close(fd);
  // Appended piece by piece: GCC 12 takes `std::string(literal) + ...` for a 16-byte overflow.
  std::string cmd = AMCL_LLVM_OBJDUMP;
  cmd.append(" -d --mcpu=").append(target).append(wave64 ? " --mattr=+wavefrontsize64 " : " ").append(path);
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p);
  char line[1024];
  while (fgets(line, sizeof line, p)) {
    std::string s(line);
    auto slash = s.find("//");
    if (s.empty() || s[0] != '\t' || slash == std::string::npos) continue;
    std::string text = s.substr(1, slash - 1);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    std::istringstream hex(s.substr(s.find(':', slash) + 1));
    std::vector<uint32_t> words;
    std::string w;
    while (hex >> w && w[0] != '<') words.push_back(uint32_t(std::stoul(w, nullptr, 16)));
    ++t.checked;
    std::string why;
    auto inst = sim::shader::decode(words, gfx, &why);
    std::string mnemonic = text.substr(0, text.find(' '));
    if (!inst) {
      ++t.undecodable;
      ++t.unknown[mnemonic];
      t.examples.emplace(mnemonic, file + ": cannot decode '" + text + "': " + why);
      continue;
    }
    std::string ours = sim::shader::disassemble(*inst, wave64);
    if (ours != text) {
      ++t.mismatched;
      ++t.unknown[mnemonic];
      t.examples.emplace(mnemonic, file + ": llvm '" + text + "' vs amcl '" + ours + "'");
    }
  }
  pclose(p);
  unlink(path);
}

} // namespace

class CorpusDecode : public testing::TestWithParam<const char*> {};

// The parameter is a target, with ":wave64" for code built with -mwavefrontsize64.
TEST_P(CorpusDecode, EveryInstructionDecodesAsLlvmObjdump) {
  const std::string param = GetParam();
  const std::string target = param.substr(0, param.find(':'));
  const bool wave64 = param.ends_with(":wave64");
  Tally t;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(AMCL_CORPUS_DIR)) {
    if (entry.path().extension() != ".cl") continue;
    ++files;
    amcl::compiler::BuildRequest req;
    req.source = read_file(entry.path());
    req.options = wave64 ? "-cl-std=CL3.0 -mwavefrontsize64" : "-cl-std=CL3.0";
    req.target = target;
    // The decoder must cope with everything the compiler can emit, so enable all of it here.
    req.extensions = {"cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics",
                      "cl_khr_int64_extended_atomics", "cl_khr_subgroups",
                      "cl_khr_global_int32_base_atomics", "cl_khr_local_int32_base_atomics",
                      "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_extended_atomics"};
    req.features = {"__opencl_c_fp64", "__opencl_c_fp16", "__opencl_c_int64", "__opencl_c_subgroups",
                    "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                    "__opencl_c_atomic_scope_device", "__opencl_c_generic_address_space",
                    "__opencl_c_program_scope_global_variables"};
    auto res = amcl::compiler::build(req);
    ASSERT_TRUE(res.ok) << entry.path() << ":\n" << res.log;
    check_object(res.binary, req.target, wave64, t, entry.path().filename().string());
  }
  std::string examples;
  for (auto& [m, e] : t.examples) examples += "  " + e + " (x" + std::to_string(t.unknown[m]) + ")\n";
  std::printf("corpus (%s): %zu files, %zu instructions checked, %zu undecodable, %zu mismatched\n", GetParam(), files,
              t.checked, t.undecodable, t.mismatched);
  EXPECT_GE(files, 10u);
  EXPECT_GT(t.checked, 5000u);
  EXPECT_EQ(t.undecodable + t.mismatched, 0u) << "one example per failing mnemonic:\n" << examples;
}

INSTANTIATE_TEST_SUITE_P(Targets, CorpusDecode,
                         testing::Values("gfx1100", "gfx1200", "gfx1201", "gfx1100:wave64",
                                         "gfx1201:wave64"));
#endif
