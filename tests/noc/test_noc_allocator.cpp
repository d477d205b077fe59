// Router allocators (models/noc/router/): hand-worked grant sequences for iSLIP and the separable
// round-robin allocator, fairness under saturation, and matching validity on random request matrices.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "models/noc/router/allocator.h"
#include "models/noc/router/islip_allocator.h"
#include "models/noc/router/separable_allocator.h"
#include "tests/config_error_of.h"

using gms::Allocator;
using gms::IslipAllocator;
using gms::SeparableRoundRobinAllocator;

namespace {
using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;  // (input, output)

// One round: the requests, then allocate(); returns the grants.
Pairs run_round(Allocator& a, const Pairs& requests) {
  for (const auto& r : requests) a.add_request(r.first, r.second);
  a.allocate();
  return a.grants();
}

Pairs all_to_all(unsigned n) {
  Pairs r;
  for (unsigned i = 0; i < n; ++i)
    for (unsigned o = 0; o < n; ++o) r.push_back({i, o});
  return r;
}

// In the hand-worked examples: input 0 -> {0,1}, 1 -> {0,2}, 2 -> {0}, 3 -> {2,3}.
const Pairs kMixed = {{0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 0}, {3, 2}, {3, 3}};
}  // namespace

// g[o]: output o's grant pointer, a[i]: input i's accept pointer; both start at 0. One iteration.
//  round  requests                    offers (output -> input)   accepts = grants      g after    a after
//  1-3    kMixed
//   1                                 0->0 1->0 2->1 3->3        (0,0) (1,2) (3,3)     1,0,2,0    1,3,0,0
//   2                                 0->1 1->0 2->3 3->3        (1,0) (0,1) (3,2)     2,1,0,0    2,1,0,3
//   3                                 0->2 1->0 2->1 3->3        (2,0) (0,1) (1,2)     3,1,2,0    2,3,1,0
//                                                                (3,3): a full match
//   4     0->{1,3} 1->{3} 2->{0,3}    0->2 1->0 3->0             (2,0) (0,3)           3,1,2,1    0,3,1,0
// In round 4 input 0 takes output 3 (first at or after its pointer 2) and declines output 1, which stays
// free and keeps its pointer; input 1 got no offer (output 3 went to input 0).
TEST(NocAllocator, IslipHandWorkedRounds) {
  IslipAllocator a(4, 4);
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{0, 0}, {1, 2}, {3, 3}}));
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{1, 0}, {0, 1}, {3, 2}}));
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{2, 0}, {0, 1}, {1, 2}, {3, 3}}));
  EXPECT_EQ(run_round(a, {{0, 1}, {0, 3}, {1, 3}, {2, 0}, {2, 3}}), (Pairs{{2, 0}, {0, 3}}));
  EXPECT_EQ(a.grant_of_input(0), 3);
  EXPECT_EQ(a.grant_of_input(1), -1);
  EXPECT_EQ(a.grant_of_input(2), 0);
  EXPECT_EQ(a.grant_of_output(1), -1);
  EXPECT_EQ(a.grant_of_output(3), 0);
  // Requests do not carry over: a round without any grants nothing and clears the last grants.
  EXPECT_FALSE(a.has_requests());
  EXPECT_EQ(run_round(a, {}), Pairs{});
  EXPECT_EQ(a.grant_of_input(0), -1);
}

// Two iterations; only the first moves pointers.
//  round  requests                 iteration 1                       iteration 2              g after   a
//  after
//   1     0->{0,1} 1->{0,1}        offers 0->0 1->0; accept (0,0)    offer 1->1; (1,1)        1,0,0,0 1,0,0,0
//   2     1->{1,3} 2->{1}          offers 1->1 3->1; accept (1,1)    output 3: requester      1,2,0,0 1,2,0,0
//                                                                     1 is taken: none
// Had iteration 2 moved pointers in round 1 (g1 = 2, a1 = 2), round 2 would give (2,1) (1,3).
TEST(NocAllocator, IslipSecondIterationMatchesWithoutMovingPointers) {
  IslipAllocator one(4, 4, 1);
  EXPECT_EQ(run_round(one, {{0, 0}, {0, 1}, {1, 0}, {1, 1}}),
            (Pairs{{0, 0}}));  // one iteration leaves 1-1 free
  IslipAllocator a(4, 4, 2);
  EXPECT_EQ(a.iterations(), 2u);
  EXPECT_EQ(run_round(a, {{0, 0}, {0, 1}, {1, 0}, {1, 1}}), (Pairs{{0, 0}, {1, 1}}));
  EXPECT_EQ(run_round(a, {{1, 1}, {1, 3}, {2, 1}}), (Pairs{{1, 1}}));
}

// All 16 pairs requested every round, one iteration. Round 1: every output offers to input 0, which
// accepts output 0 only; the outputs' pointers then spread out one per round:
//  round  grants                          g after    a after
//   1     (0,0)                           1,0,0,0    1,0,0,0
//   2     (1,0) (0,1)                     2,1,0,0    2,1,0,0
//   3     (2,0) (1,1) (0,2)               3,2,1,0    3,2,1,0
//   4     (3,0) (2,1) (1,2) (0,3)         0,3,2,1    0,3,2,1
//   5     (0,0) (3,1) (2,2) (1,3)         1,0,3,2    1,0,3,2
// From round 4 on, output o offers to input (r - 1 - o) mod 4: one offer per input, all accepted, every
// pointer advances by one, and the pattern repeats shifted: a full match every round.
TEST(NocAllocator, IslipOutputPointersDesynchroniseUnderAllToAll) {
  IslipAllocator a(4, 4);
  const Pairs all = all_to_all(4);
  EXPECT_EQ(run_round(a, all), (Pairs{{0, 0}}));
  EXPECT_EQ(run_round(a, all), (Pairs{{1, 0}, {0, 1}}));
  EXPECT_EQ(run_round(a, all), (Pairs{{2, 0}, {1, 1}, {0, 2}}));
  EXPECT_EQ(run_round(a, all), (Pairs{{3, 0}, {2, 1}, {1, 2}, {0, 3}}));
  EXPECT_EQ(run_round(a, all), (Pairs{{0, 0}, {3, 1}, {2, 2}, {1, 3}}));
  for (unsigned r = 6; r <= 100; ++r) {
    const Pairs g = run_round(a, all);
    ASSERT_EQ(g.size(), 4u) << "round " << r;
    for (uint32_t o = 0; o < 4; ++o) EXPECT_EQ(g[o], std::make_pair((r - 1 - o) % 4, o)) << "round " << r;
  }
}

// ip[i]: input i's pointer (output after its last grant), op[o]: output o's (input after its last winner).
//  round  requests   input picks (input -> output)   output picks = grants   ip after   op after
//   1     kMixed     0->0 1->0 2->0 3->2              (0,0) (3,2)             1,0,0,3    1,0,0,0
//   2     kMixed     0->1 1->0 2->0 3->3              (1,0) (0,1) (3,3)       2,1,0,0    2,1,0,0
//   3     kMixed     0->0 1->2 2->0 3->2              (2,0) (1,2)             2,3,1,0    3,1,2,0
//   4     kMixed     0->0 1->0 2->0 3->2              (0,0) (3,2)             1,3,1,3    1,1,0,0
// Round 3 shows the separable allocator's weakness: inputs 0 and 3 lose their only pick although outputs 1
// and 3 are free (iSLIP matched all four). A losing input keeps its pointer: input 0 picks output 0 again
// in round 4 and wins it.
TEST(NocAllocator, SeparableRoundRobinHandWorkedRounds) {
  SeparableRoundRobinAllocator a(4, 4);
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{0, 0}, {3, 2}}));
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{1, 0}, {0, 1}, {3, 3}}));
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{2, 0}, {1, 2}}));
  EXPECT_EQ(run_round(a, kMixed), (Pairs{{0, 0}, {3, 2}}));
  EXPECT_EQ(a.grant_of_input(0), 0);
  EXPECT_EQ(a.grant_of_input(1), -1);
  EXPECT_EQ(a.grant_of_output(2), 3);
  EXPECT_EQ(a.grant_of_output(1), -1);
}

TEST(NocAllocator, SaturatedAllToOneServesEveryInputEqually) {
  for (const char* kind : {"islip", "rr"}) {
    auto a = gms::make_allocator(kind, 8, 8);
    std::vector<unsigned> wins(8, 0);
    for (unsigned r = 0; r < 8 * 1000; ++r) {
      for (unsigned i = 0; i < 8; ++i) a->add_request(i, 0);
      a->allocate();
      ASSERT_EQ(a->grants().size(), 1u) << kind;
      ++wins[a->grants()[0].first];
    }
    EXPECT_EQ(wins, std::vector<unsigned>(8, 1000)) << kind;
  }
}

// 8 inputs, 4 outputs, input i requests outputs i % 4 and (i + 1) % 4: each output has four requesters and
// every input the same share, so a fair allocator keeps all outputs busy and gives each input half the
// rounds, with no input waiting long.
TEST(NocAllocator, TwoRequestsPerInputAreServedFairly) {
  const unsigned rounds = 8000;
  for (const auto& [kind, iterations] :
       std::vector<std::pair<std::string, unsigned>>{{"islip", 1}, {"islip", 4}, {"rr", 1}}) {
    auto a = gms::make_allocator(kind, 8, 4, iterations);
    std::vector<unsigned> wins(8, 0), last(8, 0), longest_wait(8, 0);
    size_t total = 0;
    for (unsigned r = 1; r <= rounds; ++r) {
      for (unsigned i = 0; i < 8; ++i) {
        a->add_request(i, i % 4);
        a->add_request(i, (i + 1) % 4);
      }
      a->allocate();
      total += a->grants().size();
      for (const auto& [in, out] : a->grants()) {
        ++wins[in];
        longest_wait[in] = std::max(longest_wait[in], r - last[in]);
        last[in] = r;
      }
    }
    EXPECT_GE(total, size_t(rounds) * 4 * 99 / 100) << kind << iterations;
    for (unsigned i = 0; i < 8; ++i) {
      EXPECT_GE(wins[i], rounds / 2 - rounds / 200) << kind << iterations << " input " << i;
      EXPECT_LE(wins[i], rounds / 2 + rounds / 200) << kind << iterations << " input " << i;
      EXPECT_LE(longest_wait[i], 8u) << kind << iterations << " input " << i;
    }
  }
}

// Random request matrices of several shapes and densities, many rounds each so the pointers move: the
// grants form a matching of requested pairs, the tables agree with the list, and iSLIP with as many
// iterations as inputs leaves no requested pair with both ends free.
TEST(NocAllocator, RandomRequestsGiveValidMatchings) {
  std::mt19937_64 rng(12345);
  const std::vector<std::pair<unsigned, unsigned>> shapes = {{1, 1},   {2, 2},   {3, 7},    {7, 3},
                                                             {64, 64}, {70, 70}, {130, 80}, {300, 260}};
  for (const auto& [ni, no] : shapes) {
    std::vector<std::unique_ptr<Allocator>> allocs;
    allocs.push_back(gms::make_allocator("islip", ni, no));
    allocs.push_back(gms::make_allocator("islip", ni, no, ni));
    allocs.push_back(gms::make_allocator("rr", ni, no));
    for (size_t k = 0; k < allocs.size(); ++k) {
      Allocator& a = *allocs[k];
      const bool maximal = k == 1;
      const std::string what =
          std::to_string(ni) + "x" + std::to_string(no) + " allocator " + std::to_string(k);
      for (unsigned r = 0; r < 60; ++r) {
        const double density = std::vector<double>{0.02, 0.2, 0.9}[r % 3];
        std::bernoulli_distribution coin(density);
        std::vector<std::vector<bool>> req(ni, std::vector<bool>(no, false));
        bool any = false;
        for (unsigned i = 0; i < ni; ++i)
          for (unsigned o = 0; o < no; ++o)
            if (coin(rng)) {
              req[i][o] = any = true;
              a.add_request(i, o);
              if (coin(rng)) a.add_request(i, o);  // a repeated request is the same request
            }
        ASSERT_EQ(a.has_requests(), any) << what;
        a.allocate();
        ASSERT_FALSE(a.has_requests()) << what;
        std::vector<bool> in_used(ni, false), out_used(no, false);
        int prev_out = -1;
        for (const auto& [in, out] : a.grants()) {
          ASSERT_LT(in, ni) << what;
          ASSERT_LT(out, no) << what;
          ASSERT_TRUE(req[in][out]) << what << ": granted (" << in << "," << out << ") was not requested";
          ASSERT_FALSE(in_used[in]) << what << ": input " << in << " granted twice";
          ASSERT_FALSE(out_used[out]) << what << ": output " << out << " granted twice";
          ASSERT_GT(int(out), prev_out) << what << ": grants not in output order";
          in_used[in] = out_used[out] = true;
          prev_out = int(out);
          ASSERT_EQ(a.grant_of_input(in), int(out)) << what;
          ASSERT_EQ(a.grant_of_output(out), int(in)) << what;
        }
        for (unsigned i = 0; i < ni; ++i) ASSERT_TRUE(in_used[i] || a.grant_of_input(i) == -1) << what;
        for (unsigned o = 0; o < no; ++o) ASSERT_TRUE(out_used[o] || a.grant_of_output(o) == -1) << what;
        ASSERT_TRUE(!any || !a.grants().empty()) << what;  // every allocator grants something
        for (unsigned i = 0; i < ni && maximal; ++i)
          for (unsigned o = 0; o < no; ++o)
            ASSERT_FALSE(req[i][o] && !in_used[i] && !out_used[o])
                << what << ": (" << i << "," << o << ") requested, both free: not maximal";
      }
    }
  }
}

TEST(NocAllocator, FactoryNamesAndErrors) {
  auto islip = gms::make_allocator("islip", 3, 5, 2);
  ASSERT_NE(dynamic_cast<IslipAllocator*>(islip.get()), nullptr);
  EXPECT_EQ(dynamic_cast<IslipAllocator*>(islip.get())->iterations(), 2u);
  EXPECT_EQ(islip->inputs(), 3u);
  EXPECT_EQ(islip->outputs(), 5u);
  EXPECT_NE(dynamic_cast<SeparableRoundRobinAllocator*>(gms::make_allocator("rr", 2, 2).get()), nullptr);
  EXPECT_EQ(config_error_of([] { gms::make_allocator("wavefront", 4, 4); }),
            "noc.router.allocator: unknown allocator 'wavefront' (known: islip, rr)");
  EXPECT_EQ(config_error_of([] { gms::make_allocator("", 4, 4); }),
            "noc.router.allocator: unknown allocator '' (known: islip, rr)");
  EXPECT_THROW(IslipAllocator(4, 4, 0), std::invalid_argument);
  EXPECT_THROW(SeparableRoundRobinAllocator(0, 4), std::invalid_argument);
}
