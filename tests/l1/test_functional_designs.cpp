// The functional paths (b_transport, transport_dbg) of every L1 design: what a virtual platform sees.
// Reads return memory's bytes, a write is visible to the next read, a debug write patches memory and any
// cached copy, and none of it touches the timed statistics.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "l1_test_ops.h"
#include "models/common/memory_image.h"
#include "models/l1/tag_split_cache.h"

using namespace gms;
using namespace gms::test;

namespace {

struct Case {
  std::string design;
  uint32_t line_bytes;
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.design << ", " << c.line_bytes << " B lines";
}

class L1Functional : public ::testing::TestWithParam<Case> {};

TEST_P(L1Functional, ReadsWritesAndDebugWritesAgreeWithMemory) {
  L1Params p = test_params("lru", GetParam().line_bytes == 128 ? SetIndexFn::FermiHash : SetIndexFn::Linear);
  p.design = GetParam().design;
  p.line_bytes = GetParam().line_bytes;
  Bench b(p, std::vector<SmOp>{});
  auto access = [&](tlm::tlm_command cmd, uint64_t addr, unsigned len, uint8_t fill) {
    FunctionalResult r = functional_access(b, cmd, addr, len, fill);
    EXPECT_GT(r.delay, sc_core::SC_ZERO_TIME);
    return r.data;
  };
  const uint64_t C = 0x4100;
  auto first = access(tlm::TLM_READ_COMMAND, C + 8, 8, 0);
  EXPECT_EQ(first[0], initial_byte(C + 8));
  auto line = access(tlm::TLM_READ_COMMAND, C, 128, 0);  // may be served by the copy installed above
  for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(line[i], initial_byte(C + i)) << i;
  access(tlm::TLM_WRITE_COMMAND, C + 36, 4, 0x90);
  auto again = access(tlm::TLM_READ_COMMAND, C + 32, 8, 0);
  EXPECT_EQ(again[4], 0x90);
  EXPECT_EQ(again[7], 0x93);
  EXPECT_EQ(again[0], initial_byte(C + 32));
  EXPECT_EQ(debug_write(b, C + 1, 0x5A), 1u);
  EXPECT_EQ(b.mem->mem.line(C)[1], 0x5A);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, C, 2, 0)[1], 0x5A);
  EXPECT_EQ(b.stat("requests"), 0u);
  EXPECT_EQ(b.stat("loads") + b.stat("stores") + b.stat("evictions"), 0u);
  sc_core::sc_start();
}

INSTANTIATE_TEST_SUITE_P(Designs, L1Functional,
                         ::testing::Values(Case{"baseline", 128}, Case{"baseline", 32}, Case{"sector", 128},
                                           Case{"tsc", 128}, Case{"tsc_plus", 128}, Case{"dsc", 128},
                                           Case{"gcache", 128}, Case{"decoupled", 128},
                                           Case{"bypass_all", 128}, Case{"stall_bypass", 128}),
                         [](const auto& i) {
                           return i.param.design + "_" + std::to_string(i.param.line_bytes);
                         });

// TSC+ traces its follower mode: the chunk-by-chunk stream of the duel test switches it to coarse (1).
TEST(L1TscPlusVcd, TheModeProbeShowsTheSwitchToCoarse) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/l1_tsc_mode_test.vcd";
  auto trace = std::make_unique<TraceSelector>(path, std::vector<std::string>{"l1*"});
  BenchOptions o;
  o.trace = trace.get();
  std::vector<SmOp> ops;
  for (uint64_t line : {uint64_t(0x0), uint64_t(0x200)})
    for (uint8_t m : {0x1, 0x2, 0x4, 0x8}) ops.push_back(load(line, true, m));
  ops.push_back(load(0x80, true, 0x1));
  L1Params p = test_params("lru", SetIndexFn::Linear);
  p.design = "tsc_plus";
  Bench b(p, ops, o);
  sc_core::sc_start();
  trace->close();  // writes the file (destroyed without close(), an error path, it is discarded)
  trace.reset();
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  const std::string vcd = text.str();
  const size_t decl = vcd.find(" tsc_mode [31:0]");
  ASSERT_NE(decl, std::string::npos) << vcd.substr(0, 600);
  const size_t id_end = vcd.rfind(' ', decl - 1), id_start = vcd.rfind(' ', id_end - 1) + 1;
  const std::string id = vcd.substr(id_start, id_end - id_start);
  EXPECT_NE(vcd.find("b1 " + id + "\n"), std::string::npos) << "no change of tsc_mode to 1";
}

}  // namespace
