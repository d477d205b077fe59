// The LLC set index on set counts that are not a power of two (issue 12: paper 004's 96 KB 16-way slice,
// 48 sets): a slice's own lines, as the address map interleaves them, spread evenly over every set, and
// the stored key gives back the exact line address.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "models/cache/replacement.h"
#include "models/cache/tag_array.h"
#include "models/common/address_map.h"
#include "models/common/mem_req.h"
#include "models/common/rng.h"
#include "models/llc/llc_set_hash.h"

using gms::AddressMap;
using gms::AddressMapParams;
using gms::kLineBytes;
using gms::LlcLineKey;
using gms::LlcSetIndex;

namespace {

AddressMap map_of(uint32_t slices, bool xor_hash = false) {
  AddressMapParams mp;
  mp.num_slices = slices;
  mp.num_channels = slices / 2;
  mp.interleave_bytes = 256;
  mp.xor_hash = xor_hash;
  return AddressMap(mp);
}

// The first `lines` lines of `slice` in address order, every `stride` lines, counted per set.
std::vector<uint32_t> per_set(const AddressMap& map, const LlcLineKey& keys, uint32_t sets, uint32_t slice,
                              uint64_t lines, uint64_t stride = 1) {
  const gms::SetIndexer ix = keys.indexer();
  std::vector<uint32_t> n(sets, 0);
  for (uint64_t a = 0, got = 0; got < lines; a += stride * kLineBytes) {
    if (map.slice_of(a) != slice) continue;
    ++n.at(ix.set_of(keys.key(a)));
    ++got;
  }
  return n;
}

uint32_t used(const std::vector<uint32_t>& n) {
  return uint32_t(std::count_if(n.begin(), n.end(), [](uint32_t c) { return c > 0; }));
}

}  // namespace

TEST(LlcSetSpread, ConsecutiveLinesOfASliceFillEvery48SetsEvenly) {
  struct Case {
    uint32_t slices;
    bool xor_hash;
  };
  for (Case c : {Case{12, false}, Case{16, false}, Case{16, true}}) {
    const AddressMap map = map_of(c.slices, c.xor_hash);
    const LlcLineKey keys(LlcSetIndex::XorFold, 48, c.slices, 2);
    for (uint32_t slice : {0u, 5u, c.slices - 1}) {
      SCOPED_TRACE(testing::Message()
                   << c.slices << " slices, xor_hash " << c.xor_hash << ", slice " << slice);
      // 7 x 48 lines: exactly 7 in every set.
      std::vector<uint32_t> n = per_set(map, keys, 48, slice, 7 * 48);
      EXPECT_EQ(*std::min_element(n.begin(), n.end()), 7u);
      EXPECT_EQ(*std::max_element(n.begin(), n.end()), 7u);
      // 29 more: 29 sets have one more than the rest.
      n = per_set(map, keys, 48, slice, 7 * 48 + 29);
      EXPECT_EQ(std::count(n.begin(), n.end(), 8u), 29);
      EXPECT_EQ(std::count(n.begin(), n.end(), 7u), 19);
    }
  }
  // The plain modulo over global line numbers (set_index: linear) leaves 44 of the 48 sets empty.
  EXPECT_EQ(used(per_set(map_of(12), LlcLineKey(LlcSetIndex::Linear, 48), 48, 0, 7 * 48)), 4u);
}

// A window of 2 x 48 consecutive lines of the slice that starts anywhere: 1 to 3 per set, because the
// higher digits added to break strides change the rotation at every 48th slice-local line (no set
// function can both give every window one line per set and spread strides: that needs period 48, which a
// stride of 16 slice-local lines folds onto 3 sets). Windows starting at a rotation give exactly 2.
TEST(LlcSetSpread, AnyWindowOf96LinesHoldsOneToThreePerSet) {
  const AddressMap map = map_of(12);
  const LlcLineKey keys(LlcSetIndex::XorFold, 48, 12, 2);
  const gms::SetIndexer ix = keys.indexer();
  std::vector<uint32_t> set_of_line;  // slice 3's lines in address order
  for (uint64_t a = 0; set_of_line.size() < 48 * 60; a += kLineBytes)
    if (map.slice_of(a) == 3) set_of_line.push_back(ix.set_of(keys.key(a)));
  uint32_t lo = 96, hi = 0, even = 0;
  for (size_t j = 0; j + 96 <= set_of_line.size(); ++j) {
    std::vector<uint32_t> n(48, 0);
    for (size_t i = j; i < j + 96; ++i) ++n[set_of_line[i]];
    const uint32_t mn = *std::min_element(n.begin(), n.end()), mx = *std::max_element(n.begin(), n.end());
    lo = std::min(lo, mn);
    hi = std::max(hi, mx);
    if (mn == 2 && mx == 2) {
      ++even;
      EXPECT_EQ(j % 48, 0u) << "window at " << j;
    }
  }
  EXPECT_EQ(lo, 1u);
  EXPECT_EQ(hi, 3u);
  EXPECT_EQ(even, 59u);  // every window that starts a rotation (j = 0, 48, ..., 58 x 48)
}

// Lines 0, s, 2s, ... of slice 0 (the one holding line 0) for s = 2^k lines, 16 per set: every set is used
// and none holds more than 21 (mean 16). Without the added higher digits a 2^k stride (k >= 6) folds onto
// 3 sets. The table is what an independent model of the index (Python) gave.
TEST(LlcSetSpread, PowerOfTwoStridesUseEverySet) {
  struct MinMax {
    uint32_t min, max;
  };
  const MinMax twelve[22] = {{16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {15, 17},
                             {15, 17}, {15, 17}, {15, 17}, {15, 17}, {15, 18}, {15, 18}, {15, 17}, {13, 19},
                             {11, 20}, {13, 18}, {14, 18}, {11, 20}, {10, 21}, {11, 21}};
  const MinMax sixteen[22] = {{16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16}, {16, 16},
                              {16, 16}, {15, 17}, {15, 17}, {15, 17}, {15, 17}, {15, 17}, {15, 18}, {15, 18},
                              {15, 17}, {13, 19}, {11, 20}, {13, 18}, {14, 18}, {11, 20}};
  for (uint32_t slices : {12u, 16u}) {
    const AddressMap map = map_of(slices);
    const LlcLineKey keys(LlcSetIndex::XorFold, 48, slices, 2);
    for (unsigned k = 0; k < 22; ++k) {
      SCOPED_TRACE(testing::Message() << slices << " slices, stride 2^" << k << " lines");
      const std::vector<uint32_t> n = per_set(map, keys, 48, 0, 16 * 48, uint64_t(1) << k);
      const MinMax want = slices == 12 ? twelve[k] : sixteen[k];
      EXPECT_EQ(used(n), 48u);
      EXPECT_EQ(*std::min_element(n.begin(), n.end()), want.min);
      EXPECT_EQ(*std::max_element(n.begin(), n.end()), want.max);
    }
  }
}

TEST(LlcSetSpread, OtherCountsUseEverySetEvenly) {
  for (uint32_t sets : {3u, 40u, 96u, 192u}) {
    for (uint32_t slices : {1u, 12u, 16u}) {
      SCOPED_TRACE(testing::Message() << sets << " sets, " << slices << " slices");
      const AddressMap map = map_of(slices == 1 ? 2 : slices);  // 1: a slice that sees every line
      const LlcLineKey keys(LlcSetIndex::XorFold, sets, slices, slices == 1 ? 1 : 2);
      std::vector<uint32_t> n(sets, 0);
      const gms::SetIndexer ix = keys.indexer();
      for (uint64_t a = 0, got = 0; got < 5 * sets; a += kLineBytes) {
        if (slices != 1 && map.slice_of(a) != 1) continue;
        ++n.at(ix.set_of(keys.key(a)));
        ++got;
      }
      EXPECT_EQ(*std::min_element(n.begin(), n.end()), 5u);
      EXPECT_EQ(*std::max_element(n.begin(), n.end()), 5u);
    }
  }
}

TEST(LlcSetSpread, KeyIsABijectionAndTheStoredKeyGivesBackTheLine) {
  struct Case {
    LlcSetIndex fn;
    uint32_t sets, slices, chunk_lines;
  };
  const Case cases[] = {{LlcSetIndex::XorFold, 48, 12, 2},  {LlcSetIndex::XorFold, 48, 16, 2},
                        {LlcSetIndex::XorFold, 96, 16, 2},  {LlcSetIndex::XorFold, 40, 12, 8},
                        {LlcSetIndex::XorFold, 48, 1, 1},   {LlcSetIndex::XorFold, 3, 1024, 1 << 23},
                        {LlcSetIndex::XorFold, 64, 12, 2},  {LlcSetIndex::Linear, 48, 12, 2},
                        {LlcSetIndex::FermiHash, 64, 12, 2}};
  constexpr uint64_t kTop = ~uint64_t(kLineBytes - 1);  // the last line of the 64-bit space
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << gms::to_string(c.fn) << ", " << c.sets << " sets, " << c.slices
                                    << " slices x " << c.chunk_lines << " lines");
    const LlcLineKey keys(c.fn, c.sets, c.slices, c.chunk_lines);
    gms::Rng pol_rng(1);
    gms::TagArray tags(c.sets, 16, kLineBytes, keys.indexer(),
                       gms::make_replacement("lru", c.sets, 16, pol_rng));
    gms::Rng rng(7);
    for (int i = 0; i < 20000; ++i) {
      // Random lines over the whole space, small ones and ones at its top (where keys could overflow).
      const uint64_t r = rng.next() & kTop;
      const uint64_t a = i % 3 == 0 ? r : i % 3 == 1 ? r % (uint64_t(1) << 32) : kTop - (r % (1 << 20));
      const uint64_t k = keys.key(a);
      ASSERT_EQ(k % kLineBytes, 0u) << std::hex << a;
      ASSERT_EQ(keys.line(k), a) << std::hex << a;
      // Through the tag store: install in the key's set, read the entry back.
      const uint32_t set = tags.set_of(k), way = uint32_t(i % 16);
      tags.install(set, way, k, false);
      ASSERT_EQ(keys.line(tags.entry(set, way).line), a) << std::hex << a;
    }
    // No two lines share a key: consecutive lines at the bottom and across the top of the space.
    for (uint64_t base : {uint64_t(0), uint64_t(0x123456789) << 7, kTop - 9999 * kLineBytes}) {
      std::set<uint64_t> seen;
      for (uint64_t j = 0; j < 10000; ++j) EXPECT_TRUE(seen.insert(keys.key(base + j * kLineBytes)).second);
    }
  }
}

// One rotation period (slices x lcm(chunk lines, sets) lines) maps onto itself: the bijection needs no
// key bits beyond the line address's.
TEST(LlcSetSpread, OnePeriodOfLinesMapsOntoItself) {
  const LlcLineKey keys(LlcSetIndex::XorFold, 48, 12, 2);
  const uint64_t period = 12 * std::lcm(2, 48);
  std::vector<bool> hit(period, false);
  for (uint64_t n = 0; n < period; ++n) {
    const uint64_t k = keys.key(n * kLineBytes) / kLineBytes;
    ASSERT_LT(k, period);
    EXPECT_FALSE(hit[k]);
    hit[k] = true;
  }
}
