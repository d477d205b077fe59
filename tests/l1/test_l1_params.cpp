// L1Params::from: defaults, every key, and the errors that name the offending key.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/l1/l1_cache.h"
#include "tests/l1/l1_test_ops.h"

using namespace gms;
using gms::test::l1_params_error;

TEST(L1Params, DefaultsAreTheFermiBaseline) {
  L1Params p = L1Params::from(ConfigNode::load_string("l1: {}\n", "t.yaml").child("l1"));
  EXPECT_EQ(p.design, "baseline");
  EXPECT_DOUBLE_EQ(p.clock_mhz, 1400.0);
  EXPECT_EQ(p.size_bytes, 16384u);
  EXPECT_EQ(p.ways, 4u);
  EXPECT_EQ(p.line_bytes, 128u);
  EXPECT_EQ(p.sets(), 32u);
  EXPECT_EQ(p.set_index, SetIndexFn::FermiHash);
  EXPECT_EQ(p.replacement, "lru");
  EXPECT_EQ(p.mshr_entries, 32u);
  EXPECT_EQ(p.mshr_max_merge, 8u);
  EXPECT_EQ(p.miss_queue_entries, 8u);
  EXPECT_EQ(p.hit_latency, 1u);
  EXPECT_TRUE(p.flush_at_kernel_end);
  EXPECT_EQ(p.store_policy, StorePolicy::WriteEvict);
}

TEST(L1Params, ReadsEveryKey) {
  L1Params p =
      L1Params::from(ConfigNode::load_string(
                         "l1:\n  design: sector\n  clock_mhz: 1000\n  size_bytes: 49152\n  ways: 6\n"
                         "  line_bytes: 128\n  set_index: linear\n  replacement: srrip\n  mshr_entries: 64\n"
                         "  mshr_max_merge: 4\n  miss_queue_entries: 16\n  hit_latency: 3\n"
                         "  flush_at_kernel_end: false\n  store_policy: write_allocate\n",
                         "t.yaml")
                         .child("l1"));
  EXPECT_EQ(p.sets(), 64u);
  EXPECT_EQ(p.set_index, SetIndexFn::Linear);
  EXPECT_EQ(p.replacement, "srrip");
  EXPECT_EQ(p.mshr_entries, 64u);
  EXPECT_EQ(p.mshr_max_merge, 4u);
  EXPECT_EQ(p.miss_queue_entries, 16u);
  EXPECT_EQ(p.hit_latency, 3u);
  EXPECT_FALSE(p.flush_at_kernel_end);
  EXPECT_EQ(p.store_policy, StorePolicy::WriteAllocate);
}

TEST(L1Params, ErrorsNameTheKey) {
  EXPECT_EQ(
      l1_params_error("l1:\n  size_bytes: 24576\n"),
      "t.yaml:2: l1.set_index: fermi_hash needs 32 or 64 sets of 128 B lines, this L1 has 48 sets of 128 B");
  EXPECT_EQ(l1_params_error("l1:\n  size_bytes: 28672\n  set_index: linear\n"), "");  // 56 sets: 28 KiB
  EXPECT_NE(
      l1_params_error("l1:\n  size_bytes: 1000\n").find("t.yaml:2: l1.size_bytes: 1000 is not a multiple"),
      std::string::npos);
  EXPECT_EQ(
      l1_params_error("l1:\n  line_bytes: 64\n"),
      "t.yaml:2: l1.set_index: fermi_hash needs 32 or 64 sets of 128 B lines, this L1 has 64 sets of 64 B");
  EXPECT_NE(
      l1_params_error("l1:\n  design: magic\n").find("t.yaml:2: l1.design: 'magic' is not one of: baseline"),
      std::string::npos);
  EXPECT_NE(l1_params_error("l1:\n  replacement: plru\n").find("l1.replacement: 'plru' is not one of"),
            std::string::npos);
  EXPECT_EQ(
      l1_params_error("l1:\n  size_bytes: 8192\n"),
      "t.yaml:2: l1.set_index: fermi_hash needs 32 or 64 sets of 128 B lines, this L1 has 16 sets of 128 B");
  EXPECT_EQ(l1_params_error("l1:\n  waysz: 4\n"), "t.yaml:2: l1.waysz: unknown key");
  EXPECT_EQ(l1_params_error("l1:\n  hit_latency: 0\n"),
            "t.yaml:2: l1.hit_latency: value 0 out of range [1, 1000]");
  EXPECT_EQ(l1_params_error("l1:\n  size_bytes: 8192\n  set_index: linear\n"), "");
  EXPECT_EQ(l1_params_error("l1:\n  store_policy: write_evict\n"), "");
  EXPECT_EQ(l1_params_error("l1:\n  store_policy: write_back\n"),
            "t.yaml:2: l1.store_policy: 'write_back' is not one of: write_evict, write_allocate");
}

TEST(L1Params, PdpDistanceAndWhichDesignsMayUsePdp) {
  EXPECT_EQ(L1Params::from(ConfigNode::load_string("l1: {}\n", "t.yaml").child("l1")).pdp.distance, 16u);
  L1Params p = L1Params::from(
      ConfigNode::load_string("l1:\n  replacement: pdp\n  pdp:\n    distance: 5\n", "t.yaml").child("l1"));
  EXPECT_EQ(p.replacement, "pdp");
  EXPECT_EQ(p.pdp.distance, 5u);
  EXPECT_EQ(l1_params_error("l1:\n  pdp:\n    distanse: 5\n"), "t.yaml:3: l1.pdp.distanse: unknown key");
  EXPECT_EQ(l1_params_error("l1:\n  pdp:\n    distance: 0\n"),
            "t.yaml:3: l1.pdp.distance: value 0 out of range [1, 65535]");
  EXPECT_EQ(
      l1_params_error("l1:\n  design: sector\n  replacement: pdp\n"),
      "t.yaml:3: l1.replacement: pdp needs a design that can bypass (baseline, stall_bypass), not 'sector'");
  EXPECT_EQ(l1_params_error("l1:\n  design: stall_bypass\n  replacement: pdp\n"), "");
  EXPECT_EQ(l1_params_error("l1:\n  design: bypass_all\n  replacement: pdp\n"), "");
}

TEST(L1Params, UnknownDesignInMakeL1) {
  L1Params p;
  p.design = "nope";
  StatGroup root("top");
  BlockEnv env;
  env.stats = &root;
  try {
    make_l1(p, "l1", 0, env);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("l1.design: unknown L1 design 'nope'"), std::string::npos);
  }
}

TEST(L1Params, DesignSectionsAreReadAndChecked) {
  L1Params p = L1Params::from(
      ConfigNode::load_string(
          "l1:\n  design: tsc_plus\n  tsc:\n    chunk_bytes: 16\n    private_tag_bits: 5\n"
          "    extra_hit_latency: 2\n  tsc_plus:\n    sampler_sets: 4\n    aging_threshold: 512\n"
          "    leader_sm: 3\n  dsc:\n    tags_per_frame: 4\n",
          "t.yaml")
          .child("l1"));
  EXPECT_EQ(p.tsc.chunk_bytes, 16u);
  EXPECT_EQ(p.tsc.private_tag_bits, 5u);
  EXPECT_EQ(p.tsc.extra_hit_latency, 2u);
  EXPECT_EQ(p.tsc_plus.sampler_sets, 4u);
  EXPECT_EQ(p.tsc_plus.aging_threshold, 512u);
  EXPECT_EQ(p.tsc_plus.leader_sm, 3u);
  EXPECT_EQ(p.dsc.tags_per_frame, 4u);
  EXPECT_EQ(l1_params_error("l1:\n  tsc:\n    chunk_bytes: 12\n"),
            "t.yaml:3: l1.tsc.chunk_bytes: value 12 must be a power of two");
  EXPECT_EQ(l1_params_error("l1:\n  tsc_plus:\n    sampler_sets: 3\n"),
            "t.yaml:3: l1.tsc_plus.sampler_sets: must be even (half fine, half coarse)");
  EXPECT_EQ(l1_params_error("l1:\n  dsc:\n    tag_per_frame: 2\n"),
            "t.yaml:3: l1.dsc.tag_per_frame: unknown key");
  EXPECT_EQ(
      l1_params_error("l1:\n  design: sector\n  line_bytes: 64\n"),
      "t.yaml:3: l1.line_bytes: the sector L1 needs 128 B lines (32 and 64 B lines: baseline, stall_bypass, "
      "bypass_all)");
}
