// Global atomics in the whole system (docs/atomics.md): a histogram kernel whose lanes collide on a few hot
// bins (LLC hits, several lanes on one element) and scatter over a large array (LLC misses: the atomic
// waits in the MSHR and is applied at the fill), with 4- and 8-byte elements, then kernels that read what
// the atomics left. Memory after each kernel must hold the start value plus every operand, whatever order
// the LLC applied them in: the golden memory checks every later load (0 mismatches), on tiny with every L1
// design, on fermi with a shared, a private and a switching LLC, and on the H-Xbar. One process per case.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/l1/l1_cache.h"
#include "tb/checker/golden_memory.h"
#include "tb/kernels/kernel_port.h"
#include "tb/kernels/port_workload.h"
#include "tests/system/system_case.h"

namespace {

using namespace gms::kernels;
using gms::test::Case;
using gms::test::make_case;

class AtomicHistogram : public KernelPort {
 public:
  static constexpr uint32_t kThreads = 4096, kBins = 64, kBig = 1u << 15, kWide = 32;

  void setup(DeviceMemory& mem) override {
    data_ = mem.alloc<int32_t>("data", kThreads);
    for (uint32_t i = 0; i < kThreads; ++i) data_[i] = int32_t((i * 2654435761u) >> 7);
    bins_ = mem.alloc<int32_t>("bins", kBins);
    big_ = mem.alloc<uint32_t>("big", kBig);
    wide_ = mem.alloc<uint64_t>("wide", kWide);
    out_ = mem.alloc<int32_t>("out", kThreads);
  }
  void run(Launcher& host) override {
    for (int pass = 0; pass < 2; ++pass) {  // twice: the second kernel's atomics start from the first's sums
      KernelLaunch k;
      k.name = "histogram";
      k.grid = {kThreads / 256, 1, 1};
      k.block = {256, 1, 1};
      k.body = [this](Warp& w) {
        const Int i = w.global_x();
        const Lanes<int32_t> v = w.load(0x10, data_, i);
        w.compute(4);
        w.atomic_add(0x20, bins_, v.as<int64_t>() & int64_t(kBins - 1), int32_t(1));
        w.atomic_add(0x30, big_, (v.as<int64_t>() * 7) & int64_t(kBig - 1), v.as<uint32_t>());
        w.atomic_add(0x40, wide_, i & int64_t(kWide - 1), uint64_t(3));
      };
      host.launch(std::move(k));
      KernelLaunch r;
      r.name = "read";
      r.grid = {kThreads / 256, 1, 1};
      r.block = {256, 1, 1};
      r.body = [this](Warp& w) {
        const Int i = w.global_x();
        const Lanes<int32_t> b = w.load(0x50, bins_, i & int64_t(kBins - 1));
        const Lanes<uint32_t> g = w.load(0x60, big_, (i * 8) & int64_t(kBig - 1));
        const Lanes<uint64_t> x = w.load(0x70, wide_, i & int64_t(kWide - 1));
        w.store(0x80, out_, i, b + g.as<int32_t>() + x.as<int32_t>());
      };
      host.launch(std::move(r));
    }
  }
  std::string check() const override {
    std::vector<int32_t> bins(kBins, 0);
    std::vector<uint32_t> big(kBig, 0);
    std::vector<uint64_t> wide(kWide, 0);
    std::vector<int32_t> out(kThreads);
    for (int pass = 0; pass < 2; ++pass) {
      for (uint32_t i = 0; i < kThreads; ++i) {
        const int32_t v = data_[i];
        bins[size_t(v & int32_t(kBins - 1))] += 1;
        big[size_t((int64_t(v) * 7) & int64_t(kBig - 1))] += uint32_t(v);
        wide[i & (kWide - 1)] += 3;
      }
      for (uint32_t i = 0; i < kThreads; ++i)
        out[i] = bins[i & (kBins - 1)] + int32_t(big[(i * 8) & (kBig - 1)]) + int32_t(wide[i & (kWide - 1)]);
    }
    for (uint32_t i = 0; i < kBins; ++i)
      if (bins_[i] != bins[i]) return "bins[" + std::to_string(i) + "]";
    for (uint32_t i = 0; i < kBig; ++i)
      if (big_[i] != big[i]) return "big[" + std::to_string(i) + "]";
    for (uint32_t i = 0; i < kThreads; ++i)
      if (out_[i] != out[i]) return "out[" + std::to_string(i) + "]";
    return "";
  }

 private:
  DeviceArray<int32_t> data_, bins_, out_;
  DeviceArray<uint32_t> big_;
  DeviceArray<uint64_t> wide_;
};

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const std::string& d : gms::l1_design_names())
    v.push_back(make_case("tiny", d, "atomics", {"l1.design=" + d}));
  v.push_back(make_case("fermi", "shared", "atomics", {}));
  v.push_back(make_case("fermi", "private_hxbar", "atomics", {"llc.mode=private", "noc.type=hxbar"}));
  v.push_back(make_case("fermi", "switching", "atomics", {"llc.force_switch_cycles=1000"}));
  v.push_back(make_case("h100", "shared", "atomics", {}));
  return v;
}

class Atomics : public ::testing::TestWithParam<Case> {};

TEST_P(Atomics, EveryOperandIsAppliedOnce) {
  PortWorkload w("atomic_histogram", std::make_unique<AtomicHistogram>());
  auto sys = gms::test::run_checked(GetParam(), &w);
  ASSERT_TRUE(sys);
  EXPECT_EQ(w.check(), "");  // the port's own result, through the same indices
  const gms::StatGroup& s = sys->stats();
  const unsigned slices = gms::test::load_config(GetParam().config, GetParam().overrides).llc.slices;
  const unsigned warps = AtomicHistogram::kThreads / 32;
  // 3 atomic instructions per warp and pass; each lane one golden update.
  EXPECT_EQ(sys->checker(0)->atomics(), 2u * 3 * AtomicHistogram::kThreads);
  const double llc_atomics = gms::test::llc_sum(s, slices, "atomics");
  const double llc_hits = gms::test::llc_sum(s, slices, "atomic_hits");
  const double forwarded = gms::test::llc_sum(s, slices, "atomics_forwarded");
  const std::string& name = GetParam().name;
  if (name.find("private") != std::string::npos) {  // no slice is the point of coherence: DRAM performs them
    EXPECT_EQ(forwarded, llc_atomics);
    EXPECT_EQ(llc_hits, 0);
  } else {
    EXPECT_GT(llc_hits, 0) << "hot bins hit";
    EXPECT_LT(llc_hits, llc_atomics) << "scattered atomics miss and wait for their fill";
    if (name.find("switching") == std::string::npos) {
      EXPECT_EQ(forwarded, 0);
    }
  }
  EXPECT_GE(llc_atomics, 2.0 * 3 * warps);  // at least one line request per instruction
}

INSTANTIATE_TEST_SUITE_P(System, Atomics, ::testing::ValuesIn(cases()), gms::test::case_name);

}  // namespace
