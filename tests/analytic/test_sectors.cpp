// Tracked sectors (l1.design sector: 128 B lines allocated whole, loads hit per 32 B sector), set counts
// that are not a power of two, and the store policies, on hand-made streams with their exact counts.
#include <gtest/gtest.h>

#include <string>

#include "models/analytic/rd_model.h"
#include "models/common/config.h"
#include "tests/analytic/vector_workload.h"
#include "tests/config_error_of.h"

using namespace gms;
using namespace gms::test;

namespace {

constexpr uint32_t I = kInfDistance;

// Zero latencies, one core, no MSHR limit (RdParams::ideal) with 32 B sectors of 128 B lines.
RdParams sectored(uint32_t size_bytes, uint32_t ways) {
  RdParams p = RdParams::ideal(size_bytes, ways, 128);
  p.sector_bytes = 32;
  return p;
}

std::vector<RdAccess> run(const RdParams& p, std::vector<VKernel> ks, RdResult* out = nullptr) {
  return run_recorded(p, std::move(ks), out);
}

// One lane per 4-byte word in [lo, hi).
VInst words(uint64_t lo, uint64_t hi, bool store = false) {
  VInst in;
  for (uint64_t a = lo; a < hi; a += 4) in.addrs.push_back(a);
  in.store = store;
  return in;
}
VInst at(std::vector<uint64_t> addrs, bool store = false) {
  VInst in;
  in.addrs = std::move(addrs);
  in.store = store;
  return in;
}

VKernel one_warp(const VWarp& w) {
  VKernel k;
  k.ctas.push_back({{w}});
  return k;
}

std::vector<RdOutcome> outcomes(const std::vector<RdAccess>& rec) {
  std::vector<RdOutcome> o;
  for (const auto& a : rec) o.push_back(a.outcome);
  return o;
}

std::vector<int> masks(const std::vector<RdAccess>& rec, bool hits) {
  std::vector<int> m;
  for (const auto& a : rec) m.push_back(hits ? a.sector_hits : a.sectors);
  return m;
}

using O = RdOutcome;

}  // namespace

// (a) A sector miss allocates the line with that sector only: another sector of the line is a sector miss
// (the line is there, its sector is not), after which both hit; a load of the whole line then hits two
// sectors of four. Whole lines would hit from the second load on.
TEST(RdSectors, SectorMissThenOtherSectorMissThenHit) {
  const VWarp w = {at({0}), at({32}), at({0, 32}), words(0, 128)};
  RdResult r;
  auto rec = run(sectored(1024, 0), {one_warp(w)}, &r);
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(outcomes(rec), (std::vector<O>{O::Compulsory, O::Sector, O::Hit, O::Sector}));
  EXPECT_EQ(masks(rec, false), (std::vector<int>{0x1, 0x2, 0x3, 0xf}));
  EXPECT_EQ(masks(rec, true), (std::vector<int>{0x0, 0x0, 0x3, 0x3}));
  EXPECT_EQ(r.total.loads, 4u);
  EXPECT_EQ(r.total.hits, 1u);
  EXPECT_EQ(r.total.compulsory, 1u);
  EXPECT_EQ(r.total.sector, 2u);
  EXPECT_EQ(r.total.misses(), 3u);
  EXPECT_EQ(r.total.load_sectors, 8u);
  EXPECT_EQ(r.total.load_sector_hits, 4u);
  EXPECT_DOUBLE_EQ(r.total.sector_hit_rate(), 0.5);
  EXPECT_TRUE(r.sectors);

  RdResult whole;
  run(RdParams::ideal(1024, 0, 128), {one_warp(w)}, &whole);
  EXPECT_EQ(whole.total.hits, 3u);
  EXPECT_EQ(whole.total.compulsory, 1u);
  EXPECT_FALSE(whole.sectors);
  EXPECT_EQ(whole.total.load_sectors, 0u);  // not tracked
}

// (b) Three sets of two ways (768 B, linear index): line n maps to set n mod 3. Lines 0, 3 and 6 share
// set 0, so lines 1, 2, 4, 5 of the other sets never push line 0 out, but the third line of set 0 does.
// Line 3's miss at stamp 9 is a capacity miss (six other lines since: a fully associative cache of 6 lines
// misses too), lines 6 and 0 then miss on associativity alone. With sectors, the evicted line loses its
// sector: the reload misses the line (not a sector miss) and then hits.
TEST(RdSectors, ThreeSetsMapModuloAndConflict) {
  RdParams p = RdParams::ideal(768, 2, 128);
  EXPECT_EQ(p.sets(), 3u);
  EXPECT_NO_THROW(p.validate());
  // Lines 0 3 1 2 4 5 0 (hit: only line 3 of set 0 since), 6 (evicts 3), 0 (hit), 3, 6, 0 (misses).
  const std::vector<uint64_t> lines = {0, 3, 1, 2, 4, 5, 0, 6, 0, 3, 6, 0};
  VWarp w;
  for (uint64_t l : lines) w.push_back(at({l * 128}));
  RdResult r;
  auto rec = run(p, {one_warp(w)}, &r);
  ASSERT_EQ(rec.size(), lines.size());
  std::vector<uint32_t> dist;
  for (const auto& a : rec) dist.push_back(a.set_distance);
  EXPECT_EQ(dist, (std::vector<uint32_t>{I, I, I, I, I, I, 1, I, 1, 2, 2, 2}));
  EXPECT_EQ(outcomes(rec), (std::vector<O>{O::Compulsory, O::Compulsory, O::Compulsory, O::Compulsory,
                                           O::Compulsory, O::Compulsory, O::Hit, O::Compulsory, O::Hit,
                                           O::Capacity, O::Associativity, O::Associativity}));
  EXPECT_EQ(r.total.hits, 2u);
  EXPECT_EQ(r.total.capacity, 1u);
  EXPECT_EQ(r.total.associativity, 2u);

  RdParams s = p;
  s.sector_bytes = 32;
  // Sector 1 of line 0, lines 3 and 6 (set 0) evict it, sector 1 again misses the line, then hits.
  RdResult rs;
  auto recs = run(s, {one_warp({at({32}), at({3 * 128}), at({6 * 128}), at({32}), at({32})})}, &rs);
  EXPECT_EQ(outcomes(recs),
            (std::vector<O>{O::Compulsory, O::Compulsory, O::Compulsory, O::Associativity, O::Hit}));
  EXPECT_EQ(rs.total.load_sectors, 5u);
  EXPECT_EQ(rs.total.load_sector_hits, 1u);
}

// The H100 carve-outs take their set counts from the configuration: 56 ways of 128 B lines in 224 KiB and
// 28 KiB are 32 and 4 sets; 28 KiB of 4 ways is 56 sets, which the linear index takes modulo.
TEST(RdSectors, H100GeometriesFromTheConfig) {
  auto params = [](const std::string& l1) {
    ConfigNode doc = ConfigNode::load_string("l1:\n  set_index: linear\n" + l1, "t.yaml");
    RdParams p = RdParams::from_config(L1Params::from(doc.child("l1")), SmParams());
    p.validate();
    return p;
  };
  RdParams big =
      params("  design: sector\n  size_bytes: 229376\n  ways: 56\n  store_policy: write_allocate\n");
  EXPECT_EQ(big.sets(), 32u);
  EXPECT_EQ(big.sector_bytes, 32u);
  EXPECT_EQ(big.store_policy, StorePolicy::WriteAllocate);
  RdParams small = params("  design: sector\n  size_bytes: 28672\n  ways: 56\n");
  EXPECT_EQ(small.sets(), 4u);
  EXPECT_EQ(small.store_policy, StorePolicy::WriteEvict);
  RdParams odd = params("  size_bytes: 28672\n  ways: 4\n");
  EXPECT_EQ(odd.sets(), 56u);
  EXPECT_EQ(odd.sector_bytes, 0u);  // baseline: whole lines
  EXPECT_FALSE(odd.tracks_sectors());
  // Lines 0 and 56 share set 0 of the 56, line 57 is in set 1.
  odd.set("cores=1");
  odd.set("mshr_entries=0");
  odd.set("mshr_per_warp=0");
  odd.set("miss_latency=0");
  odd.set("sigma=0");
  auto rec = run(odd, {one_warp({at({0}), at({56 * 128}), at({57 * 128}), at({0})})});
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(rec[3].set_distance, 1u);  // line 56 only, not line 57
}

// (c) write_allocate: a store writing sector 0 whole makes it valid (the load hits); one writing 4 bytes of
// sector 1 allocates nothing valid there (the load misses the sector, the line being allocated), and a
// partial store to a valid sector leaves it valid.
TEST(RdSectors, WriteAllocateFullSectorValidPartialNot) {
  RdParams p = sectored(1024, 0);
  p.store_policy = StorePolicy::WriteAllocate;
  const VWarp w = {words(0, 32, true), at({0}), at({36}, true), at({36}), at({4}, true), at({4})};
  RdResult r;
  auto rec = run(p, {one_warp(w)}, &r);
  ASSERT_EQ(rec.size(), 6u);
  EXPECT_EQ(outcomes(rec), (std::vector<O>{O::Store, O::Hit, O::Store, O::Sector, O::Store, O::Hit}));
  EXPECT_EQ(masks(rec, false), (std::vector<int>{0x1, 0x1, 0x2, 0x2, 0x1, 0x1}));
  EXPECT_EQ(r.total.stores, 3u);
  EXPECT_EQ(r.total.loads, 3u);
  EXPECT_EQ(r.total.hits, 2u);
  EXPECT_EQ(r.total.sector, 1u);
  EXPECT_EQ(r.total.compulsory, 0u);
  EXPECT_EQ(r.total.load_sectors, 3u);
  EXPECT_EQ(r.total.load_sector_hits, 2u);

  // Under write_evict the same stream never finds a stored sector: the first load is compulsory, the store
  // of 4 bytes of sector 0 invalidates it again.
  p.store_policy = StorePolicy::WriteEvict;
  RdResult e;
  auto rece = run(p, {one_warp(w)}, &e);
  EXPECT_EQ(outcomes(rece),
            (std::vector<O>{O::Store, O::Compulsory, O::Store, O::Sector, O::Store, O::WriteEvict}));
  EXPECT_EQ(e.total.load_sector_hits, 0u);
}

// write_allocate allocates like a load miss: in a two-line fully associative cache, loads of A and B then
// a (partial) store to C evict A, the least recent; under write_evict A stays.
TEST(RdSectors, WriteAllocateEvictsTheLruLine) {
  RdParams p = sectored(256, 0);
  p.store_policy = StorePolicy::WriteAllocate;
  const VWarp w = {at({0}), at({128}), at({256}, true), at({0}), at({256})};
  RdResult r;
  auto rec = run(p, {one_warp(w)}, &r);
  EXPECT_EQ(outcomes(rec), (std::vector<O>{O::Compulsory, O::Compulsory, O::Store, O::Capacity, O::Sector}));
  p.store_policy = StorePolicy::WriteEvict;
  auto rece = run(p, {one_warp(w)});
  EXPECT_EQ(outcomes(rece), (std::vector<O>{O::Compulsory, O::Compulsory, O::Store, O::Hit, O::Compulsory}));
  // Whole lines (baseline design) under write_allocate: one sector = the line, valid only when the store
  // writes all 128 bytes.
  RdParams b = RdParams::ideal(256, 0, 128);
  b.store_policy = StorePolicy::WriteAllocate;
  RdResult rb;
  auto recb = run(b, {one_warp({words(0, 128, true), at({0}), at({128}, true), at({128})})}, &rb);
  EXPECT_EQ(outcomes(recb), (std::vector<O>{O::Store, O::Hit, O::Store, O::Sector}));
  EXPECT_EQ(rb.total.load_sectors, 2u);
  EXPECT_EQ(rb.total.load_sector_hits, 1u);
}

// (d) write_evict: a store invalidates the sectors it writes; the others of the line stay and hit. A store
// that leaves the line with no valid sector frees its way: the next load misses the line (write-evict).
TEST(RdSectors, WriteEvictInvalidatesWrittenSectors) {
  const VWarp w = {at({0, 32}), at({4}, true), at({0}), at({32}), at({0, 32}, true), at({32})};
  RdResult r;
  auto rec = run(sectored(1024, 0), {one_warp(w)}, &r);
  ASSERT_EQ(rec.size(), 6u);
  EXPECT_EQ(outcomes(rec),
            (std::vector<O>{O::Compulsory, O::Store, O::WriteEvict, O::Hit, O::Store, O::WriteEvict}));
  EXPECT_EQ(r.total.write_evict, 2u);
  EXPECT_EQ(r.total.load_sectors, 5u);
  EXPECT_EQ(r.total.load_sector_hits, 1u);
  EXPECT_EQ(rec[5].set_distance, I);  // the line left the stack (a hole in its set)

  RdParams off = sectored(1024, 0);
  off.stores_evict = false;  // stores leave the cache alone
  RdResult o;
  run(off, {one_warp(w)}, &o);
  EXPECT_EQ(o.total.load_sector_hits, 3u);
}

// (e) With latencies, a sector whose fill is in flight is a hit, as Nsight counts it: warp 0 misses sector
// 0 of line 0 at stamp 0 (fill at 10); warp 1 at stamp 1 wants sectors 0 and 1: sector 0 hits (pending),
// sector 1 is fetched on the same MSHR entry (fill at 11, no second entry); warp 0's sector 0 at 2 and
// warp 1's sector 1 at 3 hit their pending sectors (latency misses, taking effect with their fills);
// sector 2 at 4 is a sector miss (fill at 14) on the same entry, which is held until then. Warp 1's
// sector-0 loads at 5, 7, 8 and 9 are latency misses and sector hits; from stamp 10 (the fill lands) they
// are hits.
TEST(RdSectors, PendingSectorsAreHits) {
  RdParams p = sectored(1024, 0);
  p.miss_latency = 10;
  p.clip = true;
  p.mshr_entries = 4;
  VKernel k;
  k.threads_per_cta = 64;
  VWarp w0 = {at({0}), at({0}), at({64})}, w1 = {at({0, 32}), at({32})};
  for (int i = 0; i < 8; ++i) w1.push_back(at({8}));  // sector 0, at stamps 5, 7, 8, ..., 13
  w0.push_back(at({64}));
  k.ctas.push_back({{w0, w1}});
  RdResult r;
  auto rec = run(p, {k}, &r);
  ASSERT_EQ(rec.size(), 14u);
  EXPECT_EQ(outcomes(std::vector<RdAccess>(rec.begin(), rec.begin() + 5)),
            (std::vector<O>{O::Compulsory, O::Sector, O::Latency, O::Latency, O::Sector}));
  EXPECT_EQ(masks(std::vector<RdAccess>(rec.begin(), rec.begin() + 5), true),
            (std::vector<int>{0x0, 0x1, 0x1, 0x2, 0x0}));
  EXPECT_EQ(rec[1].mshr_before, 1u);
  EXPECT_EQ(rec[1].mshr_after, 1u);  // merged into line 0's entry
  EXPECT_EQ(rec[1].effect_at, 11u);
  EXPECT_EQ(rec[2].effect_at, 10u);  // clipped to the fill of its pending sector
  EXPECT_EQ(rec[3].effect_at, 11u);
  EXPECT_EQ(rec[4].effect_at, 14u);
  EXPECT_EQ(rec[4].mshr_after, 1u);
  std::vector<uint64_t> times;
  for (const auto& a : rec) times.push_back(a.time);
  EXPECT_EQ(times, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  EXPECT_EQ(rec[9].outcome, O::Latency);  // stamp 9: sector 0 still pending
  EXPECT_EQ(rec[10].outcome, O::Hit);     // stamp 10: its fill lands
  EXPECT_EQ(r.total.compulsory, 1u);
  EXPECT_EQ(r.total.sector, 2u);
  EXPECT_EQ(r.total.latency, 7u);  // stamps 2, 3, 5, 6, 7, 8, 9
  EXPECT_EQ(r.total.hits, 4u);     // stamps 10-13
  // Sectors: 15 asked, all hit but the three fetched (sector 0 at 0, 1 at 1, 2 at 4).
  EXPECT_EQ(r.total.load_sectors, 15u);
  EXPECT_EQ(r.total.load_sector_hits, 12u);
}

TEST(RdSectors, OptionsAndErrors) {
  RdParams p;
  p.set("sector_bytes=32");
  p.set("store_policy=write_allocate");
  EXPECT_EQ(p.sector_bytes, 32u);
  EXPECT_EQ(p.store_policy, StorePolicy::WriteAllocate);
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(config_error_of([&] { p.set("store_policy=write_back"); }),
            "rd option store_policy: expected write_evict or write_allocate, got 'write_back'");
  RdParams q = p;
  q.stores_evict = false;
  EXPECT_EQ(config_error_of([&] { q.validate(); }),
            "rd option stores_evict: false applies to store_policy write_evict only");
  q = p;
  q.sector_bytes = 48;
  EXPECT_EQ(
      config_error_of([&] { q.validate(); }),
      "rd option sector_bytes: 48 must be 0 (whole lines) or a power of two from 32 to line_bytes (128)");
  q = p;
  q.line_bytes = 256;
  q.size_bytes = 16384;
  EXPECT_EQ(config_error_of([&] { q.validate(); }),
            "rd option line_bytes: 256 with sector_bytes 32: per-sector state needs lines of at most 128 B");
  q.sector_bytes = 0;
  EXPECT_EQ(config_error_of([&] { q.validate(); }),
            "rd option line_bytes: 256 with write_allocate: per-sector state needs lines of at most 128 B");
}
