// Parboil CUTCP (cuda version), the electrostatic potential of a box of atoms on a lattice, summed over
// the atoms within a cutoff: cuda_cutoff_potential_lattice6overlap, launched once per xy plane of 8 x 8 x 8
// lattice regions, a CTA of 8 x 2 x 8 threads per region, each thread 4 points (y, y + 2, y + 4, y + 6).
// The host sorts the atoms into 4 A bins of 8 atom slots (float4: x, y, z, q; q = 0 ends a bin) and puts a
// neighbour list of bin offsets in constant memory. Per round of 32 neighbour bins each half-warp caches up
// to 4 bins into shared memory (two coalesced loads of 16 floats per bin), a barrier, every thread sums the
// cached atoms' contributions from shared memory, a barrier; at the end each thread stores its 4 energies
// into its region (regions stored one after another). Atoms that do not fit their bin go to the CPU (host
// work, not ported).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>
#ifdef __SSE2__
#include <immintrin.h>
#endif

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on cutoff6overlap.cu: PTX between
// the memory instructions (the shared stores of the cached bins add one each, in the machinery).
constexpr uint32_t kGapEntry = 68;     // indices, coordinates, the CTA's bin index (4 shared stores)
constexpr uint32_t kGapRound = 6;      // the round's test and the bin index from shared memory
constexpr uint32_t kGapBin = 16;       // the neighbour's offset (constant memory) and address
constexpr uint32_t kGapBinSlot = 5;    // the shared slot, before the shared store
constexpr uint32_t kGapCacheBack = 6;  // the caching loop's increment and tests
constexpr uint32_t kGapSum = 9;        // after the first barrier: numbins, stopbin, the bin loop's setup
constexpr uint32_t kGapBinTop = 5, kGapBinEnd = 3;  // each cached bin
constexpr uint32_t kGapAtomTest = 3;                // load q, test it (a zero ends the bin)
constexpr uint32_t kGapAtom = 23;     // dx, dz, dy, r2 and the four cutoff tests (shared loads included)
constexpr uint32_t kGapEnergy = 7;    // one energy update, when a lane of the warp is within the cutoff
constexpr uint32_t kGapPair = 4;      // the atom loop (unrolled by 2) going round
constexpr uint32_t kGapRoundEnd = 3;  // after the second barrier
constexpr uint32_t kGapStoreFirst = 6, kGapStore = 4;
constexpr uint32_t kRegs = 35, kShmem = 4116;  // ptxas -v, sm_75
constexpr int kBinDepth = 8, kBinFloats = 32, kCacheBins = 32, kRegion = 512;
constexpr float kBinLength = 4.0f, kBinInvLen = 1.0f / kBinLength;
constexpr float kH = 0.5f, kCutoff = 12.0f, kPadding = 0.5f;  // main.c

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Atom {
  float x, y, z, q;
};

// One atom's contribution to a thread's 4 points, in the kernel's order (rsqrtf as 1 / sqrt on the host):
// e[p] for the points at dy, dy - 2h, dy - 4h, dy - 6h; in[p] whether point p is within the cutoff.
struct Contribution {
  static void add(float ax, float ay, float az, float aq, float x, float y, float z, float two_h,
                  float cutoff2, float inv_cutoff2, float* e, bool* in) {
    const float dx = ax - x, dz = az - z;
    const float dxdz2 = dx * dx + dz * dz;
    float dy = ay - y;
    for (int p = 0; p < 4; ++p) {
      if (p) dy -= two_h;
      const float r2 = dy * dy + dxdz2;
      in[p] = r2 < cutoff2;
      if (in[p]) {
        const float s = 1.0f - r2 * inv_cutoff2;
        e[p] += aq * (1.0f / std::sqrt(r2)) * s * s;
      }
    }
  }
};

// The lanes' part of Contribution::add for one point (dy stepped by `step` first): the same operations
// (IEEE single precision, correctly rounded, so the same bits), added where within the cutoff; whether any
// lane is. Four lanes at a time with SSE where there is SSE (the compiler keeps sqrtf's errno branch).
bool lanes_point(float aq, float* dy, const float* dxdz2, float step, float cutoff2, float inv_cutoff2,
                 float* e) {
#ifdef __SSE2__
  const __m128 vstep = _mm_set1_ps(step), vc2 = _mm_set1_ps(cutoff2), vinv = _mm_set1_ps(inv_cutoff2);
  const __m128 vaq = _mm_set1_ps(aq), one = _mm_set1_ps(1.0f);
  __m128 any = _mm_setzero_ps();
  for (unsigned l = 0; l < kWarpSize; l += 4) {
    const __m128 y = _mm_sub_ps(_mm_loadu_ps(dy + l), vstep);
    _mm_storeu_ps(dy + l, y);
    const __m128 r2 = _mm_add_ps(_mm_mul_ps(y, y), _mm_loadu_ps(dxdz2 + l));
    const __m128 in = _mm_cmplt_ps(r2, vc2);
    const __m128 sc = _mm_sub_ps(one, _mm_mul_ps(r2, vinv));
    const __m128 v = _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(vaq, _mm_div_ps(one, _mm_sqrt_ps(r2))), sc), sc);
    const __m128 old = _mm_loadu_ps(e + l);
    const __m128 sum = _mm_add_ps(old, v);
    _mm_storeu_ps(e + l, _mm_or_ps(_mm_and_ps(in, sum), _mm_andnot_ps(in, old)));
    any = _mm_or_ps(any, in);
  }
  return _mm_movemask_ps(any) != 0;
#else
  bool any = false;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    dy[l] -= step;
    const float r2 = dy[l] * dy[l] + dxdz2[l];
    if (r2 < cutoff2) {
      const float sc = 1.0f - r2 * inv_cutoff2;
      e[l] += aq * (1.0f / std::sqrt(r2)) * sc * sc;
      any = true;
    }
  }
  return any;
#endif
}

class Cutcp : public KernelPort {
 public:
  Cutcp(float lx, float ly, float lz, uint32_t density_milli, uint64_t seed)
      : lx_(lx), ly_(ly), lz_(lz), density_milli_(density_milli), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // The atoms: a seeded box of water (TIP3P charges, O then its two H 0.9572 A away).
    uint64_t s = seed_;
    auto uni = [&] { return float(double(splitmix(s) >> 11) * 0x1.0p-53); };
    const uint64_t n_mol = uint64_t(double(lx_) * ly_ * lz_ * density_milli_ / 1000.0 / 3.0);
    std::vector<Atom> atoms;
    atoms.reserve(n_mol * 3);
    for (uint64_t m = 0; m < n_mol; ++m) {
      const Atom o{uni() * lx_, uni() * ly_, uni() * lz_, -0.834f};
      atoms.push_back(o);
      for (int k = 0; k < 2; ++k) {
        float dx = 2 * uni() - 1, dy = 2 * uni() - 1, dz = 2 * uni() - 1;
        const float n = std::sqrt(dx * dx + dy * dy + dz * dz) + 1e-6f;
        atoms.push_back({o.x + 0.9572f * dx / n, o.y + 0.9572f * dy / n, o.z + 0.9572f * dz / n, 0.417f});
      }
    }
    // main.c: the extent, padded; the lattice.
    float lo[3] = {atoms[0].x, atoms[0].y, atoms[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
    for (const Atom& a : atoms) {
      const float c[3] = {a.x, a.y, a.z};
      for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], c[d]), hi[d] = std::max(hi[d], c[d]);
    }
    int n[3];
    for (int d = 0; d < 3; ++d) {
      lo[d] -= kPadding, hi[d] += kPadding;
      n[d] = int(std::floor((hi[d] - lo[d]) / kH)) + 1;
    }
    // gpu_compute_cutoff_potential_lattice6overlap: regions, bins, the neighbour list, the binning.
    for (int d = 0; d < 3; ++d) region_dim_[d] = int(std::ceil(float(n[d]) / 8.0f));
    const int lnall = 8 * region_dim_[0] * 8 * region_dim_[1] * 8 * region_dim_[2];
    c_ = int(std::ceil(kCutoff * kBinInvLen));
    for (int d = 0; d < 3; ++d) bin_dim_[d] = int(std::ceil(8 * region_dim_[d] * kH * kBinInvLen)) + 2 * c_;
    const int nbins = bin_dim_[0] * bin_dim_[1] * bin_dim_[2];
    bin_zero_ = int64_t((c_ * bin_dim_[1] + c_) * bin_dim_[0] + c_) * kBinFloats;
    // 8h = 4 A = the bin length: the list around one bin.
    const float sq3 = std::sqrt(3.0f), r2 = (kCutoff + sq3 * kBinLength) * (kCutoff + sq3 * kBinLength);
    for (int k = -c_; k <= c_; ++k)
      for (int j = -c_; j <= c_; ++j)
        for (int i = -c_; i <= c_; ++i)
          if (!(float(i * i + j * j + k * k) * kBinLength * kBinLength >= r2)) nbr_.push_back({i, j, k});
    std::vector<float> bins(size_t(nbins) * kBinFloats, 0.0f);
    std::vector<int> count(size_t(nbins), 0);
    const int64_t cnt_zero = (c_ * bin_dim_[1] + c_) * bin_dim_[0] + c_;
    for (const Atom& a : atoms) {
      const float p[4] = {a.x - lo[0], a.y - lo[1], a.z - lo[2], a.q};
      const int i = int(std::floor(p[0] * kBinInvLen)), j = int(std::floor(p[1] * kBinInvLen)),
                k = int(std::floor(p[2] * kBinInvLen));
      if (i >= -c_ && i < bin_dim_[0] - c_ && j >= -c_ && j < bin_dim_[1] - c_ && k >= -c_ &&
          k < bin_dim_[2] - c_ && a.q != 0) {
        const int64_t index = (int64_t(k) * bin_dim_[1] + j) * bin_dim_[0] + i;
        int& b = count[size_t(cnt_zero + index)];
        if (b < kBinDepth) {
          for (int f = 0; f < 4; ++f) bins[size_t(bin_zero_ + index * kBinFloats + b * 4 + f)] = p[f];
          ++b;
        } else {
          ++extra_;  // computed on the CPU
        }
      }
    }
    region_ = mem.alloc<float>("regionZeroCuda", size_t(lnall));  // cudaMemset 0
    bins_ = mem.alloc<float>("binBaseCuda", bins.size());
    bins_.host() = std::move(bins);
  }

  void run(Launcher& host) override {
    for (int zr = 0; zr < region_dim_[2]; ++zr) {
      KernelLaunch k;
      k.name = "cuda_cutoff_potential_lattice6overlap";
      k.grid = {uint32_t(region_dim_[0]), uint32_t(region_dim_[1]), 1};
      k.block = {8, 2, 8};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, zr](Warp& w) { body(w, zr); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override {
    const float cutoff2 = kCutoff * kCutoff, inv_cutoff2 = 1.0f / cutoff2, two_h = 2.0f * kH;
    const int nb = int(nbr_.size());
    for (int zr = 0; zr < region_dim_[2]; ++zr)
      for (int yr = 0; yr < region_dim_[1]; ++yr)
        for (int xr = 0; xr < region_dim_[0]; ++xr) {
          const int bx = bin_of(xr), by = bin_of(yr), bz = bin_of(zr);
          const int64_t region = ((int64_t(zr) * region_dim_[1] + yr) * region_dim_[0] + xr) * kRegion;
          for (int tz = 0; tz < 8; ++tz)
            for (int ty = 0; ty < 2; ++ty)
              for (int tx = 0; tx < 8; ++tx) {
                const float x = float(8 * xr + tx) * kH, y = float(8 * yr + ty) * kH,
                            z = float(8 * zr + tz) * kH;
                float e[4] = {0, 0, 0, 0};
                bool in[4];
                for (int b = 0; b < nb; ++b) {
                  const float* bin = &bins_[size_t(bin_zero_ + bin_index(bx, by, bz, b) * kBinFloats)];
                  for (int a = 0; a < kBinDepth && bin[4 * a + 3] != 0.0f; ++a)
                    Contribution::add(bin[4 * a], bin[4 * a + 1], bin[4 * a + 2], bin[4 * a + 3], x, y, z,
                                      two_h, cutoff2, inv_cutoff2, e, in);
                }
                for (int p = 0; p < 4; ++p) {
                  const int64_t i = region + tz * 64 + (ty + 2 * p) * 8 + tx;
                  if (region_[size_t(i)] != e[p])
                    return "region[" + std::to_string(i) + "] = " + std::to_string(region_[size_t(i)]) +
                           ", expected " + std::to_string(e[p]);
                }
              }
        }
    return "";
  }

  int extra_atoms() const { return extra_; }

 private:
  // myBinIndex from the region's centre.
  static int bin_of(int region_index) {
    return int(std::floor(float(8 * region_index + 4) * kH * kBinInvLen));
  }
  int64_t bin_index(int bx, int by, int bz, int nbr) const {
    const int i = bx + nbr_[size_t(nbr)][0], j = by + nbr_[size_t(nbr)][1], k = bz + nbr_[size_t(nbr)][2];
    return (int64_t(k) * bin_dim_[1] + j) * bin_dim_[0] + i;
  }

  void body(Warp& w, int zr) {
    const int xr = int(w.block_idx().x), yr = int(w.block_idx().y);
    const int64_t nb = int64_t(nbr_.size());
    const Int& tid = w.thread_in_block();
    const Int half = tid >> 4, tidmask = tid & 15;
    const int bx = bin_of(xr), by = bin_of(yr), bz = bin_of(zr);
    std::vector<float>& cache = w.shared<float>(0, kCacheBins * kBinDepth * 4);
    float px[kWarpSize], py[kWarpSize], pz[kWarpSize];
    for (unsigned l = 0; l < kWarpSize; ++l) {
      px[l] = float(8 * xr + int(w.thread_idx_x().v[l])) * kH;
      py[l] = float(8 * yr + int(w.thread_idx_y().v[l])) * kH;
      pz[l] = float(8 * zr + int(w.thread_idx_z().v[l])) * kH;
    }
    const float cutoff2 = kCutoff * kCutoff, inv_cutoff2 = 1.0f / cutoff2, two_h = 2.0f * kH;
    // The warp's points span px, py .. py + 6h, pz: an atom farther than the cutoff from that box is out
    // of every lane's reach (with a margin for rounding), which skips the lane arithmetic, not its count.
    float box_lo[3] = {px[0], py[0], pz[0]}, box_hi[3] = {px[0], py[0] + 3 * two_h, pz[0]};
    for (unsigned l = 1; l < kWarpSize; ++l) {
      box_lo[0] = std::min(box_lo[0], px[l]), box_hi[0] = std::max(box_hi[0], px[l]);
      box_lo[1] = std::min(box_lo[1], py[l]), box_hi[1] = std::max(box_hi[1], py[l] + 3 * two_h);
      box_lo[2] = std::min(box_lo[2], pz[l]), box_hi[2] = std::max(box_hi[2], pz[l]);
    }
    float energy[4][kWarpSize] = {};
    Int nbrid = half;
    w.compute(kGapEntry);
    for (int64_t total = 0, numbins = kCacheBins; total < nb; total += numbins) {
      const Int startoff = half * kBinFloats;
      w.compute(kGapRound);
      Int bincnt = 0;
      w.while_([&] { return bincnt < 4 && nbrid < nb; },
               [&] {
                 Int bin;
                 for (uint32_t b = w.active(); b; b &= b - 1) {
                   const unsigned l = unsigned(__builtin_ctz(b));
                   bin.v[l] = bin_zero_ + bin_index(bx, by, bz, int(nbrid.v[l])) * kBinFloats;
                 }
                 const Int bin_slot = startoff + (bincnt << 8);
                 w.compute(kGapBin);
                 const Float lo = w.load(0x10, bins_, bin + tidmask);
                 w.compute(kGapBinSlot);
                 w.shared_store(cache, bin_slot + tidmask, lo);
                 const Float hi = w.load(0x20, bins_, bin + tidmask + 16);
                 w.shared_store(cache, bin_slot + tidmask + 16, hi);
                 w.compute(kGapCacheBack);
                 for (uint32_t b = w.active(); b; b &= b - 1) {
                   const unsigned l = unsigned(__builtin_ctz(b));
                   bincnt.v[l] += 1;
                   nbrid.v[l] += 8;
                 }
               });
      w.sync();
      w.compute(kGapSum);
      if (total + kCacheBins > nb) numbins = nb - total;
      // The cached bins, from shared memory: the same atoms for every lane, in the source's order.
      for (int64_t b = 0; b < numbins; ++b) {
        w.compute(kGapBinTop);
        for (int a = 0; a < kBinDepth; ++a) {
          const float* atom = &cache[size_t(b * kBinFloats + a * 4)];
          w.compute(kGapAtomTest);
          if (atom[3] == 0.0f) break;
          w.compute(kGapAtom);
          float d2 = 0.0f;  // the atom's squared distance to the warp's box
          for (int d = 0; d < 3; ++d) {
            const float gap = std::max(std::max(box_lo[d] - atom[d], atom[d] - box_hi[d]), 0.0f);
            d2 += gap * gap;
          }
          if (d2 <= cutoff2 * 1.001f + 1.0f) {
            // Contribution::add for the 32 lanes at once (the same operations, selected where in range).
            float dxdz2[kWarpSize], dy[kWarpSize];
            for (unsigned l = 0; l < kWarpSize; ++l) {
              const float dx = atom[0] - px[l], dz = atom[2] - pz[l];
              dxdz2[l] = dx * dx + dz * dz;
              dy[l] = atom[1] - py[l];
            }
            bool any[4];
            for (int p = 0; p < 4; ++p)
              any[p] = lanes_point(atom[3], dy, dxdz2, p ? two_h : 0.0f, cutoff2, inv_cutoff2, energy[p]);
            for (int p = 0; p < 4; ++p)
              if (any[p]) w.compute(kGapEnergy);
          }
          if (a % 2) w.compute(kGapPair);
        }
        w.compute(kGapBinEnd);
      }
      w.sync();
      w.compute(kGapRoundEnd);
    }
    // myRegionAddr[(tid >> 4) * 64 + (tid & 15) + 16 p] = energy p.
    const int64_t region = ((int64_t(zr) * region_dim_[1] + yr) * region_dim_[0] + xr) * kRegion;
    const Int slot = half * 64 + tidmask + region;
    for (int p = 0; p < 4; ++p) {
      Float e;
      for (unsigned l = 0; l < kWarpSize; ++l) e.v[l] = energy[p][l];
      w.compute(p ? kGapStore : kGapStoreFirst);
      w.store(0x30 + 0x10 * uint32_t(p), region_, slot + 16 * p, e);
    }
  }

  float lx_, ly_, lz_;
  uint32_t density_milli_;
  uint64_t seed_;
  int region_dim_[3] = {0, 0, 0}, bin_dim_[3] = {0, 0, 0};
  int c_ = 0, extra_ = 0;
  int64_t bin_zero_ = 0;
  std::vector<std::array<int, 3>> nbr_;
  DeviceArray<float> region_, bins_;
};

}  // namespace

void register_parboil_cutcp(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/cutcp";
  p.suite = "Parboil 2.5, CUDA";
  p.source = "github.com/abduld/Parboil @a4c63da, benchmarks/cutcp/src/cuda (cutoff6overlap.cu, main.c)";
  p.input =
      "Parboil's large input (watbox.sl100.pqr, a water box 100 A on a side; cutcp has no medium one), its "
      "data file replaced by a seeded water box (O uniform, two H 0.9572 A away in random directions, TIP3P "
      "charges, 0.1 atoms per A^3 as the source assumes), h = 0.5 A, cutoff 12 A (main.c): 26 x 26 regions "
      "per launch, 335 neighbour bins. Scaled in z only, 100 -> 40 A (11 of the 26 launches, one per z "
      "plane of regions): each launch keeps the original's CTAs and bin working set, 3.3 M warp "
      "instructions (loads, stores, barriers) instead of 7.7 M; atoms that overflow their bin (computed on "
      "the CPU by the benchmark) are left out";
  p.papers = "reuse distance (003)";
  p.kernels = "cuda_cutoff_potential_lattice6overlap";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t lx = s.get_uint("side_x", 100, 4, 1000);  // A
    const uint64_t ly = s.get_uint("side_y", 100, 4, 1000);
    const uint64_t lz = s.get_uint("side_z", 40, 4, 1000);
    const uint64_t density = s.get_uint("atoms_per_1000_a3", 100, 3, 1000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Cutcp>(float(lx), float(ly), float(lz), uint32_t(density), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
