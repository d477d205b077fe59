// Parboil TPACF (cuda version), the two-point angular correlation function of a point set on the sky
// against random sets: histograms of the angular distances (20 log bins, 1 to 10,000 arcmin) of every
// data-data (DD), random-random (RR) and data-random (DR) pair. gen_hists: one launch, 2 * sets + 1 CTAs
// of 256 threads: CTA 0 the data's self pairs, CTAs 1..sets each random set's, the rest data x random set.
// Per chunk of 256 points of the first set: the CTA loads them into shared memory (x, y, z from three
// arrays), a barrier; per chunk of the second set each thread loads one point (three loads) and compares
// it with the 256 shared points: a dot product, a binary search over the bin bounds (constant memory) and
// an atomicAdd on a SHARED histogram (16 per warp, two threads each). At the end the CTA's 128 histograms
// are summed in shared memory (36 barriers) and threads 0..19 store the CTA's 20 bins.
#include <cmath>
#include <cstdint>
#include <vector>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on tpacf_kernel.cu: PTX between
// the memory instructions (shared-memory accesses written through the machinery add one each; the pair
// loop's shared loads and the atomic are counted here).
constexpr uint32_t kGapEntry = 132;    // zeroing the histograms (10 shared stores a thread), the set offsets
constexpr uint32_t kGapChunk = 5;      // the chunk test and address, before the first load
constexpr uint32_t kGapNextLoad = 1;   // between the x, y, z loads
constexpr uint32_t kGapJSetup = 6;     // after the barrier: j's start
constexpr uint32_t kGapJTop = 3;       // the j test
constexpr uint32_t kGapJLoad = 4;      // the random point's address
constexpr uint32_t kGapKSetup = 5;     // the k loop's setup
constexpr uint32_t kGapK = 9 + 5 + 6;  // each pair: shared loads, dot product; the bounds; the loop's end
constexpr uint32_t kGapSearch = 12;    // each binary-search step (warp: its lanes' most)
constexpr uint32_t kGapLower = 8, kGapLowerCross = 6;  // the lower bound's test (self / cross CTAs)
constexpr uint32_t kGapAtomic = 7;                     // the histogram address and the shared atomic
constexpr uint32_t kGapLoopBack = 3;                   // j's and i's loop ends
constexpr uint32_t kGapReduceSetup = 15, kGapReduceTest = 3;
constexpr uint32_t kGapStore = 9;
constexpr uint32_t kRegs = 30, kShmem = 13312;  // ptxas -v, sm_75
constexpr uint32_t kBlock = 256, kBins = 20, kHists = 128;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The source's binary search: (min, max) and its number of steps.
void search(float d, const float* binb, uint32_t& min, uint32_t& max, uint32_t& steps) {
  min = 0, max = kBins, steps = 0;
  while (max > min + 1) {
    const uint32_t k2 = (min + max) / 2;
    if (d >= binb[k2])
      max = k2;
    else
      min = k2;
    ++steps;
  }
}

class Tpacf : public KernelPort {
 public:
  Tpacf(uint32_t points, uint32_t sets, uint64_t seed) : n_(points), sets_(sets), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // initBinB, in double, stored as float.
    for (uint32_t k = 0; k <= kBins; ++k)
      binb_[k] = float(std::cos(std::pow(10.0, std::log10(1.0) + k * 1.0 / 5) / 60.0 * (M_PI / 180.0)));
    // The source's result for each final bin: the search's steps (a function of where it ends).
    for (uint32_t m = 1; m <= kBins; ++m) {
      uint32_t lo = 0, hi = kBins, steps = 0;
      while (hi > lo + 1) {
        const uint32_t k2 = (lo + hi) / 2;
        (k2 >= m ? hi : lo) = k2;
        ++steps;
      }
      steps_[m] = steps;
    }
    // readdatafile: (ra, dec) in degrees, uniform on the sphere, converted as the source converts them.
    const size_t total = size_t(sets_ + 1) * n_;
    data_ = mem.alloc<float>("d_x_data", 3 * total);
    hists_ = mem.alloc<uint64_t>("d_hists", size_t(kBins) * (2 * sets_ + 1));
    uint64_t s = seed_;
    auto uni = [&] { return double(splitmix(s) >> 11) * 0x1.0p-53; };
    for (size_t p = 0; p < total; ++p) {
      const float ra = float(uni() * 360.0), dec = float(std::asin(2.0 * uni() - 1.0) * 180.0 / M_PI);
      const float rarad = float(M_PI / 180.0 * ra), decrad = float(M_PI / 180.0 * dec);
      const float cd = float(std::cos(double(decrad)));
      data_[p] = float(std::cos(double(rarad))) * cd;
      data_[total + p] = float(std::sin(double(rarad))) * cd;
      data_[2 * total + p] = float(std::sin(double(decrad)));
    }
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "gen_hists";
    k.grid = {2 * sets_ + 1, 1, 1};
    k.block = {kBlock, 1, 1};
    k.regs_per_thread = kRegs;
    k.shmem_per_cta = kShmem;
    k.body = [this](Warp& w) { body(w); };
    host.launch(std::move(k));
  }

  std::string check() const override {
    const size_t total = size_t(sets_ + 1) * n_;
    for (uint32_t bx = 0; bx < 2 * sets_ + 1; ++bx) {
      const bool self = bx < sets_ + 1;
      const size_t a = self ? size_t(bx) * n_ : 0, b = self ? a : size_t(bx - sets_) * n_;
      uint64_t hist[kBins] = {};
      for (uint32_t p = 0; p < n_; ++p)
        for (uint32_t q = self ? p + 1 : 0; q < n_; ++q) {
          const float d = data_[a + p] * data_[b + q] + data_[total + a + p] * data_[total + b + q] +
                          data_[2 * total + a + p] * data_[2 * total + b + q];
          uint32_t min, max, steps;
          search(d, binb_, min, max, steps);
          if (d < binb_[min] && d >= binb_[max]) ++hist[max - 1];
        }
      for (uint32_t i = 0; i < kBins; ++i)
        if (hists_[size_t(bx) * kBins + i] != hist[i])
          return "hists[" + std::to_string(bx) + "][" + std::to_string(i) +
                 "] = " + std::to_string(hists_[size_t(bx) * kBins + i]) + ", expected " +
                 std::to_string(hist[i]);
    }
    return "";
  }

 private:
  // The 256 (or fewer) pairs of one j chunk for the warp: the lanes' dot products and bins, the histogram
  // updates lane by lane, and the instructions the warp spends (the pair loop has no global access).
  uint32_t pairs(const float* shared_pts, uint32_t kn, const float* rx, const float* ry, const float* rz,
                 const int64_t* tid, bool self, int64_t i, int64_t j, std::vector<uint32_t>& hist) const {
    uint32_t gap = kGapKSetup;
    int32_t cnt[kWarpSize];
#ifdef __SSE2__
    __m128 bounds[kBins + 1];
    for (uint32_t m = 0; m <= kBins; ++m) bounds[m] = _mm_set1_ps(binb_[m]);
#endif
    for (uint32_t k = 0; k < kn; ++k) {
      const float dx = shared_pts[3 * k], dy = shared_pts[3 * k + 1], dz = shared_pts[3 * k + 2];
      // cnt = how many bounds d reaches (d >= binb[m]): the search ends at max = clamp(21 - cnt, 1, 20).
#ifdef __SSE2__
      for (unsigned l = 0; l < kWarpSize; l += 4) {
        const __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(dx), _mm_loadu_ps(rx + l)),
                                               _mm_mul_ps(_mm_set1_ps(dy), _mm_loadu_ps(ry + l))),
                                    _mm_mul_ps(_mm_set1_ps(dz), _mm_loadu_ps(rz + l)));
        __m128i c = _mm_setzero_si128();
        for (uint32_t m = 0; m <= kBins; ++m)
          c = _mm_sub_epi32(c, _mm_castps_si128(_mm_cmpge_ps(d, bounds[m])));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(cnt + l), c);
      }
#else
      for (unsigned l = 0; l < kWarpSize; ++l) {
        const float d = dx * rx[l] + dy * ry[l] + dz * rz[l];
        int32_t c = 0;
        for (uint32_t m = 0; m <= kBins; ++m) c += d >= binb_[m];
        cnt[l] = c;
      }
#endif
      uint32_t steps = 0;
      bool lower = false, atomic = false;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        const int32_t k0 = int32_t(kBins) + 1 - cnt[l];  // the first bound d reaches
        const uint32_t max = uint32_t(k0 < 1 ? 1 : k0 > int32_t(kBins) ? int32_t(kBins) : k0);
        steps = std::max(steps, steps_[max]);
        // d < binb[min] (k0 >= 1) and d >= binb[max] (k0 <= 20), the pair's own tests
        if (k0 < 1) continue;
        lower = true;
        if (k0 > int32_t(kBins) || (self && tid[l] + j <= i + int64_t(k)) || tid[l] + j >= int64_t(n_))
          continue;
        atomic = true;
        ++hist[size_t(k0 - 1) * kHists + size_t(tid[l] / 2)];  // atomicAdd(&warp_hists[bin][tid / 2], 1)
      }
      gap += kGapK + kGapSearch * steps + (lower ? (self ? kGapLower : kGapLowerCross) : 0) +
             (atomic ? kGapAtomic : 0);
    }
    return gap;
  }

  void body(Warp& w) {
    const uint32_t bx = w.block_idx().x;
    const Int& tid = w.thread_in_block();
    const int64_t n = n_, total = int64_t(sets_ + 1) * n;
    const bool self = bx < sets_ + 1;
    const int64_t data = self ? int64_t(bx) * n : 0, random = self ? data : int64_t(bx - sets_) * n;
    // The source has no barrier between a chunk's pairs and the next chunk's shared stores (a race: a warp
    // ahead may overwrite points a warp behind still reads); the port keeps the points of even and odd
    // chunks apart, so every warp reads its chunk's points, as the sequential reference does.
    std::vector<float>* data_buf[2] = {&w.shared<float>(0, kBlock * 3), &w.shared<float>(2, kBlock * 3)};
    std::vector<uint32_t>& hist = w.shared<uint32_t>(1, kBins * kHists);  // zero, as the loop leaves it
    w.compute(kGapEntry);
    Float rx, ry, rz;  // a lane past the end keeps its registers' last values
    auto assign = [&](Float& dst, const Float& src) {
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        dst.v[l] = src.v[l];
      }
      dst.deps |= src.deps;
    };
    for (int64_t i = 0; i < n; i += kBlock) {
      std::vector<float>& data_s = *data_buf[(i / kBlock) % 2];
      w.compute(kGapChunk);
      w.if_(tid + i < n, [&] {
        const Int at = tid + (data + i);
        const Float x = w.load(0x10, data_, at);
        w.compute(kGapNextLoad);
        const Float y = w.load(0x20, data_, at + total);
        w.compute(kGapNextLoad);
        const Float z = w.load(0x30, data_, at + 2 * total);
        w.shared_store(data_s, tid * 3, x);
        w.shared_store(data_s, tid * 3 + 1, y);
        w.shared_store(data_s, tid * 3 + 2, z);
      });
      w.sync();
      w.compute(kGapJSetup);
      const uint32_t kn = uint32_t(std::min<int64_t>(kBlock, n - i));
      for (int64_t j = self ? i + 1 : 0; j < n; j += kBlock) {
        w.compute(kGapJTop);
        w.if_(tid + j < n, [&] {
          const Int at = tid + (random + j);
          w.compute(kGapJLoad);
          assign(rx, w.load(0x40, data_, at));
          w.compute(kGapNextLoad);
          assign(ry, w.load(0x50, data_, at + total));
          w.compute(kGapNextLoad);
          assign(rz, w.load(0x60, data_, at + 2 * total));
        });
        w.compute(
            pairs(data_s.data(), kn, rx.v.data(), ry.v.data(), rz.v.data(), tid.v.data(), self, i, j, hist));
        w.compute(kGapLoopBack);
      }
      w.compute(kGapLoopBack);
    }
    // The CTA's histograms summed pairwise: thread (bin tid / 64, histogram tid % 64), 4 bins a step.
    const Int warp_index = tid & (kHists / 2 - 1), bin_index = tid / (kHists / 2);
    w.compute(kGapReduceSetup);
    for (int64_t offset = kHists / 2; offset > 0; offset >>= 1)
      for (int64_t bin_base = 0; bin_base < kBins; bin_base += kBlock / (kHists / 2)) {
        w.sync();
        w.compute(kGapReduceTest);
        w.if_(warp_index < offset && bin_index + bin_base < kBins, [&] {
          const Int at = (bin_index + bin_base) * kHists + warp_index;
          const Lanes<uint32_t> a = w.shared_load(hist, at), b = w.shared_load(hist, at + offset);
          w.compute(1);
          w.shared_store(hist, at, a + b);
        });
      }
    w.sync();
    w.if_(tid < kBins, [&] {
      const Lanes<uint32_t> v = w.shared_load(hist, tid * kHists);
      w.compute(kGapStore);
      w.store(0x70, hists_, tid + int64_t(bx) * kBins, v.as<uint64_t>());
    });
  }

  uint32_t n_, sets_;
  uint64_t seed_;
  float binb_[kBins + 1] = {};
  uint32_t steps_[kBins + 1] = {};
  DeviceArray<float> data_;
  DeviceArray<uint64_t> hists_;
};

}  // namespace

void register_parboil_tpacf(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/tpacf";
  p.suite = "Parboil 2.5, CUDA";
  p.source =
      "github.com/abduld/Parboil @a4c63da, benchmarks/tpacf/src/cuda (tpacf_kernel.cu, main.cu, model_io.cc)";
  p.input =
      "Parboil's medium input (taken as 4,096 points per set, 100 random sets: -n 100 -p 4096), its data "
      "files replaced by seeded points uniform on the sphere (ra, dec in degrees, converted as model_io.cc "
      "does); scaled to 20 random sets, 41 CTAs (the pair loop has no global access but a host cost of "
      "32 lanes x 256 pairs x 256 x 16 chunks per warp): each CTA's sets keep their 48 KiB and their "
      "reuse, the footprint goes from 4.8 to 1.0 MiB, 225 K warp instructions";
  p.papers = "reuse distance (003)";
  p.kernels = "gen_hists";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t points = s.get_uint("points", 4096, 1, uint64_t(1) << 20);
    const uint64_t sets = s.get_uint("sets", 20, 1, 10000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Tpacf>(uint32_t(points), uint32_t(sets), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
