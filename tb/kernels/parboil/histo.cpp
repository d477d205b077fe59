// Parboil HISTO (cuda version): a saturating (255) histogram of an image whose pixels are bin indices into an
// histo_width x histo_height histogram, mostly near its centre. Per iteration the host runs four kernels:
// histo_prescan_kernel (64 CTAs of 512 threads sample 1/8 of the image twice for a mean and a deviation per
// thread, reduce them in shared memory and narrow the histogram's central range [min, max], in blocks of
// 24 Ki bins, with a global atomicMin / atomicMax by thread 0); the host reads the range back;
// histo_intermediates_kernel (a CTA per 16 image rows, a thread per pixel pair read as one uint2) turns
// every pixel into a uchar4 (range block, index hi, index lo, byte offset); histo_main_kernel, a grid of
// 14 x (max - min + 1) CTAs of 768 threads: each CTA clears a 24 Ki-bin byte histogram in shared memory,
// (util.h's KB = 24; the size key kb = 16 or 48 is its other setting: 512 or 1024 threads, 16 or 48 Ki bins)
// walks every 14th slice of the mappings, counts the pixels of its own range block with shared atomicAdd
// (a byte that wraps is recorded by global atomicAdds into global_overflow), the CTAs of row 0 also count
// pixels outside [min, max] into 16-bit counters of global_histo (a load, then an atomicAdd while the
// counter is below 255), and stores the shared histogram to global_subhisto; histo_final_kernel (42 CTAs of
// 512 threads) saturates the 16-bit counters below and above the range (ushort4 loads, zeroing stores),
// sums overflow and the 14 sub-histograms inside it (a uint4 load and store, 14 loads) and stores uchar4s.
// The same buffers are read at several widths (input as uint and uint2, global_histo as uint and ushort4,
// global_overflow as uint and uint4): each width is a DeviceArray at the allocation's address, and the host
// code copies the contents between the views between launches.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions
// (shared-memory accesses and shared atomics add one each, in the machinery or here).
constexpr uint32_t kPreEntry = 24;    // prescan: stride, addr, end and the first bounds test
constexpr uint32_t kPreLoop = 8;      // per sampled element (convert, add, count, step, test, address)
constexpr uint32_t kPreSecond = 9;    // the mean's division and shared store, to the second pass
constexpr uint32_t kPreStep = 2;      // a reduction step's test and add (its shared accesses add 4)
constexpr uint32_t kPreMin = 14;      // thread 0: mean and deviation, the bound, before atomicMin
constexpr uint32_t kPreMax = 6;       // before atomicMax
constexpr uint32_t kIntEntry = 23;    // intermediates: the row and column indices, skip, the first address
constexpr uint32_t kIntStore = 18;    // calculateBin and the store address
constexpr uint32_t kIntNext = 2;      // the next row's address
constexpr uint32_t kMainEntry = 19;   // main: scan range, first index, the clear loop's test
constexpr uint32_t kMainClear = 7;    // per cleared word (the shared store adds one)
constexpr uint32_t kMainSetup = 7;    // after the barrier: blockIdx.y test, loop stride and base
constexpr uint32_t kMainLoad = 2;     // the mapping's address
constexpr uint32_t kMainTest = 7;     // unpack the uchar4, range test
constexpr uint32_t kMainShared = 7;   // the shared word's address (the shared atomic adds one)
constexpr uint32_t kMainWrapped = 4;  // the wrapped-byte test
constexpr uint32_t kMainOvf0 = 13, kMainOvf1 = 7, kMainOvf2 = 10, kMainOvf3 = 10;
constexpr uint32_t kMainOutside = 18;  // loop test, range test, bin, bin / 2 and the 16-bit half
constexpr uint32_t kMainSat = 6;       // the counter's half, its test and the increment
constexpr uint32_t kMainCopy = 9;      // store_index (the barrier between)
constexpr uint32_t kMainCopyStep = 9;  // per copied word (the shared load adds one)
constexpr uint32_t kFinEntry = 21;     // final: parameters, start offset, the low region's bound
constexpr uint32_t kFinLoad = 2, kFinZero = 1;
constexpr uint32_t kFinSat = 14;       // saturate four 16-bit counters, the uchar4 address
constexpr uint32_t kFinBack = 3;       // loop increment and test
constexpr uint32_t kFinMidSetup = 36;  // the middle region's bounds and the 13 sub-histogram offsets
constexpr uint32_t kFinSub = 13;       // add a sub-histogram word's bytes, the next address
constexpr uint32_t kFinMidSat = 19;    // the last word's bytes, saturate, the uchar4 address
constexpr uint32_t kFinUpSetup = 7;
// ptxas -v, sm_75, for KB = 24 (histo_intermediates: 22 registers for KB = 16); histo_main's shared memory
// is KB KiB.
constexpr uint32_t kRegsPrescan = 18, kRegsInter = 26, kRegsInter16 = 22, kRegsMain = 24, kRegsFinal = 48;
constexpr uint32_t kShmemPrescan = 4096;

// util.h
// util.h (KB, BINS_PER_BLOCK and THREADS are the size key kb: 24 as shipped, 16 or 48)
constexpr int64_t kBlockX = 14;
constexpr uint32_t kPrescanThreads = 512, kPrescanBlocks = 64, kUnroll = 16;
constexpr uint32_t kFinalThreads = 512;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A standard normal sample (Box-Muller on two 53-bit uniforms).
double normal(uint64_t& s) {
  const double u1 = (double(splitmix(s) >> 11) + 1.0) * 0x1p-53, u2 = double(splitmix(s) >> 11) * 0x1p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// cvt.rzi.u32.f32: toward zero, saturating, NaN to 0.
uint32_t f2u(float x) {
  if (!(x > 0.0f)) return 0;
  if (x >= 4294967296.0f) return UINT32_MAX;
  return uint32_t(x);
}

struct U4 {
  uint32_t x = 0, y = 0, z = 0, w = 0;
};

// dst = src in the warp's active lanes (a variable assigned inside a branch or loop).
template <class T>
void set_active(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

// a / b lane by lane as IEEE division (0 / 0 is NaN, as on the GPU; Lanes' operator/ gives 0).
Float fdiv(const Float& a, const Float& b) {
  Float r = a;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = a.v[l] / b.v[l];
  r.deps |= b.deps;
  return r;
}

// fma.rn.f32 lane by lane.
Float fma(const Float& a, const Float& b, const Float& c) {
  Float r = c;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = std::fma(a.v[l], b.v[l], c.v[l]);
  r.deps |= a.deps;
  r.deps |= b.deps;
  return r;
}

// atomicAdd(&s[idx], add) on shared memory: lane by lane in lane order, one instruction; the old values.
Int shared_atomic_add(Warp& w, std::vector<uint32_t>& s, const Int& idx, const Int& add) {
  Int prev;
  prev.deps = idx.deps;
  prev.deps |= add.deps;
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    uint32_t& e = s.at(size_t(idx.v[l]));
    prev.v[l] = e;
    e = uint32_t(e + uint32_t(add.v[l]));
  }
  w.compute(1);
  return prev;
}

// calculateBin: the uchar4 (block, indexhi, indexlo, offset) as one little-endian word.
Int mapping(const Int& bin, int64_t kb) {
  const Int offset = (bin % 4) * 8, lo = (bin >> 2) % 256, hi = (bin >> 10) % kb;
  const Int block = (bin / (kb * 1024)) & 0xff;
  return block | (hi << 8) | (lo << 16) | (offset << 24);
}

class Histo : public KernelPort {
 public:
  Histo(uint32_t kb, uint32_t img_w, uint32_t img_h, uint32_t histo_w, uint32_t histo_h, uint32_t sigma_row,
        uint32_t sigma_col, uint32_t outliers, uint32_t iterations, uint64_t seed)
      : kb_(kb),
        img_w_(img_w),
        img_h_(img_h),
        histo_w_(histo_w),
        histo_h_(histo_h),
        sigma_row_(sigma_row),
        sigma_col_(sigma_col),
        outliers_(outliers),
        iterations_(iterations),
        seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const uint64_t even = (img_w_ + 1) / 2 * 2, rows = (img_h_ + kUnroll - 1) / kUnroll * kUnroll;
    const uint64_t wh = uint64_t(img_w_) * histo_h_;
    input_ = mem.alloc<uint32_t>("input", even * rows);
    ranges_ = mem.alloc<uint32_t>("ranges", 2);
    map_ = mem.alloc<uint32_t>("sm_mappings", uint64_t(img_w_) * img_h_);  // uchar4
    subhisto_ = mem.alloc<uint32_t>("global_subhisto", kBlockX * wh);
    const uint64_t histo_base = mem.alloc<uint16_t>("global_histo", wh).base();  // unsigned short
    overflow_ = mem.alloc<uint32_t>("global_overflow", wh);
    const uint64_t final_base = mem.alloc<uint8_t>("final_histo", wh).base();  // unsigned char
    histo32_ = DeviceArray<uint32_t>("global_histo", histo_base, wh / 2);
    histo64_ = DeviceArray<uint64_t>("global_histo (ushort4)", histo_base, wh / 4);
    final_ = DeviceArray<uint32_t>("final_histo (uchar4)", final_base, wh / 4);
    generate();
    for (uint32_t y = 0; y < img_h_; ++y)
      std::copy(img_.begin() + ptrdiff_t(uint64_t(y) * img_w_),
                img_.begin() + ptrdiff_t(uint64_t(y + 1) * img_w_),
                input_.host().begin() + ptrdiff_t(y * even));
    input2_ = DeviceArray<uint64_t>("input (uint2)", input_.base(), input_.size() / 2);
    std::memcpy(input2_.host().data(), input_.host().data(), input2_.bytes());
    overflow4_ = DeviceArray<U4>("global_overflow (uint4)", overflow_.base(), wh / 4);
  }

  void run(Launcher& host) override {
    for (uint32_t it = 0; it < iterations_; ++it) {
      ranges_[0] = UINT32_MAX;  // cudaMemcpy of {UINT32_MAX, 0}
      ranges_[1] = 0;
      launch(host, "histo_prescan_kernel", {kPrescanBlocks, 1, 1}, {kPrescanThreads, 1, 1}, kRegsPrescan,
             kShmemPrescan, [this](Warp& w) { prescan(w); });
      min_ = ranges_[0];
      max_ = ranges_[1];
      if (max_ < min_ || max_ - min_ >= 65535)
        throw std::runtime_error("parboil/histo: the prescan's range [" + std::to_string(min_) + ", " +
                                 std::to_string(max_) + "] is no grid");
      std::fill(subhisto_.host().begin(), subhisto_.host().begin() + ptrdiff_t(uint64_t(img_w_) * histo_h_),
                0u);
      launch(host, "histo_intermediates_kernel", {(img_h_ + kUnroll - 1) / kUnroll, 1, 1},
             {(img_w_ + 1) / 2, 1, 1}, kb_ == 16 ? kRegsInter16 : kRegsInter, 0,
             [this](Warp& w) { intermediates(w); });
      launch(host, "histo_main_kernel", {uint32_t(kBlockX), max_ - min_ + 1, 1}, {threads(), 1, 1}, kRegsMain,
             uint32_t(bins_per_block()), [this](Warp& w) { main_kernel(w); });
      // global_histo and global_overflow as the final kernel reads them (ushort4, uint4).
      std::memcpy(histo64_.host().data(), histo32_.host().data(), histo64_.bytes());
      std::memcpy(static_cast<void*>(overflow4_.host().data()), overflow_.host().data(), overflow4_.bytes());
      launch(host, "histo_final_kernel", {uint32_t(kBlockX) * 3, 1, 1}, {kFinalThreads, 1, 1}, kRegsFinal, 0,
             [this](Warp& w) { final_kernel(w); });
      std::memcpy(histo32_.host().data(), histo64_.host().data(), histo64_.bytes());
      std::memcpy(overflow_.host().data(), overflow4_.host().data(), overflow4_.bytes());
    }
  }

  std::string check() const override {
    std::vector<uint32_t> count(size_t(histo_w_) * histo_h_, 0);
    for (uint32_t v : img_) ++count[v];
    // The source's sub-histogram slices (blockIdx.x * bins / 4 + range * words, `words` each) overlap when
    // the range reaches past the last whole block: its result then depends on the CTAs' order.
    if ((uint64_t(max_) + 1) * bins_per_block() > count.size())
      return "the prescan's range [" + std::to_string(min_) + ", " + std::to_string(max_) +
             "] reaches past the histogram's last whole block: the source's result is undefined";
    for (size_t b = 0; b < count.size(); ++b) {
      const uint32_t got = final_[b / 4] >> (8 * (b % 4)) & 0xff, want = std::min<uint32_t>(count[b], 255);
      if (got != want)
        return "final_histo[" + std::to_string(b) + "] = " + std::to_string(got) + ", expected " +
               std::to_string(want);
    }
    return "";
  }

 private:
  int64_t bins_per_block() const { return kb_ * 1024; }
  int64_t words() const { return bins_per_block() / 4; }  // a CTA's shared histogram, 4 byte bins a word
  uint32_t threads() const { return kb_ == 24 ? 768 : kb_ == 48 ? 1024 : 512; }

  template <class F>
  static void launch(Launcher& host, const char* name, Dim3 grid, Dim3 block, uint32_t regs, uint32_t shmem,
                     F body) {
    KernelLaunch k;
    k.name = name;
    k.grid = grid;
    k.block = block;
    k.regs_per_thread = regs;
    k.shmem_per_cta = shmem;
    k.body = std::move(body);
    host.launch(std::move(k));
  }

  void prescan(Warp& w) {
    const int64_t size = int64_t(img_w_) * img_h_;
    const int64_t bdx = w.block_dim().x, bid = w.block_idx().x;
    const int64_t stride = size / int64_t(w.grid_dim().x);
    const int64_t end = bid * stride + stride / 8;
    const Int& tid = w.thread_in_block();
    auto& avg_s = w.shared<float>(0, kPrescanThreads);
    auto& dev_s = w.shared<float>(1, kPrescanThreads);

    w.compute(kPreEntry);
    Int addr = tid + bid * stride;
    Float avg = 0.0f;
    Int count = 0;
    w.while_([&] { return addr < end; },
             [&] {
               const Float v = w.load(0x10, input_, addr).as<float>();
               set_active(w, avg, avg + v);
               set_active(w, count, count + 1);
               set_active(w, addr, addr + bdx);
               w.compute(kPreLoop);
             });
    avg = fdiv(avg, count.as<float>());
    w.compute(kPreSecond);
    w.shared_store(avg_s, tid, avg);
    Int addr2 = tid + bid * stride;
    Float dev = 0.0f;
    w.while_([&] { return addr2 < end; },
             [&] {
               const Float d = w.load(0x20, input_, addr2).as<float>() - avg;
               set_active(w, dev, fma(d, d, dev));
               set_active(w, addr2, addr2 + bdx);
               w.compute(kPreLoop);
             });
    dev = map(fdiv(dev, count.as<float>()), [](float x) { return std::sqrt(x); });
    w.shared_store(dev_s, tid, dev);
    auto sum = [&](int64_t s) {
      w.compute(kPreStep);
      w.if_(tid < s, [&] {
        w.shared_store(avg_s, tid, w.shared_load(avg_s, tid + s) + w.shared_load(avg_s, tid));
        w.shared_store(dev_s, tid, w.shared_load(dev_s, tid + s) + w.shared_load(dev_s, tid));
      });
    };
    for (int64_t s = kPrescanThreads / 2; s >= 32; s >>= 1) {
      w.sync();
      sum(s);
    }
    for (int64_t s = 16; s >= 2; s >>= 1) sum(s);  // warp-synchronous: no barrier
    w.if_(tid == 0, [&] {
      const Float a =
          (w.shared_load(avg_s, Int(0)) + w.shared_load(avg_s, Int(1))) * (1.0f / kPrescanThreads);
      const Float d =
          (w.shared_load(dev_s, Int(1)) + w.shared_load(dev_s, Int(0))) * (1.0f / kPrescanThreads);
      const Float ten = d * 10.0f;
      const Int lo = map(a - ten, [&](float x) { return int64_t(f2u(x) / uint32_t(bins_per_block())); });
      const Int hi = map(a + ten, [&](float x) { return int64_t(f2u(x) / uint32_t(bins_per_block())); });
      w.compute(kPreMin);
      w.atomic_min(0x30, ranges_, Int(0), lo);
      w.compute(kPreMax);
      w.atomic_max(0x40, ranges_, Int(1), hi);
    });
  }

  void intermediates(Warp& w) {
    const int64_t width = img_w_, pitch = (img_w_ + 1) / 2, bdx = w.block_dim().x;
    const int64_t line = int64_t(kUnroll) * w.block_idx().x;
    const Int& tid = w.thread_in_block();
    Int load = tid + line * pitch;
    Int store = tid + line * width;
    const Bool keep = !(Int(width % 2) != 0 && tid == bdx - 1);
    w.compute(kIntEntry);
    for (uint32_t i = 0; i < kUnroll; ++i) {  // #pragma unroll: distinct instructions per row
      const uint32_t pc = 0x100 + i * 0x30;
      if (i) w.compute(kIntNext);
      const Int v = w.load(pc, input2_, load).as<int64_t>();
      w.compute(kIntStore);
      w.store(pc + 0x10, map_, store, mapping(v & 0xffffffff, kb_));
      w.if_(keep, [&] {
        w.compute(kIntStore);
        w.store(pc + 0x20, map_, store + bdx, mapping((v >> 32) & 0xffffffff, kb_));
      });
      load = load + pitch;
      store = store + width;
    }
  }

  void main_kernel(Warp& w) {
    const int64_t bdx = w.block_dim().x, gdx = w.grid_dim().x, bx = w.block_idx().x, by = w.block_idx().y;
    const int64_t num = int64_t(img_w_) * img_h_, range = int64_t(min_) + by;
    const Int& tid = w.thread_in_block();
    auto& sub = w.shared<uint32_t>(0, words());

    w.compute(kMainEntry);
    w.for_(tid, words(), bdx, [&](const Int& i) {
      w.compute(kMainClear);
      w.shared_store(sub, i, 0u);
    });
    w.sync();
    w.compute(kMainSetup);
    w.for_(tid + bx * bdx, num, bdx * gdx, [&](const Int& i) {
      w.compute(kMainLoad);
      const Int sm = w.load(0x10, map_, i).as<int64_t>();
      const Int blk = sm & 0xff, hi = (sm >> 8) & 0xff, lo = (sm >> 16) & 0xff, off = (sm >> 24) & 0xff;
      const Int bin = blk * bins_per_block() + off / 8 + (lo << 2) + (hi << 10);
      w.compute(kMainTest);
      // testIncrementLocal
      w.if_(blk == range, [&] {
        w.compute(kMainShared);
        const Int prev = shared_atomic_add(w, sub, hi * 256 + lo, Int(1) << off);
        w.compute(kMainWrapped);
        w.if_(((prev >> off) & 0xff) == 0xff, [&] {
          const Int p1 = (prev >> (off + 8)) & 0xff, p2 = (prev >> (off + 16)) & 0xff;
          const Int p3 = (prev >> (off + 24)) & 0xff;
          auto carry = [](const Int& p) {
            return select<int64_t>(p < 0xff, int64_t(0xffffffff), int64_t(0xff));
          };
          w.compute(kMainOvf0);
          w.atomic_add(0x20, overflow_, bin, 256u);
          w.if_(off < 24, [&] {
            w.compute(kMainOvf1);
            w.atomic_add(0x30, overflow_, bin + 1, carry(p1));
          });
          w.if_(off < 16 && p1 == 0xff, [&] {
            w.compute(kMainOvf2);
            w.atomic_add(0x40, overflow_, bin + 2, carry(p2));
          });
          // As the source: bin + 3 on p2 alone (bin + 1 may not have carried).
          w.if_(off < 8 && p2 == 0xff, [&] {
            w.compute(kMainOvf3);
            w.atomic_add(0x50, overflow_, bin + 3, carry(p3));
          });
        });
      });
      // testIncrementGlobal, by the CTAs of row 0 only
      if (by == 0)
        w.if_(blk < int64_t(min_) || blk > int64_t(max_), [&] {
          const Int half = bin >> 1, shift = (bin & 1) * 16;
          w.compute(kMainOutside);
          const Int old = w.load(0x60, histo32_, half).as<int64_t>();
          w.compute(kMainSat);
          w.if_(((old >> shift) & 0xffff) < 255,
                [&] { w.atomic_add(0x70, histo32_, half, Int(1) << shift); });
        });
    });
    const int64_t store_index = bx * (int64_t(histo_h_) * histo_w_ / 4) + range * bins_per_block() / 4;
    w.compute(kMainCopy);
    w.sync();
    w.for_(tid, words(), bdx, [&](const Int& i) {
      const Lanes<uint32_t> v = w.shared_load(sub, i);
      w.compute(kMainCopyStep);
      w.store(0x80, subhisto_, i + store_index, v);
    });
  }

  void final_kernel(Warp& w) {
    const int64_t start_step = int64_t(w.grid_dim().x) * w.block_dim().x;
    const Int start = w.global_x();
    const int64_t low = int64_t(min_) * bins_per_block(), mid = (int64_t(max_) - min_ + 1) * bins_per_block();
    const int64_t all = int64_t(histo_h_) * histo_w_;
    auto sat = [](const Int& x) { return min(x, int64_t(255)); };
    // The 16-bit counters of [from, to) (ushort4 groups): load, zero, store the saturated bytes.
    auto outside = [&](int64_t from, int64_t to, uint32_t pc) {
      w.for_(start + from, to, start_step, [&](const Int& i) {
        w.compute(kFinLoad);
        const Lanes<uint64_t> h = w.load(pc, histo64_, i);
        w.compute(kFinZero);
        w.store(pc + 0x10, histo64_, i, uint64_t(0));
        const Int q = h.as<int64_t>();
        const Int out = sat(q & 0xffff) | sat((q >> 16) & 0xffff) << 8 | sat((q >> 32) & 0xffff) << 16 |
                        sat((q >> 48) & 0xffff) << 24;
        w.compute(kFinSat);
        w.store(pc + 0x20, final_, i, out);
        w.compute(kFinBack);
      });
    };
    w.compute(kFinEntry);
    outside(0, low / 4, 0x10);
    w.compute(kFinMidSetup);
    w.for_(start + low / 4, (low + mid) / 4, start_step, [&](const Int& i) {
      w.compute(kFinLoad);
      const Lanes<U4> o = w.load(0x40, overflow4_, i);
      w.compute(kFinZero);
      w.store(0x50, overflow4_, i, U4{});
      Int x, y, z, t;
      for (unsigned l = 0; l < kWarpSize; ++l)
        x.v[l] = o.v[l].x, y.v[l] = o.v[l].y, z.v[l] = o.v[l].z, t.v[l] = o.v[l].w;
      x.deps = y.deps = z.deps = t.deps = o.deps;
      for (int64_t j = 0; j < kBlockX; ++j) {  // #pragma unroll
        w.compute(j ? kFinSub : kFinLoad);
        const Int b = w.load(0x60 + uint32_t(j) * 0x10, subhisto_, i + j * all / 4).as<int64_t>();
        x = (x + (b & 0xff)) & 0xffffffff;
        y = (y + ((b >> 8) & 0xff)) & 0xffffffff;
        z = (z + ((b >> 16) & 0xff)) & 0xffffffff;
        t = (t + ((b >> 24) & 0xff)) & 0xffffffff;
      }
      w.compute(kFinMidSat);
      w.store(0x140, final_, i, sat(x) | sat(y) << 8 | sat(z) << 16 | sat(t) << 24);
      w.compute(kFinBack);
    });
    w.compute(kFinUpSetup);
    outside((low + mid) / 4, all / 4, 0x150);
  }

  // The image: pixel bins of a 2-D normal around the histogram's centre (sigma_row rows, sigma_col
  // columns, clipped to the histogram), `outliers` per 100,000 pixels uniform over the whole histogram.
  void generate() {
    uint64_t s = seed_;
    img_.resize(uint64_t(img_w_) * img_h_);
    const uint64_t bins = uint64_t(histo_w_) * histo_h_;
    for (auto& v : img_) {
      if (splitmix(s) % 100000 < outliers_) {
        v = uint32_t(splitmix(s) % bins);
        continue;
      }
      const double r = std::round(histo_h_ / 2.0 + sigma_row_ * normal(s));
      const double c = std::round(histo_w_ / 2.0 + sigma_col_ * normal(s));
      const uint32_t row = uint32_t(std::clamp(r, 0.0, double(histo_h_ - 1)));
      const uint32_t col = uint32_t(std::clamp(c, 0.0, double(histo_w_ - 1)));
      v = row * histo_w_ + col;
    }
  }

  int64_t kb_;
  uint32_t img_w_, img_h_, histo_w_, histo_h_, sigma_row_, sigma_col_, outliers_, iterations_;
  uint64_t seed_;
  uint32_t min_ = 0, max_ = 0;
  std::vector<uint32_t> img_;
  DeviceArray<uint32_t> input_, ranges_, map_, subhisto_, histo32_, overflow_, final_;
  DeviceArray<uint64_t> input2_, histo64_;
  DeviceArray<U4> overflow4_;
};

}  // namespace

void register_parboil_histo(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/histo";
  p.suite = "Parboil 2.5, CUDA";
  p.source =
      "github.com/abduld/Parboil @a4c63da, benchmarks/histo/src/cuda (main.cu, util.h, histo_prescan.cu, "
      "histo_intermediates.cu, histo_main.cu, histo_final.cu)";
  p.input =
      "Parboil's histo has no medium input; its data file img.bin (default: a 996 x 1040 image of bin "
      "indices "
      "into a 256 x 4096 histogram, 20 iterations; large: 10,000 iterations, its image size not checked "
      "offline, the default's used) is replaced by a seeded image of the same size whose pixels fall near "
      "the histogram's centre (a 2-D normal, sigma 48 rows and 16 columns) plus 100 per 100,000 uniform "
      "outliers (img_width = 996, img_height = 1040, histo_width = 256, histo_height = 4096, sigma_row = 48, "
      "sigma_col = 16, outliers = 100, seed = 1): the prescan's range is 10 blocks of 24 Ki bins. 2 "
      "iterations (paper 003 caps Parboil's iterations at 2): 0.95 M warp instructions (memory and barriers; "
      "histo_main 0.36 M per iteration, 140 CTAs). kb = 16 (util.h's KB = 16: 512 threads, 16 Ki-bin blocks) "
      "fits SMs of 512 threads";
  p.papers = "TSC (000), G-Cache (001), Decoupled L1D (002), reuse distance (003: all but histo_main)";
  p.kernels = "histo_prescan_kernel, histo_intermediates_kernel, histo_main_kernel, histo_final_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t kb = s.get_uint("kb", 24, 16, 48);
    const uint64_t iw = s.get_uint("img_width", 996, 1, 2048);
    const uint64_t ih = s.get_uint("img_height", 1040, 16, 1 << 16);
    const uint64_t hw = s.get_uint("histo_width", 256, 4, 1 << 16);
    const uint64_t hh = s.get_uint("histo_height", 4096, 1, 1 << 16);
    const uint64_t sr = s.get_uint("sigma_row", 48, 0, 1 << 16);
    const uint64_t sc = s.get_uint("sigma_col", 16, 0, 1 << 16);
    const uint64_t out = s.get_uint("outliers", 100, 0, 100000);
    const uint64_t it = s.get_uint("iterations", 2, 1, 1000);
    const uint64_t seed = s.get_uint("seed", 1);
    if (kb != 16 && kb != 24 && kb != 48)
      throw ConfigError("parboil/histo: kb (util.h's KB) is 16, 24 or 48");
    if (ih % kUnroll) throw ConfigError("parboil/histo: img_height must be a multiple of 16 (UNROLL)");
    if (hw > iw)
      throw ConfigError(
          "parboil/histo: histo_width must not exceed img_width (the source sizes global_histo and "
          "final_histo "
          "by img_width)");
    const uint64_t block = kb * 1024;
    if (hw * hh % 4 || hw * hh < block || hw * hh > 255 * block)
      throw ConfigError(
          "parboil/histo: histo_width * histo_height must be a multiple of 4 in [1, 255] blocks of kb Ki "
          "bins "
          "(blocks are numbered by a byte)");
    return std::make_unique<Histo>(uint32_t(kb), uint32_t(iw), uint32_t(ih), uint32_t(hw), uint32_t(hh),
                                   uint32_t(sr), uint32_t(sc), uint32_t(out), uint32_t(it), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
