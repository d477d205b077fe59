// SHOC FFT (level 1, CUDA): batches of 512-point complex single-precision FFTs, one CTA of 64 threads per
// FFT (Volkov and Kazian's radix-8 design). Each thread loads 8 float2 (stride 64), does a radix-8 butterfly,
// twiddles, exchanges through 2304 B of shared memory (x and y parts separately, 4 barriers), a second
// radix-8 + twiddle + exchange (3 barriers), a last radix-8, and stores 8 float2 back in place. The host
// runs `passes` times: FFT512_device (forward), IFFT512_device (inverse, normalised by 1/512) and
// chk512_device, which compares the first half of the batch with the second (the input repeats itself, so
// both halves must be bit-identical) and sets a one-byte fail flag on a difference. The butterflies here are
// the codelets' float arithmetic with the host's cosf/sinf for __cosf/__sinf.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 on codelets.h + fftlib.cu's kernels (float2), PTX between the memory
// instructions and barriers (shared accesses add one each in the machinery); ptxas -v for regs and smem.
constexpr uint32_t kGapEntry = 12;     // index arithmetic before the 8 loads (FFT and IFFT)
constexpr uint32_t kGapStage1 = 136;   // FFT8 + twiddle before the first transpose's st.shared
constexpr uint32_t kGapStage2 = 131;   // FFT8 + twiddle before the second transpose
constexpr uint32_t kGapBar = 1;        // after the storex, before its bar.sync
constexpr uint32_t kGapAfterBar = 2;   // after that bar.sync, before the loadx
constexpr uint32_t kGapLastFft = 52;   // last FFT8 before the first st.global (forward)
constexpr uint32_t kGapLastIfft = 68;  // last IFFT8 + the /512 normalisation (inverse)
constexpr uint32_t kGapStore = 2;      // between the 8 st.global.v2
constexpr uint32_t kGapChkEntry = 13;  // chk512: index arithmetic before the loads
constexpr uint32_t kGapChkHalf = 3;    // chk512: between the a[] and b[] loads
constexpr uint32_t kGapChkCmp = 4;     // chk512: setp, setp, or, bra per element (PTX merges them)
constexpr uint32_t kRegsFft = 54, kRegsIfft = 55, kRegsChk = 40;  // ptxas -v, sm_75
constexpr uint32_t kSmem = 2304;                                  // ptxas -v: float smem[8*8*9]
constexpr uint32_t kBlock = 64;
constexpr int kN = 512;

struct F2 {
  float x = 0, y = 0;
};

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Complex arithmetic in float, as the codelets' cmul/cadd/csub.
F2 cmul(F2 a, F2 b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
F2 cmul(F2 a, float b) {
  return {b * a.x, b * a.y};
}
void fft2(F2& a0, F2& a1) {
  const F2 c0 = a0;
  a0 = {c0.x + a1.x, c0.y + a1.y};
  a1 = {c0.x - a1.x, c0.y - a1.y};
}
// sign -1: forward (exp(-i...)), +1: inverse.
void fft4(F2& a0, F2& a1, F2& a2, F2& a3, float sign) {
  fft2(a0, a2);
  fft2(a1, a3);
  a3 = cmul(a3, F2{0, sign});
  fft2(a0, a1);
  fft2(a2, a3);
}
void fft8(F2* a, float sign) {
  const float sqrt1_2 = float(M_SQRT1_2);
  fft2(a[0], a[4]);
  fft2(a[1], a[5]);
  fft2(a[2], a[6]);
  fft2(a[3], a[7]);
  a[5] = cmul(cmul(a[5], F2{1, sign}), sqrt1_2);
  a[6] = cmul(a[6], F2{0, sign});
  a[7] = cmul(cmul(a[7], F2{-1, sign}), sqrt1_2);
  fft4(a[0], a[1], a[2], a[3], sign);
  fft4(a[4], a[5], a[6], a[7], sign);
}
constexpr int kRev8[8] = {0, 4, 2, 6, 1, 5, 3, 7};
// a[j] *= exp(sign 2 pi i rev(j) k / n), the phase computed in double and rounded to float, as the source.
void twiddle(F2* a, int64_t k, int n, float sign) {
  for (int j = 1; j < 8; ++j) {
    const float phi = float((double(sign) * 2 * M_PI * kRev8[j] / n) * double(k));
    a[j] = cmul(a[j], F2{std::cos(phi), std::sin(phi)});
  }
}

// grid2D(): blocks in x, halved into y slices while x exceeds 65535.
Dim3 grid2d(uint32_t nblocks) {
  uint32_t slices = 1;
  while (nblocks / slices > 65535) slices *= 2;
  return {nblocks / slices, slices, 1};
}

class Fft : public KernelPort {
 public:
  Fft(uint32_t half_n_ffts, uint32_t passes, uint64_t seed)
      : half_n_ffts_(half_n_ffts), passes_(passes), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t half_n_cmplx = size_t(half_n_ffts_) * kN;
    work_ = mem.alloc<F2>("work", 2 * half_n_cmplx);
    chk_ = mem.alloc<uint8_t>("chk", 1);
    source_.resize(2 * half_n_cmplx);
    uint64_t s = seed_;
    auto rnd = [&] { return float(splitmix(s) >> 40) / float(1 << 24) * 2 - 1; };  // rand()/RAND_MAX*2-1
    for (size_t i = 0; i < half_n_cmplx; ++i) {
      source_[i].x = rnd();
      source_[i].y = rnd();
      source_[i + half_n_cmplx] = source_[i];
    }
    for (size_t i = 0; i < source_.size(); ++i) work_[i] = source_[i];
  }

  void run(Launcher& host) override {
    const uint32_t n_ffts = 2 * half_n_ffts_;
    for (uint32_t pass = 0; pass < passes_; ++pass) {
      host.launch(fft_launch(n_ffts, false));
      if (pass == 0) {
        forward_.resize(work_.size());
        for (size_t i = 0; i < work_.size(); ++i) forward_[i] = work_[i];
      }
      host.launch(fft_launch(n_ffts, true));
      host.launch(chk_launch());
      fail_ |= chk_[0] != 0;  // the host reads the flag back after each check
    }
  }

  std::string check() const override {
    // The first forward transform against a double-precision DFT of the input: every component within
    // 1e-4 (outputs have rms ~18 for inputs uniform in [-1, 1]; the float errors seen are ~2e-6).
    constexpr double kTolFwd = 1e-4, kTolRoundTrip = 1e-5;
    std::vector<double> c(kN), sn(kN);
    for (int k = 0; k < kN; ++k) c[k] = std::cos(2 * M_PI * k / kN), sn[k] = std::sin(2 * M_PI * k / kN);
    if (forward_.size() != work_.size()) return "run() did not complete a pass";
    for (size_t f = 0; f < size_t(2) * half_n_ffts_; ++f) {
      const size_t base = f * kN;
      for (int k = 0; k < kN; ++k) {
        double re = 0, im = 0;
        for (int n = 0; n < kN; ++n) {
          const int t = (n * k) % kN;  // exp(-2 pi i n k / N)
          const F2 x = source_[base + n];
          re += x.x * c[t] + x.y * sn[t];
          im += x.y * c[t] - x.x * sn[t];
        }
        const F2 g = forward_[base + k];
        if (std::fabs(g.x - re) > kTolFwd || std::fabs(g.y - im) > kTolFwd)
          return "forward FFT " + std::to_string(f) + " element " + std::to_string(k) + ": (" +
                 std::to_string(g.x) + ", " + std::to_string(g.y) + "), expected (" + std::to_string(re) +
                 ", " + std::to_string(im) + ")";
      }
    }
    // After every pass's forward + inverse the data are the input again, within kTolRoundTrip per pass.
    for (size_t i = 0; i < work_.size(); ++i)
      if (std::fabs(work_[i].x - source_[i].x) > kTolRoundTrip * passes_ ||
          std::fabs(work_[i].y - source_[i].y) > kTolRoundTrip * passes_)
        return "round trip element " + std::to_string(i) + ": (" + std::to_string(work_[i].x) + ", " +
               std::to_string(work_[i].y) + "), input (" + std::to_string(source_[i].x) + ", " +
               std::to_string(source_[i].y) + ")";
    if (fail_) return "chk512_device set the fail flag: the two halves differ";
    return "";
  }

 private:
  // FFT512_device / IFFT512_device: one 512-point transform per CTA, in place.
  KernelLaunch fft_launch(uint32_t n_ffts, bool inverse) {
    KernelLaunch k;
    k.name = inverse ? "IFFT512_device" : "FFT512_device";
    k.block = {kBlock, 1, 1};
    k.grid = grid2d(n_ffts);
    k.regs_per_thread = inverse ? kRegsIfft : kRegsFft;
    k.shmem_per_cta = kSmem;
    k.body = [this, inverse](Warp& w) {
      const float sign = inverse ? 1.0f : -1.0f;
      const uint32_t pc0 = inverse ? 0x200 : 0x100;
      const Int& tid = w.thread_idx_x();
      const int64_t block = int64_t(w.block_idx().y) * w.grid_dim().x + w.block_idx().x;
      const Int base = tid + block * kN;
      std::vector<float>& smem = w.shared<float>(0, 8 * 8 * 9);
      F2 a[kWarpSize][8];
      RegSet deps;

      w.compute(kGapEntry);
      for (int i = 0; i < 8; ++i) {  // load<8>(a, work, 64)
        const Lanes<F2> v = w.load(pc0 + 0x10 * uint32_t(i), work_, base + int64_t(i) * 64);
        for (unsigned l = 0; l < kWarpSize; ++l) a[l][i] = v.v[l];
        deps |= v.deps;
      }
      auto each = [&](auto&& f) {
        for (unsigned l = 0; l < kWarpSize; ++l) f(l, a[l]);
      };
      // Shared index of lane l: hi = tid >> 3, lo = tid & 7.
      auto transpose = [&](int64_t ds, auto l_index, int64_t dl, unsigned sync) {
        Int s_idx(Lanes<int64_t>::Uninit{}), l_idx(Lanes<int64_t>::Uninit{});
        for (unsigned l = 0; l < kWarpSize; ++l) {
          const int64_t t = tid.v[l], hi = t >> 3, lo = t & 7;
          s_idx.v[l] = hi * 8 + lo;
          l_idx.v[l] = l_index(hi, lo);
        }
        for (int part = 0; part < 2; ++part) {  // x, then y
          for (int i = 0; i < 8; ++i) {         // store: s[i*ds] = a[rev(i)].part
            Lanes<float> v(Lanes<float>::Uninit{});
            for (unsigned l = 0; l < kWarpSize; ++l) v.v[l] = part ? a[l][kRev8[i]].y : a[l][kRev8[i]].x;
            v.deps = deps;
            w.shared_store(smem, s_idx + int64_t(i) * ds, v);
          }
          if (part == 0) w.compute(kGapBar);
          if (sync & (part ? 2u : 8u)) w.sync();
          if (part == 0) w.compute(kGapAfterBar);
          for (int i = 0; i < 8; ++i) {  // load: a[i].part = l[i*dl]
            const Lanes<float> v = w.shared_load(smem, l_idx + int64_t(i) * dl);
            for (unsigned l = 0; l < kWarpSize; ++l) (part ? a[l][i].y : a[l][i].x) = v.v[l];
            deps |= v.deps;
          }
          if (sync & (part ? 1u : 4u)) w.sync();
        }
      };

      each([&](unsigned, F2* x) { fft8(x, sign); });
      for (unsigned l = 0; l < kWarpSize; ++l) twiddle(a[l], tid.v[l], 512, sign);
      w.compute(kGapStage1);
      transpose(
          66, [](int64_t hi, int64_t lo) { return lo * 66 + hi; }, 8, 0xF);

      each([&](unsigned, F2* x) { fft8(x, sign); });
      for (unsigned l = 0; l < kWarpSize; ++l) twiddle(a[l], tid.v[l] >> 3, 64, sign);
      w.compute(kGapStage2);
      transpose(
          8 * 9, [](int64_t hi, int64_t lo) { return hi * 8 * 9 + lo; }, 8, 0xE);

      each([&](unsigned, F2* x) { fft8(x, sign); });
      if (inverse)
        each([&](unsigned, F2* x) {
          for (int i = 0; i < 8; ++i) x[i].x /= 512, x[i].y /= 512;
        });
      w.compute(inverse ? kGapLastIfft : kGapLastFft);
      for (int i = 0; i < 8; ++i) {  // store<8>(a, work, 64): work[i*64] = a[rev(i)]
        if (i) w.compute(kGapStore);
        Lanes<F2> v(Lanes<F2>::Uninit{});
        for (unsigned l = 0; l < kWarpSize; ++l) v.v[l] = a[l][kRev8[i]];
        v.deps = deps;
        w.store(pc0 + 0x80 + 0x10 * uint32_t(i), work_, base + int64_t(i) * 64, v);
      }
    };
    return k;
  }

  // chk512_device: the first half's transforms against the second's, fail flag on a difference.
  KernelLaunch chk_launch() {
    KernelLaunch k;
    k.name = "chk512_device";
    k.block = {kBlock, 1, 1};
    k.grid = grid2d(half_n_ffts_);
    k.regs_per_thread = kRegsChk;
    k.body = [this](Warp& w) {
      const int64_t half_n_cmplx = int64_t(half_n_ffts_) * kN;
      const int64_t block = int64_t(w.block_idx().y) * w.grid_dim().x + w.block_idx().x;
      const Int base = w.thread_idx_x() + block * kN;
      Lanes<F2> a[8], b[8];
      w.compute(kGapChkEntry);
      for (int i = 0; i < 8; ++i) a[i] = w.load(0x300 + 0x10 * uint32_t(i), work_, base + int64_t(i) * 64);
      w.compute(kGapChkHalf);
      for (int i = 0; i < 8; ++i)
        b[i] = w.load(0x380 + 0x10 * uint32_t(i), work_, base + half_n_cmplx + int64_t(i) * 64);
      for (int i = 0; i < 8; ++i) {
        Bool diff(Lanes<bool>::Uninit{});
        for (unsigned l = 0; l < kWarpSize; ++l)
          diff.v[l] = a[i].v[l].x != b[i].v[l].x || a[i].v[l].y != b[i].v[l].y;
        diff.deps = a[i].deps;
        diff.deps |= b[i].deps;
        w.compute(kGapChkCmp);
        w.if_(diff, [&] { w.store(0x400 + 0x10 * uint32_t(i), chk_, Int(0), uint8_t(1)); });
      }
    };
    return k;
  }

  uint32_t half_n_ffts_, passes_;
  uint64_t seed_;
  DeviceArray<F2> work_;
  DeviceArray<uint8_t> chk_;
  std::vector<F2> source_, forward_;
  bool fail_ = false;
};

}  // namespace

void register_shoc_fft(PortRegistry& r) {
  PortInfo p;
  p.name = "shoc/fft";
  p.suite = "SHOC";
  p.source =
      "github.com/vetter/shoc @0aea03b, src/cuda/level1/fft (FFT.cpp runTest, fftlib.cu, codelets.h: "
      "Volkov-Kazian radix-8 512-point FFT in shared memory; the single-precision run)";
  p.input =
      "SHOC's default: -s 1 = 1 MB of float2 (half_n_ffts = 128, 256 transforms of 512 points, input halves "
      "identical), passes = 10 (forward, inverse, check each); uniform [-1, 1] input from a seeded generator "
      "(SHOC uses rand()). Not scaled: 10 passes make ~0.55 M warp instructions. mb = 8/96/256 are SHOC's "
      "-s 2/3/4; half_ffts sets the batch directly (small runs).";
  p.papers =
      "G-Cache (001, FFT: moderately cache-sensitive); Decoupled L1D (002, FFT: on-chip memory optimised)";
  p.kernels = "FFT512_device, IFFT512_device, chk512_device";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t mb = s.get_uint("mb", 1, 1, 256);
    const uint64_t half = s.get_uint("half_ffts", 0, 0, uint64_t(1) << 17);
    const uint64_t passes = s.get_uint("passes", 10, 1, 100);
    const uint64_t seed = s.get_uint("seed", 8121);
    const uint64_t half_n_ffts = half ? half : mb * 1024 * 1024 / (kN * sizeof(F2) * 2);
    return std::make_unique<Fft>(uint32_t(half_n_ffts), uint32_t(passes), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
