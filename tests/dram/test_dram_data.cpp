// Data correctness: timed writes and reads through the store, byte enables, foreign payloads, the
// untimed interfaces and the backing store itself.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/common/data_budget.h"
#include "models/common/memory_image.h"
#include "models/common/rng.h"
#include "models/dram/backing_store.h"
#include "tests/dram/dram_rig.h"

using gms_test::read_at;
using gms_test::Rig;
using gms_test::Scripted;

namespace {
Scripted write_at(uint64_t addr, std::vector<uint8_t> data, uint8_t chunks = 0xf,
                  std::vector<uint8_t> be = {}) {
  Scripted s;
  s.cmd = tlm::TLM_WRITE_COMMAND;
  s.addr = addr;
  s.chunk_mask = chunks;
  s.data = std::move(data);
  s.enable = std::move(be);
  return s;
}
std::vector<uint8_t> dbg_read(Rig& rig, uint64_t addr, unsigned len) {
  std::vector<uint8_t> out(len);
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(addr);
  t.set_data_ptr(out.data());
  t.set_data_length(len);
  EXPECT_EQ(rig.ini->isock->transport_dbg(t), len);
  return out;
}
}  // namespace

TEST(DramData, WriteThenReadOfSameLineReturnsWrittenBytes) {
  gms::DramParams p;
  std::vector<uint8_t> data(128);
  for (unsigned i = 0; i < 128; ++i) data[i] = uint8_t(i * 7 + 3);
  // Both arrive at once: the read must not overtake the write of its line.
  gms::Clock clk(p.clock_mhz);
  Rig rig(p, {write_at(0x1000, data), read_at(0x1000), read_at(0x9000, 200 * clk.period_ps())});
  rig.run();
  ASSERT_EQ(rig.req(0).status, tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(rig.req(1).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.req(1).rdata, data);
  EXPECT_EQ(rig.req(1).chunks_returned, 0xf);
  for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(rig.req(2).rdata[i], gms::initial_byte(0x9000 + i));
  // Write: WR at tRCD and tRCD + tCCD, data done tCWL + burst later. Read: the same row, after the
  // write-to-read turnaround (tWTR past the write data) and tCCD.
  const uint64_t burst = p.burst_cycles(), wr2 = p.tRCD + p.tCCD, wr_end = wr2 + p.tCWL + burst;
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), wr_end);
  uint64_t rd1 = std::max<uint64_t>(wr2 + p.tCCD, wr_end + p.tWTR);
  EXPECT_EQ(rd1, wr_end + p.tWTR);  // tWTR binds: RD waits tWTR after the last write beat
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), rd1 + p.tCCD + p.tCL + burst);
  EXPECT_EQ(rig.stat("writes"), 1);
  EXPECT_EQ(rig.stat("reads"), 2);
  EXPECT_EQ(rig.stat("bytes_written"), 128);
  EXPECT_EQ(dbg_read(rig, 0x1000, 128), data);
}

TEST(DramData, ByteEnabledPartialWriteChangesOnlyEnabledBytesOfMaskedChunks) {
  gms::DramParams p;
  std::vector<uint8_t> data(128, 0xAA), be(128, 0);
  for (unsigned i = 0; i < 128; i += 2) be[i] = 0xff;
  Rig rig(p, {write_at(0x2000, data, 0x5, be)});  // chunks 0 and 2
  rig.run();
  ASSERT_EQ(rig.req(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.stat("bytes_written"), 128);  // chunks 0 and 2 lie in different 64 B bursts
  auto got = dbg_read(rig, 0x2000, 128);
  for (unsigned i = 0; i < 128; ++i) {
    bool written = (i % 2 == 0) && ((0x5 >> (i / 32)) & 1);
    EXPECT_EQ(got[i], written ? 0xAA : gms::initial_byte(0x2000 + i)) << "byte " << i;
  }
}

TEST(DramData, ForeignPayloadsAccessTheirExactRange) {
  gms::DramParams p;
  Scripted rd;
  rd.foreign = true;
  rd.addr = 0x3000 + 40;
  rd.len = 8;
  Scripted wr = rd;
  wr.cmd = tlm::TLM_WRITE_COMMAND;
  wr.addr = 0x3000 + 100;
  wr.len = 4;
  wr.data = {1, 2, 3, 4};
  Scripted bad = rd;
  bad.addr = 0x3000 + 124;  // crosses into the next line
  Rig rig(p, {rd, wr, bad});
  rig.run();
  ASSERT_EQ(rig.req(0).status, tlm::TLM_OK_RESPONSE);
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(rig.req(0).rdata[i], gms::initial_byte(0x3000 + 40 + i));
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), p.tRCD + p.tCL + p.burst_cycles());  // one burst
  EXPECT_EQ(rig.req(1).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.req(2).status, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(rig.stat("error_responses"), 1);
  EXPECT_EQ(rig.stat("requests"), 3);
  EXPECT_EQ(rig.stat("responses"), 3);
  auto got = dbg_read(rig, 0x3000 + 96, 12);
  for (unsigned i = 0; i < 12; ++i) {
    uint8_t expect = (i >= 4 && i < 8) ? uint8_t(i - 3) : gms::initial_byte(0x3000 + 96 + i);
    EXPECT_EQ(got[i], expect) << i;
  }
}

TEST(DramData, UntimedInterfacesShareTheStore) {
  gms::DramParams p;
  Rig rig(p, {});
  rig.run();  // elaboration only
  auto& w = rig.pool.allocate();
  w.set_command(tlm::TLM_WRITE_COMMAND);
  w.set_address(0x4080);
  gms::req_of(w).chunk_mask = 0x2;  // only chunk 1 is written
  for (unsigned i = 0; i < 128; ++i) w.get_data_ptr()[i] = uint8_t(200 + i);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  rig.ini->isock->b_transport(w, d);
  EXPECT_EQ(w.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d, rig.dram->clock().cycles(p.tRCD + p.tCL + p.burst_cycles()));
  w.release();
  auto& r = rig.pool.allocate();
  r.set_command(tlm::TLM_READ_COMMAND);
  r.set_address(0x4080);
  gms::req_of(r).chunk_mask = 0xf;
  rig.ini->isock->b_transport(r, d);
  EXPECT_EQ(gms::req_of(r).chunks_returned, 0xf);
  for (unsigned i = 0; i < 128; ++i)
    EXPECT_EQ(r.get_data_ptr()[i], (i / 32 == 1) ? uint8_t(200 + i) : gms::initial_byte(0x4080 + i)) << i;
  r.set_command(tlm::TLM_IGNORE_COMMAND);
  rig.ini->isock->b_transport(r, d);
  EXPECT_EQ(r.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
  r.release();
  // DMI covers the 4 KiB page and writes through to the same bytes.
  tlm::tlm_generic_payload q;
  q.set_address(0x40a5);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(rig.ini->isock->get_direct_mem_ptr(q, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x4000u);
  EXPECT_EQ(dmi.get_end_address(), 0x4fffu);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_dmi_ptr()[0xa5], uint8_t(200 + 0x25));
  dmi.get_dmi_ptr()[0x10] = 0x5c;
  EXPECT_EQ(dbg_read(rig, 0x4010, 1)[0], 0x5c);
  EXPECT_EQ(rig.stat("requests"), 0);  // untimed traffic is not counted as timed requests
}

TEST(BackingStore, LazyPagesInitialBytesAndByteEnables) {
  gms::BackingStore s;
  EXPECT_EQ(s.pages(), 0u);
  uint8_t buf[16];
  s.read(0x10000 - 8, buf, 16);  // spans two pages; reading makes none
  EXPECT_EQ(s.pages(), 0u);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(buf[i], gms::initial_byte(0x10000 - 8 + i));
  uint8_t src[16], be[16];
  for (unsigned i = 0; i < 16; ++i) src[i] = uint8_t(i), be[i] = (i % 3 == 0) ? 0xff : 0;
  s.write(0x10000 - 8, src, 16, be);
  EXPECT_EQ(s.pages(), 2u);
  s.read(0x10000 - 8, buf, 16);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(buf[i], i % 3 == 0 ? i : gms::initial_byte(0x10000 - 8 + i));
  const uint8_t* page = s.page(0x7654321);
  for (unsigned i = 0; i < gms::BackingStore::kPageBytes; ++i)
    ASSERT_EQ(page[i], gms::initial_byte(0x7654000 + i)) << i;
  EXPECT_EQ(s.pages(), 3u);
  s.write(0x20000, src, 4, nullptr);
  EXPECT_EQ(s.pages(), 4u);
  EXPECT_EQ(s.page(0x20002)[2], 2);
}

// Every page and page-table region is charged to the data budget before it is made; a refused charge
// leaves the store as it was (the page is not made, what was written stays readable).
TEST(BackingStore, ChargesPagesAndRegionsToTheDataBudgetAndStopsAtItsLimit) {
  const uint64_t region = (uint64_t(1) << 18) * 8 + 16 + 48, page = 4096 + 16;  // table + malloc + map entry
  gms::DataBudget budget(region + 3 * page, "a test limit");
  gms::BackingStore s(&budget);
  uint8_t v[4] = {1, 2, 3, 4};
  s.write(0x1000, v, 4, nullptr);
  EXPECT_EQ(budget.used(), region + page);
  EXPECT_EQ(s.data_bytes(), budget.used());
  s.write(0x1004, v, 4, nullptr);  // same page: nothing new
  s.write(0x2ffe, v, 4, nullptr);  // crosses into a third page
  EXPECT_EQ(s.pages(), 3u);
  EXPECT_EQ(budget.used(), region + 3 * page);
  uint8_t buf[4];
  s.read(0x9000, buf, 4);  // a read makes no page: no charge
  EXPECT_EQ(budget.used(), region + 3 * page);
  try {
    s.write(0x9000, v, 4, nullptr);
    FAIL() << "a fourth page fits no budget of three";
  } catch (const gms::DataBudgetExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("the backing store needed 4112 bytes more"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(a test limit)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(budget.exceeded());
  EXPECT_EQ(s.pages(), 3u);
  EXPECT_EQ(budget.used(), region + 3 * page);
  s.read(0x9000, buf, 4);
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(buf[i], gms::initial_byte(0x9000 + i));
  s.read(0x1000, buf, 4);
  EXPECT_EQ(buf[3], 4);
  // A new 1 GiB region is charged before it is made, too.
  gms::DataBudget small(region - 1, "a test limit");
  gms::BackingStore t(&small);
  EXPECT_THROW(t.write(0, v, 4, nullptr), gms::DataBudgetExceeded);
  EXPECT_EQ(small.used(), 0u);
  t.read(0, buf, 4);
  EXPECT_EQ(buf[0], gms::initial_byte(0));
}

// Random reads and writes (random chunks and byte enables) over 16 lines, all queued at once so FR-FCFS
// reorders freely: every read must return the bytes of the program-order golden memory, and the final
// memory must match it.
TEST(DramData, RandomMixMatchesProgramOrderGoldenMemory) {
  gms::DramParams p;
  gms::Rng rng(7);
  const uint64_t base = 0x40000;
  const unsigned lines = 16, n = 3000;
  // Lines spread over 4 banks and 4 rows of each, so hits, misses and conflicts all occur.
  auto addr_of = [&](uint64_t line) { return base + ((line % 4) << 11) + ((line / 4) << 15); };
  std::vector<uint8_t> golden(lines * 128);
  for (unsigned i = 0; i < golden.size(); ++i) golden[i] = gms::initial_byte(addr_of(i / 128) + i % 128);
  std::vector<Scripted> s;
  std::vector<std::vector<uint8_t>> expect(n);
  for (unsigned k = 0; k < n; ++k) {
    uint64_t line = rng.below(lines), addr = addr_of(line);
    uint64_t g = line * 128;
    uint8_t mask = uint8_t(1 + rng.below(15));
    if (rng.chance(0.5)) {
      std::vector<uint8_t> data(128), be(128);
      for (unsigned i = 0; i < 128; ++i) {
        data[i] = uint8_t(rng.next());
        be[i] = rng.chance(0.7) ? 0xff : 0;
        if (be[i] && ((mask >> (i / 32)) & 1)) golden[g + i] = data[i];
      }
      s.push_back(write_at(addr, data, mask, be));
    } else {
      s.push_back(read_at(addr, 0, mask));
      expect[k].assign(golden.begin() + long(g), golden.begin() + long(g + 128));
    }
  }
  Rig rig(p, s);
  rig.run();
  for (unsigned k = 0; k < n; ++k) {
    ASSERT_EQ(rig.req(k).status, tlm::TLM_OK_RESPONSE) << k;
    if (s[k].cmd != tlm::TLM_READ_COMMAND) continue;
    EXPECT_EQ(rig.req(k).chunks_returned, s[k].chunk_mask);
    for (unsigned i = 0; i < 128; ++i) {
      if ((s[k].chunk_mask >> (i / 32)) & 1) {
        ASSERT_EQ(rig.req(k).rdata[i], expect[k][i]) << "request " << k << " byte " << i;
      }
    }
  }
  for (unsigned line = 0; line < lines; ++line) {
    auto got = dbg_read(rig, addr_of(line), 128);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), golden.begin() + long(line * 128))) << "line " << line;
  }
  EXPECT_EQ(rig.stat("responses"), n);
  EXPECT_EQ(rig.stat("reads") + rig.stat("writes"), n);
  EXPECT_EQ(rig.stat("row_hits") + rig.stat("row_misses") + rig.stat("row_conflicts"), n);
  EXPECT_GT(rig.stat("row_conflicts"), 0);
  EXPECT_GT(rig.stat("row_hits"), 0);
}

// DMI only over what the channel serves: with two channels interleaved by 256 B, channel 0 grants its own
// chunk of the page and refuses the other channel's (whose b_transport is an ADDRESS_ERROR here).
TEST(DramData, DmiCoversOnlyTheChunksTheChannelServes) {
  gms::AddressMapParams a;
  a.num_slices = 2;
  a.num_channels = 2;
  a.interleave_bytes = 256;
  const gms::AddressMap map(a);
  gms::BackingStore store;
  gms::StatGroup root("root");
  gms::PayloadPool pool;
  gms::BlockEnv env;
  env.stats = &root;
  env.pool = &pool;
  gms::DramChannel dram("dram", gms::DramParams{}, 0, map, store, env);
  gms_test::FakeInitiator ini("ini", pool, std::vector<gms_test::Scripted>{});
  ini.isock.bind(dram.tsock);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  tlm::tlm_generic_payload q;
  tlm::tlm_dmi dmi;
  q.set_address(0x4210);  // chunk 0x4200: 0x42 is even, channel 0
  ASSERT_TRUE(ini.isock->get_direct_mem_ptr(q, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x4200u);
  EXPECT_EQ(dmi.get_end_address(), 0x42ffu);
  dmi.get_dmi_ptr()[0x10] = 0x77;  // the pointer is the start address's byte
  uint8_t b = 0;
  store.read(0x4210, &b, 1);
  EXPECT_EQ(b, 0x77);
  q.set_address(0x4310);  // channel 1's chunk
  tlm::tlm_dmi refused;
  EXPECT_FALSE(ini.isock->get_direct_mem_ptr(q, refused));
  EXPECT_FALSE(refused.is_read_allowed());
  EXPECT_EQ(refused.get_start_address(), 0x4300u);
  EXPECT_EQ(refused.get_end_address(), 0x43ffu);
}
