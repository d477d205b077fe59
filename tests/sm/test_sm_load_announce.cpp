// SmCore tells its observer of a load in flight (on_load_issue) only before a later store of the same warp
// is reported, or when more than UnannouncedLoads::kMax of the warp's loads are in flight; a load never
// announced gets no on_load_done. The golden checker needs the announcement only to keep what such a store
// overwrites for the older load (program order), so this is what it must see.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "models/sm/sm_core.h"
#include "tests/sm/sm_test_support.h"
#include "tests/sm/sm_test_system.h"

namespace gms::test {
namespace {

// Every observer call in order: "issue <seq> <first>-<last>", "store <seq>" (first byte of each store
// instruction only), "load <seq>" (first chunk of each load only), "done <seq>". seq is the instruction's
// place in its warp's program order (loads and stores alike).
class OrderObserver : public MemObserver {
 public:
  void on_store(uint64_t, uint64_t seq, uint64_t, const uint8_t*, unsigned) override {
    if (seq != last_store_) log.push_back("store " + std::to_string(seq));
    last_store_ = seq;
  }
  void on_load_issue(uint64_t, uint64_t seq, uint64_t first, uint64_t last) override {
    log.push_back("issue " + std::to_string(seq) + " " + hex(first) + "-" + hex(last));
  }
  void on_load(uint64_t, uint64_t seq, uint64_t, const uint8_t*, unsigned) override {
    if (seq != last_load_) log.push_back("load " + std::to_string(seq));
    last_load_ = seq;
  }
  void on_load_done(uint64_t, uint64_t seq) override { log.push_back("done " + std::to_string(seq)); }
  void on_kernel_end() override {}
  std::vector<std::string> log;

 private:
  static std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "%llx", (unsigned long long)v);
    return b;
  }
  uint64_t last_store_ = UINT64_MAX, last_load_ = UINT64_MAX;
};

SmParams params() {
  SmParams p;
  p.count = 1;
  p.max_outstanding_per_warp = 16;
  return p;
}

// One warp of one CTA runs `prog`; the L1 answers after 200 cycles, so every load is still in flight when
// the next instruction issues.
std::vector<std::string> run(const std::vector<WarpInst>& prog) {
  TestKernel k = make_kernel("k", 1, 1, [&](uint32_t, uint32_t) { return prog; });
  OrderObserver obs;
  SmSystem sys(params(), 1, {k}, 200, &obs);
  sys.run();
  return obs.log;
}

// A one-line load (32 lanes x 4 B at `addr`) or store.
WarpInst ld(uint64_t pc, uint64_t addr) {
  return make_inst(pc, MemKind::Load, addr, 4);
}
WarpInst st(uint64_t pc, uint64_t addr) {
  return make_inst(pc, MemKind::Store, addr, 4);
}

TEST(SmLoadAnnounce, LoadsWithoutALaterStoreAreNeverAnnounced) {
  const std::vector<std::string> log = run({ld(0x10, 0x1000), ld(0x18, 0x2000)});
  EXPECT_EQ(log, (std::vector<std::string>{"load 0", "load 1"}));
}

TEST(SmLoadAnnounce, AStoreAnnouncesTheWarpsLoadsInFlightFirst) {
  const std::vector<std::string> log = run({ld(0x10, 0x1000), ld(0x18, 0x2000), st(0x20, 0x1000)});
  // Both loads, oldest first, with the bytes of their lines, before the store; their ends after their data.
  ASSERT_EQ(log.size(), 7u);
  EXPECT_EQ(log[0], "issue 0 1000-107f");
  EXPECT_EQ(log[1], "issue 1 2000-207f");
  EXPECT_EQ(log[2], "store 2");
  EXPECT_EQ(std::count(log.begin(), log.end(), "done 0"), 1);
  EXPECT_EQ(std::count(log.begin(), log.end(), "done 1"), 1);
  EXPECT_LT(std::find(log.begin(), log.end(), "load 0"), std::find(log.begin(), log.end(), "done 0"));
  EXPECT_LT(std::find(log.begin(), log.end(), "load 1"), std::find(log.begin(), log.end(), "done 1"));
}

TEST(SmLoadAnnounce, ALoadIssuedAfterTheStoreWaitsForTheNextStore) {
  const std::vector<std::string> log =
      run({ld(0x10, 0x1000), st(0x18, 0x3000), ld(0x20, 0x2000), st(0x28, 0x4000)});
  ASSERT_GE(log.size(), 4u);
  EXPECT_EQ(log[0], "issue 0 1000-107f");
  EXPECT_EQ(log[1], "store 1");
  EXPECT_EQ(log[2], "issue 2 2000-207f");
  EXPECT_EQ(log[3], "store 3");
}

TEST(SmLoadAnnounce, AFullListIsAnnouncedWhenOneMoreLoadIssues) {
  std::vector<WarpInst> prog;
  for (uint64_t i = 0; i <= UnannouncedLoads::kMax; ++i) prog.push_back(ld(0x10 + 8 * i, 0x1000 * (i + 1)));
  const std::vector<std::string> log = run(prog);
  // The first kMax loads are told of when load kMax issues; the last one never is.
  ASSERT_GE(log.size(), size_t(UnannouncedLoads::kMax));
  for (uint64_t i = 0; i < UnannouncedLoads::kMax; ++i) {
    char want[64];
    std::snprintf(want, sizeof want, "issue %llu %llx-%llx", (unsigned long long)i,
                  (unsigned long long)(0x1000 * (i + 1)), (unsigned long long)(0x1000 * (i + 1) + 0x7f));
    EXPECT_EQ(log[i], want);
    EXPECT_EQ(std::count(log.begin(), log.end(), "done " + std::to_string(i)), 1);
  }
  const std::string last = std::to_string(UnannouncedLoads::kMax);
  EXPECT_EQ(std::count_if(log.begin(), log.end(),
                          [&](const std::string& e) { return e.rfind("issue " + last + " ", 0) == 0; }),
            0);
  EXPECT_EQ(std::count(log.begin(), log.end(), "done " + last), 0);
  EXPECT_EQ(std::count(log.begin(), log.end(), "load " + last), 1);
}

}  // namespace
}  // namespace gms::test
