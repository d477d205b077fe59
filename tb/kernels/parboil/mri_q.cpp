// Parboil MRI-Q (cuda version): ComputePhiMag_GPU (phiMag = |phi|^2, a thread per k-space sample, CTAs of
// 512), then ComputeQ_GPU once per tile of 1024 samples (CTAs of 256, a thread per voxel): the thread loads
// its x, y, z and running Qr, Qi, sums the tile's terms from constant memory (ck: no global access, the
// host copies each tile there before the launch) and stores Qr and Qi. Nearly all of the kernel is compute:
// 32 PTX per pair of samples. The first section's arrays are freed before the second's are allocated; here
// every array keeps its own addresses (DeviceMemory does not reuse).
#include <cmath>
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 --use_fast_math (Parboil's flags; sm_70 is gone from CUDA 13) and ptxas -v.
constexpr uint32_t kGapPhiEntry = 15, kGapPhiStore = 4;  // ComputePhiMag_GPU
constexpr uint32_t kGapQEntry = 16, kGapQLoad = 2;       // before x, and between the loads
constexpr uint32_t kGapQOdd = 14;                        // the odd sample before the loop
constexpr uint32_t kGapQSetup = 8;
constexpr uint32_t kGapQPair = 32;              // each loop iteration (two samples)
constexpr uint32_t kRegsPhi = 12, kRegsQ = 26;  // ptxas -v, sm_75
constexpr uint32_t kPhiThreads = 512, kQThreads = 256, kQTile = 1024;
constexpr float kPi2 = 6.2831853071795864769252867665590058f;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct KValue {
  float kx, ky, kz, phi_mag;
};

class MriQ : public KernelPort {
 public:
  MriQ(uint32_t num_x, uint32_t num_k, uint64_t seed) : num_x_(num_x), num_k_(num_k), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    uint64_t s = seed_;
    auto uniform = [&] { return float(splitmix(s) % 65536) / 65536.0f - 0.5f; };
    kx_.resize(num_k_), ky_.resize(num_k_), kz_.resize(num_k_);
    for (uint32_t k = 0; k < num_k_; ++k) kx_[k] = uniform(), ky_[k] = uniform(), kz_[k] = uniform();
    phi_r_ = mem.alloc<float>("phiR_d", num_k_);
    phi_i_ = mem.alloc<float>("phiI_d", num_k_);
    phi_mag_ = mem.alloc<float>("phiMag_d", num_k_);
    for (uint32_t k = 0; k < num_k_; ++k) phi_r_[k] = uniform(), phi_i_[k] = uniform();
    x_ = mem.alloc<float>("x_d", num_x_);
    y_ = mem.alloc<float>("y_d", num_x_);
    z_ = mem.alloc<float>("z_d", num_x_);
    qr_ = mem.alloc<float>("Qr_d", num_x_);  // cudaMemset 0
    qi_ = mem.alloc<float>("Qi_d", num_x_);
    for (uint32_t i = 0; i < num_x_; ++i) x_[i] = uniform(), y_[i] = uniform(), z_[i] = uniform();
  }

  void run(Launcher& host) override {
    KernelLaunch phi;
    phi.name = "ComputePhiMag_GPU";
    phi.block = {kPhiThreads, 1, 1};
    phi.grid = {(num_k_ + kPhiThreads - 1) / kPhiThreads, 1, 1};
    phi.regs_per_thread = kRegsPhi;
    phi.body = [this](Warp& w) {
      const Int k = w.global_x();
      w.compute(kGapPhiEntry);
      w.if_(k < int64_t(num_k_), [&] {
        const Float re = w.load(0x10, phi_r_, k);
        const Float im = w.load(0x20, phi_i_, k);
        w.compute(kGapPhiStore);
        w.store(0x30, phi_mag_, k, re * re + im * im);
      });
    };
    host.launch(std::move(phi));

    // The host builds kVals from the read-back phiMag and copies a tile to constant memory per launch.
    kvals_.resize(num_k_);
    for (uint32_t k = 0; k < num_k_; ++k) kvals_[k] = {kx_[k], ky_[k], kz_[k], phi_mag_[k]};
    const uint32_t grids = (num_k_ + kQTile - 1) / kQTile;
    for (uint32_t g = 0; g < grids; ++g) {
      KernelLaunch q;
      q.name = "ComputeQ_GPU";
      q.block = {kQThreads, 1, 1};
      q.grid = {(num_x_ + kQThreads - 1) / kQThreads, 1, 1};
      q.regs_per_thread = kRegsQ;
      const uint32_t base = g * kQTile;
      q.body = [this, base](Warp& w) { compute_q(w, base); };
      host.launch(std::move(q));
    }
  }

  std::string check() const override {
    std::vector<float> phi_mag(num_k_);
    for (uint32_t k = 0; k < num_k_; ++k) {
      phi_mag[k] = phi_r_[k] * phi_r_[k] + phi_i_[k] * phi_i_[k];
      if (phi_mag_[k] != phi_mag[k])
        return "phiMag[" + std::to_string(k) + "] = " + std::to_string(phi_mag_[k]);
    }
    const uint32_t grids = (num_k_ + kQTile - 1) / kQTile;
    for (uint32_t i = 0; i < num_x_; ++i) {
      float qr = 0.0f, qi = 0.0f;
      for (uint32_t g = 0; g < grids; ++g) {
        // The kernel's order: the odd sample first when numK is odd, then pairs.
        const uint32_t base = g * kQTile;
        uint32_t idx = 0, global = base;
        auto term = [&](uint32_t t) {
          const KValue& kv = kvals_[base + t];
          const float arg = kPi2 * (kv.kx * x_[i] + kv.ky * y_[i] + kv.kz * z_[i]);
          qr = qr + kv.phi_mag * std::cos(arg);
          qi = qi + kv.phi_mag * std::sin(arg);
        };
        if (num_k_ % 2) term(0), ++idx, ++global;
        for (; idx < kQTile && global < num_k_; idx += 2, global += 2) term(idx), term(idx + 1);
      }
      if (qr_[i] != qr || qi_[i] != qi)
        return "Q[" + std::to_string(i) + "] = " + std::to_string(qr_[i]) + ", " + std::to_string(qi_[i]) +
               ", expected " + std::to_string(qr) + ", " + std::to_string(qi);
    }
    return "";
  }

 private:
  void compute_q(Warp& w, uint32_t k_global_index) {
    const Int x_index = w.global_x();  // no bounds test in the kernel
    w.compute(kGapQEntry);
    const Float sx = w.load(0x40, x_, x_index);
    w.compute(kGapQLoad);
    const Float sy = w.load(0x50, y_, x_index);
    w.compute(kGapQLoad);
    const Float sz = w.load(0x60, z_, x_index);
    w.compute(kGapQLoad);
    Float sqr = w.load(0x70, qr_, x_index);
    w.compute(kGapQLoad / 2);
    Float sqi = w.load(0x80, qi_, x_index);
    w.compute(kGapQSetup);
    // The sample loop reads constant memory only: the same trip count in every thread.
    auto term = [&](uint32_t t) {
      const KValue& kv = kvals_[k_global_index + t];  // ck: the tile from QGridBase = k_global_index
      const Float arg = (kv.kx * sx + kv.ky * sy + kv.kz * sz) * kPi2;
      sqr = sqr + map(arg, [](float a) { return std::cos(a); }) * kv.phi_mag;
      sqi = sqi + map(arg, [](float a) { return std::sin(a); }) * kv.phi_mag;
    };
    uint32_t k_index = 0, global = k_global_index;
    if (num_k_ % 2) {
      w.compute(kGapQOdd);
      term(0);
      ++k_index, ++global;
    }
    for (; k_index < kQTile && global < num_k_; k_index += 2, global += 2) {
      w.compute(kGapQPair);
      term(k_index);
      term(k_index + 1);
    }
    w.store(0x90, qr_, x_index, sqr);
    w.store(0xa0, qi_, x_index, sqi);
  }

  uint32_t num_x_, num_k_;
  uint64_t seed_;
  std::vector<float> kx_, ky_, kz_;
  std::vector<KValue> kvals_;
  DeviceArray<float> phi_r_, phi_i_, phi_mag_, x_, y_, z_, qr_, qi_;
};

}  // namespace

void register_parboil_mri_q(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/mri-q";
  p.suite = "Parboil 2.5, CUDA";
  p.source = "github.com/abduld/Parboil @a4c63da, benchmarks/mri-q/src/cuda (computeQ.cu, main.cu)";
  p.input =
      "Parboil's large input (64_64_64_dataset.bin, numX = 262,144 voxels, numK = 2,048 samples; mri-q has "
      "no "
      "medium one), its data file replaced by seeded uniform values in [-0.5, 0.5) (seed = 1); unscaled: 1 + "
      "2 "
      "launches, 115 K warp memory instructions and 34 M instructions of compute";
  p.papers = "reuse distance (003)";
  p.kernels = "ComputePhiMag_GPU, ComputeQ_GPU";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    // ComputeQ_GPU has no bounds test: numX a multiple of 256.
    const uint64_t num_x = s.get_uint("num_x", 262144, kQThreads, uint64_t(1) << 24) / kQThreads * kQThreads;
    // An odd numK above one tile makes the kernel read ck[1024], past the array: rounded down to even.
    uint64_t num_k = s.get_uint("num_k", 2048, 1, uint64_t(1) << 20);
    if (num_k > kQTile && num_k % 2) --num_k;
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<MriQ>(uint32_t(num_x), uint32_t(num_k), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
