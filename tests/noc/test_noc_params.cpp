#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/noc/arbiter.h"
#include "models/noc/interconnect.h"
#include "models/noc/noc_params.h"
#include "models/noc/rtl/rtl_cosim.h"
#include "tests/config_error_of.h"

using gms::ConfigError;
using gms::ConfigNode;
using gms::NocParams;

namespace {
NocParams parse(const std::string& body) {
  return NocParams::from(ConfigNode::load_string("noc:\n" + body, "n.yaml").child("noc"));
}
}  // namespace

TEST(NocParams, DefaultsAndEveryKey) {
  NocParams d = parse("  type: full\n");
  EXPECT_EQ(d.type, "full");
  EXPECT_DOUBLE_EQ(d.clock_mhz, 700.0);
  EXPECT_EQ(d.flit_bytes, 32u);
  EXPECT_EQ(d.ctrl_bytes, 8u);
  EXPECT_EQ(d.input_buffer_flits, 16u);
  EXPECT_EQ(d.latency, 2u);
  EXPECT_EQ(d.arbiter, "rr");
  NocParams p = parse(
      "  type: full\n  clock_mhz: 1400\n  flit_bytes: 16\n  ctrl_bytes: 4\n  input_buffer_flits: 9\n"
      "  latency: 4\n  arbiter: rr\n");
  EXPECT_DOUBLE_EQ(p.clock_mhz, 1400.0);
  EXPECT_EQ(p.flit_bytes, 16u);
  EXPECT_EQ(p.ctrl_bytes, 4u);
  EXPECT_EQ(p.input_buffer_flits, 9u);  // largest packet: ceil((4 + 128) / 16) = 9 flits
  EXPECT_EQ(p.latency, 4u);
}

TEST(NocParams, PacketFlitsFormula) {
  NocParams p;                         // 32 B flits, 8 B header
  EXPECT_EQ(p.packet_flits(0), 1u);    // read request, write reply
  EXPECT_EQ(p.packet_flits(32), 2u);   // one chunk
  EXPECT_EQ(p.packet_flits(96), 4u);   // three chunks
  EXPECT_EQ(p.packet_flits(128), 5u);  // full line
  p.ctrl_bytes = 0;
  EXPECT_EQ(p.packet_flits(128), 4u);
  EXPECT_EQ(p.packet_flits(0), 0u);
}

TEST(NocParams, ErrorsNameFileLineAndKey) {
  EXPECT_EQ(config_error_of([] { parse("  type: mesh\n"); }).rfind("n.yaml:2: noc.type: ", 0), 0u);
  EXPECT_EQ(config_error_of([] { parse("  input_buffer_flits: 4\n"); }),
            "n.yaml:2: noc.input_buffer_flits: value 4 cannot hold the largest packet (5 flits of 32 B)");
  EXPECT_EQ(config_error_of([] { parse("  flit_bytes: 64\n  input_buffer_flits: 2\n"); }),
            "n.yaml:3: noc.input_buffer_flits: value 2 cannot hold the largest packet (3 flits of 64 B)");
  EXPECT_EQ(config_error_of([] { parse("  flit_bytes: 64\n  input_buffer_flits: 3\n"); }), "");
  EXPECT_EQ(config_error_of([] { parse("  flit_bytes: 24\n"); }),
            "n.yaml:2: noc.flit_bytes: value 24 must be a power of two");
  EXPECT_EQ(config_error_of([] { parse("  latency: 0\n"); }),
            "n.yaml:2: noc.latency: value 0 out of range [1, 1000]");
  EXPECT_EQ(config_error_of([] { parse("  arbiter: fifo\n"); }).rfind("n.yaml:2: noc.arbiter: ", 0), 0u);
  EXPECT_EQ(config_error_of([] { parse("  latncy: 3\n"); }), "n.yaml:2: noc.latncy: unknown key");
}

// noc.arbiter: rtl swaps in the Verilated arbiter: for the one-hop crossbar only, and only in a build
// with RTL co-simulation (a build without Verilator says so, naming the key).
TEST(NocParams, RtlArbiterNeedsTheFullCrossbarAndABuildWithVerilator) {
  if (gms::rtl_cosim_available()) {
    EXPECT_EQ(parse("  type: full\n  arbiter: rtl\n").arbiter, "rtl");
    EXPECT_EQ(config_error_of([] { parse("  type: hxbar\n  arbiter: rtl\n"); }),
              "n.yaml:3: noc.arbiter: value 'rtl' needs type full (the router networks allocate with "
              "router.allocator)");
  } else {
    EXPECT_EQ(config_error_of([] { parse("  type: full\n  arbiter: rtl\n"); }),
              "n.yaml:3: noc.arbiter: value 'rtl': this build has no RTL co-simulation (Verilator was not "
              "found when CMake configured it; install verilator and reconfigure, docs/cosim.md)");
  }
}

TEST(NocParams, GatingEnergyAndWatchdogKeys) {
  const NocParams p = parse(
      "  watchdog_cycles: 500\n  hxbar:\n    gate_cycles: 12\n    wake_cycles: 30\n"
      "  energy:\n    wire_pj_per_bit_mm: 0.2\n    long_link_mm: 10\n    crossbar_pj_per_bit_port: 0.02\n");
  EXPECT_EQ(p.watchdog_cycles, 500u);
  EXPECT_EQ(p.hxbar.gate.gate_cycles, 12u);
  EXPECT_EQ(p.hxbar.gate.wake_cycles, 30u);
  EXPECT_DOUBLE_EQ(p.energy.wire_pj_per_bit_mm, 0.2);
  EXPECT_DOUBLE_EQ(p.energy.long_link_mm, 10.0);
  EXPECT_DOUBLE_EQ(p.energy.crossbar_pj_per_bit_port, 0.02);
  EXPECT_DOUBLE_EQ(p.energy.short_link_mm, 1.0);  // untouched keys keep their defaults
  EXPECT_EQ(config_error_of([] {
              parse("  energy:\n    allocator_pj: -1\n");
            }).rfind("n.yaml:3: noc.energy.allocator_pj: ", 0),
            0u);
  EXPECT_EQ(config_error_of([] { parse("  energy:\n    leak: 1\n"); }),
            "n.yaml:3: noc.energy.leak: unknown key");
  EXPECT_EQ(config_error_of([] {
              parse("  hxbar:\n    gate_cycles: x\n");
            }).rfind("n.yaml:3: noc.hxbar.gate_cycles: ", 0),
            0u);
}

TEST(NocParams, FactoryRejectsUnknownTypeAndArbiter) {
  gms::StatGroup root("root");
  gms::BlockEnv env;
  env.stats = &root;
  NocParams p;
  p.type = "torus";
  EXPECT_EQ(config_error_of([&] {
              gms::make_interconnect(
                  p, "x", [](const tlm::tlm_generic_payload&, unsigned) { return 0u; }, env);
            }),
            "noc.type: unknown interconnect type 'torus' (known: full, crossbar, concentrated, hxbar)");
  EXPECT_EQ(config_error_of([] { gms::make_arbiter("islip"); }),
            "noc.arbiter: unknown arbiter 'islip' (known: rr, rtl)");
}

TEST(NocArbiter, RoundRobinRotatesAmongRequestersAndSkipsIdleOnes) {
  gms::RoundRobinArbiter a;
  a.resize(4, 2);
  std::vector<gms::SwitchRequest> grants;
  std::vector<unsigned> winners;
  const std::vector<gms::SwitchRequest> all = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
  for (int k = 0; k < 6; ++k) {
    a.allocate(all, grants);
    ASSERT_EQ(grants.size(), 1u);
    winners.push_back(grants[0].input);
  }
  EXPECT_EQ(winners, (std::vector<unsigned>{0, 1, 2, 3, 0, 1}));
  // Last winner 1: of inputs 0 and 3, input 3 comes first after it, then 0.
  a.allocate({{0, 0}, {3, 0}}, grants);
  EXPECT_EQ(grants[0].input, 3u);
  a.allocate({{0, 0}, {3, 0}}, grants);
  EXPECT_EQ(grants[0].input, 0u);
  // Outputs arbitrate independently: a matching with one grant per output.
  a.allocate({{0, 1}, {1, 0}, {2, 1}, {3, 0}}, grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].input, 0u);  // output 1 (first seen) never granted: pointer at 3, input 0 next
  EXPECT_EQ(grants[0].output, 1u);
  EXPECT_EQ(grants[1].input, 1u);  // output 0, last winner 0 -> 1 next
}

TEST(NocArbiter, RoundRobinInputRequestingTwoOutputsIsGrantedOnce) {
  gms::RoundRobinArbiter a;
  a.resize(2, 2);
  std::vector<gms::SwitchRequest> grants;
  a.allocate({{0, 0}, {0, 1}, {1, 1}}, grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].input, 0u);
  EXPECT_EQ(grants[0].output, 0u);
  EXPECT_EQ(grants[1].input, 1u);  // output 1 would have picked input 0, which output 0 already took
  EXPECT_EQ(grants[1].output, 1u);
}

TEST(NocArbiter, RoundRobinOverMoreThan64Inputs) {
  // Request masks span several 64-bit words: the pointer search crosses words and wraps around.
  gms::RoundRobinArbiter a;
  a.resize(130, 2);
  std::vector<gms::SwitchRequest> grants;
  std::vector<unsigned> winners;
  const std::vector<gms::SwitchRequest> req = {{5, 0}, {70, 0}, {129, 0}};
  for (int k = 0; k < 4; ++k) {
    a.allocate(req, grants);
    ASSERT_EQ(grants.size(), 1u);
    winners.push_back(grants[0].input);
  }
  EXPECT_EQ(winners, (std::vector<unsigned>{5, 70, 129, 5}));
  // Input 100 asks for both outputs: output 1 (first seen) takes it; output 0, whose next in line it was,
  // wraps around to input 5.
  a.allocate({{100, 1}, {100, 0}, {5, 0}}, grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].input, 100u);
  EXPECT_EQ(grants[0].output, 1u);
  EXPECT_EQ(grants[1].input, 5u);
  EXPECT_EQ(grants[1].output, 0u);
}

TEST(NocParams, PresetsParse) {
  for (const char* preset : {"fermi.yaml", "tiny.yaml"}) {
    auto root = ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/" + preset);
    NocParams p = NocParams::from(root.child("noc"));
    EXPECT_EQ(p.type, "full") << preset;
    EXPECT_EQ(p.flit_bytes, 32u) << preset;
    EXPECT_EQ(p.max_packet_flits(), 5u) << preset;
  }
}
