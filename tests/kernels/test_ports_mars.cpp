// Mars MapReduce ports (tb/kernels/mars): each computes its result functionally, its stream has the
// launch sequence the host code makes, and two fresh workloads give the same streams.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

// MARS_COUNTS=<port>[:size]: prints the port's stream counts (loads, stores, atomics, barriers, kernels).
TEST(MarsPorts, PrintCounts) {
  const char* e = std::getenv("MARS_COUNTS");
  if (!e) GTEST_SKIP() << "set MARS_COUNTS=<port>[:size yaml]";
  std::string arg = e, name = arg, size = "{}";
  if (auto c = arg.find(':'); c != std::string::npos) name = arg.substr(0, c), size = arg.substr(c + 1);
  auto p = test::make_port(name, size);
  const test::StreamSummary s = test::pull_all(*p);
  std::cout << name << " " << size << ": kernels " << s.kernels << " insts " << s.insts << " loads "
            << s.loads << " stores " << s.stores << " atomics " << s.atomics << " barriers " << s.barriers
            << " check '" << p->check() << "'\n";
}

// PVC at 40 lines: per MapReduce, MapperCount, 3 one-block scans of the 256 threads' sizes (prescan<false,
// false>), Mapper; the group of 40 records: the single-block bitonic sort, getZW, copyChunks' getIntY +
// np2 scan + copy, setZW, getXY, the keys' copy (3), setXY, getChunkBoundary + scan + writeBoundary +
// setBoundaryInt2 (15 launches); MapReduce 1 adds ReducerCount, 3 scans, Reducer. 25 + 20 = 45 launches.
TEST(MarsPvc, LaunchSequenceTiny) {
  auto p = test::make_port("mars/pvc", "{records: 40, urls: 4}");
  const test::StreamSummary s = test::pull_all(*p);
  ASSERT_EQ(s.kernels, 45u);
  EXPECT_EQ(s.kernel_names[0], "MapperCount");
  EXPECT_EQ(s.kernel_names[1], "prescan<false,false>");
  EXPECT_EQ(s.kernel_names[4], "Mapper");
  EXPECT_EQ(s.kernel_names[5], "bitonicSortSingleBlock_kernel");
  EXPECT_EQ(s.kernel_names[8], "prescan<false,true>");
  EXPECT_EQ(s.kernel_names[20], "ReducerCount");
  EXPECT_EQ(s.kernel_names[24], "Reducer");
  EXPECT_EQ(s.kernel_names[25], "MapperCount");
  EXPECT_EQ(s.kernel_names[44], "setBoundaryInt2_kernel");
  // MapperCount's first instruction: inputOffsetSizes[i].z of records 0..31 (int4s, 16 bytes apart).
  const WarpInst& f = s.first[0];
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.active_mask, ~0u);
  EXPECT_EQ(f.pc, 0x1800u);
  EXPECT_EQ(f.addr[1] - f.addr[0], 16u);
  EXPECT_EQ(f.addr[31] - f.addr[0], 31u * 16u);
  EXPECT_EQ(p->check(), "");
}

TEST(MarsPvc, ChecksSmall) {
  test::expect_checks("mars/pvc", "{records: 300, urls: 16}");
}
TEST(MarsPvc, ChecksMidSort) {
  test::expect_checks("mars/pvc", "{records: 700, urls: 64}");
}
TEST(MarsPvc, Deterministic) {
  test::expect_deterministic("mars/pvc", "{records: 300, urls: 16}");
}

// PVR at 40 lines: one MAP_GROUP MapReduce: MapperCount, 3 scans, Mapper, the 15 group launches.
// Mapper's emit: the key and value copied byte by byte from the shared output buffer (4 + 4 stores).
TEST(MarsPvr, LaunchSequenceTiny) {
  auto p = test::make_port("mars/pvr", "{records: 40, ranks: 8}");
  uint64_t mapper_stores = 0;
  const test::StreamSummary s = test::pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    if (k == "Mapper" && i.kind == MemKind::Store) ++mapper_stores;
  });
  ASSERT_EQ(s.kernels, 20u);
  EXPECT_EQ(s.kernel_names[4], "Mapper");
  EXPECT_EQ(s.kernel_names[5], "bitonicSortSingleBlock_kernel");
  EXPECT_EQ(s.kernel_names[19], "setBoundaryInt2_kernel");
  // Mapper: 2 warps with records (40 lanes); each: interOffsetSizes[psCounts] store, 8 byte stores,
  // keyValOffsets, interOffsetSizes[curPs], curIndex: 12 stores. Warps 2..7 (no record) leave at once.
  EXPECT_EQ(mapper_stores, 2u * 12u);
  EXPECT_EQ(p->check(), "");
}

TEST(MarsPvr, ChecksSmall) {
  test::expect_checks("mars/pvr", "{records: 200, ranks: 50}");
}
TEST(MarsPvr, ChecksMidSort) {
  test::expect_checks("mars/pvr", "{records: 1500}");
}
TEST(MarsPvr, Deterministic) {
  test::expect_deterministic("mars/pvr", "{records: 300, ranks: 64}");
}

// SSC at 9 documents of 8 features: 36 pairs, one MAP_GROUP MapReduce (20 launches). Mapper, per warp with
// pairs (2): the prologue's psCounts, interOffsetSizes, psValSizes, psKeySizes (4), the record's index,
// matrix pointer, dim, doc1, doc2 (5), 2 float4s of each row (4), the emit's keyValOffsets, psKeySizes,
// psValSizes, psCounts, curIndex and interOffsetSizes[curPs] (6; curIndex is 0: no previous record): 19.
TEST(MarsSsc, LaunchSequenceTiny) {
  auto p = test::make_port("mars/ssc", "{docs: 9, dims: 8}");
  uint64_t mapper_loads = 0;
  const test::StreamSummary s = test::pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    if (k == "Mapper" && i.kind == MemKind::Load) ++mapper_loads;
  });
  ASSERT_EQ(s.kernels, 20u);
  EXPECT_EQ(s.kernel_names[5], "bitonicSortSingleBlock_kernel");
  EXPECT_EQ(mapper_loads, 2u * 19u);
  EXPECT_EQ(p->check(), "");
}

TEST(MarsSsc, ChecksSmall) {
  test::expect_checks("mars/ssc", "{docs: 20, dims: 12}");
}
TEST(MarsSsc, ChecksMidSort) {
  test::expect_checks("mars/ssc", "{docs: 48, dims: 36}");
}
TEST(MarsSsc, Deterministic) {
  test::expect_deterministic("mars/ssc", "{docs: 24, dims: 16}");
}

// IIX at one copy of the three pages (~28 blocks, ~67 links): one MAP_GROUP MapReduce of 20 launches, the
// links sorted by the single-block bitonic sort.
TEST(MarsIix, LaunchSequenceTiny) {
  auto p = test::make_port("mars/iix", "{copies: 1}");
  const test::StreamSummary s = test::pull_all(*p);
  ASSERT_EQ(s.kernels, 20u);
  EXPECT_EQ(s.kernel_names[0], "MapperCount");
  EXPECT_EQ(s.kernel_names[4], "Mapper");
  EXPECT_EQ(s.kernel_names[5], "bitonicSortSingleBlock_kernel");
  EXPECT_EQ(p->check(), "");
}

TEST(MarsIix, ChecksMidSort) {
  test::expect_checks("mars/iix", "{copies: 5}");
}
TEST(MarsIix, Deterministic) {
  test::expect_deterministic("mars/iix", "{copies: 2}");
}

}  // namespace
}  // namespace gms::kernels
