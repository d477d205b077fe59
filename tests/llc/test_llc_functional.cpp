// b_transport, transport_dbg and the mode-switch maintenance operations.
#include <gtest/gtest.h>

#include <cstring>

#include "models/common/payload_pool.h"
#include "tests/llc/llc_fakes.h"

using namespace llc_test;

namespace {

constexpr uint64_t kA = 0x10000, kB = kA + 0x400, kC = kA + 0x800, kD = kA + 0xC00;  // set 0

struct Call {
  Payload* t;
  sc_core::sc_time delay;
};

Call call(Bench& b, bool is_write, uint64_t line, uint8_t mask, ByteMask en = 0, uint8_t base = 0) {
  Payload& t = b.pool.allocate();
  t.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  t.set_address(line);
  gms::req_of(t).chunk_mask = mask;
  if (is_write) {
    unsigned char* be = gms::PayloadPool::enable_bytes(t);
    for (unsigned i = 0; i < gms::kLineBytes; ++i) {
      t.get_data_ptr()[i] = uint8_t(base + i);
      if ((en >> i) & 1) be[i] = TLM_BYTE_ENABLED;
    }
  }
  Call c{&t, sc_core::SC_ZERO_TIME};
  b.up->isock->b_transport(t, c.delay);
  return c;
}

unsigned dbg(Bench& b, bool is_write, uint64_t addr, unsigned len, uint8_t* data) {
  tlm::tlm_generic_payload t;
  t.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
  return b.up->isock->transport_dbg(t);
}

}  // namespace

TEST(LlcFunctional, BTransportMissHitAllocateEvictAndDebugAccess) {
  Bench b(small_params());
  const sc_core::sc_time lat = sc_core::sc_time(double(20 * kPeriodPs), sc_core::SC_PS);
  b.up->at_start = [&] {
    Call m = call(b, false, kA, 0x1);  // miss: DRAM's 100 ns plus the slice latency
    EXPECT_EQ(m.delay, sc_core::sc_time(100, sc_core::SC_NS) + lat);
    EXPECT_FALSE(gms::req_of(*m.t).llc_hit);
    for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(m.t->get_data_ptr()[i], dram_byte(kA + i));
    Call h = call(b, false, kA, 0x1);
    EXPECT_EQ(h.delay, lat);
    EXPECT_TRUE(gms::req_of(*h.t).llc_hit);
    Call w = call(b, true, kB, 0, bytes(0, 4), 0x70);  // allocates without fetching
    EXPECT_EQ(w.delay, lat);
    EXPECT_EQ(b.dram->log.size(), 1u);
    for (Call* c : {&m, &h, &w}) {
      EXPECT_EQ(c->t->get_response_status(), tlm::TLM_OK_RESPONSE);
      c->t->release();
    }

    uint8_t buf[160];
    ASSERT_EQ(dbg(b, false, kB - 16, 160, buf), 160u);  // spans two lines: DRAM's bytes under the LLC's
    for (unsigned i = 0; i < 160; ++i) {
      const uint64_t a = kB - 16 + i;
      EXPECT_EQ(buf[i], a >= kB && a < kB + 4 ? uint8_t(0x70 + (a - kB)) : dram_byte(a)) << i;
    }
    EXPECT_EQ(b.dram->byte(kB), dram_byte(kB));  // still only in the LLC

    call(b, false, kC, 0xF).t->release();  // evicts A (clean): no write-back
    EXPECT_EQ(b.dram->count(tlm::TLM_WRITE_COMMAND) + b.dram->log.size(), 2u);
    call(b, false, kD, 0xF).t->release();  // evicts B (dirty): write-back of exactly its 4 bytes
    ASSERT_EQ(b.dram->log.size(), 4u);
    const auto& wb = b.dram->log[2];
    EXPECT_FALSE(wb.timed);
    EXPECT_EQ(wb.cmd, tlm::TLM_WRITE_COMMAND);
    EXPECT_TRUE(wb.enables == bytes(0, 4));
    for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.dram->byte(kB + i), uint8_t(0x70 + i));

    uint8_t two[2] = {0xC1, 0xC2};
    ASSERT_EQ(dbg(b, true, kC + 8, 2, two), 2u);  // updates the LLC copy and DRAM, state unchanged
    EXPECT_EQ(b.dram->byte(kC + 9), 0xC2);
    ByteMask dirty = 1;
    ASSERT_TRUE(b.llc->line_state(kC, nullptr, &dirty));
    EXPECT_TRUE(dirty == 0);
    Call c = call(b, false, kC, 0x1);
    EXPECT_TRUE(gms::req_of(*c.t).llc_hit);
    EXPECT_EQ(c.t->get_data_ptr()[8], 0xC1);
    c.t->release();
  };
  sc_core::sc_start();
  EXPECT_EQ(b.stat("writebacks"), 1);
  EXPECT_EQ(b.stat("evictions"), 2);
  EXPECT_EQ(b.stat("hits"), 2);
  EXPECT_EQ(b.stat("line_misses"), 4);
  EXPECT_EQ(b.pool.in_use(), 0u);
}

TEST(LlcMaintenance, WriteBackAllThenInvalidateAllKeepsEveryByte) {
  Bench b(small_params());
  const uint64_t kA = 0x10000, kB = kA + 0x80, kC = kA + 0x100;  // three sets: nothing evicted
  b.up->script = {write(0, kA, bytes(0, 8), 0x10), write(0, kB, bytes(32, 64), 0x20), read(0, kC, 0x3),
                  write(at_cycle(30), kC, bytes(100, 104), 0x60)};
  uint32_t wrote = 0, dropped = 0;
  b.up->hooks = {{at_cycle(10), [&] { wrote = b.llc->write_back_all(); }},
                 {at_cycle(20), [&] { dropped = b.llc->invalidate_all(); }}};
  sc_core::sc_start();
  EXPECT_EQ(wrote, 2u);    // A and B
  EXPECT_EQ(dropped, 2u);  // A and B; C had its fill in flight
  const auto& r = b.up->responses;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r[size_t(i)].count, 1);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(r[2].data[i], dram_byte(kC + i));
  EXPECT_FALSE(b.llc->line_state(kA, nullptr, nullptr));
  EXPECT_FALSE(b.llc->line_state(kB, nullptr, nullptr));
  EXPECT_FALSE(b.llc->line_state(kC, nullptr, nullptr));  // dropped after its fill, store written back
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(b.dram->byte(kA + i), uint8_t(0x10 + i));
  for (unsigned i = 32; i < 64; ++i) EXPECT_EQ(b.dram->byte(kB + i), uint8_t(0x20 + i));
  for (unsigned i = 100; i < 104; ++i) EXPECT_EQ(b.dram->byte(kC + i), uint8_t(0x60 + i));
  EXPECT_EQ(b.dram->written.size(), 8u + 32u + 4u);
  EXPECT_EQ(b.stat("writebacks"), 3);
  EXPECT_EQ(b.stat("writeback_bytes"), 44);
  EXPECT_TRUE(b.llc->quiescent());
  EXPECT_EQ(b.pool.in_use(), 0u);
}
