// BaselineL1 against a scripted SM and a 10-cycle memory at 1 GHz. Timeline of a load miss accepted
// in cycle c: read sent c+1, memory answers c+11, fill and response c+12. A hit answers at c+1.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "l1_test_ops.h"
#include "models/common/memory_image.h"
#include "models/l1/baseline_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
constexpr uint64_t A = kSet0[0], B = kSet0[1], C = kSet0[2], D = kSet0[3], E = kSet0[4];

BaselineL1& l1_of(Bench& b) {
  return static_cast<BaselineL1&>(*b.l1);
}
}  // namespace

TEST(L1Baseline, LruSequenceEvictsTheLeastRecent) {
  Bench b(test_params("lru"), {load(A), load(B), load(C), load(D), load(A), load(E), load(B)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 6u);  // A B C D miss, A hits, E evicts B, B misses
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("evictions"), 2u);
  EXPECT_EQ(b.mem->log, reads({A, B, C, D, E, B}));
  auto& r = b.sm->results;
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].issue_cycle, 13u);
  EXPECT_EQ(r[1].resp_cycle, 25u);
  EXPECT_EQ(r[4].issue_cycle, 52u);
  EXPECT_EQ(r[4].resp_cycle, 53u);  // hit latency 1
  EXPECT_EQ(r[6].resp_cycle, 79u);
  EXPECT_EQ(r[4].chunks_returned, 0xF);
  EXPECT_DOUBLE_EQ(b.root.value("l1.miss_rate"), 6.0 / 7.0);
  EXPECT_DOUBLE_EQ(b.root.value("l1.hit_rate"), 1.0 / 7.0);
  expect_all_answered(b);
}

TEST(L1Baseline, LruVariantOfTheNruStream) {
  Bench b(test_params("lru"),
          {load(A), load(B), load(C), load(D), load(C), load(B), load(A), load(E), load(D), load(B)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A, B, C, D, E, D}));  // E evicts D (least recent), D then evicts C
  EXPECT_EQ(b.stat("hits"), 4u);
  EXPECT_EQ(b.stat("misses"), 6u);
  expect_all_answered(b);
}

TEST(L1Baseline, NruEvictsLowestNotRecentlyUsedWay) {
  // Fills A..D set all bits -> only D's stays; C, B, A hits set all again -> only A's stays;
  // E takes way 1 (B), D hits, B then takes way 2 (C).
  Bench b(test_params("nru"),
          {load(A), load(B), load(C), load(D), load(C), load(B), load(A), load(E), load(D), load(B)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A, B, C, D, E, B}));
  EXPECT_EQ(b.stat("hits"), 4u);
  EXPECT_EQ(b.stat("misses"), 6u);
  TagArray& t = l1_of(b).tags();
  EXPECT_EQ(t.find(E), 1);
  EXPECT_EQ(t.find(B), 2);
  EXPECT_EQ(t.find(C), -1);
  expect_all_answered(b);
}

TEST(L1Baseline, FermiHashPutsConflictingLinesInOneSet) {
  Bench b(test_params("lru", SetIndexFn::FermiHash), {load(A), load(B), load(C), load(D), load(E), load(A)});
  sc_core::sc_start();
  for (uint64_t a : {A, B, C, D, E}) EXPECT_EQ(l1_of(b).tags().set_of(a), 0u);
  EXPECT_EQ(b.stat("misses"), 6u);  // E evicted A
  EXPECT_EQ(b.stat("hits"), 0u);
  expect_all_answered(b);
}

TEST(L1Baseline, LinearIndexSpreadsTheSameLines) {
  Bench b(test_params("lru", SetIndexFn::Linear), {load(A), load(B), load(C), load(D), load(E), load(A)});
  sc_core::sc_start();
  EXPECT_EQ(l1_of(b).tags().set_of(E), 8u);
  EXPECT_EQ(b.stat("misses"), 5u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("evictions"), 0u);
  expect_all_answered(b);
}

TEST(L1Baseline, MshrMergesTwoLoadsToOneLine) {
  Bench b(test_params(), {load(A, false, 0x3), load(A, false, 0xC)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A}));
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("hit_pending"), 1u);
  EXPECT_EQ(b.stat("fills"), 1u);
  EXPECT_EQ(b.stat("to_l2_requests"), 1u);
  EXPECT_EQ(b.stat("from_l2_bytes"), 128u);
  EXPECT_DOUBLE_EQ(b.root.value("l1.hit_rate"), 0.5);
  auto& r = b.sm->results;
  EXPECT_EQ(r[1].accept_cycle, 1u);
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 13u);  // one response per cycle
  EXPECT_EQ(r[0].chunks_returned, 0x3);
  EXPECT_EQ(r[1].chunks_returned, 0xC);
  expect_all_answered(b);
}

TEST(L1Baseline, MergeLimitFailsThenHitsAfterFill) {
  L1Params p = test_params();
  p.mshr_max_merge = 2;
  Bench b(p, {load(A, false), load(A, false), load(A, false)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("rf_merge"), 10u);  // cycles 2..11; the fill in cycle 12 makes it a hit
  EXPECT_EQ(b.stat("reservation_fails"), 10u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("hit_pending"), 1u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[2].accept_cycle, 12u);
  EXPECT_EQ(r[2].resp_cycle, 14u);  // behind the second waiter's response (cycle 13)
  expect_all_answered(b);
}

TEST(L1Baseline, ReservationFailWhenMshrsRunOut) {
  L1Params p = test_params();
  p.mshr_entries = 2;
  Bench b(p, {load(A, false), load(B, false), load(C, false)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("rf_mshr"), 10u);  // C retried in cycles 2..11, accepted after A's fill in 12
  EXPECT_EQ(b.stat("reservation_fails"), 10u);
  EXPECT_EQ(b.stat("accesses"), 13u);
  EXPECT_EQ(b.stat("misses"), 3u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[2].issue_cycle, 2u);
  EXPECT_EQ(r[2].accept_cycle, 12u);
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 13u);
  EXPECT_EQ(r[2].resp_cycle, 24u);
  expect_all_answered(b);
}

TEST(L1Baseline, MissQueueFullIsAReservationFail) {
  L1Params p = test_params();
  p.miss_queue_entries = 1;
  Bench b(p, {load(A, false), load(B, false), load(C, false)});
  sc_core::sc_start();
  // A's read occupies the slot in cycles 0..1 (queued, then sent); B gets it in cycle 2, C in cycle 4.
  EXPECT_EQ(b.stat("rf_miss_queue"), 2u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[1].accept_cycle, 2u);
  EXPECT_EQ(r[2].accept_cycle, 4u);
  expect_all_answered(b);
}

TEST(L1Baseline, WriteEvictThenReloadMisses) {
  Bench b(test_params(), {load(A), load(A), store(A, 0x5, 0x40), load(A)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("write_evicts"), 1u);
  EXPECT_EQ(b.stat("stores"), 1u);
  EXPECT_EQ(b.stat("to_l2_requests"), 3u);
  EXPECT_EQ(b.stat("to_l2_bytes"), 64u);
  EXPECT_EQ(b.stat("from_l2_bytes"), 256u);
  std::vector<std::pair<char, uint64_t>> log = {{'R', A}, {'W', A}, {'R', A}};
  EXPECT_EQ(b.mem->log, log);
  auto& r = b.sm->results;
  EXPECT_EQ(r[2].issue_cycle, 15u);
  EXPECT_EQ(r[2].resp_cycle, 27u);  // acknowledged by memory
  EXPECT_EQ(r[3].data[0], 0x40);    // the reload sees the store
  EXPECT_EQ(r[3].data[32], initial_byte(A + 32));
  EXPECT_EQ(r[3].data[64], 0x80);
  expect_all_answered(b);
}

TEST(L1Baseline, WriteNoAllocate) {
  Bench b(test_params(), {store(B, 0xF, 0x10), load(B)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 0u);
  EXPECT_EQ(b.stat("misses"), 1u);  // the store allocated nothing
  EXPECT_EQ(b.stat("hits"), 0u);
  EXPECT_EQ(b.sm->results[0].resp_cycle, 12u);
  EXPECT_EQ(b.sm->results[1].data[5], 0x15);
  EXPECT_EQ(l1_of(b).tags().valid_lines(), 1u);
  expect_all_answered(b);
}

TEST(L1Baseline, DataReturnedEqualsDownstreamBytes) {
  Bench b(test_params(), {load(A, false, 0x1), load(C, false, 0xA), load(E, false, 0xF), load(C, true, 0x4)});
  sc_core::sc_start();
  auto& r = b.sm->results;
  for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(r[2].data[i], initial_byte(E + i)) << i;
  EXPECT_EQ(r[0].data[3], initial_byte(A + 3));
  EXPECT_EQ(r[0].data[40], 0xEE);  // chunk 1 not requested, not written
  EXPECT_EQ(r[1].chunks_returned, 0xA);
  EXPECT_EQ(r[1].data[32 + 7], initial_byte(C + 32 + 7));
  EXPECT_EQ(r[3].chunks_returned, 0x4);  // a hit returns its own chunks
  EXPECT_EQ(r[3].data[64], initial_byte(C + 64));
  EXPECT_EQ(b.stat("hits"), 1u);
  expect_all_answered(b);
}

TEST(L1Baseline, StoreToPendingLineIsNotInstalled) {
  Bench b(test_params(), {load(A, false), store(A, 0x1, 0x70, false), load(A, false)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("no_fill_marks"), 1u);
  EXPECT_EQ(b.stat("rf_no_fill"), 10u);  // the second load waits for the dropped fill (cycles 2..11)
  EXPECT_EQ(b.stat("fills_dropped"), 1u);
  EXPECT_EQ(b.stat("fills"), 2u);
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("hit_pending"), 0u);
  std::vector<std::pair<char, uint64_t>> log = {{'R', A}, {'W', A}, {'R', A}};
  EXPECT_EQ(b.mem->log, log);
  auto& r = b.sm->results;
  EXPECT_EQ(r[0].data[0], initial_byte(A));  // the earlier load: pre-store data
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 13u);
  EXPECT_EQ(r[2].accept_cycle, 12u);
  EXPECT_EQ(r[2].resp_cycle, 24u);
  EXPECT_EQ(r[2].data[0], 0x70);  // the later load: the store's data, from memory
  EXPECT_EQ(r[2].data[32], initial_byte(A + 32));
  EXPECT_EQ(l1_of(b).tags().valid_lines(), 1u);
  expect_all_answered(b);
}

TEST(L1Baseline, KernelEndInvalidatesValidLinesOnly) {
  SmOp flush;
  flush.kind = SmOp::Flush;
  flush.not_before = 27;
  Bench b(test_params(), {load(A), load(B), load(C), flush, load(A), load(C)});
  sc_core::sc_start();
  // C is pending at the flush (issued 26): its fill still installs, so C hits afterwards; A misses.
  EXPECT_EQ(b.stat("flushes"), 1u);
  EXPECT_EQ(b.stat("flushed_lines"), 2u);
  EXPECT_EQ(b.stat("misses"), 4u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.mem->log, reads({A, B, C, A}));
  expect_all_answered(b);
}

TEST(L1Baseline, EveryRequestGetsOneResponseUnderStress) {
  L1Params p = test_params("lru");
  p.mshr_entries = 4;
  p.mshr_max_merge = 2;
  p.miss_queue_entries = 2;
  BenchOptions o;
  o.mem_latency = 7;
  Bench b(p, random_ops(5, 600), o);
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 600u);
  EXPECT_EQ(b.stat("loads") + b.stat("stores"), 600u);
  EXPECT_EQ(b.stat("hits") + b.stat("hit_pending") + b.stat("misses"), b.stat("loads"));
  EXPECT_EQ(b.stat("accesses"), 600u + b.stat("reservation_fails"));
  EXPECT_EQ(b.stat("rf_mshr") + b.stat("rf_line") + b.stat("rf_miss_queue") + b.stat("rf_merge") +
                b.stat("rf_no_fill"),
            b.stat("reservation_fails"));
  EXPECT_GT(b.stat("reservation_fails"), 0u);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("hit_pending"), 0u);
  EXPECT_EQ(b.stat("fills"), b.stat("misses"));
  EXPECT_EQ(l1_of(b).mshrs().size(), 0u);
  EXPECT_EQ(b.sm->bad_data, 0u);
  expect_all_answered(b);
}

TEST(L1Baseline, BackPressureOnBothSides) {
  // Memory withholds END_REQ for 3 cycles; the SM withholds END_RESP for 2 cycles.
  BenchOptions o;
  o.mem_accept_delay = 3;
  o.sm_hold_resp = 2;
  Bench b(test_params(), {load(A, false), load(A, false), load(A, false), load(B, false)}, o);
  sc_core::sc_start();
  auto& r = b.sm->results;
  EXPECT_EQ(r[3].accept_cycle, 3u);
  // A: sent 1, END_REQ 4; B: sent 5 (the channel is free from the cycle after END_REQ), memory
  // answers 15. A's fill in 12 answers three waiters, each after the previous END_RESP (+1 cycle).
  std::vector<std::pair<char, uint64_t>> log = {{'R', A}, {'R', B}};
  EXPECT_EQ(b.mem->log, log);
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 15u);
  EXPECT_EQ(r[2].resp_cycle, 18u);
  EXPECT_EQ(r[3].resp_cycle, 21u);
  EXPECT_EQ(b.stat("hit_pending"), 2u);
  expect_all_answered(b);
}

TEST(L1Baseline, VcdProbesTraceOccupancyHitsAndMisses) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/l1_probe_test.vcd";
  auto trace = std::make_unique<TraceSelector>(path, std::vector<std::string>{"l1*"});
  BenchOptions o;
  o.trace = trace.get();
  Bench b(test_params(), {load(A, false), load(B, false), load(A)}, o);
  sc_core::sc_start();
  trace->close();  // writes the file (destroyed without close(), an error path, it is discarded)
  trace.reset();
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  const std::string vcd = text.str();
  EXPECT_NE(vcd.find("$scope module l1 $end\n$var wire   32  aaaaa  mshr_occupancy [31:0]  $end\n"
                     "$var wire   64  aaaab  hits [63:0]  $end\n$var wire   64  aaaac  misses [63:0]  $end"),
            std::string::npos);
  EXPECT_EQ(vcd.find("module sm"), std::string::npos);                      // only selected blocks
  EXPECT_NE(vcd.find("#1000\nb10 aaaaa\nb10 aaaac\n"), std::string::npos);  // two misses in flight
  EXPECT_NE(vcd.find("#14000\nb1 aaaab\n"), std::string::npos);             // the hit in cycle 14
  EXPECT_NE(vcd.find("$var wire    1  aaaaf  hit       $end\n$var wire    1  aaaag  miss       $end\n"),
            std::string::npos);
  EXPECT_NE(vcd.find("#14000\nb1 aaaab\n1aaaaf\n#15000\n0aaaaf\n"),
            std::string::npos);  // one-cycle hit pulse
  EXPECT_EQ(b.stat("hits"), 1u);
}

TEST(L1Baseline, FunctionalPathsKeepStateAndData) {
  Bench b(test_params(), std::vector<SmOp>{});
  auto access = [&](tlm::tlm_command cmd, uint64_t addr, unsigned len, uint8_t fill) {
    return functional_access(b, cmd, addr, len, fill).data;
  };
  auto first = access(tlm::TLM_READ_COMMAND, C + 8, 8, 0);
  EXPECT_EQ(first[0], initial_byte(C + 8));
  EXPECT_EQ(b.mem->b_calls, 1u);
  access(tlm::TLM_READ_COMMAND, C, 128, 0);  // installed: served by the L1
  EXPECT_EQ(b.mem->b_calls, 1u);
  EXPECT_GE(l1_of(b).tags().find(C), 0);
  access(tlm::TLM_WRITE_COMMAND, C + 4, 4, 0x90);  // write-evict + write-through
  EXPECT_EQ(b.mem->b_calls, 2u);
  EXPECT_EQ(l1_of(b).tags().find(C), -1);
  auto again = access(tlm::TLM_READ_COMMAND, C, 8, 0);
  EXPECT_EQ(b.mem->b_calls, 3u);
  EXPECT_EQ(again[4], 0x90);
  EXPECT_EQ(again[7], 0x93);
  // Debug write: memory and the cached copy change, no state change, no timed traffic.
  EXPECT_EQ(debug_write(b, C + 1, 0x5A), 1u);
  EXPECT_EQ(b.mem->mem.line(C)[1], 0x5A);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, C, 2, 0)[1], 0x5A);
  EXPECT_EQ(b.mem->b_calls, 3u);  // still a hit
  EXPECT_EQ(b.stat("requests"), 0u);
  sc_core::sc_start();
}

TEST(L1Baseline, ThroughputOfTheAccessPath) {
  // Not a timing assertion: prints accesses per wall second for the report; checks every answer.
  const uint64_t n = 400000;
  BenchOptions o;
  o.record = false;
  Bench b(
      test_params(),
      [&](uint64_t i, SmOp& op) {
        if (i >= n) return false;
        op = SmOp();
        // 3 of 4 accesses to 64 hot lines (8 KB), 1 of 4 streaming over 4 MB.
        op.addr = (i % 4 ? (i * 2654435761u) % 64 : 4096 + (i / 4) % 32768) * 128;
        return true;
      },
      o);
  auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("baseline L1: %llu requests in %.3f s = %.0f requests/s (hit rate %.3f)\n",
              (unsigned long long)n, s, double(n) / s, b.root.value("l1.hit_rate"));
  EXPECT_EQ(b.stat("responses"), n);
  EXPECT_EQ(b.sm->responses, n);
  EXPECT_EQ(b.pool.in_use(), 0u);
}

// Paper 000's packets: a read request is one packet, a reply one per returned 32 B chunk; a store is one
// plus one per written chunk and its acknowledgement one. The harness's loads carry no instruction number,
// so each load is its own instruction: the per-instruction miss rate equals the per-request one here.
TEST(L1Baseline, PacketsEachWayAndPerInstructionMisses) {
  Bench b(test_params(), {load(A), load(A), store(B, 0x3, 7), load(C, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 2u);  // A, C
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("to_l2_requests"), 3u);
  EXPECT_EQ(b.stat("to_l2_packets"), 1u + (1u + 2u) + 1u);
  EXPECT_EQ(b.stat("from_l2_packets"), 4u + 1u + 4u);  // two whole-line fills and one acknowledgement
  EXPECT_EQ(b.stat("load_insts"), 3u);
  EXPECT_EQ(b.stat("load_insts_missed"), 2u);
  EXPECT_DOUBLE_EQ(b.root.value("l1.inst_miss_rate"), 2.0 / 3.0);
  EXPECT_EQ(b.stat("partial_hits"), 0u);
  EXPECT_EQ(b.stat("bypasses"), 0u);
  expect_all_answered(b);
}
