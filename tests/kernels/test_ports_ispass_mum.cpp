// ISPASS-2009 MUM (MUMmerGPU): the port finds every read's matches (checked against a binary search over the
// reference's sorted suffixes), emits an exactly known stream head and the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(IspassMum, FindsTheMatches) {
  for (const char* size : {"{ref_bases: 2000, queries: 300}", "{ref_bases: 500, queries: 70, seed: 7}",
                           "{ref_bases: 3000, queries: 257, read_length: 40, min_match: 12}",
                           "{ref_bases: 64, queries: 40, read_length: 30, min_match: 4}",
                           "{ref_bases: 2000, queries: 300, mismatches: 4}",
                           "{ref_bases: 5000, queries: 200, read_length: 60, min_match: 10, mismatches: 8}",
                           "{ref_bases: 300, queries: 100, read_length: 40, min_match: 5, mismatches: 30}"}) {
    auto p = make_port("ispass/mum", size);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(IspassMum, Stream) {
  // 40 reads of 25 bases: one CTA of 40 threads (blocksize = min(reads, 256)), warps of 32 and 8 lanes.
  // queries: 40 x 27 chars = 1080 B; queryAddrs and queryLengths 160 B each, on 256 B boundaries.
  std::vector<WarpInst> first;  // warp 0's first instructions
  uint64_t stores = 0, warp = 0;
  const auto s = pull_all(*make_port("ispass/mum", "{ref_bases: 1000, queries: 40}"),
                          [&](uint64_t, const std::string&, const WarpInst& i) {
                            if (first.size() < 4) first.push_back(i);
                            if (i.kind == MemKind::Store)
                              stores += uint64_t(__builtin_popcount(i.active_mask));
                            warp |= i.active_mask;
                          });
  ASSERT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.kernel_names[0], "mummergpuKernel");
  EXPECT_EQ(s.ctas, 1u);
  EXPECT_EQ(s.warps, 2u);
  EXPECT_EQ(s.atomics, 0u);
  // Exact reads of the reference: all 6 starts of every read match >= 20 bases, two stores each.
  EXPECT_EQ(stores, 40u * 6 * 2);
  const uint64_t addrs = kBase + 1280, lengths = addrs + 256;
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0].pc, 0x10u);  // queryLengths[qryid]
  EXPECT_EQ(first[0].active_mask, ~0u);
  EXPECT_EQ(first[0].width, 4u);
  EXPECT_EQ(first[0].addr[0], lengths);
  EXPECT_EQ(first[0].addr[31], lengths + 31 * 4);
  EXPECT_EQ(first[1].pc, 0x20u);  // queryAddrs[qryid]
  EXPECT_EQ(first[1].addr[5], addrs + 5 * 4);
  EXPECT_EQ(first[2].pc, 0x30u);  // the first base of each read: queries[27 * q + 1]
  EXPECT_EQ(first[2].width, 1u);
  EXPECT_EQ(first[2].addr[0], kBase + 1);
  EXPECT_EQ(first[2].addr[3], kBase + 3 * 27 + 1);
  EXPECT_EQ(first[3].pc, 0x40u);  // every lane at the root's children: texel (0, 1) of childrentex
  EXPECT_EQ(first[3].width, 16u);
  EXPECT_EQ(first[3].addr[0], first[3].addr[31]);
  EXPECT_EQ(first[3].gap, 3u + 8u);
}

TEST(IspassMum, Deterministic) {
  test::expect_deterministic("ispass/mum", "{ref_bases: 2000, queries: 300}");
  test::expect_deterministic("ispass/mum", "{ref_bases: 2000, queries: 100, mismatches: 5}");
}

// The default input's stream size: --gtest_also_run_disabled_tests --gtest_filter='*MumDefaultInput*'.
TEST(IspassMum, DISABLED_MumDefaultInput) {
  for (const char* size : {"{}", "{ref_bases: 4000, queries: 4000}"}) {
    test::print_stream_size("ispass/mum", size);
  }
}

}  // namespace
}  // namespace gms::kernels
