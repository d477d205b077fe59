// LlcParams from YAML (every key, defaults, range and cross-field errors) and the set-index adapter.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "models/common/address_map.h"
#include "models/common/payload_pool.h"
#include "models/llc/last_level_cache.h"
#include "models/llc/llc_params.h"
#include "models/llc/llc_set_hash.h"
#include "models/llc/llc_slice.h"
#include "tests/config_error_of.h"

using gms::ConfigError;
using gms::ConfigNode;
using gms::LlcParams;

namespace {

std::string error_of(const std::string& yaml) {
  try {
    LlcParams::from(ConfigNode::load_string(yaml, "c.yaml").child("llc"));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(LlcConfig, DefaultsAndEveryKey) {
  LlcParams d = LlcParams::from(ConfigNode::load_string("llc: {}\n", "c.yaml").child("llc"));
  EXPECT_EQ(d.slices, 12u);
  EXPECT_DOUBLE_EQ(d.clock_mhz, 700.0);
  EXPECT_EQ(d.size_bytes, 65536u);
  EXPECT_EQ(d.ways, 8u);
  EXPECT_EQ(d.sets(), 64u);
  EXPECT_EQ(d.replacement, "lru");
  EXPECT_EQ(d.set_index, gms::LlcSetIndex::XorFold);
  EXPECT_EQ(d.mshr_entries, 32u);
  EXPECT_EQ(d.mshr_max_merge, 16u);
  EXPECT_EQ(d.latency, 20u);
  EXPECT_EQ(d.input_queue, 8u);
  EXPECT_EQ(d.miss_queue, 8u);
  EXPECT_EQ(d.response_queue, 32u);
  EXPECT_EQ(d.fetch, gms::LlcFetch::Sector);
  LlcParams p = LlcParams::from(
      ConfigNode::load_string(
          "llc:\n  slices: 6\n  clock_mhz: 1400\n  size_bytes: 131072\n  ways: 16\n"
          "  line_bytes: 128\n  sector_bytes: 32\n  replacement: srrip\n  set_index: fermi_hash\n"
          "  mshr_entries: 64\n  mshr_max_merge: 4\n  latency: 120\n  input_queue: 4\n"
          "  miss_queue: 16\n  response_queue: 128\n  fetch: line\n",
          "c.yaml")
          .child("llc"));
  EXPECT_EQ(p.slices, 6u);
  EXPECT_DOUBLE_EQ(p.clock_mhz, 1400.0);
  EXPECT_EQ(p.sets(), 64u);
  EXPECT_EQ(p.replacement, "srrip");
  EXPECT_EQ(p.set_index, gms::LlcSetIndex::FermiHash);
  EXPECT_EQ(p.mshr_entries, 64u);
  EXPECT_EQ(p.mshr_max_merge, 4u);
  EXPECT_EQ(p.latency, 120u);
  EXPECT_EQ(p.input_queue, 4u);
  EXPECT_EQ(p.miss_queue, 16u);
  EXPECT_EQ(p.response_queue, 128u);
  EXPECT_EQ(p.fetch, gms::LlcFetch::Line);
  EXPECT_NO_THROW(p.check());
}

TEST(LlcConfig, ErrorsNameFileLineAndKey) {
  EXPECT_EQ(error_of("llc:\n  ways: 8\n  wayz: 4\n"), "c.yaml:3: llc.wayz: unknown key");
  EXPECT_EQ(error_of("llc:\n  line_bytes: 64\n"),
            "c.yaml:2: llc.line_bytes: value 64 out of range [128, 128]");
  EXPECT_EQ(error_of("llc:\n  sector_bytes: 16\n"),
            "c.yaml:2: llc.sector_bytes: value 16 out of range [32, 32]");
  EXPECT_EQ(error_of("llc:\n  size_bytes: 98304\n  ways: 7\n"),
            "c.yaml:2: llc.size_bytes: size_bytes (98304) must be a multiple of ways * line_bytes (896)");
  EXPECT_EQ(error_of("llc:\n  size_bytes: 0\n"),
            "c.yaml:2: llc.size_bytes: value 0 out of range [128, 4294967296]");
  EXPECT_EQ(error_of("llc:\n  set_index: fermi_hash\n  size_bytes: 98304\n  ways: 16\n"),
            "c.yaml:2: llc.set_index: fermi_hash needs 32 or 64 sets, this slice has 48");
  EXPECT_EQ(error_of("llc:\n  size_bytes: 65000\n"),
            "c.yaml:2: llc.size_bytes: size_bytes (65000) must be a multiple of ways * line_bytes (1024)");
  EXPECT_EQ(
      error_of("llc:\n  replacement: plru\n"),
      "c.yaml:2: llc.replacement: unknown replacement policy 'plru' (known: lru, nru, pdp, random, srrip)");
  EXPECT_EQ(
      error_of("llc:\n  replacement: pdp\n"),
      "c.yaml:2: llc.replacement: pdp bypasses a load when every way is protected; this cache cannot bypass");
  EXPECT_EQ(error_of("llc:\n  fetch: word\n"), "c.yaml:2: llc.fetch: 'word' is not one of: sector, line");
  EXPECT_EQ(error_of("llc:\n  set_index: fermi_hash\n  size_bytes: 16384\n"),
            "c.yaml:2: llc.set_index: fermi_hash needs 32 or 64 sets, this slice has 16");
  EXPECT_EQ(error_of("llc:\n  miss_queue: 1\n"), "c.yaml:2: llc.miss_queue: value 1 out of range [2, 4096]");
  EXPECT_EQ(error_of("llc:\n  ways: 65\n"), "c.yaml:2: llc.ways: value 65 out of range [1, 64]");
  EXPECT_EQ(error_of("llc:\n  latency: 0\n"), "c.yaml:2: llc.latency: value 0 out of range [1, 100000]");
  EXPECT_EQ(error_of("llc:\n  mshr_entries: -1\n"),
            "c.yaml:2: llc.mshr_entries: value -1 must not be negative");
  EXPECT_EQ(error_of("llc:\n  clock_mhz: fast\n"), "c.yaml:2: llc.clock_mhz: expected a number, got 'fast'");
  LlcParams bad;
  bad.ways = 3;
  EXPECT_THROW(bad.check(), ConfigError);
  LlcParams empty;  // only code can ask for no sets (YAML's size_bytes starts at 128)
  empty.size_bytes = 0;
  try {
    empty.check();
    ADD_FAILURE() << "0 sets accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "llc.size_bytes: size_bytes / (ways * line_bytes) = 0 sets; must be at least 1");
  }
  LlcParams no_map;
  no_map.map_slices = 0;
  EXPECT_THROW(no_map.check(), ConfigError);
}

TEST(LlcConfig, AnySetCountParses) {
  auto sets_of = [](const std::string& llc) {
    LlcParams p = LlcParams::from(ConfigNode::load_string("llc:\n" + llc, "c.yaml").child("llc"));
    p.check();
    return p.sets();
  };
  EXPECT_EQ(sets_of("  size_bytes: 98304\n  ways: 16\n"), 48u);   // paper 004's Volta-class slice
  EXPECT_EQ(sets_of("  size_bytes: 196608\n  ways: 16\n"), 96u);  // 3 MB over 16 slices
  EXPECT_EQ(sets_of("  size_bytes: 393216\n  ways: 24\n  set_index: linear\n"), 128u);
  EXPECT_EQ(sets_of("  size_bytes: 40960\n  ways: 8\n  replacement: srrip\n"), 40u);
  EXPECT_EQ(sets_of("  size_bytes: 98304\n  ways: 16\n  set_index: linear\n  replacement: nru\n"), 48u);
  EXPECT_EQ(sets_of("  size_bytes: 384\n  ways: 1\n"), 3u);
}

TEST(LlcSetHash, XorFoldIsABijectionThatUsesEverySetOfASlice) {
  // Slice 0 of 12 slices with 256 B interleaving sees 2 of every 24 lines.
  gms::AddressMapParams mp;
  mp.num_slices = 12;
  mp.num_channels = 6;
  gms::AddressMap map(mp);
  gms::LlcLineKey fold(gms::LlcSetIndex::XorFold, 64), linear(gms::LlcSetIndex::Linear, 64);
  gms::SetIndexer fold_ix = fold.indexer(), linear_ix = linear.indexer();
  std::set<uint32_t> fold_sets, linear_sets;
  std::set<uint64_t> keys;
  for (uint64_t a = 0; a < (uint64_t(1) << 24); a += 128) {
    if (map.slice_of(a) != 0) continue;
    const uint64_t k = fold.key(a);
    EXPECT_EQ(fold.line(k), a);
    EXPECT_EQ(k % 128, 0u);
    EXPECT_TRUE(keys.insert(k).second);
    fold_sets.insert(fold_ix.set_of(k));
    linear_sets.insert(linear_ix.set_of(linear.key(a)));
  }
  EXPECT_EQ(fold_sets.size(), 64u);
  EXPECT_EQ(linear_sets.size(), 16u);  // why xor_fold is the default
  EXPECT_EQ(linear.key(0x12345680), 0x12345680u);
}

// The design registry (last_level_cache.h): "slice" is built in, another design can be registered and is
// chosen by llc.design, an unknown name is a ConfigError naming the key. One SystemC elaboration per
// process: this test builds modules.
TEST(LlcDesigns, RegistryBuildsTheNamedDesignAndRefusesUnknownOnes) {
  gms::StatGroup root("root");
  gms::PayloadPool pool;
  gms::BlockEnv env;
  env.stats = &root;
  env.pool = &pool;
  gms::LlcParams p;
  auto a = gms::make_llc(p, "llc_a", 3, env);
  EXPECT_NE(dynamic_cast<gms::LlcSlice*>(a.get()), nullptr);
  EXPECT_EQ(a->slice_id(), 3u);
  EXPECT_EQ(a->params().sets(), p.sets());
  EXPECT_TRUE(a->quiescent());
  int built = 0;
  gms::register_llc_design("counted_slice", [&built](const gms::LlcParams& q, sc_core::sc_module_name n,
                                                     unsigned id, const gms::BlockEnv& e) {
    ++built;
    return std::unique_ptr<gms::LastLevelCache>(std::make_unique<gms::LlcSlice>(n, q, id, e));
  });
  p.design = "counted_slice";
  auto b = gms::make_llc(p, "llc_b", 0, env);
  EXPECT_EQ(built, 1);
  const std::vector<std::string> designs = gms::llc_designs();
  EXPECT_NE(std::find(designs.begin(), designs.end(), "slice"), designs.end());
  p.design = "victim_cache";
  EXPECT_EQ(config_error_of([&] {
              gms::make_llc(p, "llc_c", 0, env);
            }).rfind("llc.design: unknown LLC design 'victim_cache' (known: ", 0),
            0u);
}
