#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/at_port.h"
#include "models/common/byte_enables.h"
#include "models/common/min_tree.h"
#include "models/common/payload_pool.h"
#include "models/common/rng.h"
#include "models/common/text_excerpt.h"
#include "models/common/u64_slot_map.h"

TEST(Rng, ReproducibleAndPerBlock) {
  gms::Rng a(7, "l1_0"), b(7, "l1_0"), c(7, "l1_1");
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= (x != c.next());
  }
  EXPECT_TRUE(differs);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(a.below(12), 12u);
}

TEST(MinTree, MinimumFollowsEveryUpdate) {
  // Against a plain scan, with sizes that are and are not powers of two, values raised and lowered
  // (including the current minimum, the case an early stop must not get wrong), and kNone for "none".
  for (uint32_t n : {1u, 2u, 5u, 8u, 9u, 16u, 64u, 65u, 128u, 600u}) {
    gms::MinTree t(n);
    std::vector<uint64_t> ref(n, gms::MinTree::kNone);
    EXPECT_EQ(t.min(), gms::MinTree::kNone);
    gms::Rng rng(3, "min_tree");
    for (int step = 0; step < 20000; ++step) {
      const uint32_t i = uint32_t(rng.below(n));
      const uint64_t v = rng.below(8) == 0 ? gms::MinTree::kNone : rng.below(50);
      t.set(i, v);
      ref[i] = v;
      uint64_t m = gms::MinTree::kNone;
      for (uint64_t x : ref) m = std::min(m, x);
      ASSERT_EQ(t.min(), m) << "n " << n << " step " << step;
      ASSERT_EQ(t.at(i), v);
    }
  }
}

TEST(AddressMap, BijectiveAndChannelConsistent) {
  gms::AddressMapParams p;
  p.num_slices = 12;
  p.num_channels = 6;
  gms::AddressMap m(p);
  std::set<std::pair<uint32_t, uint64_t>> seen;
  for (uint64_t a = 0; a < (1 << 20); a += 128) {
    EXPECT_EQ(m.channel_of(a), m.slice_of(a) / 2);
    EXPECT_TRUE(seen.insert({m.channel_of(a), m.channel_addr(a)}).second);
  }
  EXPECT_EQ(m.slice_of(0), 0u);
  EXPECT_EQ(m.slice_of(256), 1u);
  EXPECT_EQ(m.slice_of(12 * 256), 0u);
  gms::AddressMapParams q = p;
  q.num_slices = 8;
  q.num_channels = 4;
  q.xor_hash = true;
  gms::AddressMap h(q);
  std::set<std::pair<uint32_t, uint64_t>> seen2;
  for (uint64_t a = 0; a < (1 << 20); a += 128)
    EXPECT_TRUE(seen2.insert({h.channel_of(a), h.channel_addr(a)}).second);
}

// The vector path (an enable array at least as long as the data) and the repeating short pattern give the
// per-byte definition for every length, including values that are neither 0 nor TLM_BYTE_ENABLED.
TEST(ByteEnables, EnabledBitsMatchThePerByteDefinition) {
  gms::Rng rng(7);
  std::vector<unsigned char> be(160);
  for (unsigned be_len : {1u, 2u, 3u, 7u, 16u, 31u, 64u, 100u, 127u, 128u, 129u, 160u})
    for (unsigned len : {1u, 15u, 16u, 17u, 63u, 64u, 65u, 96u, 127u, 128u})
      for (int round = 0; round < 4; ++round) {
        for (auto& b : be) {
          const uint64_t r = rng.next() % 4;
          b = r == 0 ? 0 : r == 1 ? 0x7f : TLM_BYTE_ENABLED;
        }
        uint64_t got[2];
        gms::enabled_bits(be.data(), be_len, len, got);
        uint64_t want[2] = {0, 0};
        for (unsigned j = 0; j < len; ++j)
          if (be[j % be_len] == TLM_BYTE_ENABLED) want[j / 64] |= uint64_t(1) << (j % 64);
        EXPECT_EQ(got[0], want[0]) << "be_len " << be_len << " len " << len;
        EXPECT_EQ(got[1], want[1]) << "be_len " << be_len << " len " << len;
      }
}

// Random inserts and erases (clustered keys, so probe chains wrap and backward shifts happen) against
// std::unordered_map: every lookup agrees, including after the table grows.
TEST(U64SlotMap, AgreesWithUnorderedMapUnderInsertAndErase) {
  gms::U64SlotMap m;
  std::unordered_map<uint64_t, uint32_t> ref;
  gms::Rng rng(3, "u64_slot_map");
  for (uint32_t step = 0; step < 200000; ++step) {
    const uint64_t key = rng.next() % 3000 + (step % 7 == 0 ? (uint64_t(1) << 40) : 0);
    const auto it = ref.find(key);
    if (it == ref.end()) {
      if (rng.next() % 3 != 0) {  // grow to a few thousand entries, then hover
        m.insert(key, step);
        ref.emplace(key, step);
      }
    } else {
      ASSERT_EQ(m.find(key), it->second);
      ASSERT_TRUE(m.erase(key));
      ref.erase(it);
    }
    ASSERT_EQ(m.size(), ref.size());
    const uint64_t probe = rng.next() % 3000;
    const auto r = ref.find(probe);
    ASSERT_EQ(m.find(probe), r == ref.end() ? gms::U64SlotMap::kNone : r->second);
  }
  size_t seen = 0;
  m.for_each([&](uint64_t k, uint32_t v) {
    ++seen;
    EXPECT_EQ(ref.at(k), v);
  });
  EXPECT_EQ(seen, ref.size());
  EXPECT_FALSE(m.erase(gms::U64SlotMap::kEmptyKey - 1));
  EXPECT_THROW(m.insert(gms::U64SlotMap::kEmptyKey, 0), std::logic_error);
  m.clear();
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.find(ref.begin()->first), gms::U64SlotMap::kNone);
}

TEST(PayloadPool, ReusesPayloadsAndCarriesMemReq) {
  gms::PayloadPool pool;
  auto& t = pool.allocate();
  gms::req_of(t).sm = 3;
  EXPECT_EQ(pool.in_use(), 1u);
  tlm::tlm_generic_payload* first = &t;
  t.release();
  EXPECT_EQ(pool.in_use(), 0u);
  auto& u = pool.allocate();
  EXPECT_EQ(&u, first);
  EXPECT_EQ(gms::req_of(u).sm, 0u);  // reset on reuse
  EXPECT_EQ(u.get_data_length(), 128u);
  u.release();
}

TEST(AtPorts, ImmediateAcceptHoldAndResponse) {
  gms::PayloadPool pool;
  gms::AtTargetPort* tgt_ptr = nullptr;
  gms::AtInitiatorPort* ini_ptr = nullptr;
  bool hold = false, ready = false;
  int responses = 0;
  gms::AtInitiatorPort ini([&](gms::Payload& t, tlm::tlm_phase& ph,
                               sc_core::sc_time& d) { return tgt_ptr->nb_transport_fw(t, ph, d); },
                           [&] { ready = true; },
                           [&](gms::Payload&) {
                             ++responses;
                             return true;
                           });
  gms::AtTargetPort tgt([&](gms::Payload& t, tlm::tlm_phase& ph,
                            sc_core::sc_time& d) { return ini_ptr->nb_transport_bw(t, ph, d); },
                        [&](gms::Payload&, const sc_core::sc_time&) { return !hold; }, nullptr);
  tgt_ptr = &tgt;
  ini_ptr = &ini;
  auto& a = pool.allocate();
  EXPECT_TRUE(ini.send(a));
  EXPECT_TRUE(ini.can_send());
  EXPECT_TRUE(tgt.respond(a));
  EXPECT_EQ(responses, 1);
  hold = true;
  EXPECT_FALSE(ini.send(a));
  EXPECT_FALSE(ini.can_send());
  EXPECT_TRUE(tgt.holding_request());
  tgt.accept(a);
  EXPECT_TRUE(ready);
  EXPECT_TRUE(ini.can_send());
  a.release();
}

TEST(TextExcerpt, EscapesControlBytesAndCuts) {
  using namespace std::string_literals;
  EXPECT_EQ(gms::quote_excerpt("ab\0c\n\x01\xff"s), "'ab\\0c\\n\\x01\\xff'");
  EXPECT_EQ(gms::escape_excerpt(std::string(100, 'x'), 5), "xxxxx...");
  EXPECT_EQ(gms::escape_excerpt("a\\b"), "a\\\\b");
}
