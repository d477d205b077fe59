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

}  // namespace
}  // namespace gms::kernels
