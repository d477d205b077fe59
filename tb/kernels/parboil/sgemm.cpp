// Parboil SGEMM (cuda version, after Volkov and Demmel), C = alpha A B^T + beta C with A and C column-major
// and B given transposed: mysgemmNT, CTAs of 16 x 8 threads, each CTA a 128 x 16 tile of C, each thread one
// row of it (16 accumulators in registers). Per step of 8 along k, each thread loads one element of the
// 8 x 16 tile of B into shared memory, a barrier, then 8 times: one element of A (a warp: 32 consecutive
// rows, one line) and 16 multiply-adds from the shared tile; a barrier. At the end the thread loads, scales
// and stores its 16 elements of C (a warp: one line per column).
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory
// instructions (shared-memory accesses add one each, in the machinery).
constexpr uint32_t kGapEntry = 36;  // accumulators, indices, loop test
constexpr uint32_t kGapB = 16;      // the k step's top, before the load of B
constexpr uint32_t kGapA = 6;       // before each load of A (inner loop unrolled 2x: 13 per 2 steps)
constexpr uint32_t kGapFma = 1;     // each multiply-add after its shared load
constexpr uint32_t kGapC = 1, kGapStore = 2;
constexpr uint32_t kRegs = 63;    // ptxas -v, sm_75
constexpr uint32_t kShmem = 512;  // b_s[8][16], ptxas -v
constexpr uint32_t kTileN = 16, kTileH = 8, kTileM = kTileN * kTileH;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Sgemm : public KernelPort {
 public:
  Sgemm(uint32_t m, uint32_t n, uint32_t k, uint64_t seed) : m_(m), n_(n), k_(k), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    a_ = mem.alloc<float>("dA", size_t(m_) * k_);
    b_ = mem.alloc<float>("dB", size_t(k_) * n_);
    c_ = mem.alloc<float>("dC", size_t(m_) * n_);  // never written by the host: zero
    uint64_t s = seed_;
    for (auto& v : a_.host()) v = float(splitmix(s) % 2048) / 1024.0f - 1.0f;
    for (auto& v : b_.host()) v = float(splitmix(s) % 2048) / 1024.0f - 1.0f;
  }

  void run(Launcher& host) override {
    // regtileSgemm('N', 'T', m, n, k, 1.0f, dA, m, dB, n, 0.0f, dC, m)
    KernelLaunch kl;
    kl.name = "mysgemmNT";
    kl.grid = {m_ / kTileM, n_ / kTileN, 1};
    kl.block = {kTileN, kTileH, 1};
    kl.regs_per_thread = kRegs;
    kl.shmem_per_cta = kShmem;
    kl.body = [this](Warp& w) { body(w); };
    host.launch(std::move(kl));
  }

  std::string check() const override {
    for (uint32_t col = 0; col < n_ / kTileN * kTileN; ++col)
      for (uint32_t row = 0; row < m_ / kTileM * kTileM; ++row) {
        float c = 0.0f;
        for (uint32_t i = 0; i < k_; ++i) c = c + a_[row + size_t(i) * m_] * b_[col + size_t(i) * n_];
        const float want = 0.0f * kBeta + kAlpha * c;
        const float got = c_[row + size_t(col) * m_];
        if (got != want)
          return "C[" + std::to_string(row) + "][" + std::to_string(col) + "] = " + std::to_string(got) +
                 ", expected " + std::to_string(want);
      }
    return "";
  }

 private:
  void body(Warp& w) {
    const int64_t lda = m_, ldb = n_, ldc = m_;
    const Int& tx = w.thread_idx_x();
    const Int& ty = w.thread_idx_y();
    const int64_t bdx = w.block_dim().x;
    const Int mid = ty * bdx + tx;
    const Int m = mid + int64_t(w.block_idx().x) * kTileM;
    const Int n = tx + int64_t(w.block_idx().y) * kTileN;
    std::vector<float>& b_s = w.shared<float>(0, kTileH * kTileN);
    Float c[kTileN];
    for (auto& x : c) x = 0.0f;
    w.compute(kGapEntry);
    for (int64_t i = 0; i < int64_t(k_); i += kTileH) {  // the same trip count in every thread
      w.compute(kGapB);
      w.shared_store(b_s, ty * kTileN + tx, w.load(0x10, b_, n + (ty + i) * ldb));
      w.sync();
      for (int64_t j = 0; j < kTileH; ++j) {
        w.compute(kGapA);
        const Float a = w.load(0x20, a_, m + (i + j) * lda);
        for (int64_t kk = 0; kk < kTileN; ++kk) {
          c[kk] = c[kk] + a * w.shared_load(b_s, Int(j * kTileN + kk));
          w.compute(kGapFma);
        }
      }
      w.sync();
    }
    const Int t = m + ldc * int64_t(w.block_idx().y) * kTileN;
    for (int64_t i = 0; i < kTileN; ++i) {
      w.compute(kGapC);
      const Float old = w.load(0x30, c_, t + i * ldc);
      w.compute(kGapStore);
      w.store(0x40, c_, t + i * ldc, old * kBeta + kAlpha * c[i]);
    }
  }

  static constexpr float kAlpha = 1.0f, kBeta = 0.0f;  // main.cu's
  uint32_t m_, n_, k_;
  uint64_t seed_;
  DeviceArray<float> a_, b_, c_;
};

}  // namespace

void register_parboil_sgemm(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/sgemm";
  p.suite = "Parboil 2.5, CUDA";
  p.source = "github.com/abduld/Parboil @a4c63da, benchmarks/sgemm/src/cuda (sgemm_kernel.cu, main.cu)";
  p.input =
      "Parboil's medium input, unscaled: A 1024 x 992, B^T 1056 x 992 (m = 1024, n = 1056, k = 992; 8.2 "
      "MiB), "
      "its data files replaced by seeded uniform values in [-1, 1) (seed = 1): 2.95 M warp instructions";
  p.papers = "reuse distance (003)";
  p.kernels = "mysgemmNT";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    // The kernel assumes m a multiple of 128, n of 16 and k of 8 (regtileSgemm's note).
    const uint64_t m = s.get_uint("m", 1024, kTileM, 16384) / kTileM * kTileM;
    const uint64_t n = s.get_uint("n", 1056, kTileN, 16384) / kTileN * kTileN;
    const uint64_t k = s.get_uint("k", 992, kTileH, 16384) / kTileH * kTileH;
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Sgemm>(uint32_t(m), uint32_t(n), uint32_t(k), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
