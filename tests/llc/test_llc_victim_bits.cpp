// G-Cache victim bits in one LLC slice (paper 001, section 4.1): set when a read from an L1 is answered,
// the reply carries the value before, shared by groups of SMs, cleared when the line leaves, untouched by
// writes, absent unless enabled. Requests 200 ns apart so each completes before the next.
#include <gtest/gtest.h>

#include "tests/llc/llc_fakes.h"

using namespace llc_test;

namespace {

constexpr uint64_t kA = 0x10000, kB = kA + 0x400, kC = kA + 0x800;  // all in set 0 of small_params()

gms::LlcParams with_bits(uint32_t l1s, uint32_t sms_per_bit) {
  gms::LlcParams p = small_params();
  p.victim_bit_l1s = l1s;
  p.sms_per_victim_bit = sms_per_bit;
  return p;
}

Request read_from(uint64_t at_ps, uint64_t line, uint32_t sm) {
  Request r = read(at_ps, line, 0xF);
  r.sm = sm;
  return r;
}

std::vector<bool> victim_bits(const Bench& b) {
  std::vector<bool> v;
  for (const Response& r : b.up->responses) v.push_back(r.victim_bit);
  return v;
}

}  // namespace

TEST(LlcVictimBits, SetWhenAReadIsAnsweredAndTheReplyCarriesThePreviousValue) {
  Bench b(with_bits(4, 1));
  // Miss (answered by the fill), hit, then another L1 twice.
  b.up->script = {read_from(0, kA, 0), read_from(200000, kA, 0), read_from(400000, kA, 1),
                  read_from(600000, kA, 1)};
  sc_core::sc_start();
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, true, false, true}));
  EXPECT_FALSE(b.up->responses[0].llc_hit);
  EXPECT_TRUE(b.up->responses[1].llc_hit);
  EXPECT_TRUE(b.llc->victim_bit(kA, 0));
  EXPECT_TRUE(b.llc->victim_bit(kA, 1));
  EXPECT_FALSE(b.llc->victim_bit(kA, 2));
  EXPECT_FALSE(b.llc->victim_bit(kA, 3));
}

TEST(LlcVictimBits, SmsOfOneGroupShareTheirBit) {
  Bench b(with_bits(4, 2));  // SMs {0,1} and {2,3}
  b.up->script = {read_from(0, kA, 0), read_from(200000, kA, 1), read_from(400000, kA, 2),
                  read_from(600000, kA, 3), read_from(800000, kA, 0)};
  sc_core::sc_start();
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, true, false, true, true}));
}

TEST(LlcVictimBits, AnEvictedLineComesBackWithItsBitsClear) {
  Bench b(with_bits(2, 1));
  // Two ways, LRU: C evicts A, so A's next read allocates a new line whose bits start clear.
  b.up->script = {read_from(0, kA, 0), read_from(200000, kB, 0), read_from(400000, kC, 0),
                  read_from(600000, kA, 0), read_from(800000, kA, 0)};
  sc_core::sc_start();
  EXPECT_EQ(b.stat("evictions"), 2);  // C evicted A, A then evicted B
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, false, false, false, true}));
  EXPECT_FALSE(b.llc->victim_bit(kB, 0));  // B is gone
  EXPECT_TRUE(b.llc->victim_bit(kC, 0));
}

TEST(LlcVictimBits, InvalidateAllClearsTheBits) {
  Bench b(with_bits(2, 1));
  b.up->script = {read_from(0, kA, 0), read_from(400000, kA, 0)};
  b.up->hooks = {{200000, [&b] { b.llc->invalidate_all(); }}};
  sc_core::sc_start();
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, false}));
}

TEST(LlcVictimBits, WritesNeitherSetNorReturnBits) {
  Bench b(with_bits(2, 1));
  Request w = write(0, kA, gms::kAllBytes, 0x10);
  w.sm = 0;
  b.up->script = {w, read_from(200000, kA, 0), read_from(400000, kA, 0)};
  sc_core::sc_start();
  EXPECT_TRUE(b.up->responses[1].llc_hit);  // the write allocated the whole line
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, false, true}));
}

TEST(LlcVictimBits, OffByDefault) {
  Bench b(small_params());
  b.up->script = {read_from(0, kA, 0), read_from(200000, kA, 0)};
  sc_core::sc_start();
  EXPECT_EQ(victim_bits(b), (std::vector<bool>{false, false}));
  EXPECT_FALSE(b.llc->victim_bit(kA, 0));
}

TEST(LlcVictimBits, BitsNeedTheNumberOfL1s) {
  gms::LlcParams p = small_params();
  p.sms_per_victim_bit = 1;
  EXPECT_THROW(p.check(), gms::ConfigError);
}
