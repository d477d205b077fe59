// Stress: a seeded random mix of loads and stores over a few lines of a tiny, resource-starved slice.
// Every request gets exactly one response; every load returns the bytes of all stores that reached the
// slice before it (the slice serves in arrival order); afterwards the freshest bytes seen through
// transport_dbg and DRAM's copy of every byte the LLC does not hold dirty match the golden memory.
#include <gtest/gtest.h>

#include <map>

#include "models/common/rng.h"
#include "tests/llc/llc_fakes.h"

using namespace llc_test;

namespace {

void run_random(gms::LlcParams p, uint64_t seed, bool late_writes = false, uint32_t sets = 4) {
  p.size_bytes = sets * 2 * gms::kLineBytes;  // 2 ways
  p.ways = 2;
  p.mshr_entries = 3;
  p.mshr_max_merge = 2;
  p.miss_queue = 2;
  p.response_queue = 3;
  p.input_queue = 2;
  Bench b(p, sc_core::sc_time(50, sc_core::SC_NS));
  b.dram->late_writes = late_writes;
  gms::Rng rng(seed);
  constexpr size_t kRequests = 3000;
  constexpr uint64_t kBase = 0x40000;
  std::map<uint64_t, uint8_t> golden;
  auto mem = [&](uint64_t a) {
    auto it = golden.find(a);
    return it == golden.end() ? dram_byte(a) : it->second;
  };
  std::vector<Line> expected(kRequests);
  uint64_t t = 0;
  for (size_t i = 0; i < kRequests; ++i) {
    static const unsigned kGaps[] = {0, 0, 1, 2, 7};
    t += kGaps[rng.below(5)] * kPeriodPs;
    const uint64_t line = kBase + rng.below(16) * gms::kLineBytes;
    if (rng.chance(0.4)) {
      ByteMask en = 0;
      const unsigned runs = 1 + unsigned(rng.below(3));
      for (unsigned r = 0; r < runs; ++r) {
        const unsigned from = unsigned(rng.below(128)), len = 1 + unsigned(rng.below(40));
        en |= bytes(from, std::min(128u, from + len));
      }
      Request w = write(t, line, en, uint8_t(rng.next()));
      for (unsigned k = 0; k < gms::kLineBytes; ++k)
        if ((en >> k) & 1) golden[line + k] = w.data[k];
      b.up->script.push_back(w);
    } else {
      const uint8_t mask = uint8_t(1 + rng.below(15));
      for (unsigned k = 0; k < gms::kLineBytes; ++k) expected[i][k] = mem(line + k);
      b.up->script.push_back(read(t, line, mask));
    }
  }
  sc_core::sc_start();

  for (size_t i = 0; i < kRequests; ++i) {
    const Request& q = b.up->script[i];
    const Response& r = b.up->responses[i];
    ASSERT_EQ(r.count, 1) << "request " << i;
    ASSERT_EQ(r.status, tlm::TLM_OK_RESPONSE) << "request " << i;
    if (q.write) continue;
    ASSERT_EQ(r.chunks_returned, q.chunk_mask) << "request " << i;
    for (unsigned k = 0; k < gms::kLineBytes; ++k)
      if ((q.chunk_mask >> gms::chunk_of(k)) & 1) {
        ASSERT_EQ(r.data[k], expected[i][k]) << "request " << i << " byte " << k;
      }
  }
  EXPECT_EQ(b.stat("requests"), double(kRequests));
  EXPECT_EQ(b.stat("responses"), double(kRequests));
  EXPECT_EQ(b.stat("accesses"), double(kRequests));
  EXPECT_EQ(b.stat("hits") + b.stat("misses"), b.stat("accesses"));
  EXPECT_EQ(b.stat("line_misses") + b.stat("sector_misses"), b.stat("misses"));
  EXPECT_EQ(b.pool.in_use(), 0u);
  EXPECT_TRUE(b.llc->quiescent());
  // The run must actually have exercised the corner cases.
  EXPECT_GT(b.stat("writebacks"), 0);
  EXPECT_GT(b.stat("mshr_merges"), 0);
  EXPECT_GT(b.stat("reservation_fails"), 0);
  EXPECT_GT(b.stat("evictions"), 0);
  for (const char* c : {"mshr_full", "merge_full", "ways_reserved", "miss_queue_full", "response_queue_full",
                        "writeback_pending"})
    EXPECT_GT(b.stat(std::string("reservation_fails_") + c), 0) << c;

  for (uint64_t line = kBase; line < kBase + 16 * gms::kLineBytes; line += gms::kLineBytes) {
    Payload& d = b.pool.allocate();
    d.set_command(tlm::TLM_READ_COMMAND);
    d.set_address(line);
    ASSERT_EQ(b.up->isock->transport_dbg(d), gms::kLineBytes);
    ByteMask dirty = 0;
    b.llc->line_state(line, nullptr, &dirty);
    for (unsigned k = 0; k < gms::kLineBytes; ++k) {
      ASSERT_EQ(d.get_data_ptr()[k], mem(line + k)) << "line " << line << " byte " << k;
      if (!((dirty >> k) & 1)) {
        ASSERT_EQ(b.dram->byte(line + k), mem(line + k)) << "line " << line << " byte " << k;
      }
    }
    d.release();
  }
}

}  // namespace

TEST(LlcRandom, SectorFetchEveryRequestAnsweredWithGoldenData) {
  run_random(small_params(), 11);
}

TEST(LlcRandom, LineFetchNruEveryRequestAnsweredWithGoldenData) {
  auto p = small_params();
  p.fetch = gms::LlcFetch::Line;
  p.replacement = "nru";
  run_random(p, 12);
}

TEST(LlcRandom, XorFoldSrripEveryRequestAnsweredWithGoldenData) {
  auto p = small_params();
  p.set_index = gms::LlcSetIndex::XorFold;
  p.replacement = "srrip";
  run_random(p, 13);
}

// 3 sets with the xor_fold index of a 3-slice map with 256 B chunks. The 16 random lines include lines
// the map gives other slices, so the key must be a bijection for those too.
TEST(LlcRandom, ThreeSetsXorFoldEveryRequestAnsweredWithGoldenData) {
  auto p = small_params();
  p.set_index = gms::LlcSetIndex::XorFold;
  p.map_slices = 3;
  p.map_chunk_lines = 2;
  run_random(p, 15, false, 3);
}

TEST(LlcRandom, ThreeSetsLinearReorderingDramEveryRequestAnsweredWithGoldenData) {
  run_random(small_params(), 16, true, 3);
}

TEST(LlcRandom, ReorderingDramEveryRequestAnsweredWithGoldenData) {
  run_random(small_params(), 14, true);
}
