// Rodinia 3.1 nw (CUDA): Needleman-Wunsch alignment scores of two random sequences, the (n+1) x (n+1)
// score matrix filled in 16 x 16 tiles along anti-diagonals of tiles. needle_cuda_shared_1 sweeps the
// top-left triangle (launch i: i tiles of the i-th tile diagonal), needle_cuda_shared_2 the bottom-right
// one; each CTA (16 threads, one per tile column) loads its tile's 16 x 16 substitution scores, its
// north-west corner, west column and north row into shared memory, fills the tile by 31 cell diagonals
// between barriers, and stores its 16 rows. Global accesses follow the compiled code (fully unrolled).
// Substitution scores: BLOSUM62 (the rows and columns of residues 1..10, the only ones the input uses).
#include <cstdint>
#include <random>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v: registers per thread, static shared memory (temp 17 x 17 + ref 16 x 16 ints).
constexpr uint32_t kRegs = 54, kShmem = 2180;
constexpr int64_t kBlock = 16;  // BLOCK_SIZE
// PTX (nvcc --ptx -arch=sm_75) instructions between global accesses and barriers, shared-memory accesses
// not counted (each adds one itself). [0]: needle_cuda_shared_1, [1]: needle_cuda_shared_2.
constexpr uint32_t kRefGap[2][3] = {{6, 5, 4}, {20, 6, 3}};    // before ref rows 0..2; later rows 1 each
constexpr uint32_t kNwTest[2] = {15, 2}, kNwLoad[2] = {2, 4};  // the tx == 0 test; then the corner load
constexpr uint32_t kToWest[2] = {4, 8}, kWestToSync = 2, kToNorth = 3, kNorthToSync = 4;
constexpr uint32_t kSweep1Entry = 5, kSweep1Test = 2, kSweep2Test = 1, kCell = 5;
constexpr uint32_t kLastDiag[2] = {35, 13};        // after the last diagonal: the stores' addresses
constexpr uint32_t kStoreGap0 = 2, kStoreGap = 1;  // rows 0..2, then the others

// BLOSUM62 scores among residues 1..10 (R N D C Q E G H I L), [row residue - 1][column residue - 1].
constexpr int32_t kBlosum[10][10] = {
    {5, 0, -2, -3, 1, 0, -2, 0, -3, -2},    {0, 6, 1, -3, 0, 0, 0, 1, -3, -3},
    {-2, 1, 6, -3, 0, 2, -1, -1, -3, -4},   {-3, -3, -3, 9, -3, -4, -3, -3, -1, -1},
    {1, 0, 0, -3, 5, 2, -2, 0, -3, -2},     {0, 0, 2, -4, 2, 5, -2, 0, -3, -3},
    {-2, 0, -1, -3, -2, -2, 6, -2, -4, -4}, {0, 1, -1, -3, 0, 0, -2, 8, -3, -3},
    {-3, -3, -3, -1, -3, -3, -4, -3, 4, 2}, {-2, -3, -4, -1, -2, -3, -4, -3, 2, 4},
};

int32_t maximum3(int32_t a, int32_t b, int32_t c) {
  const int32_t k = a <= b ? b : a;
  return k <= c ? c : k;
}

class Nw : public KernelPort {
 public:
  Nw(uint32_t n, int32_t penalty, uint64_t seed) : n_(n), penalty_(penalty), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t cols = size_t(n_) + 1;
    // runTest(): residues 1..10 for the row sequence (column 0), then the column sequence (row 0); here
    // from a seeded generator (the source's rand() % 10 + 1 after srand(7)).
    std::mt19937_64 rng(seed_);
    std::vector<int32_t> row_seq(cols, 0), col_seq(cols, 0);
    for (size_t i = 1; i < cols; ++i) row_seq[i] = int32_t(rng() % 10) + 1;
    for (size_t j = 1; j < cols; ++j) col_seq[j] = int32_t(rng() % 10) + 1;
    ref_ = mem.alloc<int32_t>("referrence_cuda", cols * cols);
    matrix_ = mem.alloc<int32_t>("matrix_cuda", cols * cols);
    for (size_t i = 1; i < cols; ++i)
      for (size_t j = 1; j < cols; ++j) ref_[i * cols + j] = kBlosum[row_seq[i] - 1][col_seq[j] - 1];
    for (size_t i = 1; i < cols; ++i) matrix_[i * cols] = -int32_t(i) * penalty_;
    for (size_t j = 1; j < cols; ++j) matrix_[j] = -int32_t(j) * penalty_;
    initial_ = matrix_.host();
  }

  void run(Launcher& host) override {
    const int64_t block_width = int64_t(n_) / kBlock;
    auto launch = [&](int which, int64_t i) {
      KernelLaunch k;
      k.name = which == 0 ? "needle_cuda_shared_1" : "needle_cuda_shared_2";
      k.grid = {uint32_t(i), 1, 1};
      k.block = {uint32_t(kBlock), 1, 1};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, which, i, block_width](Warp& w) { tile(w, which, i, block_width); };
      host.launch(std::move(k));
    };
    for (int64_t i = 1; i <= block_width; ++i) launch(0, i);
    for (int64_t i = block_width - 1; i >= 1; --i) launch(1, i);
  }

  std::string check() const override {
    const size_t cols = size_t(n_) + 1;
    std::vector<int32_t> m = initial_;
    for (size_t i = 1; i < cols; ++i)
      for (size_t j = 1; j < cols; ++j)
        m[i * cols + j] = maximum3(m[(i - 1) * cols + j - 1] + ref_[i * cols + j],
                                   m[i * cols + j - 1] - penalty_, m[(i - 1) * cols + j] - penalty_);
    for (size_t i = 0; i < m.size(); ++i)
      if (matrix_[i] != m[i])
        return "matrix[" + std::to_string(i / cols) + "][" + std::to_string(i % cols) +
               "] = " + std::to_string(matrix_[i]) + ", expected " + std::to_string(m[i]);
    return "";
  }

 private:
  void tile(Warp& w, int which, int64_t i, int64_t block_width) {
    auto& temp = w.shared<int32_t>(0, (kBlock + 1) * (kBlock + 1));
    auto& ref = w.shared<int32_t>(1, kBlock * kBlock);
    const int64_t cols = int64_t(n_) + 1, bx = w.block_idx().x;
    const int64_t bix = which == 0 ? bx : bx + block_width - i;
    const int64_t biy = which == 0 ? i - 1 - bx : block_width - bx - 1;
    const Int tx = w.thread_idx_x();
    const int64_t base = cols * kBlock * biy + kBlock * bix;
    const Int index = tx + base + (cols + 1);
    const Int index_n = tx + base + 1;
    const int64_t index_w = base + cols, index_nw = base;
    auto t_at = [](const Int& y, const Int& x) { return y * (kBlock + 1) + x; };
    auto corner = [&] {
      w.compute(kNwTest[which]);
      w.if_(tx == 0, [&] {
        w.compute(kNwLoad[which]);
        w.shared_store(temp, Int(0), w.load(0x10, matrix_, Int(index_nw)));
      });
    };
    if (which == 0) corner();
    for (int64_t ty = 0; ty < kBlock; ++ty) {
      w.compute(ty < 3 ? kRefGap[which][ty] : 1);
      w.shared_store(ref, tx + ty * kBlock, w.load(0x20, ref_, index + cols * ty));
    }
    w.sync();
    if (which == 1) corner();
    w.compute(kToWest[which]);
    w.shared_store(temp, t_at(tx + 1, Int(0)), w.load(0x30, matrix_, tx * cols + index_w));
    w.compute(kWestToSync);
    w.sync();
    w.compute(kToNorth);
    w.shared_store(temp, t_at(Int(0), tx + 1), w.load(0x40, matrix_, index_n));
    w.compute(kNorthToSync);
    w.sync();
    auto cell = [&](const Int& y, const Int& x) {
      const Lanes<int32_t> nw = w.shared_load(temp, t_at(y - 1, x - 1));
      const Lanes<int32_t> r = w.shared_load(ref, (y - 1) * kBlock + (x - 1));
      const Lanes<int32_t> west = w.shared_load(temp, t_at(y, x - 1));
      const Lanes<int32_t> north = w.shared_load(temp, t_at(y - 1, x));
      Lanes<int32_t> v;
      for (unsigned l = 0; l < kWarpSize; ++l)
        v.v[l] = maximum3(nw.v[l] + r.v[l], west.v[l] - penalty_, north.v[l] - penalty_);
      w.compute(kCell);
      w.shared_store(temp, t_at(y, x), v);
    };
    w.compute(kSweep1Entry);
    for (int64_t m = 0; m < kBlock; ++m) {
      w.compute(kSweep1Test);
      w.if_(tx <= m, [&] { cell(Int(m) - tx + 1, tx + 1); });
      w.sync();
    }
    for (int64_t m = kBlock - 2; m >= 0; --m) {
      w.compute(kSweep2Test);
      w.if_(tx <= m, [&] { cell(Int(kBlock) - tx, tx + (kBlock - m)); });
      if (m == 0) w.compute(kLastDiag[which]);
      w.sync();
    }
    for (int64_t ty = 0; ty < kBlock; ++ty) {
      w.compute(ty < 3 ? kStoreGap0 : kStoreGap);
      w.store(0x50, matrix_, index + ty * cols, w.shared_load(temp, t_at(Int(ty + 1), tx + 1)));
    }
  }

  uint32_t n_;
  int32_t penalty_;
  uint64_t seed_;
  std::vector<int32_t> initial_;
  DeviceArray<int32_t> ref_, matrix_;
};

}  // namespace

void register_rodinia_nw(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/nw";
  p.suite = "Rodinia 3.1";
  p.source = "github.com/yuhc/gpu-rodinia cuda/nw (needle.cu, needle_kernel.cu; Rodinia 3.1), commit 9c10d3e";
  p.input =
      "the run script's: 2048 x 2048 (a 2049 x 2049 matrix: 128 + 127 launches, 16,384 CTAs of 16 threads), "
      "penalty 10, residues from a seeded generator (the source's rand() % 10 + 1 after srand(7)); "
      "footprint 2 x 16.8 MB, kept. Size keys: dim (a multiple of 16), penalty, seed";
  p.papers = "G-Cache (001), Decoupled L1D (002)";
  p.kernels = "needle_cuda_shared_1, needle_cuda_shared_2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t dim = s.get_uint("dim", 2048, 16, 16384);
    const uint64_t penalty = s.get_uint("penalty", 10, 0, 1000);
    const uint64_t seed = s.get_uint("seed", 7);
    if (dim % 16) throw ConfigError("rodinia/nw: dim must be a multiple of 16");
    return std::make_unique<Nw>(uint32_t(dim), int32_t(penalty), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
