// CUDA SDK BlackScholes: BlackScholesGPU prices two options per thread (float2 arrays, CTAs of 128 threads):
// it loads the stock price, strike and years as float2 (8 B a lane, read-only path), computes both call and
// put prices, and stores the two float2 results. The host launches it NUM_ITERATIONS times on the same
// input. The arithmetic here is the sample's with the host's expf/logf/sqrtf for the GPU intrinsics
// (__expf, __logf, rsqrtf); the reference uses the same function, so results compare exactly.
#include <cmath>
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry = 21;  // index and bounds test
constexpr uint32_t kGapLoad = 2;    // between the three loads
constexpr uint32_t kGapBody = 113;  // two Black-Scholes bodies
constexpr uint32_t kGapPut = 4;
constexpr uint32_t kRegs = 23;  // ptxas -v, sm_75
constexpr uint32_t kBlock = 128;
constexpr float kRiskFree = 0.02f, kVolatility = 0.30f;

struct F2 {
  float x = 0, y = 0;
};

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267793994605993438f;
  const float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  float c = rsqrt2pi * std::exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  if (d > 0) c = 1.0f - c;
  return c;
}

// (call, put) for one option.
F2 price(float s, float x, float t) {
  const float sqrt_t = std::sqrt(t);
  const float d1 =
      (std::log(s / x) + (kRiskFree + 0.5f * kVolatility * kVolatility) * t) / (kVolatility * sqrt_t);
  const float d2 = d1 - kVolatility * sqrt_t;
  const float cnd1 = cnd(d1), cnd2 = cnd(d2);
  const float exp_rt = std::exp(-kRiskFree * t);
  return {s * cnd1 - x * exp_rt * cnd2, x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1)};
}

class BlackScholes : public KernelPort {
 public:
  BlackScholes(uint32_t opt_n, uint32_t iterations, uint64_t seed)
      : opt_n_(opt_n), iterations_(iterations), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t n2 = opt_n_ / 2;  // float2 elements (OPT_SZ bytes each array)
    call_ = mem.alloc<F2>("d_CallResult", n2);
    put_ = mem.alloc<F2>("d_PutResult", n2);
    stock_ = mem.alloc<F2>("d_StockPrice", n2);
    strike_ = mem.alloc<F2>("d_OptionStrike", n2);
    years_ = mem.alloc<F2>("d_OptionYears", n2);
    uint64_t s = seed_;
    auto rand_float = [&](float lo, float hi) {  // RandFloat(): (1 - t) lo + t hi, t uniform in [0, 1]
      const float t = float(splitmix(s) >> 40) / float(1 << 24);
      return (1.0f - t) * lo + t * hi;
    };
    auto at = [](DeviceArray<F2>& a, size_t i) -> float& { return i % 2 ? a[i / 2].y : a[i / 2].x; };
    for (size_t i = 0; i < n2 * 2; ++i) {
      at(stock_, i) = rand_float(5.0f, 30.0f);
      at(strike_, i) = rand_float(1.0f, 100.0f);
      at(years_, i) = rand_float(0.25f, 10.0f);
    }
  }

  void run(Launcher& host) override {
    for (uint32_t it = 0; it < iterations_; ++it) {
      KernelLaunch k;
      k.name = "BlackScholesGPU";
      k.block = {kBlock, 1, 1};
      k.grid = {(opt_n_ / 2 + kBlock - 1) / kBlock, 1, 1};
      k.regs_per_thread = kRegs;
      k.body = [this](Warp& w) {
        const Int opt = w.global_x();
        w.compute(kGapEntry);
        w.if_(opt < int64_t(opt_n_ / 2), [&] {
          const Lanes<F2> s = w.load(0x10, stock_, opt);
          w.compute(kGapLoad);
          const Lanes<F2> x = w.load(0x20, strike_, opt);
          w.compute(kGapLoad);
          const Lanes<F2> t = w.load(0x30, years_, opt);
          Lanes<F2> call, put;
          for (unsigned l = 0; l < kWarpSize; ++l) {
            const F2 a = price(s.v[l].x, x.v[l].x, t.v[l].x), b = price(s.v[l].y, x.v[l].y, t.v[l].y);
            call.v[l] = {a.x, b.x};
            put.v[l] = {a.y, b.y};
          }
          call.deps = s.deps;
          call.deps |= x.deps;
          call.deps |= t.deps;
          put.deps = call.deps;
          w.compute(kGapBody);
          w.store(0x40, call_, opt, call);
          w.compute(kGapPut);
          w.store(0x50, put_, opt, put);
        });
      };
      host.launch(std::move(k));
    }
  }

  std::string check() const override {
    for (size_t i = 0; i < opt_n_ / 2; ++i) {
      const F2 a = price(stock_[i].x, strike_[i].x, years_[i].x),
               b = price(stock_[i].y, strike_[i].y, years_[i].y);
      if (call_[i].x != a.x || call_[i].y != b.x || put_[i].x != a.y || put_[i].y != b.y)
        return "option pair " + std::to_string(i) + ": call " + std::to_string(call_[i].x) + ", expected " +
               std::to_string(a.x);
    }
    return "";
  }

 private:
  uint32_t opt_n_, iterations_;
  uint64_t seed_;
  DeviceArray<F2> call_, put_, stock_, strike_, years_;
};

}  // namespace

void register_sdk_blackscholes(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/blackscholes";
  p.suite = "CUDA SDK samples";
  p.source =
      "github.com/NVIDIA/cuda-samples @c94ff366, Samples/5_Domain_Specific/BlackScholes (BlackScholes.cu, "
      "BlackScholes_kernel.cuh)";
  p.input =
      "OPT_N = 4,000,000 options (the sample's; 5 arrays of 16 MB), inputs from a seeded generator with "
      "RandFloat's ranges (seed 5347; the sample uses srand/rand); 8 launches instead of NUM_ITERATIONS = "
      "512 "
      "(each launch repeats the same 80 MB stream; 512 would make 160 M warp instructions, 8 make 2.5 M)";
  p.papers = "H-Xbar LLC (004, BS: LLC-neutral)";
  p.kernels = "BlackScholesGPU";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t n = s.get_uint("options", 4000000, 2, uint64_t(1) << 30) / 2 * 2;
    const uint64_t it = s.get_uint("iterations", 8, 1, 512);
    const uint64_t seed = s.get_uint("seed", 5347);
    return std::make_unique<BlackScholes>(uint32_t(n), uint32_t(it), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
