// Unit tests of the shared cache core: set index functions, replacement policies, tag array, MSHRs.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "models/cache/lru_policy.h"
#include "models/cache/mshr_file.h"
#include "models/cache/nru_policy.h"
#include "models/cache/pdp_policy.h"
#include "models/cache/random_policy.h"
#include "models/cache/srrip_policy.h"
#include "models/cache/tag_array.h"

using namespace gms;

namespace {
constexpr uint64_t kAll4 = 0xF;
}

TEST(L1CoreSetIndex, ParseNames) {
  EXPECT_EQ(parse_set_index("linear"), SetIndexFn::Linear);
  EXPECT_EQ(parse_set_index("fermi_hash"), SetIndexFn::FermiHash);
  EXPECT_THROW(parse_set_index("fermi"), std::invalid_argument);
  EXPECT_THROW(SetIndexer(SetIndexFn::FermiHash, 16, 128), std::invalid_argument);
  EXPECT_THROW(SetIndexer(SetIndexFn::FermiHash, 32, 64), std::invalid_argument);
  EXPECT_THROW(SetIndexer(SetIndexFn::Linear, 0, 128), std::invalid_argument);
}

TEST(L1CoreSetIndex, LinearPowerOfTwoAndModulo) {
  SetIndexer s(SetIndexFn::Linear, 32, 128);
  EXPECT_EQ(s.set_of(0x0), 0u);
  EXPECT_EQ(s.set_of(0x7F), 0u);
  EXPECT_EQ(s.set_of(0x80), 1u);
  EXPECT_EQ(s.set_of(0x1080), 1u);  // line 33
  EXPECT_EQ(s.set_of(0xF80), 31u);
  SetIndexer m(SetIndexFn::Linear, 48, 128);  // a 96 KB 16-way LLC slice
  EXPECT_EQ(m.set_of(48 * 128), 0u);
  EXPECT_EQ(m.set_of(48 * 128 + 5 * 128 + 3), 5u);
  EXPECT_EQ(m.set_of(47 * 128), 47u);
  SetIndexer l(SetIndexFn::Linear, 64, 32);
  EXPECT_EQ(l.set_of(0x20 * 65), 1u);
}

TEST(L1CoreSetIndex, FermiHash32SetsHandComputed) {
  SetIndexer s(SetIndexFn::FermiHash, 32, 128);
  EXPECT_EQ(s.set_of(0x0), 0u);
  EXPECT_EQ(s.set_of(0x80), 1u);      // bit 7
  EXPECT_EQ(s.set_of(0x2000), 1u);    // bit 13 -> set bit 0
  EXPECT_EQ(s.set_of(0x2080), 0u);    // 7 ^ 13 cancel
  EXPECT_EQ(s.set_of(0x4000), 2u);    // bit 14 -> set bit 1
  EXPECT_EQ(s.set_of(0x8000), 4u);    // bit 15 -> set bit 2
  EXPECT_EQ(s.set_of(0x20000), 8u);   // bit 17 -> set bit 3
  EXPECT_EQ(s.set_of(0x80000), 16u);  // bit 19 -> set bit 4
  EXPECT_EQ(s.set_of(0x10000), 0u);   // bit 16 unused
  EXPECT_EQ(s.set_of(0x40000), 0u);   // bit 18 unused
  EXPECT_EQ(s.set_of(0x1000), 0u);    // bit 12 unused with 32 sets
  EXPECT_EQ(s.set_of(0xF80), 31u);    // bits 7..11
  EXPECT_EQ(s.set_of(0xE000), 7u);    // bits 13, 14, 15
  EXPECT_EQ(s.set_of(0xAA000), 29u);  // bits 13, 15, 17, 19 -> set bits 0, 2, 3, 4
  EXPECT_EQ(s.set_of(0xAA000 + 0x7F), 29u);
  // Five lines that share set 0 (a linear index spreads them over sets 0, 1, 2, 4, 8).
  for (uint64_t a : {0x0ull, 0x2080ull, 0x4100ull, 0x8200ull, 0x20400ull}) EXPECT_EQ(s.set_of(a), 0u) << a;
}

TEST(L1CoreSetIndex, FermiHash64SetsPrefixesBit12) {
  SetIndexer s(SetIndexFn::FermiHash, 64, 128);
  EXPECT_EQ(s.set_of(0x1000), 32u);
  EXPECT_EQ(s.set_of(0x1F80), 63u);
  EXPECT_EQ(s.set_of(0x3000), 33u);  // bit 12 + bit 13
  EXPECT_EQ(s.set_of(0xAA000), 29u);
  EXPECT_EQ(s.set_of(0xAB000), 61u);
}

TEST(L1CoreReplacement, RegistryKnowsBuiltinsAndRejectsUnknown) {
  Rng rng(1);
  for (const char* n : {"lru", "nru", "srrip", "random"})
    EXPECT_STREQ(make_replacement(n, 4, 4, rng)->name(), n);
  EXPECT_THROW(make_replacement("plru", 4, 4, rng), std::invalid_argument);
  register_replacement("always_first",
                       [](uint32_t s, uint32_t w, Rng&) { return std::make_unique<NruPolicy>(s, w); });
  EXPECT_STREQ(make_replacement("always_first", 2, 2, rng)->name(), "nru");
}

TEST(L1CoreReplacement, LruVictimOrder) {
  LruPolicy p(2, 4);
  for (uint32_t w = 0; w < 4; ++w) p.on_fill(1, w);
  p.on_hit(1, 0);  // recency now 1 < 2 < 3 < 0
  EXPECT_EQ(p.victim(1, kAll4), 1u);
  EXPECT_EQ(p.victim(1, 0b1101), 2u);
  EXPECT_EQ(p.victim(1, 0b1001), 3u);
  p.on_hit(1, 1);
  EXPECT_EQ(p.victim(1, kAll4), 2u);
  p.on_invalidate(1, 3);
  EXPECT_EQ(p.victim(1, kAll4), 3u);
  EXPECT_EQ(p.victim(0, 0b0100), 2u);  // other set untouched: only candidate
}

TEST(L1CoreReplacement, NruOrderAsDefined) {
  NruPolicy p(1, 4);
  p.on_fill(0, 0);
  p.on_fill(0, 1);
  p.on_fill(0, 2);
  EXPECT_EQ(p.victim(0, kAll4), 3u);  // the only bit still 0
  p.on_fill(0, 3);                    // all ones -> keep only way 3
  EXPECT_FALSE(p.used(0, 0));
  EXPECT_TRUE(p.used(0, 3));
  EXPECT_EQ(p.victim(0, kAll4), 0u);
  EXPECT_EQ(p.victim(0, 0b1000), 3u);  // no unused candidate: the lowest candidate
  p.on_hit(0, 0);
  EXPECT_EQ(p.victim(0, kAll4), 1u);
  p.on_hit(0, 1);
  p.on_hit(0, 2);  // all ones again -> only way 2 stays
  EXPECT_EQ(p.victim(0, kAll4), 0u);
  EXPECT_EQ(p.victim(0, 0b0110), 1u);
  p.on_invalidate(0, 2);
  EXPECT_FALSE(p.used(0, 2));
}

TEST(L1CoreReplacement, SrripInsertHitAndAging) {
  SrripPolicy p(1, 4);
  EXPECT_EQ(p.max_rrpv(), 7u);
  for (uint32_t w = 0; w < 4; ++w) p.on_fill(0, w);
  EXPECT_EQ(p.rrpv(0, 2), 6u);
  p.on_hit(0, 1);
  p.on_hit(0, 2);
  EXPECT_EQ(p.victim(0, kAll4), 0u);  // candidates aged by 1: 7 1 1 7
  EXPECT_EQ(p.rrpv(0, 0), 7u);
  EXPECT_EQ(p.rrpv(0, 1), 1u);
  EXPECT_EQ(p.rrpv(0, 3), 7u);
  p.on_fill(0, 0);
  p.on_hit(0, 0);
  p.on_hit(0, 3);                     // 0 1 1 0
  EXPECT_EQ(p.victim(0, kAll4), 1u);  // aged by 6: 6 7 7 6
  EXPECT_EQ(p.rrpv(0, 0), 6u);
  EXPECT_EQ(p.rrpv(0, 2), 7u);
  EXPECT_EQ(p.victim(0, 0b1001), 0u);  // only candidates age: 7 7 7 7
  EXPECT_EQ(p.rrpv(0, 3), 7u);
  p.set_rrpv(0, 2, 3);
  EXPECT_EQ(p.rrpv(0, 2), 3u);
  p.set_rrpv(0, 2, 99);
  EXPECT_EQ(p.rrpv(0, 2), 7u);
  SrripPolicy two(1, 2, 2);
  EXPECT_EQ(two.max_rrpv(), 3u);
  two.on_fill(0, 0);
  EXPECT_EQ(two.rrpv(0, 0), 2u);
  EXPECT_THROW(SrripPolicy(1, 1, 0), std::invalid_argument);
}

TEST(L1CoreReplacement, RandomStaysInCandidatesAndIsSeeded) {
  Rng r1(42), r2(42), r3(43);
  RandomPolicy a(1, 8, r1), b(1, 8, r2), c(1, 8, r3);
  std::set<uint32_t> seen;
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    uint32_t v = a.victim(0, 0b10100100);
    EXPECT_TRUE(v == 2 || v == 5 || v == 7) << v;
    seen.insert(v);
    EXPECT_EQ(v, b.victim(0, 0b10100100));
    differs |= v != c.victim(0, 0b10100100);
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_TRUE(differs);
  EXPECT_EQ(a.victim(0, 0b1000), 3u);
}

TEST(L1CoreTagArray, ChooseVictimSkipsReservedAndPrefersInvalid) {
  Rng rng(1);
  TagArray t(1, 4, 128, SetIndexer(SetIndexFn::Linear, 1, 128), make_replacement("lru", 1, 4, rng));
  EXPECT_EQ(t.choose_victim(0x0), 0);  // empty: lowest invalid way
  for (uint32_t w = 0; w < 4; ++w) t.install(0, w, 0x1000 * (w + 1), w < 2);
  EXPECT_TRUE(t.entry(0, 0).reserved);
  EXPECT_FALSE(t.entry(0, 0).valid);
  EXPECT_TRUE(t.entry(0, 2).valid);
  EXPECT_EQ(t.find(0x1000), 0);  // reserved lines are found
  EXPECT_EQ(t.find(0x3040), 2);  // any address of the line
  EXPECT_EQ(t.find(0x5000), -1);
  EXPECT_EQ(t.choose_victim(0x9000), 2);  // ways 0, 1 are older but reserved
  t.touch(0, 2);
  EXPECT_EQ(t.choose_victim(0x9000), 3);
  EXPECT_EQ(t.choose_victim(0x9000), 3);  // no state change
  t.install(0, 2, 0x7000, true);
  t.install(0, 3, 0x8000, true);
  EXPECT_EQ(t.choose_victim(0x9000), -1);  // all reserved
  t.validate(0, 0);
  EXPECT_TRUE(t.entry(0, 0).valid);
  EXPECT_EQ(t.choose_victim(0x9000), 0);
  t.invalidate(0, 3);
  EXPECT_EQ(t.choose_victim(0x9000), 3);  // free beats the policy
  EXPECT_EQ(t.invalidate_all(), 1u);      // only way 0 was valid; 1 and 2 stay reserved
  EXPECT_TRUE(t.entry(0, 1).reserved);
  EXPECT_EQ(t.find(0x7000), 2);
  EXPECT_EQ(t.valid_lines(), 0u);
}

// find() compares the 16-bit line hints eight at a time: every way count (not only multiples of eight, the
// last group reads past the set and must ignore it), every way of a full set, the last set of the array,
// and no false hit for lines that are absent or invalidated.
TEST(L1CoreTagArray, FindTellsEveryWayApartForAnyWayCount) {
  for (uint32_t ways : {1u, 3u, 7u, 8u, 9u, 20u, 32u, 56u, 64u}) {
    SCOPED_TRACE("ways " + std::to_string(ways));
    Rng rng(1);
    const uint32_t sets = 3;
    TagArray t(sets, ways, 128, SetIndexer(SetIndexFn::Linear, sets, 128),
               make_replacement("lru", sets, ways, rng));
    auto line = [&](uint32_t set, uint32_t k) { return (uint64_t(k) * sets + set) * 128; };
    for (uint32_t set = 0; set < sets; ++set)
      for (uint32_t w = 0; w < ways; ++w) t.install(set, w, line(set, w), w % 2 == 1);
    for (uint32_t set = 0; set < sets; ++set) {
      for (uint32_t w = 0; w < ways; ++w) EXPECT_EQ(t.find(line(set, w) + 4), int(w));
      for (uint32_t k = ways; k < ways + 2000; ++k) ASSERT_EQ(t.find(line(set, k)), -1) << k;
    }
    t.invalidate(sets - 1, ways - 1);
    EXPECT_EQ(t.find(line(sets - 1, ways - 1)), -1);
  }
}

// set_reserved pins and unpins a valid way (a sector fill pending on a hit line) without touching its valid
// bit; choose_victim reads per-set way masks, so every change of the flags must reach them. 64 ways: the
// mask's top bit.
TEST(L1CoreTagArray, SetReservedPinsAValidWayAndChooseVictimFollowsIt) {
  Rng rng(1);
  TagArray t(2, 64, 128, SetIndexer(SetIndexFn::Linear, 2, 128), make_replacement("lru", 2, 64, rng));
  for (uint32_t w = 0; w < 64; ++w)
    t.install(1, w, 0x80 * (2 * w + 1), false);  // odd lines: set 1 full, LRU way 0
  EXPECT_EQ(t.choose_victim(0x80), 0);
  t.set_reserved(1, 0, true);
  EXPECT_TRUE(t.entry(1, 0).valid);  // still valid, now pinned
  EXPECT_TRUE(t.entry(1, 0).reserved);
  EXPECT_EQ(t.find(0x80), 0);
  EXPECT_EQ(t.choose_victim(0x80), 1);  // the next oldest
  for (uint32_t w = 1; w < 63; ++w) t.set_reserved(1, w, true);
  EXPECT_EQ(t.choose_victim(0x80), 63);  // the only unpinned way
  t.set_reserved(1, 63, true);
  EXPECT_EQ(t.choose_victim(0x80), -1);
  t.set_reserved(1, 5, false);
  EXPECT_EQ(t.choose_victim(0x80), 5);
  t.invalidate(1, 40);  // invalid and unpinned: free
  EXPECT_EQ(t.choose_victim(0x80), 40);
  EXPECT_EQ(t.choose_victim(0x0), 0);  // set 0 untouched: all free
}

// PDP, PD 3, one set of 2 ways. The cache's order per access: victim decision, then on_access.
TEST(L1CorePdp, AFilledLineIsProtectedForExactlyPdLaterAccessesThenReplaceable) {
  PdpPolicy p(1, 2, 3);
  EXPECT_TRUE(p.may_bypass());
  p.on_fill(0, 0);
  p.on_access(0, 0);  // access 0 filled way 0: RPD 3
  p.on_fill(0, 1);
  p.on_access(0, 1);  // access 1 filled way 1: way 0 at 2
  EXPECT_EQ(p.rpd(0, 0), 2u);
  EXPECT_EQ(p.rpd(0, 1), 3u);
  // Later accesses 1, 2, 3 (for way 0) decide while it is protected; they keep no line (bypass).
  EXPECT_EQ(p.victim_or_bypass(0, 0b01), ReplacementPolicy::kNoVictim);  // access 2: RPD 2
  p.on_access(0, -1);
  EXPECT_EQ(p.victim_or_bypass(0, 0b01), ReplacementPolicy::kNoVictim);  // access 3: RPD 1
  p.on_access(0, -1);
  EXPECT_EQ(p.rpd(0, 0), 0u);
  EXPECT_EQ(p.victim_or_bypass(0, 0b11), 0u);  // access 4: the 4th after the fill, way 0 free to go
  EXPECT_EQ(p.rpd(0, 1), 1u);
  EXPECT_EQ(p.victim_or_bypass(0, 0b10), ReplacementPolicy::kNoVictim);  // way 1: 3rd access after its fill
  p.on_access(0, -1);
  EXPECT_EQ(p.victim_or_bypass(0, 0b10), 1u);
  p.on_access(0, -1);  // saturates at 0
  EXPECT_EQ(p.rpd(0, 0), 0u);
  EXPECT_EQ(p.rpd(0, 1), 0u);
}

TEST(L1CorePdp, AHitRenewsTheDistanceAndOnlyOtherLinesAge) {
  PdpPolicy p(2, 2, 3);
  p.on_fill(0, 0);
  p.on_access(0, 0);
  p.on_access(0, -1);
  p.on_access(0, -1);
  EXPECT_EQ(p.rpd(0, 0), 1u);
  p.on_hit(0, 0);
  p.on_access(0, 0);
  EXPECT_EQ(p.rpd(0, 0), 3u);  // renewed by the hit, not aged by its own access
  p.on_access(0, -1);
  p.on_access(0, -1);
  EXPECT_EQ(p.victim_or_bypass(0, 0b01), ReplacementPolicy::kNoVictim);
  p.on_access(0, -1);
  EXPECT_EQ(p.victim_or_bypass(0, 0b01), 0u);
  p.on_fill(1, 1);
  p.on_access(1, 1);
  EXPECT_EQ(p.rpd(1, 1), 3u);  // sets age independently
  p.on_invalidate(1, 1);
  EXPECT_EQ(p.rpd(1, 1), 0u);
}

TEST(L1CorePdp, AllProtectedSignalsBypassAndForcedVictimIsTheLeastProtected) {
  PdpPolicy p(1, 4, 5);
  for (uint32_t w = 0; w < 4; ++w) {
    p.on_fill(0, w);
    p.on_access(0, int(w));
  }  // RPDs 2 3 4 5
  EXPECT_EQ(p.victim_or_bypass(0, kAll4), ReplacementPolicy::kNoVictim);
  EXPECT_EQ(p.victim(0, kAll4), 0u);  // never refuses: lowest RPD
  EXPECT_EQ(p.victim(0, 0b1100), 2u);
  p.on_hit(0, 0);
  p.on_access(0, 0);  // 5 2 3 4
  EXPECT_EQ(p.victim(0, kAll4), 1u);
  EXPECT_THROW(PdpPolicy(1, 4, 0), std::invalid_argument);
}

TEST(L1CorePdp, RegistryBuildsPdpOnlyForACacheThatCanBypass) {
  Rng rng(1);
  EXPECT_THROW(make_replacement("pdp", 4, 4, rng), std::invalid_argument);
  ReplacementOptions o;
  o.can_bypass = true;
  o.pdp_distance = 7;
  auto p = make_replacement("pdp", 4, 4, rng, o);
  EXPECT_STREQ(p->name(), "pdp");
  EXPECT_EQ(static_cast<PdpPolicy&>(*p).distance(), 7u);
  for (const char* n : {"lru", "nru", "srrip", "random"})
    EXPECT_FALSE(make_replacement(n, 4, 4, rng)->may_bypass());
}

TEST(L1CorePdp, TagArrayBypassesOnlyWhenEveryUnreservedWayIsProtected) {
  Rng rng(1);
  ReplacementOptions o;
  o.can_bypass = true;
  o.pdp_distance = 2;
  TagArray t(1, 2, 128, SetIndexer(SetIndexFn::Linear, 1, 128), make_replacement("pdp", 1, 2, rng, o));
  EXPECT_TRUE(t.policy_may_bypass());
  EXPECT_EQ(t.choose_victim_or_bypass(0x0), 0);  // free way first
  t.install(0, 0, 0x0, /*reserved=*/true);
  t.note_access(0, 0);
  EXPECT_EQ(t.choose_victim_or_bypass(0x80), 1);
  t.install(0, 1, 0x80, false);
  t.note_access(0, 1);
  EXPECT_EQ(t.choose_victim_or_bypass(0x100), TagArray::kBypass);  // way 1 protected, way 0 reserved
  EXPECT_EQ(t.choose_victim(0x100), 1);                            // a cache that cannot bypass evicts
  t.note_access(0, -1);
  t.note_access(0, -1);
  EXPECT_EQ(t.choose_victim_or_bypass(0x100), 1);
  t.install(0, 1, 0x100, true);
  EXPECT_EQ(t.choose_victim_or_bypass(0x180), -1);  // every way reserved: a stall, not a bypass
  TagArray l(1, 2, 128, SetIndexer(SetIndexFn::Linear, 1, 128), make_replacement("lru", 1, 2, rng));
  l.install(0, 0, 0x0, false);
  l.install(0, 1, 0x80, false);
  EXPECT_FALSE(l.policy_may_bypass());
  EXPECT_EQ(l.choose_victim_or_bypass(0x100), 0);  // other policies: choose_victim
}

TEST(L1CoreTagArray, DataIsPerWayAndSetsFollowIndexer) {
  Rng rng(1);
  TagArray t(32, 4, 128, SetIndexer(SetIndexFn::FermiHash, 32, 128), make_replacement("nru", 32, 4, rng));
  EXPECT_EQ(t.set_of(0x2000), 1u);
  t.data(1, 2)[127] = 0xAB;
  t.data(1, 3)[0] = 0xCD;
  EXPECT_EQ(t.data(1, 2)[127], 0xAB);
  EXPECT_EQ(t.data(1, 3)[0], 0xCD);
  EXPECT_EQ(t.data(1, 3) - t.data(1, 2), 128);
  t.install(1, 0, 0x2000, false);
  EXPECT_EQ(t.find(0x2000), 0);
  EXPECT_EQ(t.find(0x2080), -1);  // set 0: not there
  EXPECT_THROW(
      TagArray(32, 4, 128, SetIndexer(SetIndexFn::Linear, 16, 128), make_replacement("lru", 32, 4, rng)),
      std::invalid_argument);
}

TEST(L1CoreMshrFile, MergeLimitFullAndRelease) {
  MshrFile m(2, 3);
  tlm::tlm_generic_payload p[4];
  EXPECT_EQ(m.capacity(), 2u);
  EXPECT_EQ(m.find(0x100), nullptr);
  MshrFile::Entry& a = m.allocate(0x100);
  a.waiters.push_back(&p[0]);
  EXPECT_TRUE(m.can_merge(a));
  a.waiters.push_back(&p[1]);
  EXPECT_TRUE(m.can_merge(a));
  a.waiters.push_back(&p[2]);
  EXPECT_FALSE(m.can_merge(a));  // three waiters = max_merge
  a.cookie = 77;
  EXPECT_EQ(m.find(0x100), &a);
  EXPECT_FALSE(m.full());
  m.allocate(0x200).waiters.push_back(&p[3]);
  EXPECT_TRUE(m.full());
  EXPECT_EQ(m.size(), 2u);
  EXPECT_THROW(m.allocate(0x300), std::logic_error);
  auto w = m.release(0x100);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0], &p[0]);
  EXPECT_EQ(w[2], &p[2]);
  EXPECT_EQ(m.find(0x100), nullptr);
  EXPECT_EQ(m.size(), 1u);
  m.recycle(std::move(w));
  MshrFile::Entry& c = m.allocate(0x300);
  EXPECT_TRUE(c.waiters.empty());
  EXPECT_EQ(c.cookie, 0u);
  EXPECT_FALSE(c.no_fill);
  EXPECT_GE(c.waiters.capacity(), 3u);
  EXPECT_THROW(m.allocate(0x200), std::logic_error);  // full
  EXPECT_THROW(m.release(0x999), std::logic_error);
  EXPECT_EQ(m.release(0x200).size(), 1u);
  EXPECT_THROW(m.allocate(0x300), std::logic_error);  // already has an entry
}

// Waiter lists start small (min(max_merge, 8)) and a list that grew for a long merge keeps its room
// through release and recycle, so a steady state still allocates nothing.
TEST(L1CoreMshrFile, WaiterListsStartSmallAndKeepWhatTheyGrew) {
  MshrFile small(4, 3);
  EXPECT_EQ(small.allocate(0x80).waiters.capacity(), 3u);
  MshrFile m(2, 64);
  MshrFile::Entry& a = m.allocate(0x100);
  EXPECT_EQ(a.waiters.capacity(), 8u);
  std::vector<tlm::tlm_generic_payload> p(40);
  for (auto& t : p) {
    ASSERT_TRUE(m.can_merge(a));
    a.waiters.push_back(&t);
  }
  auto w = m.release(0x100);
  ASSERT_EQ(w.size(), 40u);
  const auto* storage = w.data();
  m.recycle(std::move(w));
  MshrFile::Entry& b = m.allocate(0x200);  // takes the spare list, not the slot's emptied one
  EXPECT_TRUE(b.waiters.empty());
  EXPECT_GE(b.waiters.capacity(), 40u);
  EXPECT_EQ(b.waiters.data(), storage);
}

// The line index under churn, at the largest configurable size (4096 entries, a half-full table at
// capacity): random allocate/release against a reference set; every held line is found at its entry, no
// released line is, and lines one sector apart (the same bucket hash neighbourhood) stay distinct. The
// erase's backward shift must keep every probe chain whole.
TEST(L1CoreMshrFile, IndexAgreesWithAReferenceUnderChurn) {
  MshrFile m(4096, 1);
  Rng rng(7);
  std::set<uint64_t> held;
  std::vector<uint64_t> order;
  for (int step = 0; step < 200000; ++step) {
    const bool add = held.size() < 64 || (!m.full() && rng.below(3) != 0);
    if (add) {
      // Lines from a few clustered regions and sector-granular keys (the L2 indexes dense keys).
      const uint64_t line = (rng.below(4) << 32) + rng.below(1 << 14) * (rng.below(2) ? 128 : 32);
      if (held.count(line)) continue;
      MshrFile::Entry& e = m.allocate(line);
      e.cookie = line ^ 0x5a5a;
      held.insert(line);
      order.push_back(line);
    } else {
      const size_t k = size_t(rng.below(order.size()));
      const uint64_t line = order[k];
      order[k] = order.back();
      order.pop_back();
      held.erase(line);
      m.release(line);
      EXPECT_EQ(m.find(line), nullptr);
    }
    if (step % 997 == 0)
      for (uint64_t l : held) {
        const MshrFile::Entry* e = m.find(l);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e->line, l);
        EXPECT_EQ(e->cookie, l ^ 0x5a5a);
      }
  }
  EXPECT_EQ(m.size(), held.size());
  for (uint64_t l : held) ASSERT_NE(m.find(l), nullptr);
  EXPECT_THROW(MshrFile(65535, 1), std::invalid_argument);
}
