// The wave loop walks straight-line code through each decoded instruction's link to the one
// after it (Program::Node::next), set when a wave first falls through. A link must name the
// instruction the index holds at pc + size whatever the instruction sizes (4, 8 and 12 bytes
// here), branches into the middle of linked code must still land right, nothing past s_endpgm
// may be decoded, and waves on several threads may set the links at once.
#include "sim/shader/executor.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace sim;
using namespace sim::shader;
using sim::test::FlatMemory;

namespace {

constexpr uint64_t kPage = 0x10000;
using Memory = FlatMemory<kPage, 4096>;

// gfx1100 (llvm-mc-22 -mcpu=gfx1100 -show-encoding), 44 bytes ending with s_endpgm:
//   0  s_mov_b32 s0, 0                   4 bytes
//   4  s_mov_b32 s1, 0x12345678          8 (literal)
//  12  loop: v_add_nc_u32_e32 v0, 1, v0  4
//  16  v_add3_u32 v1, v1, 0x1000, v0     12 (VOP3 + literal)
//  28  s_add_u32 s0, s0, 1               4
//  32  s_cmp_lt_u32 s0, 5                4
//  36  s_cbranch_scc1 loop               4 (simm16 -7: back to 12, from 40)
//  40  s_endpgm
constexpr uint32_t kLoop[] = {0xBE800080, 0xBE8100FF, 0x12345678, 0x4A000081,
                              0xD6550001, 0x0401FF01, 0x00001000, 0x80008100,
                              0xBF0A8500, 0xBFA2FFF9, 0xBFB00000};
constexpr uint64_t kLoopBytes = sizeof kLoop;
// Placed so that s_endpgm is the page's last dword: past it nothing is mapped.
constexpr uint64_t kCode = kPage + 4096 - kLoopBytes;

// Whether every link set from `entry` to s_endpgm names the instruction the index holds at the
// linking instruction's pc + size; `linked` counts the links set.
bool links_agree(Program& program, Memory& mem, uint64_t entry, unsigned& linked) {
  linked = 0;
  for (uint64_t pc = entry;;) {
    const Program::Node& node = program.node_at(pc, mem);
    if (node.inst.op == Op::s_endpgm) return node.next.load() == nullptr;
    pc += node.inst.size;
    if (const Program::Node* next = node.next.load()) {
      ++linked;
      if (next != &program.node_at(pc, mem)) return false;
    }
  }
}

struct Loop : ::testing::Test {
  Memory mem;
  void SetUp() override { test::put_words(mem, kCode, kLoop); }
  // One wave32 through the loop; v0 and v1 of lane 0 after it.
  std::pair<uint32_t, uint32_t> run(Program& program) {
    Executor exec(program, mem, 0);
    Wave w;
    test::start_wave(w, false, 8, kCode);
    uint64_t lanes = 0;
    exec.run(w, lanes);
    EXPECT_TRUE(w.done);
    return {w.v(0, 0), w.v(1, 0)};
  }
};

constexpr std::pair<uint32_t, uint32_t> kExpected{5, 5 * 0x1000 + (1 + 2 + 3 + 4 + 5)};

} // namespace

TEST_F(Loop, LinksNameTheInstructionAtPcPlusSize) {
  Program program(mem, kCode);
  EXPECT_EQ(run(program), kExpected); // sets the links
  EXPECT_EQ(run(program), kExpected); // runs on them (the loop body's links are reused anyway)
  unsigned linked = 0;
  EXPECT_TRUE(links_agree(program, mem, kCode, linked));
  // Every instruction but s_endpgm was followed by a fall-through (s_cbranch on the last
  // pass), so has its link.
  EXPECT_EQ(linked, 7u);
}

// A link that names the wrong instruction (as a link to pc + 4 would for the 8- and 12-byte
// instructions) is found by the check above, and the wave follows it: the loop is skipped.
TEST_F(Loop, ABrokenLinkIsCaughtAndFollowed) {
  Program program(mem, kCode);
  EXPECT_EQ(run(program), kExpected);
  const Program::Node& mov_literal = program.node_at(kCode + 4, mem);
  mov_literal.next.store(&program.node_at(kCode + 40, mem)); // to s_endpgm
  unsigned linked = 0;
  EXPECT_FALSE(links_agree(program, mem, kCode, linked));
  EXPECT_EQ(run(program), std::make_pair(0u, 0u));
}

// s_endpgm ends the page's mapped code: the wave ends without decoding past it, and the last
// instruction has no link.
TEST_F(Loop, NothingPastSEndpgmIsDecoded) {
  Program program(mem, kCode);
  EXPECT_EQ(run(program), kExpected);
  EXPECT_EQ(program.node_at(kCode + 40, mem).next.load(), nullptr);
  EXPECT_THROW(program.at(kCode + 44, mem), MemoryFault);
}

// A branch into the middle of code first walked by links: the loop entered at v_add3 (skipping
// one v_add_nc_u32) once the links are set.
TEST_F(Loop, ABranchIntoLinkedCodeLandsOnItsTarget) {
  Program program(mem, kCode);
  EXPECT_EQ(run(program), kExpected);
  Executor exec(program, mem, 0);
  Wave w;
  test::start_wave(w, false, 8, kCode + 16); // at v_add3, s0 = 0, v0 = v1 = 0
  uint64_t lanes = 0;
  exec.run(w, lanes);
  EXPECT_TRUE(w.done);
  // Five passes; the first skipped v_add_nc_u32, so v_add3 read v0 = 0, 1, 2, 3, 4.
  EXPECT_EQ(w.v(0, 0), 4u);
  EXPECT_EQ(w.v(1, 0), 5u * 0x1000 + (0 + 1 + 2 + 3 + 4));
}

// s_setpc_b64 to an address that is not a multiple of 4 faults, also when the dword holding it
// starts an instruction already decoded (the entry's, here: the index is by dword).
TEST(ProgramLink, AMisalignedProgramCounterFaults) {
  Memory mem;
  // s_mov_b32 s2, entry + 2; s_mov_b32 s3, 0; s_setpc_b64 s[2:3] (llvm-mc-22 -mcpu=gfx1100).
  const uint32_t code[] = {0xBE8200FF, uint32_t(kPage + 64 + 2), 0xBE830080, 0xBE804802};
  test::put_words(mem, kPage + 64, code);
  Program program(mem, kPage + 64);
  Executor exec(program, mem, 0);
  Wave w;
  test::start_wave(w, false, 8, kPage + 64);
  uint64_t lanes = 0;
  try {
    exec.run(w, lanes, 1000); // a budget: running the entry's code again would loop
    ADD_FAILURE() << "no fault";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("misaligned program counter"), std::string::npos)
        << f.what();
  }
}

// Waves on several threads walk one fresh program at once, decoding and linking as they go:
// each gets the loop's result and the links agree with the index (TSan checks the publication).
TEST_F(Loop, ThreadsLinkOneProgramAtOnce) {
  for (unsigned round = 0; round < 20; ++round) {
    Program program(mem, kCode);
    constexpr unsigned kThreads = 4;
    std::vector<std::pair<uint32_t, uint32_t>> got(kThreads);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { got[t] = run(program); });
    for (auto& th : threads) th.join();
    for (unsigned t = 0; t < kThreads; ++t) EXPECT_EQ(got[t], kExpected) << t;
    unsigned linked = 0;
    EXPECT_TRUE(links_agree(program, mem, kCode, linked));
    EXPECT_EQ(linked, 7u);
  }
}
