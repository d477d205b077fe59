// Exactness where the two models must agree: one warp, latencies and MSHR limits off in the model, a fully
// associative LRU L1 in the SystemC model with one line request in flight per warp (so every access sees
// the previous one's fill): the miss counts are equal, for the baseline L1 and for the sector L1 (the model
// tracking 32 B sectors; there the fetched sectors are equal too).
#include <gtest/gtest.h>

#include "models/analytic/rd_model.h"
#include "models/common/config.h"
#include "models/common/rng.h"
#include "models/system/system_config.h"
#include "tb/system/gpu_system.h"
#include "tests/analytic/vector_workload.h"

using namespace gms;
using namespace gms::test;

namespace {

VKernel single_warp(uint64_t seed, int insts) {
  Rng rng(seed);
  VWarp w;
  const uint64_t base = 0x100000;
  for (int i = 0; i < insts; ++i) {
    VInst in;
    in.store = rng.chance(0.1);
    const uint64_t hot = rng.chance(0.6) ? rng.below(24) : rng.below(80);
    const uint64_t kind = rng.below(3);
    for (uint32_t l = 0; l < 32; ++l) {
      if (kind == 0)
        in.addrs.push_back(base + hot * 128 + l * 4);  // coalesced: one line
      else if (kind == 1)
        in.addrs.push_back(base + ((hot + l / 8) % 80) * 128 + (l % 8) * 4);  // 4 lines
      else
        in.addrs.push_back(base + ((hot + l * 3) % 80) * 128 + 4 * (l % 32));  // scattered
    }
    w.push_back(in);
  }
  VKernel k;
  k.ctas.push_back({{w}});
  return k;
}

// For the sector design: loads of whole lines (one line, or four lines of 16-byte lanes), stores of single
// sectors or of scattered words, so stores leave lines with some sectors valid. Every load wants every
// sector of its lines, so a line that is present always has one it wants: SectorL1 refreshes a line's
// recency when it reads from it or allocates it, not when a load misses all of its sectors on a line that
// is present (the model refreshes on every access), and this stream never has such a load.
VKernel single_warp_sectors(uint64_t seed, int insts) {
  Rng rng(seed);
  VWarp w;
  const uint64_t base = 0x100000;
  for (int i = 0; i < insts; ++i) {
    VInst in;
    in.store = rng.chance(0.2);
    const uint64_t hot = rng.chance(0.6) ? rng.below(24) : rng.below(80);
    const uint64_t kind = rng.below(2);
    if (in.store && kind == 0) {  // one sector of one line
      const uint64_t sector = rng.below(4);
      for (uint32_t l = 0; l < 8; ++l) in.addrs.push_back(base + hot * 128 + sector * 32 + l * 4);
    } else if (in.store) {  // one word in each of 32 lines
      for (uint32_t l = 0; l < 32; ++l) in.addrs.push_back(base + ((hot + l * 3) % 80) * 128 + 4 * (l % 32));
    } else if (kind == 0) {
      for (uint32_t l = 0; l < 32; ++l) in.addrs.push_back(base + hot * 128 + l * 4);
    } else {
      in.width = 16;
      for (uint32_t l = 0; l < 32; ++l) in.addrs.push_back(base + ((hot + l / 8) % 80) * 128 + (l % 8) * 16);
    }
    w.push_back(in);
  }
  VKernel k;
  k.ctas.push_back({{w}});
  return k;
}

uint64_t sum_l1(GpuSystem& sys, const std::string& stat) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < sys.config().sm.count; ++i)
    n += uint64_t(sys.stats().value("l1_" + std::to_string(i) + "." + stat));
  return n;
}

// Runs the same single-warp kernel through both models; ways = 0: fully associative. sector: the sector
// L1 design (32 B sectors of 128 B lines) in both.
void expect_equal_misses(uint32_t ways, bool sector = false) {
  ConfigNode doc = ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/tiny.yaml");
  doc.apply_override("l1.ways=" + std::to_string(ways ? ways : 32));  // 4 KB of 128 B lines
  doc.apply_override("l1.set_index=linear");
  if (sector) doc.apply_override("l1.design=sector");
  doc.apply_override("sm.max_outstanding_per_warp=1");
  SystemConfig cfg = SystemConfig::from(doc);
  const VKernel k = sector ? single_warp_sectors(7, 1500) : single_warp(7, 1500);

  RdParams p = RdParams::from_config(cfg.l1, cfg.sm);
  p.ways = ways;
  p.hit_latency = p.miss_latency = 0;
  p.sigma = 0;
  p.mshr_entries = p.mshr_per_warp = 0;
  p.divergence = false;
  VectorWorkload wm({k});
  RdResult r = RdModel(p).run(wm);

  VectorWorkload ws({k});
  RunOptions ro;
  ro.progress = false;
  GpuSystem sys(cfg, ws, ro);
  RunResult rr = sys.run();
  ASSERT_TRUE(rr.error.empty()) << rr.error;
  EXPECT_EQ(sum_l1(sys, "loads"), r.total.loads);
  EXPECT_EQ(sum_l1(sys, "stores"), r.total.stores);
  // A sectored L1 counts a load that found some of its sectors as a partial hit, the model as a miss.
  EXPECT_EQ(sum_l1(sys, "misses") + sum_l1(sys, "partial_hits"), r.total.misses());
  EXPECT_EQ(sum_l1(sys, "hits"), r.total.hits);
  EXPECT_EQ(sum_l1(sys, "hit_pending"), 0u);
  EXPECT_GT(r.total.capacity, 0u);
  EXPECT_GT(r.total.write_evict, 0u);
  if (!sector) return;
  // Every sector that missed was fetched, 32 bytes each.
  EXPECT_EQ(sum_l1(sys, "from_l2_bytes"), 32 * (r.total.load_sectors - r.total.load_sector_hits));
  EXPECT_GT(sum_l1(sys, "partial_hits"), 0u);  // lines a store left with some sectors
}

}  // namespace

// One set of 32 ways.
TEST(RdVsSim, SingleWarpFullyAssociativeLruMissesAreEqual) {
  expect_equal_misses(0);
}

// 8 sets of 4 ways: per-set stacks, write-evict holes in a set.
TEST(RdVsSim, SingleWarpSetAssociativeLruMissesAreEqual) {
  expect_equal_misses(4);
}

// The sector design (per-sector write-evict, a line freed with its last sector): hits, misses (partial
// hits included) and fetched sectors are equal too.
TEST(RdVsSim, SingleWarpFullyAssociativeSectorL1MissesAndSectorsAreEqual) {
  expect_equal_misses(0, true);
}

TEST(RdVsSim, SingleWarpSetAssociativeSectorL1MissesAndSectorsAreEqual) {
  expect_equal_misses(4, true);
}
