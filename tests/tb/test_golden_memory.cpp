// GoldenMemory: own stores checked, corruption caught, other warps' stores racy, kernel end commits.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "models/common/memory_image.h"
#include "tb/checker/golden_memory.h"
#include "tests/tb/golden_test_util.h"

namespace gms {
namespace {

TEST(TbGolden, UntouchedMemoryReadsTheInitialImage) {
  GoldenMemory g;
  const auto line = initial(0x12340, 128);
  g.on_load(3, 0x12340, line.data(), 128);
  EXPECT_EQ(g.loads_checked(), 1u);
  EXPECT_EQ(g.bytes_checked(), 128u);
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_TRUE(g.passed());
  EXPECT_EQ(g.image_byte(0x12345), initial_byte(0x12345));
}

TEST(TbGolden, SameWarpStoreThenLoadPasses) {
  GoldenMemory g;
  const uint8_t v[4] = {1, 2, 3, 4};
  g.on_store(7, 0x1000, v, 4);
  g.on_load(7, 0x1000, v, 4);
  EXPECT_EQ(g.bytes_checked(), 4u);
  EXPECT_EQ(g.mismatches(), 0u);
  // A load that still sees the old contents misses the warp's own store.
  const auto old = initial(0x1000, 4);
  g.on_load(7, 0x1000, old.data(), 4);
  EXPECT_EQ(g.mismatches(), 1u);
  // Until the kernel ends the image is unchanged.
  EXPECT_EQ(g.image_byte(0x1002), initial_byte(0x1002));
}

// Writers are 32-bit: the largest warp uid that fits is still told apart from its neighbour, and one
// beyond gets a clear error rather than a truncated id that would match another warp.
TEST(TbGolden, LargestWarpUidsAreDistinctAndBeyondThemIsAnError) {
  GoldenMemory g;
  const uint64_t top = uint64_t(UINT32_MAX) - 1;
  const uint8_t a[2] = {5, 6}, b[2] = {7, 8};
  g.on_store(top, 0x2000, a, 2);
  g.on_store(top - 1, 0x2000, b, 2);  // a second warp: the bytes become racy
  EXPECT_EQ(g.write_conflicts(), 2u);
  g.on_load(top, 0x2000, a, 2);  // racy: its own earlier value is one a writer produced
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.racy_loads(), 1u);
  try {
    g.on_store(top + 1, 0x3000, a, 2);
    FAIL() << "no error for a warp uid beyond 32 bits";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("warp uid 4294967295"), std::string::npos) << e.what();
  }
}

// Writers are kept per 4-byte word; two warps storing different bytes of one word must still be told
// apart byte by byte (own bytes ordered, the other warp's racy), and a third store counts its conflict.
TEST(TbGolden, TwoWarpsInOneWordKeepPerByteWriters) {
  GoldenMemory g;
  const uint8_t x = 0x11, y = 0x22, z = 0x33;
  g.on_store(1, 0x4000, &x, 1);
  g.on_store(2, 0x4001, &y, 1);  // same word, another byte: no conflict
  EXPECT_EQ(g.write_conflicts(), 0u);
  const uint8_t both[2] = {x, y};
  g.on_load(1, 0x4000, both, 2);  // own byte, then warp 2's (racy, its value)
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.racy_loads(), 1u);
  const uint8_t old_other[2] = {x, initial_byte(0x4001)};
  g.on_load(1, 0x4000, old_other, 2);  // racy byte may still hold the kernel-start value
  EXPECT_EQ(g.mismatches(), 0u);
  const uint8_t wrong_own[2] = {uint8_t(x ^ 0xff), y};
  g.on_load(1, 0x4000, wrong_own, 2);  // warp 1 must see its own store
  EXPECT_EQ(g.mismatches(), 1u);
  const uint8_t old_own = initial_byte(0x4001);
  g.on_load(2, 0x4001, &old_own, 1);  // warp 2 must see its own store too
  EXPECT_EQ(g.mismatches(), 2u);
  g.on_load(2, 0x4001, &y, 1);
  EXPECT_EQ(g.mismatches(), 2u);
  // A whole word by warp 3, then one of its bytes by warp 4: the other three stay warp 3's own.
  const uint8_t w3[4] = {1, 2, 3, 4};
  g.on_store(3, 0x4004, w3, 4);
  g.on_store(4, 0x4006, &z, 1);
  EXPECT_EQ(g.write_conflicts(), 1u);
  const uint8_t seen[4] = {1, 2, z, 4};
  g.on_load(3, 0x4004, seen, 4);
  EXPECT_EQ(g.mismatches(), 2u);
  const uint8_t bad[4] = {1, 9, z, 4};
  g.on_load(3, 0x4004, bad, 4);
  EXPECT_EQ(g.mismatches(), 3u);
  g.on_store(3, 0x4006, &x, 1);  // back to warp 3: another conflict (writer 4 -> 3)
  EXPECT_EQ(g.write_conflicts(), 2u);
  g.on_kernel_end();
  EXPECT_EQ(g.image_byte(0x4000), x);
  EXPECT_EQ(g.image_byte(0x4001), y);
  EXPECT_EQ(g.image_byte(0x4005), 2);
  // Next kernel: the conflicted byte holds one of its writers' values; the clean ones are exact.
  const uint8_t after[4] = {1, 2, z, 4};
  g.on_load(5, 0x4004, after, 4);
  EXPECT_EQ(g.mismatches(), 3u);
  const uint8_t after_bad[4] = {1, 2, 0x77, 4};
  g.on_load(5, 0x4004, after_bad, 4);
  EXPECT_EQ(g.mismatches(), 4u);
}

TEST(TbGolden, CorruptedByteIsReported) {
  GoldenMemory g;
  auto line = initial(0x8000, 128);
  const uint8_t good = line[37];
  line[37] ^= 0x5a;
  g.on_load(12, 0x8000, line.data(), 128);
  EXPECT_EQ(g.mismatches(), 1u);
  EXPECT_FALSE(g.passed());
  ASSERT_EQ(g.first_mismatches().size(), 1u);
  const Mismatch& m = g.first_mismatches()[0];
  EXPECT_EQ(m.warp_uid, 12u);
  EXPECT_EQ(m.load_addr, 0x8000u);
  EXPECT_EQ(m.load_bytes, 128u);
  EXPECT_EQ(m.addr, 0x8025u);
  EXPECT_EQ(m.expected, good);
  EXPECT_EQ(m.got, uint8_t(good ^ 0x5a));
  EXPECT_EQ(m.wrong_bytes, 1u);
  std::ostringstream os;
  g.print_report(os);
  char bytes[64];
  std::snprintf(bytes, sizeof bytes, "expected 0x%x got 0x%x", good, uint8_t(good ^ 0x5a));
  EXPECT_EQ(
      os.str(),
      "golden memory: FAIL, 0 kernels, 1 loads checked, 128 bytes checked, 1 mismatches, 0 racy loads (0 "
      "bytes), 0 write conflicts\n  mismatch: kernel 0 warp 12 load 0x8000+128: byte 0x8025 " +
          std::string(bytes) + " (1 wrong bytes)\n");
}

TEST(TbGolden, KeepsTheFirstTenMismatches) {
  GoldenMemory g;
  for (uint64_t i = 0; i < 15; ++i) {
    uint8_t b = uint8_t(initial_byte(0x100 * i) + 1);
    g.on_load(i, 0x100 * i, &b, 1);
  }
  EXPECT_EQ(g.mismatches(), 15u);
  ASSERT_EQ(g.first_mismatches().size(), 10u);
  EXPECT_EQ(g.first_mismatches()[9].warp_uid, 9u);
  std::ostringstream os;
  g.print_report(os);
  EXPECT_NE(os.str().find("  ... and 5 more mismatching loads\n"), std::string::npos);
}

// Another warp's store is unordered with this warp's load: the load may see the stored value or the old one,
// and nothing else (issue 14: racy bytes are checked against what a writer produced).
TEST(TbGolden, AnotherWarpsStoreIsRacyAndCheckedAgainstItsWriter) {
  GoldenMemory g;
  const uint8_t v[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  g.on_store(1, 0x2000, v, 8);
  // Bytes 0x2000..0x2007 are racy for warp 2; 0x2008..0x200f still come from the image.
  auto mixed = initial(0x2000, 16);
  std::copy(v, v + 4, mixed.begin());  // half the racy bytes new, half old: both allowed
  g.on_load(2, 0x2000, mixed.data(), 16);
  EXPECT_EQ(g.racy_bytes(), 8u);
  EXPECT_EQ(g.racy_loads(), 1u);
  EXPECT_EQ(g.bytes_checked(), 8u);
  EXPECT_EQ(g.mismatches(), 0u);
  mixed[5] = 0x42;  // neither the kernel-start byte nor warp 1's store
  if (mixed[5] == initial_byte(0x2005)) mixed[5] = 0x43;
  g.on_load(2, 0x2000, mixed.data(), 16);
  EXPECT_EQ(g.mismatches(), 1u);
  EXPECT_EQ(g.first_mismatches()[0].addr, 0x2005u);
  EXPECT_EQ(g.racy_loads(), 2u);
}

// Two warps write one byte (a benign race): a third warp may see either value, or the old one while both
// stores are unordered with it; after the kernel, memory holds one of the two, and no other value passes.
TEST(TbGolden, MultiWriterBytesHoldOneOfTheirWritersValues) {
  GoldenMemory g;
  const uint8_t one = 0x11, two = 0x22, three = 0x33, old = initial_byte(0x6000);
  g.on_store(1, 0x6000, &one, 1);
  g.on_store(2, 0x6000, &two, 1);
  for (uint8_t seen : {one, two, old}) g.on_load(3, 0x6000, &seen, 1);
  EXPECT_EQ(g.mismatches(), 0u);
  g.on_load(3, 0x6000, &three, 1);
  EXPECT_EQ(g.mismatches(), 1u);
  g.on_kernel_end();
  for (uint8_t seen : {one, two}) g.on_load(4, 0x6000, &seen, 1);
  EXPECT_EQ(g.mismatches(), 1u);
  g.on_load(4, 0x6000, &old, 1);  // the kernel's stores reached memory: the old byte is gone
  g.on_load(4, 0x6000, &three, 1);
  EXPECT_EQ(g.mismatches(), 3u);
  EXPECT_EQ(g.racy_loads(), 8u);
  g.on_store(5, 0x6000, &three, 1);  // one writer in this kernel: known again after it
  g.on_kernel_end();
  g.on_load(6, 0x6000, &three, 1);
  g.on_load(6, 0x6000, &one, 1);
  EXPECT_EQ(g.mismatches(), 4u);
  EXPECT_EQ(g.racy_loads(), 8u);
}

TEST(TbGolden, KernelEndCommits) {
  GoldenMemory g;
  const uint8_t v[2] = {0xab, 0xcd};
  g.on_store(1, 0x3000, v, 2);
  g.on_kernel_end();
  EXPECT_EQ(g.kernels(), 1u);
  EXPECT_EQ(g.image_byte(0x3000), 0xab);
  EXPECT_EQ(g.image_byte(0x3001), 0xcd);
  // Next kernel: any warp reads the committed value and it is checked, not racy.
  g.on_load(5, 0x3000, v, 2);
  EXPECT_EQ(g.bytes_checked(), 2u);
  EXPECT_EQ(g.racy_bytes(), 0u);
  EXPECT_EQ(g.mismatches(), 0u);
  const auto old = initial(0x3000, 2);
  g.on_load(5, 0x3000, old.data(), 2);
  EXPECT_EQ(g.mismatches(), 1u);
  EXPECT_EQ(g.first_mismatches()[0].kernel, 1u);
  EXPECT_EQ(g.first_mismatches()[0].expected, 0xab);
}

TEST(TbGolden, WriteConflictsMakeBytesUnknownUntilRewritten) {
  GoldenMemory g;
  const uint8_t a = 1, b = 2;
  g.on_store(1, 0x4000, &a, 1);
  g.on_store(1, 0x4000, &a, 1);  // the same warp again: program order, no conflict
  EXPECT_EQ(g.write_conflicts(), 0u);
  g.on_store(2, 0x4000, &b, 1);
  EXPECT_EQ(g.write_conflicts(), 1u);
  g.on_load(2, 0x4000, &a, 1);  // even the last writer cannot rely on it
  EXPECT_EQ(g.racy_bytes(), 1u);
  g.on_kernel_end();
  g.on_load(3, 0x4000, &a, 1);  // no defined value after the kernel either
  EXPECT_EQ(g.racy_bytes(), 2u);
  g.on_store(3, 0x4000, &b, 1);
  g.on_kernel_end();
  g.on_load(4, 0x4000, &b, 1);
  EXPECT_EQ(g.racy_bytes(), 2u);
  EXPECT_EQ(g.bytes_checked(), 1u);
  EXPECT_EQ(g.mismatches(), 0u);
}

TEST(TbGolden, AccessesCrossingAPage) {
  GoldenMemory g;
  const uint8_t v[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  g.on_store(0, 4092, v, 8);  // 4 bytes in page 0, 4 in page 1
  g.on_load(0, 4092, v, 8);
  EXPECT_EQ(g.bytes_checked(), 8u);
  EXPECT_EQ(g.mismatches(), 0u);
  g.on_kernel_end();
  EXPECT_EQ(g.image_byte(4095), 13);
  EXPECT_EQ(g.image_byte(4096), 14);
  EXPECT_EQ(g.image_byte(4091), initial_byte(4091));
  EXPECT_EQ(g.image_byte(4100), initial_byte(4100));
}

TEST(TbGolden, StatisticsHangUnderAParent) {
  StatGroup root("run");
  GoldenMemory g(root);
  const uint8_t b = uint8_t(initial_byte(64) ^ 1);
  g.on_load(0, 64, &b, 1);
  EXPECT_EQ(root.value("golden_memory.mismatches"), 1.0);
  EXPECT_EQ(root.value("golden_memory.loads_checked"), 1.0);
  EXPECT_EQ(root.value("golden_memory.bytes_checked"), 1.0);
  EXPECT_EQ(root.value("golden_memory.racy_bytes"), 0.0);
  EXPECT_EQ(root.value("golden_memory.write_conflicts"), 0.0);
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

TEST(TbGolden, WordFillEqualsInitialByte) {
  std::vector<uint8_t> buf(300);
  for (uint64_t start : {0ull, 1ull, 7ull, 4093ull, 0x123456789ull}) {
    fill_initial_bytes(start, buf.data(), unsigned(buf.size()));
    for (unsigned i = 0; i < buf.size(); ++i) ASSERT_EQ(buf[i], initial_byte(start + i)) << start << "+" << i;
  }
}

// Its pages and per-byte tables are charged to the data budget as they are made and the per-kernel tables
// given back at kernel end: what the budget holds is what data_bytes() counts, and a store that needs a page
// beyond the limit is refused with DataBudgetExceeded.
TEST(TbGolden, ChargesItsPagesToTheDataBudget) {
  DataBudget budget(uint64_t(1) << 30, "a test limit");
  GoldenMemory g;
  g.set_data_budget(&budget);
  const uint8_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  g.on_store(1, 0x1000, a, 4);
  const uint64_t one_page = budget.used();
  EXPECT_GT(one_page, 9u * 1024);  // a write page: values, per-word writers, bitmaps
  EXPECT_EQ(g.data_bytes(), budget.used());
  g.on_store(2, 0x1002, b, 4);  // another warp: racy bytes, overwritten values and mixed words
  g.on_store(1, 0x5000, a, 4);  // a second page
  EXPECT_GT(budget.used(), 2 * one_page);
  EXPECT_EQ(g.data_bytes(), budget.used());
  g.on_kernel_end();  // two image pages made, the kernel's tables given back, write pages kept as spares
  EXPECT_EQ(g.data_bytes(), budget.used());
  const uint64_t after_kernel = budget.used();
  g.on_store(3, 0x1000, a, 4);  // reuses a spare write page: only its table entry is new
  EXPECT_LT(budget.used() - after_kernel, 100u);
  EXPECT_EQ(g.data_bytes(), budget.used());
  g.on_kernel_end();  // the conflicting bytes are known again: their value sets given back
  EXPECT_EQ(g.data_bytes(), budget.used());
  EXPECT_EQ(budget.peak() >= budget.used(), true);

  DataBudget small(one_page + 100, "a test limit");
  GoldenMemory h;
  h.set_data_budget(&small);
  h.on_store(1, 0x1000, a, 4);
  EXPECT_THROW(h.on_store(1, 0x9000, a, 4), DataBudgetExceeded);
  EXPECT_NE(small.error().find("the golden memory needed"), std::string::npos) << small.error();
}

}  // namespace
}  // namespace gms
