// Timed (AT) behaviour of one LLC slice against a fake NoC initiator and a fake DRAM (100 ns latency).
// Slice clock 700 MHz = 1429 ps; a DRAM response at 100 ns lands on slice cycle 70.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "models/common/address_map.h"
#include "tests/llc/llc_fakes.h"

using namespace llc_test;

namespace {

constexpr uint64_t kA = 0x10000, kB = kA + 0x400, kC = kA + 0x800;  // all in set 0 of small_params()

void expect_dram_bytes(const Line& got, uint64_t line, ByteMask which) {
  for (unsigned i = 0; i < gms::kLineBytes; ++i)
    if ((which >> i) & 1) {
      EXPECT_EQ(got[i], dram_byte(line + i)) << "byte " << i;
    }
}

}  // namespace

TEST(LlcTimed, ReadMissThenHitWithExactLatency) {
  Bench b(small_params());
  b.up->script = {read(0, kA, 0xF), read(200000, kA, 0xF)};
  sc_core::sc_start();
  const auto& r = b.up->responses;
  // Miss: access cycle 0, DRAM read sent at 0, fill on cycle 70, answered the cycle after.
  EXPECT_EQ(r[0].time_ps, at_cycle(71));
  EXPECT_FALSE(r[0].llc_hit);
  EXPECT_EQ(r[0].chunks_returned, 0xF);
  expect_dram_bytes(r[0].data, kA, gms::kAllBytes);
  // Hit: arrives at 200 ns = edge of cycle 140, answered `latency` (20) cycles later.
  EXPECT_EQ(r[1].time_ps, at_cycle(160));
  EXPECT_TRUE(r[1].llc_hit);
  EXPECT_EQ(r[1].status, tlm::TLM_OK_RESPONSE);
  expect_dram_bytes(r[1].data, kA, gms::kAllBytes);
  ASSERT_EQ(b.dram->log.size(), 1u);
  EXPECT_EQ(b.dram->log[0].time_ps, 0u);
  EXPECT_EQ(b.dram->log[0].chunk_mask, 0xF);
  EXPECT_EQ(b.stat("accesses"), 2);
  EXPECT_EQ(b.stat("hits"), 1);
  EXPECT_EQ(b.stat("misses"), 1);
  EXPECT_EQ(b.stat("line_misses"), 1);
  EXPECT_EQ(b.stat("dram_reads"), 1);
  EXPECT_EQ(b.stat("dram_read_bytes"), 128);
  EXPECT_DOUBLE_EQ(b.stat("read_hit_rate"), 0.5);
  EXPECT_EQ(b.stat("requests"), 2);
  EXPECT_EQ(b.stat("responses"), 2);
}

TEST(LlcTimed, SectorMissFetchesOnlyMissingSectors) {
  Bench b(small_params());
  b.up->script = {read(0, kA, 0x1), read(200000, kA, 0x3), read(400000, kA, 0x3)};
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 2u);
  EXPECT_EQ(b.dram->log[0].chunk_mask, 0x1);
  EXPECT_EQ(b.dram->log[1].chunk_mask, 0x2);  // sector 0 is already valid
  const auto& r = b.up->responses;
  EXPECT_EQ(r[0].chunks_returned, 0x1);
  expect_dram_bytes(r[0].data, kA, bytes(0, 32));
  EXPECT_FALSE(r[1].llc_hit);
  expect_dram_bytes(r[1].data, kA, bytes(0, 64));
  EXPECT_TRUE(r[2].llc_hit);
  expect_dram_bytes(r[2].data, kA, bytes(0, 64));
  EXPECT_EQ(b.stat("line_misses"), 1);
  EXPECT_EQ(b.stat("sector_misses"), 1);
  EXPECT_EQ(b.stat("hits"), 1);
  EXPECT_EQ(b.stat("dram_read_bytes"), 64);
}

TEST(LlcTimed, LineFetchModeFetchesWholeLine) {
  auto p = small_params();
  p.fetch = gms::LlcFetch::Line;
  Bench b(p);
  b.up->script = {read(0, kA, 0x1), read(200000, kA, 0xF)};
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 1u);
  EXPECT_EQ(b.dram->log[0].chunk_mask, 0xF);
  EXPECT_TRUE(b.up->responses[1].llc_hit);
  expect_dram_bytes(b.up->responses[1].data, kA, gms::kAllBytes);
}

TEST(LlcTimed, WriteAllocatesWithoutFetchAndReadOfWrittenSectorHits) {
  Bench b(small_params());
  b.up->script = {write(0, kA, bytes(64, 96), 0x40), read(100000, kA, 0x4)};
  sc_core::sc_start();
  const auto& r = b.up->responses;
  EXPECT_EQ(r[0].time_ps, at_cycle(20));  // write ack after `latency`
  EXPECT_FALSE(r[0].llc_hit);             // the line was allocated by this write
  EXPECT_TRUE(r[1].llc_hit);
  EXPECT_EQ(r[1].chunks_returned, 0x4);
  for (unsigned i = 64; i < 96; ++i) EXPECT_EQ(r[1].data[i], uint8_t(0x40 + i));
  EXPECT_TRUE(b.dram->log.empty());
  EXPECT_EQ(b.stat("writes"), 1);
  EXPECT_EQ(b.stat("line_misses"), 1);
  EXPECT_EQ(b.stat("read_hits"), 1);
  // Sector counts as Nsight's: the written sector is a hit (allocated without a fetch), so is the read.
  EXPECT_EQ(b.stat("sectors"), 2);
  EXPECT_EQ(b.stat("sector_hits"), 2);
  EXPECT_EQ(b.stat("read_sectors"), 1);
  EXPECT_EQ(b.stat("read_sector_hits"), 1);
  ByteMask valid = 0, dirty = 0;
  ASSERT_TRUE(b.llc->line_state(kA, &valid, &dirty));
  EXPECT_TRUE(valid == bytes(64, 96));
  EXPECT_TRUE(dirty == bytes(64, 96));
}

TEST(LlcTimed, PartialSectorWriteThenReadFetchesAndMerges) {
  Bench b(small_params());
  b.up->script = {write(0, kA, bytes(4, 8), 0xA0), read(100000, kA, 0x1)};
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 1u);
  EXPECT_EQ(b.dram->log[0].cmd, tlm::TLM_READ_COMMAND);
  EXPECT_EQ(b.dram->log[0].chunk_mask, 0x1);
  const Response& r = b.up->responses[1];
  EXPECT_FALSE(r.llc_hit);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(r.data[i], i >= 4 && i < 8 ? uint8_t(0xA0 + i) : dram_byte(kA + i)) << "byte " << i;
  ByteMask valid = 0, dirty = 0;
  ASSERT_TRUE(b.llc->line_state(kA, &valid, &dirty));
  EXPECT_TRUE(valid == bytes(0, 32));
  EXPECT_TRUE(dirty == bytes(4, 8));
  EXPECT_EQ(b.stat("sector_misses"), 1);
  EXPECT_EQ(b.stat("read_sectors"), 1);  // a partially written sector is fetched: a miss
  EXPECT_EQ(b.stat("read_sector_hits"), 0);
  EXPECT_EQ(b.stat("sector_hits"), 1);  // the write
}

TEST(LlcTimed, FillDoesNotOverwriteStoresAppliedWhileInFlight) {
  Bench b(small_params());
  b.up->script = {read(0, kA, 0x1), write(at_cycle(1), kA, bytes(8, 12), 0x90), read(300000, kA, 0x1)};
  sc_core::sc_start();
  const Response& r = b.up->responses[2];
  EXPECT_TRUE(r.llc_hit);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(r.data[i], i >= 8 && i < 12 ? uint8_t(0x90 + i) : dram_byte(kA + i)) << "byte " << i;
}

TEST(LlcTimed, ReallocationWaitsForTheLinesWritebackAck) {
  Bench b(small_params());
  b.dram->late_writes = true;  // a read issued before the ack would see DRAM's old bytes
  b.up->script = {write(0, kA, bytes(0, 4), 0x11), write(at_cycle(1), kB, bytes(0, 4), 0x22),
                  write(at_cycle(2), kC, bytes(0, 4), 0x33),  // evicts A: write-back sent on cycle 2
                  read(at_cycle(3), kA, 0x1)};
  sc_core::sc_start();
  // The write-back of A is acknowledged at 2 * 1429 ps + 100 ns, on cycle 72: A's read waits on 3..71.
  EXPECT_EQ(b.stat("reservation_fails_writeback_pending"), 69);
  const Response& r = b.up->responses[3];
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(r.data[i], i < 4 ? uint8_t(0x11 + i) : dram_byte(kA + i)) << i;
  ASSERT_EQ(b.dram->log.size(), 3u);  // write-back A, write-back B (A's victim), fetch A
  EXPECT_EQ(b.dram->log[1].addr, kB);
  EXPECT_EQ(b.dram->log[1].time_ps, at_cycle(72));
  EXPECT_EQ(b.dram->log[2].addr, kA);
  EXPECT_EQ(b.dram->log[2].time_ps, at_cycle(73));
  EXPECT_EQ(r.time_ps, at_cycle(144));
}

TEST(LlcTimed, DirtyEvictionWritesBackExactlyTheDirtyBytes) {
  Bench b(small_params());
  Request w = write(0, kA, bytes(10, 13) | bytes(40, 41), 0x30);
  b.up->script = {w, read(10000, kB, 0xF), read(300000, kC, 0xF)};  // C evicts A (least recently used)
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 3u);
  EXPECT_EQ(b.dram->log[0].addr, kB);
  const auto& wb = b.dram->log[1];
  EXPECT_EQ(wb.cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(wb.addr, kA);
  EXPECT_TRUE(wb.enables == (bytes(10, 13) | bytes(40, 41)));
  EXPECT_EQ(wb.chunk_mask, 0x3);
  EXPECT_EQ(b.dram->log[2].addr, kC);
  for (unsigned i : {10u, 11u, 12u, 40u}) EXPECT_EQ(b.dram->byte(kA + i), uint8_t(0x30 + i));
  EXPECT_EQ(b.dram->byte(kA + 13), dram_byte(kA + 13));
  EXPECT_EQ(b.dram->written.size(), 4u);
  EXPECT_FALSE(b.llc->line_state(kA, nullptr, nullptr));
  EXPECT_EQ(b.stat("writebacks"), 1);
  EXPECT_EQ(b.stat("writeback_bytes"), 4);
  EXPECT_EQ(b.stat("evictions"), 1);
  EXPECT_EQ(b.pool.in_use(), 0u);
}

TEST(LlcTimed, LruOrderWithinASet) {
  Bench b(small_params());
  b.up->script = {read(0, kA, 0xF),      read(200000, kB, 0xF), read(400000, kA, 0xF),
                  read(600000, kC, 0xF), read(800000, kA, 0xF), read(1000000, kB, 0xF)};
  sc_core::sc_start();
  const bool expect_hit[] = {false, false, true, false, true, false};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(b.up->responses[i].llc_hit, expect_hit[i]) << "request " << i;
  // C evicted B (A was touched later); the second B evicted C (A touched at 800 ns).
  EXPECT_TRUE(b.llc->line_state(kA, nullptr, nullptr));
  EXPECT_TRUE(b.llc->line_state(kB, nullptr, nullptr));
  EXPECT_FALSE(b.llc->line_state(kC, nullptr, nullptr));
  EXPECT_EQ(b.stat("evictions"), 2);
  EXPECT_EQ(b.dram->count(tlm::TLM_READ_COMMAND), 4u);
  EXPECT_EQ(b.dram->count(tlm::TLM_WRITE_COMMAND), 0u);  // clean victims are dropped
}

TEST(LlcTimed, MshrMergeFetchesOnlySectorsNotYetIssued) {
  Bench b(small_params());
  b.up->script = {read(0, kA, 0x1), read(at_cycle(1), kA, 0x3), read(at_cycle(2), kA, 0x1)};
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 2u);
  EXPECT_EQ(b.dram->log[0].chunk_mask, 0x1);
  EXPECT_EQ(b.dram->log[0].time_ps, 0u);
  EXPECT_EQ(b.dram->log[1].chunk_mask, 0x2);
  EXPECT_EQ(b.dram->log[1].time_ps, at_cycle(1));
  const auto& r = b.up->responses;
  // Fills land on cycles 70 and 71; waiters leave one per cycle in completion order.
  EXPECT_EQ(r[0].time_ps, at_cycle(71));
  EXPECT_EQ(r[2].time_ps, at_cycle(72));
  EXPECT_EQ(r[1].time_ps, at_cycle(73));
  expect_dram_bytes(r[1].data, kA, bytes(0, 64));
  expect_dram_bytes(r[2].data, kA, bytes(0, 32));
  EXPECT_EQ(b.stat("mshr_merges"), 2);
  EXPECT_EQ(b.stat("line_misses"), 1);
  EXPECT_EQ(b.stat("sector_misses"), 2);
  // 1 + 2 + 1 read sectors; sector 0 of the second and third reads was already being fetched: hits.
  EXPECT_EQ(b.stat("read_sectors"), 4);
  EXPECT_EQ(b.stat("read_sector_hits"), 2);
  EXPECT_EQ(b.llc->mshr_in_use(), 0u);
}

TEST(LlcTimed, LoadQueuedBehindStoreSeesTheStore) {
  Bench b(small_params());
  Request st = write(at_cycle(1), kA, bytes(0, 4), 1);        // under the fill of request 0
  Request st2 = write(at_cycle(3), kB, bytes(32, 64), 0x80);  // full sector, no fill in flight
  b.up->script = {read(0, kA, 0x1), st, read(at_cycle(2), kA, 0x1), st2, read(at_cycle(3), kB, 0x2)};
  sc_core::sc_start();
  const auto& r = b.up->responses;
  expect_dram_bytes(r[0].data, kA, bytes(0, 32));  // accessed before the store: DRAM's bytes
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(r[2].data[i], i < 4 ? uint8_t(1 + i) : dram_byte(kA + i)) << "byte " << i;
  EXPECT_TRUE(r[4].llc_hit);
  for (unsigned i = 32; i < 64; ++i) EXPECT_EQ(r[4].data[i], uint8_t(0x80 + i));
  ASSERT_EQ(b.dram->log.size(), 1u);  // the merged load fetched nothing new
  ByteMask valid = 0, dirty = 0;
  ASSERT_TRUE(b.llc->line_state(kA, &valid, &dirty));
  EXPECT_TRUE(dirty == bytes(0, 4));
  EXPECT_TRUE(valid == bytes(0, 32));
}

TEST(LlcTimed, BackPressureWhenMshrsAreFull) {
  auto p = small_params();
  p.mshr_entries = 2;
  p.input_queue = 1;
  Bench b(p);
  b.up->script = {read(0, kA, 0xF), read(0, kA + 0x80, 0xF), read(0, kA + 0x100, 0xF),
                  read(0, kA + 0x180, 0xF)};
  sc_core::sc_start();
  // Request 2 reaches the head on cycle 2 and finds both MSHRs busy until the fills of cycles 70 and 71
  // (fills take the array first); it is retried on cycles 2..69 and accessed on cycle 72.
  EXPECT_EQ(b.stat("reservation_fails_mshr_full"), 68);
  EXPECT_EQ(b.stat("reservation_fails"), 68);
  EXPECT_EQ(b.up->end_req_ps[1], at_cycle(0));
  EXPECT_EQ(b.up->end_req_ps[2], at_cycle(1));
  EXPECT_EQ(b.up->end_req_ps[3], at_cycle(72));  // held while request 2 blocked the input queue
  EXPECT_EQ(b.stat("input_holds"), 3);
  EXPECT_EQ(b.dram->log[2].time_ps, at_cycle(72));
  EXPECT_EQ(b.dram->log[3].time_ps, at_cycle(73));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.up->responses[size_t(i)].count, 1) << i;
  EXPECT_EQ(b.up->responses[3].time_ps, at_cycle(144));  // DRAM answer at 73*1429 ps + 100 ns -> cycle 143
}

TEST(LlcTimed, BadRequestIsAnsweredWithAnError) {
  Bench b(small_params());
  b.up->script = {read(0, kA + 64, 0xF)};  // 128 bytes from the middle of a line: crosses into the next
  sc_core::sc_start();
  EXPECT_EQ(b.up->responses[0].count, 1);
  EXPECT_EQ(b.up->responses[0].status, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(b.stat("bad_requests"), 1);
  EXPECT_EQ(b.stat("accesses"), 0);
  EXPECT_TRUE(b.dram->log.empty());
}

TEST(LlcTimed, VcdProbesTraceMshrOccupancyHitsAndMisses) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/llc_probe_test.vcd";
  {
    gms::TraceSelector trace(path, {"ll*"});
    Bench b(small_params(), sc_core::sc_time(100, sc_core::SC_NS), &trace);
    b.up->script = {read(0, kA, 0xF), read(200000, kA, 0xF)};
    sc_core::sc_start();
    trace.close();  // writes the file (destroyed without close(), an error path, it is discarded)
  }
  // (time ps, signal, value) of every change, from the $var ids and the value lines.
  std::ifstream in(path);
  std::map<std::string, std::string> names;
  std::vector<std::string> changes;
  std::string tok, time = "0";
  bool values = false;
  while (in >> tok) {
    if (tok == "$dumpvars") values = true;
    if (tok == "$var") {
      std::string kind, width, id, name;
      in >> kind >> width >> id >> name;
      names[id] = name;
    } else if (tok[0] == '#') {
      time = tok.substr(1);
    } else if (values && tok[0] == 'b') {
      std::string id;
      in >> id;
      changes.push_back(time + " " + names[id] + " " +
                        std::to_string(std::stoull(tok.substr(1), nullptr, 2)));
    }
  }
  const std::vector<std::string> expected = {
      "0 mshr_occupancy 1",      "0 hits 0",     "0 misses 1", "0 request_queue 0",
      "100030 mshr_occupancy 0", "200060 hits 1"};
  EXPECT_EQ(changes, expected);
}

// Paper 004's slice shape with 48 sets (2 ways here to keep it short), slice 3 of a 12-slice map with
// 256 B interleaving. From a multiple of 72 KB (48 of the slice's lines x 12 slices x 128 B: a set
// rotation starts there) 96 consecutive lines of the slice fill it exactly (2 per set), so the second 96
// evict every first one; every load returns the stored bytes, and every write-back lands at its line.
TEST(LlcTimed, FortyEightSetsStoreEvictAndLoadBackThroughDram) {
  gms::LlcParams p;
  p.size_bytes = 48 * 2 * gms::kLineBytes;
  p.ways = 2;
  p.map_slices = 12;
  p.map_chunk_lines = 2;
  ASSERT_EQ(p.sets(), 48u);
  Bench b(p);
  gms::AddressMapParams mp;
  mp.num_slices = 12;
  mp.num_channels = 6;
  const gms::AddressMap map(mp);
  std::vector<uint64_t> lines;  // the slice's first 192 lines from 16 x 72 KB on
  for (uint64_t a = 0x120000; lines.size() < 192; a += gms::kLineBytes)
    if (map.slice_of(a) == 3) lines.push_back(a);
  auto base = [](size_t i) { return uint8_t(i * 37 + 1); };
  auto& s = b.up->script;
  for (size_t i = 0; i < 96; ++i) s.push_back(write(0, lines[i], gms::kAllBytes, base(i)));
  for (size_t i = 0; i < 96; ++i) s.push_back(read(0, lines[i], 0xF));  // all hits: nothing evicted yet
  for (size_t i = 96; i < 192; ++i) s.push_back(write(0, lines[i], gms::kAllBytes, base(i)));
  for (size_t i = 0; i < 192; ++i) s.push_back(read(0, lines[i], 0xF));  // all misses
  sc_core::sc_start();

  for (size_t r = 0; r < s.size(); ++r) {
    const Response& got = b.up->responses[r];
    ASSERT_EQ(got.count, 1) << "request " << r;
    ASSERT_EQ(got.status, tlm::TLM_OK_RESPONSE) << "request " << r;
    if (s[r].write) continue;
    const size_t i = std::find(lines.begin(), lines.end(), s[r].line) - lines.begin();
    EXPECT_EQ(got.llc_hit, r < 192) << "request " << r;
    for (unsigned k = 0; k < gms::kLineBytes; ++k)
      ASSERT_EQ(got.data[k], uint8_t(base(i) + k)) << "request " << r << " byte " << k;
  }
  EXPECT_EQ(b.stat("read_hits"), 96);
  EXPECT_EQ(b.stat("misses"), 96 + 96 + 192);
  // The second 96 stores evict the first 96 (dirty); the first 96 loads of the last pass evict the second
  // 96 (dirty) and the last 96 loads evict the first 96 again (clean, just fetched).
  EXPECT_EQ(b.stat("evictions"), 3 * 96);
  EXPECT_EQ(b.stat("writebacks"), 2 * 96);
  EXPECT_EQ(b.stat("writeback_bytes"), 2 * 96 * 128);
  std::set<uint64_t> written_back;
  for (const FakeDram::Record& r : b.dram->log)
    if (r.cmd == tlm::TLM_WRITE_COMMAND) written_back.insert(r.addr);
  EXPECT_EQ(written_back, std::set<uint64_t>(lines.begin(), lines.end()));
  for (size_t i = 0; i < 192; ++i)
    for (unsigned k = 0; k < gms::kLineBytes; ++k)
      ASSERT_EQ(b.dram->byte(lines[i] + k), uint8_t(base(i) + k)) << "line " << i << " byte " << k;
  EXPECT_EQ(b.dram->written.size(), 192u * gms::kLineBytes);
  EXPECT_EQ(b.pool.in_use(), 0u);
  EXPECT_TRUE(b.llc->quiescent());
}

// Write-through (a private LLC): a write goes to DRAM at once and leaves the line clean; a second write
// of the line while the first DRAM write still waits in the miss queue merges into it (one DRAM write
// with both writes' bytes), and DRAM ends up with every byte.
TEST(LlcTimed, WriteThroughCombinesWritesWaitingInTheMissQueue) {
  Bench b(small_params());
  b.llc->set_write_through(true);
  b.dram->accept_from = sc_core::sc_time(double(at_cycle(20)), sc_core::SC_PS);  // the channel is busy
  b.up->script = {read(0, kB, 0x1),                             // B's fetch: the miss queue's head, held
                  write(at_cycle(1), kA, bytes(0, 4), 0x10),    // queued behind it
                  write(at_cycle(2), kA, bytes(8, 12), 0x40)};  // merges into A's queued write
  sc_core::sc_start();
  ASSERT_EQ(b.dram->log.size(), 2u);  // fetch B, one write of A
  const auto& w = b.dram->log[1];
  EXPECT_EQ(w.cmd, tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(w.addr, kA);
  EXPECT_TRUE(w.enables == (bytes(0, 4) | bytes(8, 12)));
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.dram->byte(kA + i), uint8_t(0x10 + i));
  for (unsigned i = 8; i < 12; ++i) EXPECT_EQ(b.dram->byte(kA + i), uint8_t(0x40 + i));
  EXPECT_EQ(b.stat("write_combined"), 1);
  EXPECT_EQ(b.stat("writebacks"), 1);
  EXPECT_EQ(b.stat("writeback_bytes"), 8);
  ByteMask dirty = 1;
  ASSERT_TRUE(b.llc->line_state(kA, nullptr, &dirty));
  EXPECT_EQ(dirty, 0u) << "write-through leaves the line clean";
  EXPECT_EQ(b.pool.in_use(), 0u);
}
