// Rodinia 3.1 pathfinder (CUDA): dynamic programming down a rows x cols grid of costs; each row's cell adds
// its cost to the cheapest of the three cells above it (left, up, right; clamped at the grid's sides).
// dynproc_kernel advances `iteration` rows per launch on 256-column tiles in shared memory (the pyramid:
// the valid region shrinks by one column per side and row, so tiles overlap by the pyramid height): it
// loads the previous row's results, then per row reads the three neighbours from shared memory and the
// row's cost from global memory, with barriers between rows, and stores the columns it computed last. The
// host launches ceil((rows - 1) / pyramid_height) kernels, swapping the two result rows.
#include <algorithm>
#include <cstdint>
#include <random>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v: registers per thread, static shared memory (prev and result, 256 ints each).
constexpr uint32_t kRegs = 18, kShmem = 2048;
// PTX (nvcc --ptx -arch=sm_75) instructions, shared-memory accesses not counted (each adds one itself).
constexpr uint32_t kEntry = 25;                 // to the previous row's load
constexpr uint32_t kBeforeLoop = 31;            // the valid range, clamped neighbours
constexpr uint32_t kStepTest = 9, kToWall = 4;  // the row's range test; the minimum and the index
constexpr uint32_t kAdd = 1, kToBarrier = 1;    // the sum before its shared store; then the barrier
constexpr uint32_t kLastTest = 2, kCopyTest = 2, kLoopTail = 5, kExit = 6;

constexpr int64_t kBlock = 256;  // BLOCK_SIZE
constexpr int64_t kHalo = 1;     // HALO

class Pathfinder : public KernelPort {
 public:
  Pathfinder(uint32_t cols, uint32_t rows, uint32_t pyramid, uint64_t seed)
      : cols_(cols), rows_(rows), pyramid_(pyramid), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // init(): every cell's cost rand() % 10 (srand(M_SEED)); here a seeded generator.
    data_.resize(size_t(rows_) * cols_);
    std::mt19937_64 rng(seed_);
    for (int32_t& d : data_) d = int32_t(rng() % 10);
    result_[0] = mem.alloc<int32_t>("gpuResult0", cols_);
    result_[1] = mem.alloc<int32_t>("gpuResult1", cols_);
    for (uint32_t c = 0; c < cols_; ++c) result_[0][c] = data_[c];  // row 0
    wall_ = mem.alloc<int32_t>("gpuWall", size_t(rows_ - 1) * cols_);
    for (size_t i = 0; i < wall_.size(); ++i) wall_[i] = data_[cols_ + i];  // rows 1..rows-1
  }

  void run(Launcher& host) override {
    const int64_t border = int64_t(pyramid_) * kHalo;
    const int64_t small = kBlock - int64_t(pyramid_) * kHalo * 2;
    const uint32_t blocks = uint32_t((cols_ + small - 1) / small);
    int src = 1, dst = 0;
    for (int64_t t = 0; t < int64_t(rows_) - 1; t += pyramid_) {
      std::swap(src, dst);
      const int64_t iteration = std::min<int64_t>(pyramid_, int64_t(rows_) - t - 1);
      KernelLaunch k;
      k.name = "dynproc_kernel";
      k.grid = {blocks, 1, 1};
      k.block = {uint32_t(kBlock), 1, 1};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, iteration, src, dst, t, border](Warp& w) {
        step(w, iteration, result_[src], result_[dst], t, border);
      };
      host.launch(std::move(k));
    }
    final_ = dst;
  }

  std::string check() const override {
    const int64_t n = cols_;
    std::vector<int32_t> prev(data_.begin(), data_.begin() + n);
    std::vector<int32_t> next(static_cast<size_t>(n));
    for (int64_t r = 1; r < int64_t(rows_); ++r) {
      for (int64_t c = 0; c < n; ++c) {
        const int32_t left = prev[size_t(std::max<int64_t>(c - 1, 0))], up = prev[size_t(c)];
        const int32_t right = prev[size_t(std::min<int64_t>(c + 1, n - 1))];
        next[size_t(c)] = std::min(std::min(left, up), right) + data_[size_t(r * n + c)];
      }
      prev.swap(next);
    }
    for (int64_t c = 0; c < n; ++c)
      if (result_[final_][size_t(c)] != prev[size_t(c)])
        return "result[" + std::to_string(c) + "] = " + std::to_string(result_[final_][size_t(c)]) +
               ", expected " + std::to_string(prev[size_t(c)]);
    return "";
  }

 private:
  void step(Warp& w, int64_t iteration, DeviceArray<int32_t>& src, DeviceArray<int32_t>& dst,
            int64_t start_step, int64_t border) {
    auto& prev = w.shared<int32_t>(0, kBlock);
    auto& result = w.shared<int32_t>(1, kBlock);
    const int64_t cols = cols_;
    const Int tx = w.thread_idx_x();
    const int64_t small = kBlock - iteration * kHalo * 2;
    const int64_t blk_x = small * int64_t(w.block_idx().x) - border, blk_xmax = blk_x + kBlock - 1;
    const Int xidx = tx + blk_x;
    const int64_t valid_xmin = blk_x < 0 ? -blk_x : 0;
    const int64_t valid_xmax = blk_xmax > cols - 1 ? kBlock - 1 - (blk_xmax - cols + 1) : kBlock - 1;
    const Int west = max(tx - 1, valid_xmin), east = min(tx + 1, valid_xmax);
    const Bool is_valid = tx >= valid_xmin && tx <= valid_xmax;
    w.compute(kEntry);
    w.if_(xidx >= 0 && xidx <= cols - 1, [&] { w.shared_store(prev, tx, w.load(0x10, src, xidx)); });
    w.sync();
    Bool computed = false;
    w.compute(kBeforeLoop);
    for (int64_t i = 0; i < iteration; ++i) {
      computed = false;
      w.compute(kStepTest);
      w.if_(tx >= i + 1 && tx <= kBlock - i - 2 && is_valid, [&] {
        for (uint32_t b = w.active(); b; b &= b - 1) computed.v[unsigned(__builtin_ctz(b))] = true;
        const Lanes<int32_t> left = w.shared_load(prev, west);
        const Lanes<int32_t> up = w.shared_load(prev, tx);
        const Lanes<int32_t> right = w.shared_load(prev, east);
        const Lanes<int32_t> shortest = min(min(left, up), right);
        const Int index = xidx + cols * (start_step + i);
        w.compute(kToWall);
        const Lanes<int32_t> cost = w.load(0x20, wall_, index);
        w.compute(kAdd);
        w.shared_store(result, tx, shortest + cost);
        w.compute(kToBarrier);
      });
      w.sync();
      w.compute(kLastTest);
      if (i == iteration - 1) break;
      w.compute(kCopyTest);
      w.if_(computed, [&] { w.shared_store(prev, tx, w.shared_load(result, tx)); });
      w.sync();
      w.compute(kLoopTail);
    }
    w.compute(kExit);
    w.if_(computed, [&] { w.store(0x30, dst, xidx, w.shared_load(result, tx)); });
  }

  uint32_t cols_, rows_, pyramid_;
  uint64_t seed_;
  int final_ = 0;
  std::vector<int32_t> data_;
  DeviceArray<int32_t> result_[2], wall_;
};

}  // namespace

void register_rodinia_pathfinder(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/pathfinder";
  p.suite = "Rodinia 3.1";
  p.source = "github.com/yuhc/gpu-rodinia cuda/pathfinder/pathfinder.cu (Rodinia 3.1), commit 9c10d3e";
  p.input =
      "the run script's: 100,000 columns x 100 rows, pyramid height 20 (5 launches of 463 CTAs), costs "
      "0..9 from a seeded generator (the source's rand() % 10 after srand(9)); footprint 40 MB of costs, "
      "kept (each read once). Size keys: cols, rows, pyramid_height, seed";
  p.papers = "Decoupled L1D (002)";
  p.kernels = "dynproc_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t cols = s.get_uint("cols", 100000, 1, uint64_t(1) << 26);
    const uint64_t rows = s.get_uint("rows", 100, 2, 1 << 20);
    const uint64_t pyramid = s.get_uint("pyramid_height", 20, 1, 126);  // the tile keeps >= 2 columns
    const uint64_t seed = s.get_uint("seed", 9);
    return std::make_unique<Pathfinder>(uint32_t(cols), uint32_t(rows), uint32_t(pyramid), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
