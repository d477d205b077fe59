// CUDA SDK binomialOptions: European call options priced on a binomial tree of NUM_STEPS = 2048 steps, one
// CTA of 128 threads per option, each thread 16 consecutive leaves in registers. The option's parameters
// come from __constant__ memory (constant-cache reads: no global access, not emitted; the model has no
// constant cache). Each of the 2048 steps passes a thread's first value to its left neighbour through shared
// memory (store, barrier, load, barrier) and updates the thread's leaves; the only global access is thread
// 0's store of the price into the __device__ array d_CallValue (placed here like an allocation). The host
// precomputes vDt, puByDf and pdByDf as the sample does. The GPU's __expf is the host's expf here and the
// update's multiply-add is fused (mul + fma.rn in the PTX): the reference walks the tree sequentially with
// the same operations, so prices compare exactly.
#include <cmath>
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the barriers and the
// store (shared-memory accesses add one each, in the machinery).
constexpr uint32_t kGapEntry = 12;    // the option's constants, the tid == 0 test
constexpr uint32_t kGapTop = 6;       // thread 0's extra leaf
constexpr uint32_t kGapLeaves = 151;  // the 16 leaves at expiry
constexpr uint32_t kGapTest = 2;      // i > final_it
constexpr uint32_t kGapPerLeaf = 2;   // mul + fma per leaf and step
constexpr uint32_t kGapUnroll = 3;    // the loop's test, once per 16 steps (#pragma unroll 16)
constexpr uint32_t kGapStore = 6;
constexpr uint32_t kRegs = 32;    // ptxas -v, sm_75
constexpr uint32_t kShmem = 516;  // call_exchange[129]
constexpr uint32_t kBlock = 128;

constexpr float kRiskFree = 0.06f, kVolatility = 0.10f;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Option {
  float s, x, t;                  // TOptionData's S, X, T (R and V are the constants above)
  float vdt, pu_by_df, pd_by_df;  // the host's precomputation (__TOptionData)
};

float expiry_call(const Option& o, int steps, int i) {
  const float d = o.s * std::exp(o.vdt * (2.0f * float(i) - float(steps))) - o.x;
  return d > 0.0f ? d : 0.0f;
}

float step(const Option& o, float up, float here) {
  return std::fmaf(o.pu_by_df, up, o.pd_by_df * here);
}

class BinomialOptions : public KernelPort {
 public:
  BinomialOptions(uint32_t options, uint32_t steps, uint64_t seed)
      : opt_n_(options), steps_(steps), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    call_ = mem.alloc<float>("d_CallValue", opt_n_);  // a __device__ array of MAX_OPTIONS in the sample
    uint64_t s = seed_;
    auto rand_data = [&](float lo, float hi) {  // randData(): (1 - t) lo + t hi, t uniform in [0, 1]
      const float t = float(splitmix(s) >> 40) / float(1 << 24);
      return (1.0f - t) * lo + t * hi;
    };
    opts_.resize(opt_n_);
    for (Option& o : opts_) {
      o.s = rand_data(5.0f, 30.0f);
      o.x = rand_data(1.0f, 100.0f);
      o.t = rand_data(0.25f, 10.0f);
      const float dt = o.t / float(steps_);
      o.vdt = kVolatility * std::sqrt(dt);
      const float rdt = kRiskFree * dt;
      const float in_f = std::exp(rdt), df = std::exp(-rdt);
      const float u = std::exp(o.vdt), d = std::exp(-o.vdt);
      const float pu = (in_f - d) / (u - d), pd = 1.0f - pu;
      o.pu_by_df = pu * df;
      o.pd_by_df = pd * df;
    }
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "binomialOptionsKernel";
    k.grid = {opt_n_, 1, 1};
    k.block = {kBlock, 1, 1};
    k.regs_per_thread = kRegs;
    k.shmem_per_cta = kShmem;
    k.body = [this](Warp& w) { body(w); };
    host.launch(std::move(k));
  }

  std::string check() const override {
    std::vector<float> call(steps_ + 1);
    for (uint32_t o = 0; o < opt_n_; ++o) {
      const Option& op = opts_[o];
      for (uint32_t i = 0; i <= steps_; ++i) call[i] = expiry_call(op, int(steps_), int(i));
      for (uint32_t i = steps_; i > 0; --i)
        for (uint32_t j = 0; j < i; ++j) call[j] = step(op, call[j + 1], call[j]);
      if (call_[o] != call[0])
        return "option " + std::to_string(o) + ": " + std::to_string(call_[o]) + ", expected " +
               std::to_string(call[0]);
    }
    return "";
  }

 private:
  void body(Warp& w) {
    const Option& o = opts_[w.block_idx().x];
    const int64_t elems = steps_ / kBlock;
    const Int& tid = w.thread_in_block();
    std::vector<float>& exchange = w.shared<float>(0, kBlock + 1);
    // call[0 .. elems] per lane (registers).
    std::vector<Float> call(size_t(elems) + 1);
    for (int64_t i = 0; i < elems; ++i)
      for (unsigned l = 0; l < kWarpSize; ++l)
        call[i].v[l] = expiry_call(o, int(steps_), int(tid.v[l] * elems + i));
    w.compute(kGapEntry);
    w.if_(tid == 0, [&] {
      w.compute(kGapTop);
      w.shared_store(exchange, Int(kBlock), expiry_call(o, int(steps_), int(steps_)));
    });
    w.compute(kGapLeaves);
    const Int final_it = max(tid * elems - 1, int64_t(0));
    for (int64_t i = steps_; i > 0; --i) {  // the same trip count in every thread
      w.shared_store(exchange, tid, call[0]);
      w.sync();
      call[size_t(elems)] = w.shared_load(exchange, tid + 1);
      w.sync();
      w.compute(kGapTest);
      w.if_(final_it < i, [&] {
        for (uint32_t b = w.active(); b; b &= b - 1) {
          const unsigned l = unsigned(__builtin_ctz(b));
          for (int64_t j = 0; j < elems; ++j) call[j].v[l] = step(o, call[j + 1].v[l], call[j].v[l]);
        }
        w.compute(kGapPerLeaf * uint32_t(elems));
      });
      if ((steps_ - i) % 16 == 15) w.compute(kGapUnroll);
    }
    w.compute(kGapStore);
    w.if_(tid == 0, [&] { w.store(0x10, call_, Int(int64_t(w.block_idx().x)), call[0]); });
  }

  uint32_t opt_n_, steps_;
  uint64_t seed_;
  std::vector<Option> opts_;
  DeviceArray<float> call_;
};

}  // namespace

void register_sdk_binomialoptions(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/binomialoptions";
  p.suite = "CUDA SDK samples";
  p.source =
      "github.com/NVIDIA/cuda-samples @c94ff366, Samples/5_Domain_Specific/binomialOptions "
      "(binomialOptions.cpp, binomialOptions_kernel.cu, binomialOptions_common.h), single precision";
  p.input =
      "128 options (the sample prices MAX_OPTIONS = 1024: 1024 CTAs of 4 warps, each 4,096 barriers, 16.8 M "
      "warp instructions; its global footprint is the 4 KB of results, so the count is cut to about one "
      "wave of fermi CTAs (15 SMs x 8), 2.1 M warp instructions), NUM_STEPS = 2048 as in the sample, S, X, T "
      "from a seeded generator with randData's ranges (seed 123; the sample uses srand(123)/rand), R = 0.06, "
      "V = 0.10";
  p.papers = "H-Xbar LLC (004, BINO: LLC-neutral)";
  p.kernels = "binomialOptionsKernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t options = s.get_uint("options", 128, 1, 1024);
    // NUM_STEPS (a compile-time constant of the sample) must be a multiple of the CTA size.
    const uint64_t steps = s.get_uint("steps", 2048, kBlock, 2048) / kBlock * kBlock;
    const uint64_t seed = s.get_uint("seed", 123);
    return std::make_unique<BinomialOptions>(uint32_t(options), uint32_t(steps), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
