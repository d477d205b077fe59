// Property tests: the tree-based distances equal a naive O(NM) LRU stack's, on random traces and many
// seeds, for the whole cache and per set (linear and Fermi-hash set index).
#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <unordered_map>

#include "models/analytic/rd_model.h"
#include "models/analytic/reuse_tree.h"
#include "models/common/rng.h"
#include "tests/analytic/vector_workload.h"

using namespace gms;
using namespace gms::test;

namespace {

// Naive reuse-distance stack: a list, most recent first.
struct NaiveStack {
  std::list<uint64_t> s;
  uint32_t access(uint64_t x) {
    uint32_t d = 0;
    for (auto it = s.begin(); it != s.end(); ++it, ++d)
      if (*it == x) {
        s.erase(it);
        s.push_front(x);
        return d;
      }
    s.push_front(x);
    return kInfDistance;
  }
};

}  // namespace

TEST(ReuseTree, MatchesNaiveStackWithCompaction) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Rng rng(seed);
    ReuseTree tree(4);  // tiny: renumbering happens all the time
    std::vector<uint32_t> pos(200, 0);
    NaiveStack naive;
    const uint32_t m = 1 + uint32_t(rng.below(200));
    for (int i = 0; i < 3000; ++i) {
      uint32_t x = uint32_t(rng.below(m));
      uint32_t expect = naive.access(x);
      uint32_t got = pos[x] ? tree.newer_than(pos[x]) : kInfDistance;
      ASSERT_EQ(got, expect) << "seed " << seed << " step " << i;
      if (pos[x]) tree.erase(pos[x]);
      pos[x] = tree.push(x, [&](uint32_t o, uint32_t p) { pos[o] = p; });
    }
    EXPECT_EQ(tree.live(), uint32_t(naive.s.size()));
    EXPECT_LE(tree.capacity(), 4 * size_t(m) + 64);
  }
}

TEST(ReuseTree, ModelDistancesMatchNaivePerSetAndGlobal) {
  struct Geo {
    SetIndexFn fn;
    uint32_t size, ways;
  };
  const Geo geos[] = {{SetIndexFn::Linear, 16384, 0},
                      {SetIndexFn::Linear, 4096, 4},
                      {SetIndexFn::FermiHash, 16384, 4},
                      {SetIndexFn::FermiHash, 49152, 6}};
  for (const Geo& g : geos) {
    for (uint64_t seed = 1; seed <= 25; ++seed) {
      Rng rng(seed * 977 + g.size);
      // A single warp, one active lane per instruction, lines from a random footprint with a hot part.
      VKernel k;
      VWarp w;
      const uint64_t foot = 8 + rng.below(600);
      for (int i = 0; i < 2000; ++i) {
        uint64_t l = rng.chance(0.5) ? rng.below(std::max<uint64_t>(1, foot / 8)) : rng.below(foot);
        w.push_back({{(l * 7919 % 100003) * 128 + rng.below(32) * 4}});
      }
      k.ctas.push_back({{w}});
      RdParams p = RdParams::ideal(g.size, g.ways, 128);
      p.set_index = g.fn;
      p.exact_global = true;
      std::vector<RdAccess> rec;
      RdModel m(p);
      m.set_observer([&](const RdAccess& a) { rec.push_back(a); });
      VectorWorkload wl({k});
      m.run(wl);
      ASSERT_EQ(rec.size(), 2000u);
      SetIndexer idx(g.fn, p.sets(), 128);
      NaiveStack global;
      std::unordered_map<uint32_t, NaiveStack> sets;
      for (size_t i = 0; i < rec.size(); ++i) {
        const uint64_t line = rec[i].line;
        ASSERT_EQ(rec[i].global_distance, global.access(line)) << "seed " << seed << " i " << i;
        ASSERT_EQ(rec[i].set_distance, sets[idx.set_of(line)].access(line)) << "seed " << seed << " i " << i;
        const bool hit = rec[i].set_distance != kInfDistance && rec[i].set_distance < p.effective_ways();
        EXPECT_EQ(rec[i].outcome == RdOutcome::Hit, hit);
      }
    }
  }
}
