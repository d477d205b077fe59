// SliceSelector: shared mode is the address map's slice; private mode picks slice cluster(SM) of the
// address's memory controller, so every cluster reaches every controller through its own slice; modes can
// change at run time and per SM range (two programs).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "models/common/address_map.h"
#include "models/llc/slice_selector.h"

namespace {
gms::AddressMap fermi_like() {  // 12 slices on 6 channels, 256 B interleaving
  gms::AddressMapParams p;
  p.num_slices = 12;
  p.num_channels = 6;
  p.interleave_bytes = 256;
  return gms::AddressMap(p);
}
}  // namespace

TEST(SliceSelector, SharedIsTheAddressMapsSlice) {
  const gms::AddressMap map = fermi_like();
  const gms::SliceSelector sel(map, 15);
  for (uint64_t a = 0; a < 64 * 256; a += 128)
    for (unsigned sm : {0u, 7u, 14u}) EXPECT_EQ(sel.slice_for(a, sm), map.slice_of(a));
  EXPECT_EQ(sel.mode(3), gms::LlcMode::Shared);
}

TEST(SliceSelector, PrivateGivesEachClusterItsSliceOfTheSameController) {
  const gms::AddressMap map = fermi_like();
  gms::SliceSelector sel(map, 15);
  sel.set_mode(gms::LlcMode::Private);
  // 2 slices per channel -> 2 clusters: SMs 0-7 and 8-14 (the H-Xbar's balanced contiguous clusters).
  EXPECT_EQ(sel.clusters(), 2u);
  EXPECT_EQ(sel.cluster_of(7), 0u);
  EXPECT_EQ(sel.cluster_of(8), 1u);
  // Address 256 is chunk 1: slice 1, channel 0. Private: cluster 0 -> slice 0, cluster 1 -> slice 1.
  EXPECT_EQ(sel.slice_for(256, 0), 0u);
  EXPECT_EQ(sel.slice_for(256, 14), 1u);
  // Address 2560 is chunk 10: slice 10, channel 5 -> slices 10 / 11.
  EXPECT_EQ(sel.slice_for(2560, 3), 10u);
  EXPECT_EQ(sel.slice_for(2560, 9), 11u);
  for (uint64_t a = 0; a < 1 << 20; a += 128)
    for (unsigned sm = 0; sm < 15; ++sm) {
      const unsigned s = sel.slice_for(a, sm);
      ASSERT_EQ(s / 2, map.channel_of(a)) << "the channel never changes";
      ASSERT_EQ(s % 2, sel.cluster_of(sm));
    }
  // One cluster reaches all 6 controllers through 6 different slices.
  std::set<unsigned> seen;
  for (uint64_t a = 0; a < 12 * 256; a += 256) seen.insert(sel.slice_for(a, 0));
  EXPECT_EQ(seen, (std::set<unsigned>{0, 2, 4, 6, 8, 10}));
}

TEST(SliceSelector, ModesSwitchAtRunTimeAndPerProgram) {
  const gms::AddressMap map = fermi_like();
  gms::SliceSelector sel(map, 16);
  sel.set_mode(8, 16, gms::LlcMode::Private);  // program B on SMs 8-15 private, program A shared
  EXPECT_EQ(sel.slice_for(256, 0), 1u);        // shared: the map's slice
  EXPECT_EQ(sel.slice_for(256, 8), 1u);        // private, cluster 1
  EXPECT_EQ(sel.slice_for(0, 8), 1u);          // chunk 0 (slice 0) -> cluster 1's slice of channel 0
  EXPECT_EQ(sel.slice_for(0, 0), 0u);
  sel.set_mode(gms::LlcMode::Shared);
  EXPECT_EQ(sel.slice_for(0, 8), 0u);
  EXPECT_THROW(sel.set_mode(10, 17, gms::LlcMode::Private), std::out_of_range);
}

TEST(SliceSelector, HoldersAreTheHomeSliceOrEverySliceOfTheChannel) {
  const gms::AddressMap map = fermi_like();
  gms::SliceSelector sel(map, 15);
  std::vector<unsigned> h;
  sel.holders(2560, h);  // chunk 10: slice 10 of channel 5
  EXPECT_EQ(h, (std::vector<unsigned>{10}));
  EXPECT_FALSE(sel.any_private());
  sel.set_mode(0, 8, gms::LlcMode::Private);  // one program private: copies may sit in either slice
  EXPECT_TRUE(sel.any_private());
  h.clear();
  sel.holders(2560, h);
  EXPECT_EQ(h, (std::vector<unsigned>{10, 11}));
}
