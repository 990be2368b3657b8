// clBuildProgram may be called from several host threads at once (OpenCL 3.0 §A.2: all API
// calls are thread-safe except clSetKernelArg on the same kernel): concurrent builds, cached
// and uncached, each produce their own correct code object.
#include "compiler/code_object.h"
#include "compiler/compiler.h"

#include <gtest/gtest.h>

#include <thread>

using namespace amcl::compiler;

TEST(ConcurrentBuilds, ThreadsBuildTheirOwnPrograms) {
  constexpr int kThreads = 4, kRounds = 3;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &errors] {
      for (int round = 0; round < kRounds; ++round) {
        // Each thread's kernel has its own name; the odd rounds repeat a source, so the
        // cache is read while other threads write it.
        const std::string name = "k" + std::to_string(t) + "_" + std::to_string(round / 2);
        const std::string src = "kernel void " + name +
                                "(global int* p) { p[get_global_id(0)] += " + std::to_string(t) +
                                "; }";
        BuildResult r =
            round == 0 ? build_uncached({src, "", "gfx1100"}) : build({src, "", "gfx1100"});
        std::string err;
        auto co = r.ok ? read_code_object(r.binary, &err) : std::nullopt;
        if (!co || !co->find(name)) {
          errors[t] = name + ": " + r.log + err;
          return;
        }
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}
