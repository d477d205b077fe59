// Rodinia 3.1 particlefilter, the float-named CUDA version (ex_particle_CUDA_float_seq.cu, which computes in
// double): tracks a disk moving through a synthetic noisy video of IszX x IszY x Nfr bytes with Nparticles
// particles. Per frame k = 1 .. Nfr - 1 the host launches, each with ceil(N / 512) blocks of 512 threads:
// likelihood_kernel (each particle moves by a seeded Box-Muller step, computes the image offsets of the
// disk's countOnes pixels around it into ind, sums their likelihoods reading the video at those offsets,
// weighs itself, and each block sums its weights in a shared-memory tree into partial_sums), sum_kernel
// (thread 0 adds the block sums), normalize_weights_kernel (every particle divides its weight by the sum;
// thread 0 of block 0 builds the CDF over all weights sequentially and draws u[0]; every particle's u) and
// find_index_kernel (each particle scans the CDF linearly for its u and takes that particle's position).
//
// The benchmark's race is kept: in normalize_weights_kernel thread 0 of block 0 reads every block's
// weights, and every block's thread 0 reads u[0], without a grid-wide barrier; the reference (check())
// runs the blocks one after another, as a functional run does.
#include <cmath>
#include <cstdlib>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

constexpr int64_t kThreads = 512;  // threads_per_block

// nvcc 13.0 -arch=sm_75 -Xptxas -v (sm_70 is no longer supported): registers, static shared memory.
constexpr uint32_t kRegsLike = 45, kShmemLike = 4096, kRegsSum = 40, kRegsNorm = 27, kShmemNorm = 16;
constexpr uint32_t kRegsFind = 12;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access or barrier on the common path,
// shared-memory accesses excluded. likelihood_kernel:
constexpr uint32_t kGapLkEntry = 33;                     // to xj[i]
constexpr uint32_t kGapLkCopy = 2;                       // between the copies and the weight
constexpr uint32_t kGapLkSeedLd = 2, kGapLkSeedSt = 17;  // d_randn's two LCG steps (one load, one store)
constexpr uint32_t kGapLkRandn = 150;  // cos, log, sqrt of Box-Muller: estimated from the PTX's length
                                       // (183 lines between the seed's store and the position's store, less
                                       // the trig slow path); its 3 sin/cos table loads (ld.global.nc of
                                       // __cudart_sin_cos_coeffs, one address per warp) are counted here
constexpr uint32_t kGapLkLoop = 13;    // to the first offset's loads
constexpr uint32_t kGapLkX = 3, kGapLkOx = 5, kGapLkY = 3, kGapLkOy = 2, kGapLkInd = 9;
constexpr uint32_t kGapLkSum = 20;  // to the first ind[] of calcLikelihoodSum
constexpr uint32_t kGapLkInd2 = 7, kGapLkPixel = 1;
constexpr uint32_t kGapLkPow =
    250;  // the two pow() calls and the sum per pixel: ~130 PTX lines inline plus
          // __internal_accurate_pow's common path (~60 of its 242) twice; estimated
constexpr uint32_t kGapLkStore = 18, kGapLkWeight = 13, kGapLkBuffer = 4;
constexpr uint32_t kGapLkLevel = 3, kGapLkPartial = 5;
// sum_kernel (loop unrolled by 4):
constexpr uint32_t kGapSumEntry = 23, kGapSumLd = 2, kGapSumSt = 3;
// normalize_weights_kernel (cdfCalc unrolled by 4, its remainder loop reloads CDF[x - 1]):
constexpr uint32_t kGapNrEntry = 16, kGapNrWeight = 4, kGapNrDiv = 1, kGapNrCdf0 = 2;
constexpr uint32_t kGapNrCdfLd = 2, kGapNrCdfSt = 1, kGapNrRemLd = 6, kGapNrRemSt = 2;
constexpr uint32_t kGapNrSeedLd = 4, kGapNrSeedSt = 7, kGapNrU0 = 6, kGapNrU1 = 1, kGapNrU = 6;
// find_index_kernel (u[i] is loaded once before the scan):
constexpr uint32_t kGapFiEntry = 17, kGapFiFirst = 4, kGapFiIter = 10, kGapFiX = 7, kGapFiXj = 3;
constexpr uint32_t kGapFiY = 2, kGapFiYj = 2;

constexpr int32_t kA = 1103515245, kC = 12345, kM = 2147483647;  // the LCG (INT_MAX)
constexpr double kPi = 3.1415926535897932;

// randu/d_randu: seed = (A * seed + C) % M in 32-bit int arithmetic; |seed / M|.
double randu(int32_t& seed) {
  const int32_t num = int32_t(uint32_t(kA) * uint32_t(seed) + uint32_t(kC));
  seed = num % kM;
  return std::fabs(seed / double(kM));
}
double randn(int32_t& seed) {
  const double u = randu(seed), v = randu(seed);
  const double cosine = std::cos(2 * kPi * v);
  const double rt = -2 * std::log(u);
  return std::sqrt(rt) * cosine;
}
// roundDouble / dev_round_double: `return newValue++` returns the truncated value.
double round_double(double v) {
  return double(int32_t(v));
}
// (unsigned char) of a double as x86 converts it (to a 32-bit int, then its low byte).
uint8_t to_uchar(double v) {
  if (!(v > -2147483648.0 && v < 2147483648.0)) return 0;  // cvttsd2si's 0x80000000
  return uint8_t(int32_t(v));
}

class ParticleFilter : public KernelPort {
 public:
  ParticleFilter(int64_t isz_x, int64_t isz_y, int64_t nfr, int64_t np, int32_t t0)
      : isz_x_(isz_x), isz_y_(isz_y), nfr_(nfr), np_(np), t0_(t0) {}

  void setup(DeviceMemory& mem) override {
    // main(): seed[i] = time(0) * i (here a fixed t0); videoSequence() advances seed[0].
    seed0_.resize(size_t(np_));
    for (int64_t i = 0; i < np_; ++i) seed0_[size_t(i)] = int32_t(uint32_t(t0_) * uint32_t(i));
    video_ = video_sequence(seed0_[0]);
    // particleFilter(): the disk's offsets.
    const int radius = 5, diameter = radius * 2 - 1;
    std::vector<int> disk(size_t(diameter * diameter));
    for (int x = 0; x < diameter; ++x)
      for (int y = 0; y < diameter; ++y)
        disk[size_t(x * diameter + y)] =
            std::sqrt(std::pow(double(x - radius + 1), 2) + std::pow(double(y - radius + 1), 2)) < radius;
    for (int x = 0; x < diameter; ++x)
      for (int y = 0; y < diameter; ++y)
        if (disk[size_t(x * diameter + y)])
          objxy0_.push_back(y - (radius - 1)), objxy0_.push_back(x - (radius - 1));
    count_ones_ = int64_t(objxy0_.size() / 2);
    const size_t n = size_t(np_);
    arrayX_ = mem.alloc<double>("arrayX_GPU", n);
    arrayY_ = mem.alloc<double>("arrayY_GPU", n);
    xj_ = mem.alloc<double>("xj_GPU", n);
    yj_ = mem.alloc<double>("yj_GPU", n);
    cdf_ = mem.alloc<double>("CDF_GPU", n);
    u_ = mem.alloc<double>("u_GPU", n);
    likelihood_ = mem.alloc<double>("likelihood_GPU", n);
    weights_ = mem.alloc<double>("weights_GPU", n);
    I_ = mem.alloc<uint8_t>("I_GPU", video_.size());
    objxy_ = mem.alloc<int32_t>("objxy_GPU", objxy0_.size());
    ind_ = mem.alloc<int32_t>("ind_GPU", size_t(count_ones_) * n);
    seed_ = mem.alloc<int32_t>("seed_GPU", n);
    partial_ = mem.alloc<double>("partial_sums", n);
    I_.host() = video_;
    objxy_.host() = objxy0_;
    seed_.host() = seed0_;
    const double xe = round_double(double(isz_y_) / 2.0), ye = round_double(double(isz_x_) / 2.0);
    for (size_t i = 0; i < n; ++i) weights_[i] = 1 / double(np_), xj_[i] = xe, yj_[i] = ye;
  }

  void run(Launcher& host) override {
    const uint32_t blocks = uint32_t(std::ceil(double(np_) / double(kThreads)));
    for (int64_t k = 1; k < nfr_; ++k) {
      host.launch(likelihood(blocks, k));
      host.launch(sum(blocks));
      host.launch(normalize(blocks));
      host.launch(find_index(blocks));
    }
  }

  std::string check() const override {
    const size_t n = size_t(np_);
    const int64_t blocks = int64_t(std::ceil(double(np_) / double(kThreads)));
    const int64_t max_size = isz_x_ * isz_y_ * nfr_;
    std::vector<double> X(n), Y(n), xj(n, round_double(double(isz_y_) / 2.0)),
        yj(n, round_double(double(isz_x_) / 2.0)), cdf(n), u(n), like(n), w(n, 1 / double(np_)), part(n);
    std::vector<int32_t> seed = seed0_, ind(size_t(count_ones_) * n);
    for (int64_t k = 1; k < nfr_; ++k) {
      // likelihood_kernel
      for (size_t i = 0; i < n; ++i) {
        X[i] = xj[i], Y[i] = yj[i], w[i] = 1 / double(np_);
        X[i] = X[i] + 1.0 + 5.0 * randn(seed[i]);
        Y[i] = Y[i] - 2.0 + 2.0 * randn(seed[i]);
      }
      for (size_t i = 0; i < n; ++i) {
        for (int64_t y = 0; y < count_ones_; ++y) {
          const int32_t ix = int32_t(round_double(X[i])) + objxy0_[size_t(y * 2 + 1)];
          const int32_t iy = int32_t(round_double(Y[i])) + objxy0_[size_t(y * 2)];
          int32_t v = std::abs(int32_t(ix * isz_y_ * nfr_ + iy * nfr_ + k));
          if (v >= max_size) v = 0;
          ind[i * size_t(count_ones_) + size_t(y)] = v;
        }
        double s = 0.0;
        for (int64_t x = 0; x < count_ones_; ++x) {
          const int p = video_[size_t(ind[i * size_t(count_ones_) + size_t(x)])];
          s += (std::pow(double(p - 100), 2) - std::pow(double(p - 228), 2)) / 50.0;
        }
        like[i] = s / double(count_ones_);
        w[i] = w[i] * std::exp(like[i]);
      }
      for (int64_t b = 0; b < blocks; ++b) {
        std::vector<double> buf(kThreads, 0.0);
        for (int64_t t = 0; t < kThreads; ++t)
          if (b * kThreads + t < np_) buf[size_t(t)] = w[size_t(b * kThreads + t)];
        for (int64_t s = kThreads / 2; s > 0; s >>= 1)
          for (int64_t t = 0; t < s; ++t) buf[size_t(t)] += buf[size_t(t + s)];
        part[size_t(b)] = buf[0];
      }
      // sum_kernel
      double total = 0.0;
      for (int64_t x = 0; x < blocks; ++x) total += part[size_t(x)];
      part[0] = total;
      // normalize_weights_kernel, block after block
      for (int64_t b = 0; b < blocks; ++b) {
        const double sw = part[0];
        const int64_t lo = b * kThreads, hi = std::min<int64_t>(np_, lo + kThreads);
        for (int64_t i = lo; i < hi; ++i) w[size_t(i)] = w[size_t(i)] / sw;
        if (b == 0) {
          cdf[0] = w[0];
          for (size_t x = 1; x < n; ++x) cdf[x] = w[x] + cdf[x - 1];
          u[0] = (1 / double(np_)) * randu(seed[0]);
        }
        const double u1 = u[0];
        for (int64_t i = lo; i < hi; ++i) u[size_t(i)] = u1 + double(i) / double(np_);
      }
      // find_index_kernel
      for (size_t i = 0; i < n; ++i) {
        size_t index = n - 1;
        for (size_t x = 0; x < n; ++x)
          if (cdf[x] >= u[i]) {
            index = x;
            break;
          }
        xj[i] = X[index], yj[i] = Y[index];
      }
    }
    // The host copies back arrayX, arrayY and weights.
    auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    for (size_t i = 0; i < n; ++i) {
      if (!same(arrayX_[i], X[i]))
        return "arrayX[" + std::to_string(i) + "] = " + std::to_string(arrayX_[i]) + ", expected " +
               std::to_string(X[i]);
      if (!same(arrayY_[i], Y[i]))
        return "arrayY[" + std::to_string(i) + "] = " + std::to_string(arrayY_[i]) + ", expected " +
               std::to_string(Y[i]);
      if (!same(weights_[i], w[i]))
        return "weights[" + std::to_string(i) + "] = " + std::to_string(weights_[i]) + ", expected " +
               std::to_string(w[i]);
    }
    return "";
  }

 private:
  // videoSequence(): a disk of 228 on 100, moving one pixel in x and -2 in y per frame, plus Gaussian noise
  // (randn on seed[0]); the image is x-major, then y, then frame.
  std::vector<uint8_t> video_sequence(int32_t& seed0) const {
    const int64_t X = isz_x_, Y = isz_y_, Z = nfr_, max_size = X * Y * Z;
    std::vector<uint8_t> I(size_t(max_size), 0), dil(size_t(max_size), 0);
    const int64_t x0 = int64_t(round_double(double(Y) / 2.0)), y0 = int64_t(round_double(double(X) / 2.0));
    const int64_t first = x0 * Y * Z + y0 * Z;
    if (first >= 0 && first < max_size) I[size_t(first)] = 1;
    for (int64_t k = 1; k < Z; ++k) {
      const int64_t xk = std::abs(x0 + (k - 1)), yk = std::abs(y0 - 2 * (k - 1));
      int64_t pos = yk * Y * Z + xk * Z + k;
      if (pos >= max_size) pos = 0;
      I[size_t(pos)] = 1;
    }
    const int64_t error = 5;
    for (int64_t z = 0; z < Z; ++z)
      for (int64_t x = 0; x < X; ++x)
        for (int64_t y = 0; y < Y; ++y) {
          if (I[size_t(x * Y * Z + y * Z + z)] != 1) continue;
          const int64_t sx = std::max<int64_t>(x - error, 0), sy = std::max<int64_t>(y - error, 0);
          const int64_t ex = std::min<int64_t>(x + error, X), ey = std::min<int64_t>(y + error, Y);
          for (int64_t a = sx; a < ex; ++a)
            for (int64_t b = sy; b < ey; ++b)
              if (std::sqrt(std::pow(double(a - x), 2) + std::pow(double(b - y), 2)) < double(error))
                dil[size_t(a * Y * Z + b * Z + z)] = 1;
        }
    for (uint8_t& v : dil) v = v == 0 ? 100 : v == 1 ? 228 : v;
    for (uint8_t& v : dil) v = uint8_t(v + to_uchar(5 * randn(seed0)));
    return dil;
  }

  KernelLaunch launch_of(const char* name, uint32_t blocks, uint32_t regs, uint32_t shmem) const {
    KernelLaunch k;
    k.name = name;
    k.grid = {blocks, 1, 1};
    k.block = {uint32_t(kThreads), 1, 1};
    k.regs_per_thread = regs;
    k.shmem_per_cta = shmem;
    return k;
  }

  // d_randn on each lane's seed, given its loaded value: the new seed and the normal number.
  static Lanes<double> randn_lanes(const Lanes<int32_t>& s, Lanes<int32_t>& out) {
    Lanes<double> r;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      int32_t v = s.v[l];
      r.v[l] = randn(v);
      out.v[l] = v;
    }
    r.deps = s.deps;
    out.deps = s.deps;
    return r;
  }

  KernelLaunch likelihood(uint32_t blocks, int64_t k) {
    KernelLaunch kl = launch_of("likelihood_kernel", blocks, kRegsLike, kShmemLike);
    kl.body = [this, k](Warp& w) {
      const Int tx = w.thread_idx_x();
      const Int i = int64_t(w.block_idx().x) * kThreads + tx;
      const int64_t c = count_ones_, max_size = isz_x_ * isz_y_ * nfr_;
      auto& buffer = w.shared<double>(0, size_t(kThreads));
      w.compute(kGapLkEntry);
      w.if_(i < np_, [&] {
        const Lanes<double> x0 = w.load(0x10, xj_, i);
        w.store(0x20, arrayX_, i, x0);
        w.compute(kGapLkCopy);
        const Lanes<double> y0 = w.load(0x30, yj_, i);
        w.store(0x40, arrayY_, i, y0);
        w.compute(kGapLkCopy);
        w.store(0x50, weights_, i, 1 / double(np_));
        const Lanes<double> ax = w.load(0x60, arrayX_, i);  // reloaded: weights may alias it
        w.compute(kGapLkSeedLd);
        Lanes<int32_t> s1;
        const Lanes<double> nx = randn_lanes(w.load(0x70, seed_, i), s1);
        w.compute(kGapLkSeedSt);
        w.store(0x80, seed_, i, s1);
        w.compute(kGapLkRandn);
        w.store(0x90, arrayX_, i, ax + 1.0 + 5.0 * nx);
        const Lanes<double> ay = w.load(0xa0, arrayY_, i);
        Lanes<int32_t> s2;
        const Lanes<double> ny = randn_lanes(w.load(0xb0, seed_, i), s2);
        w.compute(kGapLkSeedSt);
        w.store(0xc0, seed_, i, s2);
        w.compute(kGapLkRandn);
        w.store(0xd0, arrayY_, i, ay - 2.0 + 2.0 * ny);
      });
      w.sync();
      w.if_(i < np_, [&] {
        w.compute(kGapLkLoop);
        for (int64_t y = 0; y < c; ++y) {
          w.compute(kGapLkX);
          const Lanes<double> ax = w.load(0x110, arrayX_, i);
          w.compute(kGapLkOx);
          const Int ox = w.load(0x120, objxy_, Int(y * 2 + 1)).as<int64_t>();
          w.compute(kGapLkY);
          const Lanes<double> ay = w.load(0x130, arrayY_, i);
          w.compute(kGapLkOy);
          const Int oy = w.load(0x140, objxy_, Int(y * 2)).as<int64_t>();
          const Int ix = map(ax, [](double v) { return int64_t(int32_t(v)); }) + ox;
          const Int iy = map(ay, [](double v) { return int64_t(int32_t(v)); }) + oy;
          Int v = map(ix * isz_y_ * nfr_ + iy * nfr_ + k,
                      [](int64_t a) { return int64_t(std::abs(int32_t(a))); });
          v = select<int64_t>(v >= max_size, 0, v);
          w.compute(kGapLkInd);
          w.store(0x150, ind_, i * c + y, v);
        }
        w.compute(kGapLkSum);
        Lanes<double> sum = 0.0;
        for (int64_t x = 0; x < c; ++x) {
          w.compute(x == 0 ? kGapLkInd2 : kGapLkPow + kGapLkInd2);
          const Int at = w.load(0x160, ind_, i * c + x).as<int64_t>();
          w.compute(kGapLkPixel);
          const Lanes<double> p = w.load(0x170, I_, at).as<double>();
          sum = sum + map(p, [](double q) { return (std::pow(q - 100, 2) - std::pow(q - 228, 2)) / 50.0; });
        }
        const Lanes<double> like = sum / double(c);
        w.compute(kGapLkPow + kGapLkStore);
        w.store(0x180, likelihood_, i, like);
        const Lanes<double> wt = w.load(0x190, weights_, i);
        w.compute(kGapLkWeight);
        w.store(0x1a0, weights_, i, wt * map(like, [](double q) { return std::exp(q); }));
      });
      w.compute(kGapLkBuffer);
      w.shared_store(buffer, tx, 0.0);
      w.sync();
      w.if_(i < np_, [&] { w.shared_store(buffer, tx, w.load(0x1b0, weights_, i)); });
      w.sync();
      for (int64_t s = kThreads / 2; s > 0; s >>= 1) {
        w.compute(kGapLkLevel);
        w.if_(tx < s,
              [&] { w.shared_store(buffer, tx, w.shared_load(buffer, tx) + w.shared_load(buffer, tx + s)); });
        w.sync();
      }
      w.compute(kGapLkPartial);
      w.if_(tx == 0,
            [&] { w.store(0x1c0, partial_, Int(int64_t(w.block_idx().x)), w.shared_load(buffer, Int(0))); });
      w.sync();
    };
    return kl;
  }

  KernelLaunch sum(uint32_t blocks) {
    KernelLaunch k = launch_of("sum_kernel", blocks, kRegsSum, 0);
    k.body = [this](Warp& w) {
      const Int i = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      w.compute(kGapSumEntry);
      w.if_(i == 0, [&] {
        const int64_t nb = int64_t(std::ceil(double(np_) / double(kThreads)));
        Lanes<double> s = 0.0;
        for (int64_t x = 0; x < nb; ++x) {
          w.compute(kGapSumLd);
          s = s + w.load(0x210, partial_, Int(x));
        }
        w.compute(kGapSumSt);
        w.store(0x220, partial_, Int(0), s);
      });
    };
    return k;
  }

  KernelLaunch normalize(uint32_t blocks) {
    KernelLaunch k = launch_of("normalize_weights_kernel", blocks, kRegsNorm, kShmemNorm);
    k.body = [this](Warp& w) {
      const Int tx = w.thread_idx_x();
      const Int i = int64_t(w.block_idx().x) * kThreads + tx;
      auto& sh = w.shared<double>(0, 2);  // u1, sumWeights
      w.compute(kGapNrEntry);
      w.if_(tx == 0, [&] { w.shared_store(sh, Int(1), w.load(0x310, partial_, Int(0))); });
      w.sync();
      w.if_(i < np_, [&] {
        const Lanes<double> sw = w.shared_load(sh, Int(1));
        w.compute(kGapNrWeight);
        const Lanes<double> x = w.load(0x320, weights_, i);
        w.compute(kGapNrDiv);
        w.store(0x330, weights_, i, x / sw);
      });
      w.sync();
      w.if_(i == 0, [&] {
        const int64_t n = np_;
        w.compute(kGapNrCdf0);
        Lanes<double> prev = w.load(0x340, weights_, Int(0));
        w.store(0x350, cdf_, Int(0), prev);
        const int64_t unrolled = n >= 2 ? ((n - 1) / 4) * 4 : 0;
        for (int64_t x = 1; x <= unrolled && n - 2 >= 3; ++x) {
          w.compute(kGapNrCdfLd);
          prev = w.load(0x360, weights_, Int(x)) + prev;
          w.compute(kGapNrCdfSt);
          w.store(0x370, cdf_, Int(x), prev);
        }
        for (int64_t x = (n - 2 >= 3 ? unrolled + 1 : 1); x < n; ++x) {
          w.compute(kGapNrRemLd);
          const Lanes<double> before = w.load(0x380, cdf_, Int(x - 1));
          const Lanes<double> wx = w.load(0x390, weights_, Int(x));
          w.compute(kGapNrRemSt);
          w.store(0x3a0, cdf_, Int(x), wx + before);
        }
        w.compute(kGapNrSeedLd);
        Lanes<int32_t> s = w.load(0x3b0, seed_, Int(0));
        Lanes<double> r;
        for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = randu(s.v[l]);
        w.compute(kGapNrSeedSt);
        w.store(0x3c0, seed_, Int(0), s);
        w.compute(kGapNrU0);
        w.store(0x3d0, u_, Int(0), (1 / double(np_)) * r);
      });
      w.sync();
      w.compute(kGapNrU1);
      w.if_(tx == 0, [&] { w.shared_store(sh, Int(0), w.load(0x3e0, u_, Int(0))); });
      w.sync();
      w.if_(i < np_, [&] {
        const Lanes<double> u1 = w.shared_load(sh, Int(0));
        w.compute(kGapNrU);
        w.store(0x3f0, u_, i, u1 + i.as<double>() / double(np_));
      });
    };
    return k;
  }

  KernelLaunch find_index(uint32_t blocks) {
    KernelLaunch k = launch_of("find_index_kernel", blocks, kRegsFind, 0);
    k.body = [this](Warp& w) {
      const Int i = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      w.if_(i < np_, [&] {
        w.compute(kGapFiEntry);
        const Lanes<double> ui = w.load(0x410, u_, i);
        Int index = -1;
        bool first = true;
        w.for_(Int(0), Int(np_), Int(1), [&](const Int& x) {
          w.compute(first ? kGapFiFirst : kGapFiIter);
          first = false;
          const Bool hit = w.load(0x420, cdf_, x) >= ui;
          for (unsigned l = 0; l < kWarpSize; ++l)
            if ((w.active() >> l & 1) && hit.v[l]) index.v[l] = x.v[l];
          index.deps |= hit.deps;
          w.break_if(hit);
        });
        index = select<int64_t>(index == -1, np_ - 1, index);
        w.compute(kGapFiX);
        const Lanes<double> ax = w.load(0x430, arrayX_, index);
        w.compute(kGapFiXj);
        w.store(0x440, xj_, i, ax);
        w.compute(kGapFiY);
        const Lanes<double> ay = w.load(0x450, arrayY_, index);
        w.compute(kGapFiYj);
        w.store(0x460, yj_, i, ay);
      });
      w.sync();
    };
    return k;
  }

  int64_t isz_x_, isz_y_, nfr_, np_;
  int32_t t0_;
  int64_t count_ones_ = 0;
  std::vector<int32_t> seed0_, objxy0_;
  std::vector<uint8_t> video_;
  DeviceArray<double> arrayX_, arrayY_, xj_, yj_, cdf_, u_, likelihood_, weights_;
  DeviceArray<uint8_t> I_;
  DeviceArray<int32_t> objxy_, ind_, seed_;
  DeviceArray<double> partial_;
};

}  // namespace

void register_rodinia_particlefilter(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/particlefilter";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/particlefilter/ex_particle_CUDA_float_seq.cu @ "
      "9c10d3e";
  p.input =
      "Rodinia's run: -x 128 -y 128 -z 10 -np 1000 (the video 160 KiB, 9 frames of 4 launches); default the "
      "same (it already fits a minute's simulation). seed[i] = time(0) * i with time(0) fixed to the size "
      "key "
      "t0 (default 1); the video generated as videoSequence() does";
  p.papers = "TSC/TSC+ (000, particlefilter), Decoupled L1D (002, PTF)";
  p.kernels = "likelihood_kernel, sum_kernel, normalize_weights_kernel, find_index_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t x = s.get_uint("x", 128, 16, 4096);
    const uint64_t y = s.get_uint("y", 128, 16, 4096);
    const uint64_t z = s.get_uint("frames", 10, 2, 1000);
    const uint64_t np = s.get_uint("particles", 1000, 1, 1000000);
    const uint64_t t0 = s.get_uint("t0", 1, 0, 0xffffffffu);
    return std::make_unique<ParticleFilter>(int64_t(x), int64_t(y), int64_t(z), int64_t(np),
                                            int32_t(uint32_t(t0)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
