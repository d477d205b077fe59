// Multi-program memory ownership (tb/checker/program_footprints.h) and the footprint synthetic workloads
// declare (Workload::footprint): overlap is found to the line, touching is per line, nothing wraps or loops.
#include <gtest/gtest.h>

#include "tb/checker/program_footprints.h"
#include "tests/config_error_of.h"
#include "tests/tb/workload_test_util.h"

namespace gms::test {
TEST(ProgramFootprints, FirstOverlapIsWidenedToLines) {
  EXPECT_FALSE(first_overlap({{0x1000, 0x2000}}, {{0x2000, 0x3000}}));
  EXPECT_FALSE(first_overlap({{0x1000, 0x1000}}, {{0x0, 0x3000}}));  // empty ranges touch nothing
  auto o = first_overlap({{0x1000, 0x2010}, {0x9000, 0xa000}}, {{0x9800, 0x9900}, {0x2040, 0x3000}});
  ASSERT_TRUE(o);
  EXPECT_EQ(to_string(*o), "[0x2000, 0x2080)");  // both ends of the byte ranges fall in line 0x2000
  auto top = first_overlap({{UINT64_MAX - 200, UINT64_MAX}}, {{UINT64_MAX - 10, UINT64_MAX}});
  ASSERT_TRUE(top);
  EXPECT_EQ(top->begin, UINT64_MAX / 128 * 128);
}

TEST(ProgramFootprints, SecondProgramOnALineIsAnErrorNamingBoth) {
  ProgramFootprints f("p.yaml", {"'a' (programs[0])", "'b' (programs[1])"});
  f.touch(0, 0x1000, 4);
  f.touch(0, 0x107c, 8);  // crosses into line 0x1080
  f.touch(1, 0x2000, 16);
  f.touch(1, 0x1100, 4);
  EXPECT_EQ(
      config_error_of([&] { f.touch(1, 0x1084, 4); }),
      "p.yaml: program 'b' (programs[1]) accesses the line [0x1080, 0x1100) that program 'a' (programs[0]) "
      "also uses: programs must use disjoint memory");
  // The last lines of the address space: no wrap-around, no endless loop.
  EXPECT_NO_THROW(f.touch(0, UINT64_MAX - 3, 16));
  EXPECT_NE(
      config_error_of([&] { f.touch(1, UINT64_MAX - 100, 4); }).find("program 'b' (programs[1]) accesses"),
      std::string::npos);
}

TEST(ProgramFootprints, SyntheticWorkloadDeclaresTheRegionsItUses) {
  // Kernel 0 loads and stores; kernel 1 only loads (its store region is not declared).
  auto w = load_text(
      "workload:\n  name: t\n  seed: 1\n  kernels:\n"
      "    - {pattern: streaming, grid: 2, block: 64, insts_per_warp: 4, store_fraction: 0.5, base: "
      "0x100000}\n"
      "    - {pattern: streaming, grid: 1, block: 32, insts_per_warp: 2, base: 0x800000, out_base: "
      "0x900000}\n");
  std::vector<AddressRange> r;
  ASSERT_TRUE(w->footprint(r));
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(to_string(r[0]), "[0x100000, 0x100400)");  // 4 warps x 2 loads x 32 lanes x 4 B
  EXPECT_EQ(to_string(r[1]), "[0x100400, 0x100800)");
  EXPECT_EQ(to_string(r[2]), "[0x800000, 0x800100)");
  // Every address the workload generates lies in what it declared.
  for (uint32_t k = 0; auto kernel = w->next_kernel(); ++k)
    for (const GeneratedInst& g : generate(*kernel))
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(g.inst.active_mask >> lane & 1)) continue;
        const uint64_t a = g.inst.addr[lane];
        bool inside = false;
        for (const AddressRange& x : r) inside |= a >= x.begin && a + g.inst.width <= x.end;
        EXPECT_TRUE(inside) << "kernel " << k << " address " << a;
      }
}

}  // namespace gms::test
