// Rodinia 3.1 hotspot (CUDA): transient chip temperature on a grid, a 5-point stencil with power input.
// calculate_temp runs `iteration` time steps per launch on a 16 x 16 tile (the pyramid: each step the
// still-valid region shrinks by one cell per side, so a CTA's output is its 16 - 2 * pyramid_height square
// and its tiles overlap by the pyramid height): it loads its tile's temperature and power into shared
// memory, steps in shared memory between barriers, and stores the cells it computed in the last step. The
// host launches ceil(sim_time / pyramid_height) kernels, swapping the two temperature buffers.
#include <algorithm>
#include <cstdint>
#include <random>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v: registers per thread, static shared memory (3 float tiles of 16 x 16).
constexpr uint32_t kRegs = 35, kShmem = 3072;
// PTX (nvcc --ptx -arch=sm_75) instructions, shared-memory accesses not counted (each adds one itself).
constexpr uint32_t kEntry = 47, kTempToPower = 2;   // to the temperature load, then to the power load
constexpr uint32_t kBeforeLoop = 57;                // the valid ranges and clamped neighbours
constexpr uint32_t kStepTest = 13, kStepBody = 19;  // the step's range test; its arithmetic
constexpr uint32_t kLastTest = 2, kCopyTest = 2, kLoopTail = 4, kExit = 6;

constexpr int64_t kBlock = 16;  // BLOCK_SIZE

// Chip constants (hotspot.cu).
constexpr double kMaxPd = 3.0e6, kPrecision = 0.001, kSpecHeatSi = 1.75e6, kKSi = 100, kFactorChip = 0.5;
constexpr float kTChip = 0.0005f, kChipHeight = 0.016f, kChipWidth = 0.016f;

struct Coefs {
  float step_div_cap, rx_1, ry_1, rz_1;
};

// One cell's step, as the kernel writes it (the 2.0 literals make it double; stored as float).
float step_cell(const Coefs& k, float t, float p, float s, float n, float e, float w) {
  const float amb_temp = 80.0f;
  return float(t + k.step_div_cap * (p + (s + n - 2.0 * t) * k.ry_1 + (e + w - 2.0 * t) * k.rx_1 +
                                     (amb_temp - t) * k.rz_1));
}

class Hotspot : public KernelPort {
 public:
  Hotspot(uint32_t n, uint32_t pyramid, uint32_t sim_time, uint64_t seed)
      : n_(n), pyramid_(pyramid), sim_time_(sim_time), seed_(seed) {
    // compute_tran_temp(): the coefficients in the source's precision.
    const float grid_height = kChipHeight / float(n_), grid_width = kChipWidth / float(n_);
    const float cap = float(kFactorChip * kSpecHeatSi * kTChip * grid_width * grid_height);
    const float rx = float(grid_width / (2.0 * kKSi * kTChip * grid_height));
    const float ry = float(grid_height / (2.0 * kKSi * kTChip * grid_width));
    const float rz = float(kTChip / (kKSi * grid_height * grid_width));
    const float max_slope = float(kMaxPd / (kFactorChip * kTChip * kSpecHeatSi));
    const float step = float(kPrecision / max_slope);
    coefs_ = {step / cap, 1 / rx, 1 / ry, 1 / rz};
  }

  void setup(DeviceMemory& mem) override {
    temp_[0] = mem.alloc<float>("MatrixTemp0", size_t(n_) * n_);
    temp_[1] = mem.alloc<float>("MatrixTemp1", size_t(n_) * n_);
    power_ = mem.alloc<float>("MatrixPower", size_t(n_) * n_);
    // temp_512 / power_512's ranges: temperatures ~323-345 K, power 0..~0.005 W per cell; seeded uniform.
    std::mt19937_64 rng(seed_);
    auto unit = [&] { return float(rng() >> 40) / float(1u << 24); };
    for (size_t i = 0; i < temp_[0].size(); ++i) {
      temp_[0][i] = 323.0f + 22.0f * unit();
      power_[i] = 0.005f * unit();
    }
    initial_ = temp_[0].host();
  }

  void run(Launcher& host) override {
    const int64_t small = kBlock - int64_t(pyramid_) * 2;
    const uint32_t blocks = uint32_t((n_ + small - 1) / small);
    int src = 1, dst = 0;
    for (float t = 0; t < float(sim_time_); t += float(pyramid_)) {
      std::swap(src, dst);
      const int64_t iteration = std::min<int64_t>(pyramid_, int64_t(float(sim_time_) - t));
      KernelLaunch k;
      k.name = "calculate_temp";
      k.grid = {blocks, blocks, 1};
      k.block = {uint32_t(kBlock), uint32_t(kBlock), 1};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, iteration, src, dst](Warp& w) { step(w, iteration, temp_[src], temp_[dst]); };
      host.launch(std::move(k));
    }
    result_ = dst;
  }

  std::string check() const override {
    // sim_time steps of the stencil on the whole grid, neighbours clamped at its border.
    const int64_t n = n_;
    std::vector<float> t = initial_, next(t.size());
    for (uint32_t s = 0; s < sim_time_; ++s) {
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c) {
          auto at = [&](int64_t rr, int64_t cc) {
            rr = std::min(std::max<int64_t>(rr, 0), n - 1);
            cc = std::min(std::max<int64_t>(cc, 0), n - 1);
            return t[size_t(rr * n + cc)];
          };
          next[size_t(r * n + c)] = step_cell(coefs_, at(r, c), power_[size_t(r * n + c)], at(r + 1, c),
                                              at(r - 1, c), at(r, c + 1), at(r, c - 1));
        }
      t.swap(next);
    }
    for (size_t i = 0; i < t.size(); ++i)
      if (temp_[result_][i] != t[i])
        return "temp[" + std::to_string(i) + "] = " + std::to_string(temp_[result_][i]) + ", expected " +
               std::to_string(t[i]);
    return "";
  }

 private:
  void step(Warp& w, int64_t iteration, DeviceArray<float>& src, DeviceArray<float>& dst) {
    auto& temp_sh = w.shared<float>(0, kBlock * kBlock);
    auto& power_sh = w.shared<float>(1, kBlock * kBlock);
    auto& temp_t = w.shared<float>(2, kBlock * kBlock);
    const int64_t n = n_, bx = w.block_idx().x, by = w.block_idx().y;
    const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
    const int64_t small = kBlock - iteration * 2;
    const int64_t border = int64_t(pyramid_);  // pyramid_height * EXPAND_RATE / 2
    const int64_t blk_y = small * by - border, blk_x = small * bx - border;
    const int64_t blk_ymax = blk_y + kBlock - 1, blk_xmax = blk_x + kBlock - 1;
    const Int yidx = ty + blk_y, xidx = tx + blk_x;
    const Int index = yidx * n + xidx;
    const Int me = ty * kBlock + tx;
    w.compute(kEntry);
    w.if_(yidx >= 0 && yidx <= n - 1 && xidx >= 0 && xidx <= n - 1, [&] {
      w.shared_store(temp_sh, me, w.load(0x10, src, index));
      w.compute(kTempToPower);
      w.shared_store(power_sh, me, w.load(0x20, power_, index));
    });
    w.sync();
    const int64_t valid_ymin = blk_y < 0 ? -blk_y : 0;
    const int64_t valid_ymax = blk_ymax > n - 1 ? kBlock - 1 - (blk_ymax - n + 1) : kBlock - 1;
    const int64_t valid_xmin = blk_x < 0 ? -blk_x : 0;
    const int64_t valid_xmax = blk_xmax > n - 1 ? kBlock - 1 - (blk_xmax - n + 1) : kBlock - 1;
    const Int north = max(ty - 1, valid_ymin), south = min(ty + 1, valid_ymax);
    const Int west = max(tx - 1, valid_xmin), east = min(tx + 1, valid_xmax);
    Bool computed = false;
    w.compute(kBeforeLoop);
    for (int64_t i = 0; i < iteration; ++i) {
      computed = false;
      w.compute(kStepTest);
      w.if_(tx >= i + 1 && tx <= kBlock - i - 2 && ty >= i + 1 && ty <= kBlock - i - 2 && tx >= valid_xmin &&
                tx <= valid_xmax && ty >= valid_ymin && ty <= valid_ymax,
            [&] {
              for (uint32_t b = w.active(); b; b &= b - 1) computed.v[unsigned(__builtin_ctz(b))] = true;
              const Float t = w.shared_load(temp_sh, me);
              const Float p = w.shared_load(power_sh, me);
              const Float s = w.shared_load(temp_sh, south * kBlock + tx);
              const Float nn = w.shared_load(temp_sh, north * kBlock + tx);
              const Float e = w.shared_load(temp_sh, ty * kBlock + east);
              const Float ww = w.shared_load(temp_sh, ty * kBlock + west);
              Float v;
              for (unsigned l = 0; l < kWarpSize; ++l)
                v.v[l] = step_cell(coefs_, t.v[l], p.v[l], s.v[l], nn.v[l], e.v[l], ww.v[l]);
              w.compute(kStepBody);
              w.shared_store(temp_t, me, v);
            });
      w.sync();
      w.compute(kLastTest);
      if (i == iteration - 1) break;
      w.compute(kCopyTest);
      w.if_(computed, [&] { w.shared_store(temp_sh, me, w.shared_load(temp_t, me)); });
      w.sync();
      w.compute(kLoopTail);
    }
    w.compute(kExit);
    w.if_(computed, [&] { w.store(0x30, dst, index, w.shared_load(temp_t, me)); });
  }

  uint32_t n_, pyramid_, sim_time_;
  uint64_t seed_;
  Coefs coefs_{};
  int result_ = 0;
  std::vector<float> initial_;
  DeviceArray<float> temp_[2], power_;
};

}  // namespace

void register_rodinia_hotspot(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/hotspot";
  p.suite = "Rodinia 3.1";
  p.source = "github.com/yuhc/gpu-rodinia cuda/hotspot/hotspot.cu (Rodinia 3.1), commit 9c10d3e";
  p.input =
      "the run script's: 512 x 512 grid, pyramid height 2, 2 time steps (one launch of 43 x 43 CTAs); "
      "temp_512 / power_512 are data files: seeded uniform values in their ranges instead (323-345 K, "
      "0-0.005 W); footprint 3 MB (3 grids), kept. Size keys: grid, pyramid_height, sim_time, seed";
  p.papers = "Decoupled L1D (002)";
  p.kernels = "calculate_temp";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t grid = s.get_uint("grid", 512, 1, 16384);
    const uint64_t pyramid = s.get_uint("pyramid_height", 2, 1, 7);  // the tile keeps >= 2 cells a side
    const uint64_t sim_time = s.get_uint("sim_time", 2, 1, 100000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Hotspot>(uint32_t(grid), uint32_t(pyramid), uint32_t(sim_time), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
