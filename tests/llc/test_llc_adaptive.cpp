// The adaptive LLC's decision logic (models/llc/adaptive/): the ATD's predicted private hits on
// hand-worked streams, LSP for shared and predicted-private organisations and the counter width, the
// policy's rules 1-3 on constructed numbers around their thresholds and its window timing, and the
// llc.adaptive keys.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "models/common/address_map.h"
#include "models/llc/adaptive/adaptive_params.h"
#include "models/llc/adaptive/adaptive_policy.h"
#include "models/llc/adaptive/aux_tag_directory.h"
#include "models/llc/adaptive/lsp_estimator.h"
#include "models/llc/llc_params.h"
#include "models/llc/slice_selector.h"
#include "tests/config_error_of.h"

using gms::AdaptiveDecision;
using gms::AdaptiveParams;
using gms::AdaptivePolicy;
using gms::AdaptiveRule;
using gms::AuxTagDirectory;
using gms::ConfigNode;
using gms::LlcMode;
using gms::LspEstimator;
using gms::ProfileSample;
using Out = gms::AuxTagDirectory::Outcome;

namespace {

struct Step {
  uint64_t line;
  uint32_t set;
  unsigned cluster;
  Out expect;
};

// 16 sets, 2 ways, 4 sampled: sets 0, 4, 8, 12 are shadowed.
void run_steps(AuxTagDirectory& atd, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i)
    ASSERT_EQ(atd.access(steps[i].line, steps[i].set, steps[i].cluster), steps[i].expect)
        << "step " << i << ": " << gms::to_string(steps[i].expect);
}

}  // namespace

TEST(LlcAdaptiveAtd, HandWorkedStreamCountsPrivateHits) {
  // 16 sets, 2 ways, sets 0, 4, 8, 12 sampled; 2 clusters, so each cluster's stack has 2 / 2 = 1 way (its
  // private slice offers the lines of one shared set half the room).
  AuxTagDirectory atd(16, 2, 4, 2);
  EXPECT_EQ(atd.stride(), 4u);
  EXPECT_EQ(atd.private_ways(), 1u);
  const uint64_t A = 0x1000, B = 0x2000, C = 0x3000, D = 0x4000;
  run_steps(atd,
            {
                {A, 0, 0, Out::Miss},        // 1  shared {A}; c0 {A}
                {A, 0, 0, Out::PrivateHit},  // 2  private hit (1)
                {A, 0, 1, Out::CrossHit},    // 3  first touch by cluster 1: shared hit, private miss; c1 {A}
                {A, 0, 1, Out::PrivateHit},  // 4  private hit (2)
                {A, 0, 0, Out::PrivateHit},  // 5  cluster 0 keeps its own copy: private hit (3)
                {B, 0, 0, Out::Miss},        // 6  shared {A, B}; c0 {B} (A out: one way)
                {A, 0, 0, Out::CrossHit},    // 7  shared hit, but c0's way holds B: capacity miss; c0 {A}
                {A, 1, 0, Out::NotSampled},  // 8  set 1 is not shadowed
                {C, 0, 1, Out::Miss},        // 9  shared evicts B (LRU): {A, C}; c1 {C}
                {A, 0, 1, Out::CrossHit},    // 10 c1 {A}
                {C, 0, 1, Out::CrossHit},    // 11 c1 {C}
                {D, 4, 0, Out::Miss},        // 12 set 4
                {D, 4, 0, Out::PrivateHit},  // 13 private hit (4)
                {D, 4, 1, Out::CrossHit},    // 14
                {D, 4, 1, Out::PrivateHit},  // 15 private hit (5)
            });
  EXPECT_EQ(atd.accesses(), 14u);
  EXPECT_EQ(atd.private_hits(), 5u);
  EXPECT_EQ(atd.hits(), 10u);  // what the shared slice hits: 2 3 4 5 7 10 11 13 14 15
  EXPECT_DOUBLE_EQ(atd.private_miss_rate(), 1.0 - 5.0 / 14.0);
  EXPECT_THROW(atd.access(A, 0, 2), std::out_of_range);  // only clusters 0 and 1
}

TEST(LlcAdaptiveAtd, FourWaysLruInsideASampledSet) {
  // One cluster: its stack has all 4 ways, so private and shared predictions agree.
  AuxTagDirectory atd(64, 4, 8);  // stride 8: sets 0, 8, ..., 56
  run_steps(atd, {
                     {1, 8, 0, Out::Miss},        // 1
                     {2, 8, 0, Out::Miss},        // 2
                     {3, 8, 0, Out::Miss},        // 3
                     {4, 8, 0, Out::Miss},        // 4  set full, LRU order 1 2 3 4
                     {1, 8, 0, Out::PrivateHit},  // 5  order 2 3 4 1
                     {5, 8, 0, Out::Miss},        // 6  evicts 2: 3 4 1 5
                     {2, 8, 0, Out::Miss},        // 7  evicts 3: 4 1 5 2
                     {1, 8, 0, Out::PrivateHit},  // 8  4 5 2 1
                     {4, 8, 0, Out::PrivateHit},  // 9  5 2 1 4
                     {3, 8, 0, Out::Miss},        // 10 evicts 5: 2 1 4 3
                     {5, 8, 0, Out::Miss},        // 11 evicts 2: 1 4 3 5
                     {1, 8, 0, Out::PrivateHit},  // 12
                     {9, 9, 0, Out::NotSampled},  // set 9 is not shadowed
                 });
  EXPECT_EQ(atd.accesses(), 12u);
  EXPECT_EQ(atd.private_hits(), 4u);
  EXPECT_EQ(atd.hits(), 4u);
}

TEST(LlcAdaptiveAtd, AFootprintBeyondAClustersShareThrashesItsStack) {
  // 8 ways, 2 clusters: 4 ways each. Both clusters cycle over the same 6 lines of one set: the shared
  // shadow holds all 6 (all hits once warm), each cluster's 4-way stack thrashes (LRU, cyclic order).
  AuxTagDirectory atd(8, 8, 1, 2);
  for (int round = 0; round < 4; ++round)
    for (uint64_t l = 1; l <= 6; ++l)
      for (unsigned c = 0; c < 2; ++c) atd.access(l * 0x80, 0, c);
  EXPECT_EQ(atd.accesses(), 48u);
  EXPECT_EQ(atd.hits(), 48u - 6);  // 6 compulsory misses
  EXPECT_EQ(atd.private_hits(), 0u);
  // A read-shared footprint that fits each cluster's share: every cluster hits after its own first touch.
  AuxTagDirectory small(8, 8, 1, 2);
  for (int round = 0; round < 4; ++round)
    for (uint64_t l = 1; l <= 4; ++l)
      for (unsigned c = 0; c < 2; ++c) small.access(l * 0x80, 0, c);
  EXPECT_EQ(small.private_hits(), 32u - 8);  // 4 first touches per cluster
}

TEST(LlcAdaptiveAtd, SamplingGridSkipsOtherSets) {
  AuxTagDirectory atd(48, 16, 8);  // paper 004's slice: 48 sets, 16 ways; stride 6
  EXPECT_EQ(atd.stride(), 6u);
  std::vector<uint32_t> sampled;
  for (uint32_t s = 0; s < 64; ++s)
    if (atd.sampled(s)) sampled.push_back(s);
  EXPECT_EQ(sampled, (std::vector<uint32_t>{0, 6, 12, 18, 24, 30, 36, 42}));
  for (uint32_t s = 0; s < 48; ++s)
    if (!atd.sampled(s)) {
      EXPECT_EQ(atd.access(0x80 * s, s, 0), Out::NotSampled);
    }
  EXPECT_EQ(atd.accesses(), 0u);
  EXPECT_EQ(atd.private_miss_rate(), 0.0);  // nothing sampled
  EXPECT_THROW(AuxTagDirectory(4, 2, 8), std::invalid_argument);
  EXPECT_THROW(AuxTagDirectory(16, 0, 4), std::invalid_argument);
  EXPECT_THROW(AuxTagDirectory(16, 65, 4), std::invalid_argument);
}

TEST(LlcAdaptiveAtd, ResetCountersKeepsEntriesClearDropsThem) {
  AuxTagDirectory atd(16, 2, 4, 2);  // one way per cluster
  atd.access(0x100, 4, 1);
  atd.access(0x100, 4, 1);
  EXPECT_EQ(atd.private_hits(), 1u);
  atd.reset_counters();  // a new window: the shadow stays warm, as the slice does
  EXPECT_EQ(atd.accesses(), 0u);
  EXPECT_EQ(atd.access(0x100, 4, 1), Out::PrivateHit);
  atd.clear();  // the LLC was invalidated
  EXPECT_EQ(atd.accesses(), 0u);
  EXPECT_EQ(atd.access(0x100, 4, 1), Out::Miss);
  EXPECT_EQ(atd.access(0x200, 4, 1), Out::Miss);      // shared: a free way; cluster 1's one way: 0x100 out
  EXPECT_EQ(atd.access(0x100, 4, 1), Out::CrossHit);  // still in the shared shadow
}

// ---------------------------------------------------------------------------------------------------------
// LSP

namespace {

LspEstimator::PrivateSliceFn same_slice() {
  return [](unsigned shared_slice, unsigned) { return shared_slice; };
}

}  // namespace

TEST(LlcAdaptiveLsp, EvenSpreadIsNAllToOneIsOneMixedByHand) {
  LspEstimator even(8, same_slice());
  for (unsigned i = 0; i < 40; ++i) even.record(i % 8, 0);
  EXPECT_DOUBLE_EQ(even.lsp_shared(), 8.0);
  EXPECT_DOUBLE_EQ(even.lsp_private(), 8.0);

  LspEstimator one(8, same_slice());
  for (unsigned i = 0; i < 40; ++i) one.record(5, 0);
  EXPECT_DOUBLE_EQ(one.lsp_shared(), 1.0);

  // Counts 4 3 2 1 0 0 0 0: sum 10, max 4.
  LspEstimator mixed(8, same_slice());
  for (unsigned s = 0; s < 4; ++s)
    for (unsigned k = 0; k < 4 - s; ++k) mixed.record(s, 0);
  EXPECT_DOUBLE_EQ(mixed.lsp_shared(), 2.5);
  EXPECT_EQ(mixed.requests(), 10u);
  mixed.reset();
  EXPECT_DOUBLE_EQ(mixed.lsp_shared(), 0.0);  // nothing counted
  EXPECT_EQ(mixed.requests(), 0u);
}

TEST(LlcAdaptiveLsp, PrivateSliceIsTheSelectorsPrivateRule) {
  gms::AddressMapParams mp;  // 12 slices on 6 channels, 2 clusters
  mp.num_slices = 12;
  mp.num_channels = 6;
  const gms::AddressMap map(mp);
  const gms::SliceSelector shared(map, 15);
  gms::SliceSelector priv(map, 15);
  priv.set_mode(LlcMode::Private);
  const LspEstimator::PrivateSliceFn f = LspEstimator::private_slice_of(shared);
  for (uint64_t a = 0; a < 1 << 16; a += 128)
    for (unsigned sm = 0; sm < 15; ++sm) ASSERT_EQ(f(shared.slice_for(a, sm), sm), priv.slice_for(a, sm));
}

TEST(LlcAdaptiveLsp, SharingIntensiveStreamPrivateSpreadsWhatSharedConcentrates) {
  // 16 slices on 2 channels (8 per channel, so 8 clusters), 16 SMs: 2 per cluster. Every SM reads the
  // same two lines: chunk 0 (slice 0, channel 0) and chunk 8 (slice 8, channel 1).
  gms::AddressMapParams mp;
  mp.num_slices = 16;
  mp.num_channels = 2;
  const gms::AddressMap map(mp);
  const gms::SliceSelector sel(map, 16);
  LspEstimator lsp(16, LspEstimator::private_slice_of(sel));
  for (unsigned sm = 0; sm < 16; ++sm)
    for (uint64_t addr : {uint64_t(0), uint64_t(8 * 256)})
      for (int rep = 0; rep < 2; ++rep) lsp.record(sel.slice_for(addr, sm), sm);
  // Shared: slices 0 and 8 get 32 requests each -> LSP 2. Private: each cluster's two SMs reach slice
  // cluster of channel 0 and 8 + cluster of channel 1, 4 requests each on all 16 slices -> LSP 16.
  EXPECT_EQ(lsp.shared_counts()[0], 32u);
  EXPECT_EQ(lsp.shared_counts()[8], 32u);
  EXPECT_DOUBLE_EQ(lsp.lsp_shared(), 2.0);
  for (unsigned s = 0; s < 16; ++s) EXPECT_EQ(lsp.private_counts()[s], 4u) << s;
  EXPECT_DOUBLE_EQ(lsp.lsp_private(), 16.0);
}

TEST(LlcAdaptiveLsp, FullCounterHalvesItsOrganisationsCounters) {
  LspEstimator lsp(3, same_slice(), 3);  // 3-bit counters: at most 7
  EXPECT_EQ(lsp.counter_max(), 7u);
  for (int i = 0; i < 7; ++i) lsp.record_pair(0, 2);  // shared 7 0 0, private 0 0 7
  EXPECT_EQ(lsp.halvings(), 0u);
  // Private slice 2 is full: its organisation halves (0 0 3) and counts (0 0 4); shared does not.
  lsp.record_pair(1, 2);
  EXPECT_EQ(lsp.private_counts(), (std::vector<uint32_t>{0, 0, 4}));
  EXPECT_EQ(lsp.shared_counts(), (std::vector<uint32_t>{7, 1, 0}));
  EXPECT_EQ(lsp.halvings(), 1u);
  lsp.record_pair(1, 2);
  lsp.record_pair(1, 2);  // shared 7 3 0, private 0 0 6
  lsp.record_pair(0, 1);  // shared slice 0 full: 3 1 0 -> 4 1 0; private 0 1 6
  EXPECT_EQ(lsp.shared_counts(), (std::vector<uint32_t>{4, 1, 0}));
  EXPECT_EQ(lsp.private_counts(), (std::vector<uint32_t>{0, 1, 6}));
  EXPECT_EQ(lsp.halvings(), 2u);
  EXPECT_DOUBLE_EQ(lsp.lsp_shared(), 5.0 / 4.0);  // true counts 8 3 -> 1.375: the floor's loss
  EXPECT_DOUBLE_EQ(lsp.lsp_private(), 7.0 / 6.0);
  EXPECT_THROW(lsp.record_pair(3, 0), std::out_of_range);
  EXPECT_THROW(LspEstimator(3, same_slice(), 0), std::invalid_argument);
  EXPECT_THROW(LspEstimator(3, same_slice(), 33), std::invalid_argument);
}

TEST(LlcAdaptiveLsp, HalvingKeepsTheRatioOverALongWindow) {
  // 16-bit counters as the paper's, a window far longer than 65535 requests per slice: 3 of every 4
  // requests to slice 0, 1 to slice 1 -> LSP 4/3 throughout.
  LspEstimator lsp(2, same_slice());
  for (int i = 0; i < 100000; ++i) {
    for (int k = 0; k < 3; ++k) lsp.record(0, 0);
    lsp.record(1, 0);
  }
  EXPECT_GT(lsp.halvings(), 0u);
  EXPECT_NEAR(lsp.lsp_shared(), 4.0 / 3.0, 1e-3);
}

// ---------------------------------------------------------------------------------------------------------
// Policy

namespace {

AdaptiveParams test_params() {
  AdaptiveParams p;
  p.epoch_cycles = 1000;
  p.profile_cycles = 100;
  p.rule1_miss_rate_delta = 0.02;
  p.llc_slice_gbps = 10.0;
  p.mem_gbps = 20.0;
  return p;
}

ProfileSample sample(uint64_t shared_acc, uint64_t shared_hits, uint64_t atd_acc, uint64_t atd_hits,
                     double lsp_s, double lsp_p) {
  ProfileSample s;
  s.shared_accesses = shared_acc;
  s.shared_hits = shared_hits;
  s.sampled_accesses = atd_acc;
  s.private_hits = atd_hits;
  s.lsp_shared = lsp_s;
  s.lsp_private = lsp_p;
  return s;
}

// Shared miss 0.20 at LSP 2: BW = 0.8 x 2 x 10 + 0.2 x 20 = 20. Private miss 0.50: BW = 5 x LSP + 10.
ProfileSample rule2_sample(double lsp_private) {
  return sample(1000, 800, 1000, 500, 2.0, lsp_private);
}
// Private miss rate 0.50 at LSP 1: far from shared and BW 15 < 20: neither rule.
ProfileSample stay_sample() {
  return rule2_sample(1.0);
}

}  // namespace

TEST(LlcAdaptivePolicy, Rule1FiresWithinTheDeltaOnly) {
  const AdaptiveParams p = test_params();
  // Shared miss 0.30; private miss 0.32: exactly 2 points above, within.
  AdaptiveDecision d = AdaptivePolicy::evaluate(p, sample(1000, 700, 1000, 680, 4.0, 4.0));
  EXPECT_EQ(d.rule, AdaptiveRule::Rule1);
  EXPECT_EQ(d.to, LlcMode::Private);
  EXPECT_TRUE(d.evaluated);
  EXPECT_DOUBLE_EQ(d.shared_miss_rate, 0.30);
  EXPECT_DOUBLE_EQ(d.private_miss_rate, 0.32);
  // Private miss 0.321, just outside; same LSP so private BW is lower (0.679 x 40 + 0.321 x 20 = 33.58 <
  // 0.7 x 40 + 0.3 x 20 = 34): nothing fires.
  d = AdaptivePolicy::evaluate(p, sample(1000, 700, 1000, 679, 4.0, 4.0));
  EXPECT_EQ(d.rule, AdaptiveRule::None);
  EXPECT_EQ(d.to, LlcMode::Shared);
  EXPECT_NEAR(d.shared_bw, 34.0, 1e-9);
  EXPECT_NEAR(d.private_bw, 33.58, 1e-9);
  // A lower private miss rate passes ("similar or better").
  EXPECT_EQ(AdaptivePolicy::evaluate(p, sample(1000, 700, 100, 90, 4.0, 1.0)).rule, AdaptiveRule::Rule1);
}

TEST(LlcAdaptivePolicy, Rule2FiresWhenPrivateBandwidthIsHigherOnly) {
  const AdaptiveParams p = test_params();
  AdaptiveDecision d = AdaptivePolicy::evaluate(p, rule2_sample(2.2));  // private BW 21 > 20
  EXPECT_EQ(d.rule, AdaptiveRule::Rule2);
  EXPECT_EQ(d.to, LlcMode::Private);
  EXPECT_NEAR(d.shared_bw, 20.0, 1e-9);
  EXPECT_NEAR(d.private_bw, 21.0, 1e-9);
  EXPECT_DOUBLE_EQ(d.lsp_private, 2.2);
  d = AdaptivePolicy::evaluate(p, rule2_sample(2.0));  // 20 = 20: not higher
  EXPECT_EQ(d.rule, AdaptiveRule::None);
  EXPECT_NEAR(d.private_bw, 20.0, 1e-9);
  EXPECT_EQ(AdaptivePolicy::evaluate(p, rule2_sample(1.98)).rule, AdaptiveRule::None);   // 19.9
  EXPECT_EQ(AdaptivePolicy::evaluate(p, rule2_sample(2.02)).rule, AdaptiveRule::Rule2);  // 20.1
}

TEST(LlcAdaptivePolicy, NoSamplesStaysShared) {
  const AdaptiveParams p = test_params();
  EXPECT_EQ(AdaptivePolicy::evaluate(p, sample(1000, 700, 0, 0, 1, 8)).rule, AdaptiveRule::NoSamples);
  EXPECT_EQ(AdaptivePolicy::evaluate(p, sample(0, 0, 10, 10, 1, 8)).rule, AdaptiveRule::NoSamples);
  EXPECT_EQ(AdaptivePolicy::evaluate(p, sample(0, 0, 10, 10, 1, 8)).to, LlcMode::Shared);
}

TEST(LlcAdaptivePolicy, AWarmUpDelaysEachWindowAfterItsEpochStarts) {
  AdaptiveParams p = test_params();
  p.warmup_cycles = 300;  // epoch 1000: warm-up 300, window 100
  AdaptivePolicy pol(p, 0);
  EXPECT_TRUE(pol.profiling());
  EXPECT_EQ(pol.epoch_start(), 0u);
  EXPECT_EQ(pol.window_start(), 300u);
  EXPECT_EQ(pol.next_event_cycle(), 400u);
  EXPECT_THROW(pol.end_profiling(399, stay_sample()), std::logic_error);
  pol.end_profiling(400, rule2_sample(3));  // to private
  EXPECT_EQ(pol.next_event_cycle(), 1000u);
  pol.on_epoch_end(1000);  // Rule 3: a new epoch, its window after the warm-up again
  EXPECT_EQ(pol.window_start(), 1300u);
  EXPECT_EQ(pol.window_end(), 1400u);
  pol.restart_window(1050);  // the P -> S switch drained at 1050: the warm-up counts from there
  EXPECT_EQ(pol.window_start(), 1350u);
  AdaptiveParams bad = test_params();
  bad.warmup_cycles = 900;  // 900 + 100 >= 1000
  EXPECT_THROW(bad.check(), gms::ConfigError);
}

TEST(LlcAdaptivePolicy, WindowsOpenAtEachEpochAndRule3ReturnsToShared) {
  AdaptivePolicy pol(test_params(), 0);
  EXPECT_EQ(pol.mode(), LlcMode::Shared);
  EXPECT_TRUE(pol.profiling());
  EXPECT_EQ(pol.window_start(), 0u);
  EXPECT_EQ(pol.next_event_cycle(), 100u);  // the window lasts profile_cycles
  EXPECT_THROW(pol.end_profiling(99, rule2_sample(3)), std::logic_error);
  EXPECT_THROW(pol.on_epoch_end(1000), std::logic_error);  // still profiling
  AdaptiveDecision d = pol.end_profiling(100, rule2_sample(3));
  EXPECT_EQ(d.cycle, 100u);
  EXPECT_TRUE(d.switches());
  EXPECT_EQ(d.rule, AdaptiveRule::Rule2);
  EXPECT_EQ(pol.mode(), LlcMode::Private);
  EXPECT_FALSE(pol.profiling());
  EXPECT_EQ(pol.next_event_cycle(), 1000u);  // the epoch's end
  EXPECT_THROW(pol.end_profiling(200, rule2_sample(3)), std::logic_error);
  EXPECT_THROW(pol.on_epoch_end(999), std::logic_error);

  d = pol.on_epoch_end(1000);  // Rule 3
  EXPECT_EQ(d.from, LlcMode::Private);
  EXPECT_EQ(d.to, LlcMode::Shared);
  EXPECT_EQ(d.rule, AdaptiveRule::Rule3Epoch);
  EXPECT_TRUE(d.window_opened);
  EXPECT_FALSE(d.evaluated);
  EXPECT_EQ(pol.mode(), LlcMode::Shared);
  EXPECT_EQ(pol.window_start(), 1000u);
  EXPECT_EQ(pol.next_event_cycle(), 1100u);
  EXPECT_EQ(pol.epoch_end(), 2000u);

  d = pol.end_profiling(1100, stay_sample());
  EXPECT_FALSE(d.switches());
  EXPECT_EQ(d.rule, AdaptiveRule::None);
  EXPECT_EQ(pol.next_event_cycle(), 2000u);
  d = pol.on_epoch_end(2003);  // a late caller: the next epoch counts from the call
  EXPECT_FALSE(d.switches());
  EXPECT_EQ(d.rule, AdaptiveRule::None);  // already shared: a window opens, no rule
  EXPECT_TRUE(d.window_opened);
  EXPECT_EQ(pol.window_end(), 2103u);
  EXPECT_EQ(pol.epoch_end(), 3003u);
}

TEST(LlcAdaptivePolicy, KernelLaunchOpensAWindowAndAppliesRule3) {
  AdaptivePolicy pol(test_params(), 0);
  pol.end_profiling(100, sample(1000, 700, 1000, 700, 1, 1));  // Rule 1
  EXPECT_EQ(pol.mode(), LlcMode::Private);
  AdaptiveDecision d = pol.on_kernel_launch(500);
  EXPECT_EQ(d.rule, AdaptiveRule::Rule3Kernel);
  EXPECT_EQ(d.from, LlcMode::Private);
  EXPECT_EQ(d.to, LlcMode::Shared);
  EXPECT_TRUE(d.window_opened);
  EXPECT_EQ(pol.window_start(), 500u);
  EXPECT_EQ(pol.next_event_cycle(), 600u);
  EXPECT_EQ(pol.epoch_end(), 1500u);  // the kernel gets a whole epoch
  // Another kernel mid-window: the window restarts (its numbers would mix two kernels).
  d = pol.on_kernel_launch(550);
  EXPECT_EQ(d.rule, AdaptiveRule::None);
  EXPECT_FALSE(d.switches());
  EXPECT_EQ(pol.next_event_cycle(), 650u);
  EXPECT_THROW(pol.on_kernel_launch(549), std::logic_error);  // time runs forwards
  // After a P -> S switch the controller drains, then restarts the window when shared mode runs.
  pol.restart_window(580);
  EXPECT_EQ(pol.window_start(), 580u);
  EXPECT_EQ(pol.next_event_cycle(), 680u);
  EXPECT_EQ(pol.epoch_end(), 1580u);
  pol.end_profiling(680, stay_sample());
  EXPECT_THROW(pol.restart_window(700), std::logic_error);
}

TEST(LlcAdaptivePolicy, DescribeAndSampleOfAtdAndLsp) {
  AuxTagDirectory atd(16, 2, 4, 2);
  atd.access(0x100, 0, 0);
  atd.access(0x100, 0, 0);
  atd.access(0x100, 0, 1);
  atd.access(0x100, 0, 1);  // 4 accesses, 2 private hits
  LspEstimator lsp(2, same_slice());
  lsp.record(0, 0);
  lsp.record(0, 0);
  lsp.record(1, 0);
  const ProfileSample s = ProfileSample::of(10, 6, atd, lsp);
  EXPECT_EQ(s.sampled_accesses, 4u);
  EXPECT_EQ(s.private_hits, 2u);
  EXPECT_DOUBLE_EQ(s.lsp_shared, 1.5);
  AdaptiveDecision d = AdaptivePolicy::evaluate(test_params(), s);
  d.cycle = 50000;
  // shared miss 0.4, private miss 0.5: BW shared 0.6 x 1.5 x 10 + 0.4 x 20 = 17, private 0.5 x 15 + 10.
  EXPECT_EQ(d.describe(0.02),
            "50000 shared->private rule2: miss private 0.5000 shared 0.4000 (delta 0.0200); LSP shared 1.50 "
            "private 1.50; BW shared 17.00 private 17.50");
  EXPECT_THROW(AdaptivePolicy(AdaptiveParams{}), gms::ConfigError);  // bandwidths unresolved
}

// ---------------------------------------------------------------------------------------------------------
// Configuration

namespace {

std::string adaptive_error(const std::string& yaml) {
  return config_error_of(
      [&] { AdaptiveParams::from(ConfigNode::load_string(yaml, "c.yaml").child("llc").child("adaptive")); });
}

}  // namespace

TEST(LlcAdaptiveConfig, KeysParseWithDefaults) {
  const AdaptiveParams d = AdaptiveParams::from(
      ConfigNode::load_string("llc:\n  adaptive: {}\n", "c.yaml").child("llc").child("adaptive"));
  EXPECT_EQ(d.epoch_cycles, 1000000u);
  EXPECT_EQ(d.profile_cycles, 50000u);
  EXPECT_DOUBLE_EQ(d.rule1_miss_rate_delta, 0.02);
  EXPECT_EQ(d.sampled_sets, 8u);
  EXPECT_EQ(d.sampled_slice, 0u);
  EXPECT_EQ(d.lsp_counter_bits, 16u);
  EXPECT_EQ(d.llc_slice_gbps, 0.0);
  EXPECT_EQ(d.mem_gbps, 0.0);
  const AdaptiveParams p = AdaptiveParams::from(
      ConfigNode::load_string("llc:\n  adaptive:\n    epoch_cycles: 2000000\n"
                              "    profile_cycles: 100000\n    rule1_miss_rate_delta: 0.05\n"
                              "    sampled_sets: 16\n    sampled_slice: 3\n    lsp_counter_bits: 12\n"
                              "    llc_slice_gbps: 44.8\n    mem_gbps: 900\n",
                              "c.yaml")
          .child("llc")
          .child("adaptive"));
  EXPECT_EQ(p.epoch_cycles, 2000000u);
  EXPECT_EQ(p.profile_cycles, 100000u);
  EXPECT_DOUBLE_EQ(p.rule1_miss_rate_delta, 0.05);
  EXPECT_EQ(p.sampled_sets, 16u);
  EXPECT_EQ(p.sampled_slice, 3u);
  EXPECT_EQ(p.lsp_counter_bits, 12u);
  EXPECT_DOUBLE_EQ(p.llc_slice_gbps, 44.8);
  EXPECT_DOUBLE_EQ(p.mem_gbps, 900.0);
  EXPECT_NO_THROW(p.check());
  AdaptiveParams r = d;
  EXPECT_THROW(r.check(), gms::ConfigError);  // bandwidths still 0
  r.resolve_bandwidth(22.4, 177.4);           // Fermi: 700 MHz x 32 B; 6 x 29.6 GB/s
  EXPECT_DOUBLE_EQ(r.llc_slice_gbps, 22.4);
  EXPECT_DOUBLE_EQ(r.mem_gbps, 177.4);
  EXPECT_NO_THROW(r.check());
  AdaptiveParams q = p;
  q.resolve_bandwidth(1, 1);  // set values stay
  EXPECT_DOUBLE_EQ(q.mem_gbps, 900.0);
}

TEST(LlcAdaptiveConfig, ErrorsNameFileLineAndKey) {
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    epoch_cycles: 100000\n    epoch_cyclez: 4\n"),
            "c.yaml:4: llc.adaptive.epoch_cyclez: unknown key");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    rule1_miss_rate_delta: 1.5\n"),
            "c.yaml:3: llc.adaptive.rule1_miss_rate_delta: value 1.5 out of range [0, 1]");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    sampled_sets: \"8\"\n"),
            "c.yaml:3: llc.adaptive.sampled_sets: expected an integer, got a string '8'");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    enabled: true\n"),
            "c.yaml:3: llc.adaptive.enabled: unknown key");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    epoch_cycles: 100000\n    warmup_cycles: 60000\n"),
            "c.yaml:4: llc.adaptive.warmup_cycles: warmup_cycles + profile_cycles (110000) must be below "
            "epoch_cycles (100000)");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    lsp_counter_bits: 33\n"),
            "c.yaml:3: llc.adaptive.lsp_counter_bits: value 33 out of range [1, 32]");
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    epoch_cycles: 1000\n    profile_cycles: 1000\n"),
            "c.yaml:4: llc.adaptive.profile_cycles: profile_cycles (1000) must be below epoch_cycles (1000)");
  // With profile_cycles left at its default the error names the key that was written.
  EXPECT_EQ(adaptive_error("llc:\n  adaptive:\n    epoch_cycles: 50000\n"),
            "c.yaml:3: llc.adaptive.epoch_cycles: profile_cycles (50000) must be below epoch_cycles (50000)");
}

TEST(LlcAdaptiveConfig, ReadBesideTheLlcSection) {
  // The system builder's order: take llc.adaptive before LlcParams::from finishes the llc map (it would
  // call `adaptive` an unknown key), then read it with the slice geometry for the cross checks.
  const std::string yaml = "llc:\n  ways: 8\n  size_bytes: 65536\n  adaptive:\n    sampled_sets: 128\n";
  {
    const ConfigNode llc = ConfigNode::load_string(yaml, "c.yaml").child("llc");
    EXPECT_EQ(config_error_of([&] { gms::LlcParams::from(llc); }), "c.yaml:4: llc.adaptive: unknown key");
  }
  const ConfigNode llc = ConfigNode::load_string(yaml, "c.yaml").child("llc");
  const ConfigNode ad = llc.child("adaptive");
  const gms::LlcParams lp = gms::LlcParams::from(llc);
  EXPECT_EQ(config_error_of([&] { AdaptiveParams::from(ad, &lp); }),
            "c.yaml:5: llc.adaptive.sampled_sets: sampled_sets (128) exceeds the slice's sets (64)");
  const ConfigNode llc2 =
      ConfigNode::load_string("llc:\n  slices: 4\n  adaptive:\n    sampled_slice: 4\n", "c.yaml")
          .child("llc");
  const ConfigNode ad2 = llc2.child("adaptive");
  const gms::LlcParams lp2 = gms::LlcParams::from(llc2);
  EXPECT_EQ(config_error_of([&] { AdaptiveParams::from(ad2, &lp2); }),
            "c.yaml:4: llc.adaptive.sampled_slice: sampled_slice (4) must be below llc.slices (4)");
}
