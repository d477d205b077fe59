// Small helpers every L1 design test uses: scripted loads and stores, the expected downstream log, the
// checks that every request was answered with the right bytes, and a seeded random load/store stream.
#pragma once
#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>
#include <vector>

#include "l1_test_harness.h"
#include "models/common/config.h"
#include "models/common/rng.h"
#include "tests/config_error_of.h"

namespace gms::test {

// Five lines that the Fermi hash puts in set 0 (a linear index spreads them).
constexpr uint64_t kSet0[] = {0x0, 0x2080, 0x4100, 0x8200, 0x20400};

inline SmOp load(uint64_t a, bool wait = true, uint8_t mask = 0xF) {
  SmOp o;
  o.addr = a;
  o.wait_prev = wait;
  o.mask = mask;
  return o;
}
inline SmOp store(uint64_t a, uint8_t mask, uint8_t fill, bool wait = true) {
  SmOp o = load(a, wait, mask);
  o.kind = SmOp::Store;
  o.fill = fill;
  return o;
}
inline std::vector<std::pair<char, uint64_t>> reads(std::initializer_list<uint64_t> as) {
  std::vector<std::pair<char, uint64_t>> v;
  for (uint64_t a : as) v.emplace_back('R', a);
  return v;
}
inline void expect_all_answered(Bench& b) {
  EXPECT_EQ(b.stat("requests"), b.stat("responses"));
  for (size_t i = 0; i < b.sm->results.size(); ++i) {
    EXPECT_EQ(b.sm->results[i].responses, 1) << "op " << i;
    EXPECT_TRUE(b.sm->results[i].data_ok) << "op " << i;
  }
  EXPECT_EQ(b.sm->bad_data, 0u);
  EXPECT_EQ(b.pool.in_use(), 0u);
}
// Loads are exactly one outcome each; accesses are loads, stores and failed probes; causes add up.
inline void expect_counts_add_up(Bench& b) {
  EXPECT_EQ(b.stat("loads"), b.stat("hits") + b.stat("hit_pending") + b.stat("misses") +
                                 b.stat("partial_hits") + b.stat("bypasses"));
  EXPECT_EQ(b.stat("accesses"), b.stat("loads") + b.stat("stores") + b.stat("reservation_fails"));
  EXPECT_EQ(b.stat("rf_mshr") + b.stat("rf_line") + b.stat("rf_miss_queue") + b.stat("rf_merge") +
                b.stat("rf_no_fill"),
            b.stat("reservation_fails"));
}
// n random loads (70 %) and stores over ten lines, random chunk masks, nobody waiting: the L1 is kept
// busy with merges, partial hits, stale fills and reservation fails.
inline std::vector<SmOp> random_ops(uint64_t seed, int n) {
  Rng rng(seed);
  std::vector<SmOp> ops;
  const uint64_t lines[] = {0x0, 0x2080, 0x4100, 0x8200, 0x20400, 0x80, 0x100, 0x2000, 0x40000, 0x1000};
  for (int i = 0; i < n; ++i) {
    SmOp o = load(lines[rng.below(10)], false, uint8_t(1 + rng.below(15)));
    if (rng.chance(0.3)) {
      o.kind = SmOp::Store;
      o.fill = uint8_t(rng.next());
    }
    ops.push_back(o);
  }
  return ops;
}
// A functional access through the SM's socket (b_transport, as a virtual platform makes it): the bytes
// read (or written) and the delay the L1 path annotated. The response must be OK.
struct FunctionalResult {
  std::vector<uint8_t> data;
  sc_core::sc_time delay;
};
inline FunctionalResult functional_access(Bench& b, tlm::tlm_command cmd, uint64_t addr, unsigned len,
                                          uint8_t fill) {
  Payload& t = b.pool.allocate();
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_length(len);
  for (unsigned i = 0; i < len; ++i) t.get_data_ptr()[i] = uint8_t(fill + i);
  FunctionalResult r{{}, sc_core::SC_ZERO_TIME};
  b.sm->isock->b_transport(t, r.delay);
  EXPECT_TRUE(t.is_response_ok()) << addr;
  r.data.assign(t.get_data_ptr(), t.get_data_ptr() + len);
  t.release();
  return r;
}
// A one-byte debug write (transport_dbg) through the SM's socket; returns the bytes it reports done.
inline unsigned debug_write(Bench& b, uint64_t addr, uint8_t byte) {
  Payload& t = b.pool.allocate();
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(addr);
  t.set_data_length(1);
  t.get_data_ptr()[0] = byte;
  const unsigned n = b.sm->isock->transport_dbg(t);
  t.release();
  return n;
}
// The ConfigError message L1Params::from gives for a document (file name t.yaml), or "".
inline std::string l1_params_error(const std::string& yaml) {
  return config_error_of([&] { L1Params::from(ConfigNode::load_string(yaml, "t.yaml").child("l1")); });
}
// Small MSHR, merge limit and miss queue so the random stream hits every reservation-fail cause.
inline L1Params tight(L1Params p) {
  p.mshr_entries = 4;
  p.mshr_max_merge = 2;
  p.miss_queue_entries = 2;
  return p;
}

}  // namespace gms::test
