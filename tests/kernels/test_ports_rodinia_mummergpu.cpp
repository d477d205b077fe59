// Rodinia mummergpu (MUMmerGPU 2.0): the port's matches and printed alignments equal a sequential answer
// (sorted suffixes), its stream head is exactly known and the same stream comes out twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

TEST(RodiniaMummergpu, FindsAndPrintsTheMatches) {
  for (const char* size : {"{ref_bases: 2000, queries: 100}", "{ref_bases: 500, queries: 70, seed: 7}",
                           "{ref_bases: 3000, queries: 257, read_length: 40, min_match: 12}",
                           "{ref_bases: 64, queries: 40, read_length: 30, min_match: 4}",
                           "{ref_bases: 2000, queries: 100, mismatches: 4}",
                           "{ref_bases: 5000, queries: 200, read_length: 60, min_match: 10, mismatches: 8}",
                           "{ref_bases: 300, queries: 100, read_length: 40, min_match: 5, mismatches: 30}",
                           "{ref_bases: 200, queries: 50, read_length: 25, min_match: 3}"}) {
    auto p = make_port("rodinia/mummergpu", size);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(RodiniaMummergpu, Stream) {
  // 40 exact reads of 25 bases from 1000: mummergpuKernel is one CTA of 40 threads (warps of 32 and 8 lanes);
  // every read's 6 starts match >= 20 bases (one 8-byte store each), 240 matches. Any 20 bases occur once in
  // the reference, so each print parent has one leaf and only start 0 is left maximal (the read's 'q' before
  // it): printKernel (one CTA of 240 threads) writes 40 alignments, a 4-byte and a 2-byte store each.
  // Arrays (cudaMalloc order, 2 MiB alignment from 2 MiB up, 256 B below): ref (1000 + 4101 B); nodetex and
  // childrentex (4096 x 32 texels of 16 B = 2 MiB each); queries (40 x 27 B); queryAddrs, queryLengths.
  constexpr uint64_t kBase = DeviceMemory::kDefaultBase, kMiB = 1 << 20;
  std::vector<WarpInst> first[2];
  uint64_t stores[2] = {0, 0}, widths[2] = {0, 0};
  const auto s = pull_all(*make_port("rodinia/mummergpu", "{ref_bases: 1000, queries: 40, read_length: 25}"),
                          [&](uint64_t k, const std::string&, const WarpInst& i) {
                            if (first[k].size() < 5) first[k].push_back(i);
                            if (i.kind == MemKind::Store) {
                              stores[k] += uint64_t(__builtin_popcount(i.active_mask));
                              widths[k] += i.width * uint64_t(__builtin_popcount(i.active_mask));
                            }
                          });
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.kernel_names[0], "mummergpuKernel");
  EXPECT_EQ(s.kernel_names[1], "printKernel");
  EXPECT_EQ(s.ctas, 2u);
  EXPECT_EQ(s.warps, 2u + 8u);
  EXPECT_EQ(stores[0], 40u * 6);
  EXPECT_EQ(widths[0], 40u * 6 * 8);
  EXPECT_EQ(stores[1], 40u * 2);
  EXPECT_EQ(widths[1], 40u * (4 + 2));
  const uint64_t nodetex = kBase + 2 * kMiB, childrentex = kBase + 4 * kMiB, queries = kBase + 6 * kMiB;
  const uint64_t addrs = queries + 1280, lengths = addrs + 256;
  ASSERT_EQ(first[0].size(), 5u);
  EXPECT_EQ(first[0][0].pc, 0x10u);  // queryAddrs[qryid] (the PTX's order)
  EXPECT_EQ(first[0][0].active_mask, ~0u);
  EXPECT_EQ(first[0][0].width, 4u);
  EXPECT_EQ(first[0][0].addr[0], addrs);
  EXPECT_EQ(first[0][0].addr[31], addrs + 31 * 4);
  EXPECT_EQ(first[0][1].pc, 0x20u);  // queryLengths[qryid]
  EXPECT_EQ(first[0][1].addr[5], lengths + 5 * 4);
  EXPECT_EQ(first[0][2].pc, 0x30u);  // each read's first base: queries[27 * q + 1]
  EXPECT_EQ(first[0][2].width, 1u);
  EXPECT_EQ(first[0][2].addr[3], queries + 3 * 27 + 1);
  EXPECT_EQ(first[0][3].pc, 0x40u);  // the root's children: id 1 is texel (0, 1) of childrentex
  EXPECT_EQ(first[0][3].width, 16u);
  EXPECT_EQ(first[0][3].addr[0], childrentex + 4096 * 16);
  EXPECT_EQ(first[0][3].addr[31], first[0][3].addr[0]);
  EXPECT_EQ(first[0][3].gap, 3u + 2u + 8u);
  EXPECT_EQ(first[0][4].pc, 0x50u);  // the child's node texel
  EXPECT_EQ(first[0][4].width, 16u);
  EXPECT_GE(first[0][4].addr[0], nodetex);
  EXPECT_LT(first[0][4].addr[0], childrentex);
  // printKernel: matches[m].queryid, a 20-byte MatchInfo each, after match_coords (240 x 8 B).
  const uint64_t coords = lengths + 256, matches = coords + 2048;
  ASSERT_EQ(first[1].size(), 5u);
  EXPECT_EQ(first[1][0].pc, 0x110u);
  EXPECT_EQ(first[1][0].addr[0], matches + 4);
  EXPECT_EQ(first[1][0].addr[1], matches + 20 + 4);
  EXPECT_EQ(first[1][1].pc, 0x120u);  // queryAddrs[queryid]: match m is read m / 6
  EXPECT_EQ(first[1][1].addr[7], addrs + 4);
  EXPECT_EQ(first[1][2].pc, 0x130u);  // qrystartpos, 2 bytes at 18
  EXPECT_EQ(first[1][2].width, 2u);
  EXPECT_EQ(first[1][2].addr[7], matches + 7 * 20 + 18);
}

TEST(RodiniaMummergpu, Deterministic) {
  test::expect_deterministic("rodinia/mummergpu", "{ref_bases: 2000, queries: 100}");
  test::expect_deterministic("rodinia/mummergpu",
                             "{ref_bases: 300, queries: 60, read_length: 30, min_match: 5}");
}

// The default input's stream size: --gtest_also_run_disabled_tests --gtest_filter='*MummergpuDefaultInput*'.
TEST(RodiniaMummergpu, DISABLED_MummergpuDefaultInput) {
  for (const char* size : {"{}", "{ref_bases: 4000, queries: 200}"}) {
    test::print_stream_size("rodinia/mummergpu", size);
  }
}

}  // namespace
}  // namespace gms::kernels
