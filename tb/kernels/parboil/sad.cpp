// Parboil SAD (cuda version), the sums of absolute differences of H.264 motion estimation over a 33 x 33
// search window (1,089 positions, padded to 1,096), for the 7 block sizes of every 16 x 16 macroblock: the
// 4 x 4 SADs come from mb_sad_calc (NOT PORTED: it reads the reference frame through a 2-D texture and its
// cache, which is why paper 003 leaves it out too), then larger_sad_calc_8 (a CTA of 32 x 4 threads per
// macroblock, a warp per 8 x 8 block) sums them into the 8 x 4, 4 x 8 and 8 x 8 SADs and
// larger_sad_calc_16 (a CTA of 32 threads per macroblock) sums the 8 x 8 ones into the 16 x 8, 8 x 16 and
// 16 x 16 SADs. Both read and write the SADs two at a time (16-bit pairs as 32-bit words), a lane per pair
// of positions, 18 rounds of 32 (the last one lane): 4 loads and 5 stores a round. Addresses follow the
// source's loop; sm_75's PTX unrolls it by 4 after a remainder loop that runs lane 0 one round ahead,
// loads the four words in the order i01, i11, i10, i00: the source's order is kept here.
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on largerBlocks.cu: PTX between
// the memory instructions.
constexpr uint32_t kGapEntry8 = 75, kGapEntry16 = 49;  // the block pointers and the loop's setup
constexpr uint32_t kGapAdd = 1;                        // the addition before each store
constexpr uint32_t kGapLoop = 3;  // the loop's end (unrolled by 4: 7 per 4 rounds, 8 in the remainder)
constexpr uint32_t kRegs8 = 32, kRegs16 = 26;                           // ptxas -v, sm_75; no shared memory
constexpr int64_t kMaxPos = 1089, kPadded = 1096, kHalf = kPadded / 2;  // sad.h; a word holds 2 SADs
constexpr int64_t kWords = (kMaxPos + 1) / 2;                           // 545 words per block
constexpr uint32_t kMaxSad4 = 16 * 255;  // a 4 x 4 SAD of 8-bit pixels: sums stay within 16 bits

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Sad : public KernelPort {
 public:
  Sad(uint32_t width, uint32_t height, uint64_t seed) : mbw_(width / 16), mbh_(height / 16), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    mbs_ = int64_t(mbw_) * mbh_;
    // d_cur_image (read by mb_sad_calc only: zero here); the reference frame is a cudaArray (a texture).
    cur_ = mem.alloc<uint16_t>("d_cur_image", size_t(mbs_) * 256);
    sads_ = mem.alloc<uint32_t>("d_sads", size_t(41 * kPadded * mbs_ / 2));  // cudaMemset 0
    // mb_sad_calc's output, the 16 4 x 4 SADs of every macroblock (type 7, from 25 * mbs * 1096): seeded
    // values in [0, 16 * 255] for the 1,089 positions, the padding left zero.
    uint64_t s = seed_;
    uint16_t* sad = reinterpret_cast<uint16_t*>(sads_.host().data());
    for (int64_t b = 0; b < 16 * mbs_; ++b)
      for (int64_t p = 0; p < kMaxPos; ++p)
        sad[(25 * mbs_ + b) * kPadded + p] = uint16_t(splitmix(s) % (kMaxSad4 + 1));
  }

  void run(Launcher& host) override {
    KernelLaunch k8;
    k8.name = "larger_sad_calc_8";
    k8.grid = {mbw_, mbh_, 1};
    k8.block = {32, 4, 1};
    k8.regs_per_thread = kRegs8;
    k8.body = [this](Warp& w) { calc_8(w); };
    host.launch(std::move(k8));
    KernelLaunch k16;
    k16.name = "larger_sad_calc_16";
    k16.grid = {mbw_, mbh_, 1};
    k16.block = {32, 1, 1};
    k16.regs_per_thread = kRegs16;
    k16.body = [this](Warp& w) { calc_16(w); };
    host.launch(std::move(k16));
  }

  std::string check() const override {
    // Each larger block's SAD at each position: the sum of its 4 x 4 SADs, from the type-7 region.
    const uint16_t* sad = reinterpret_cast<const uint16_t*>(sads_.host().data());
    auto sad4 = [&](int64_t mb, int64_t row, int64_t col, int64_t p) {
      return uint32_t(sad[(25 * mbs_ + mb * 16 + row * 4 + col) * kPadded + p]);
    };
    // Type t (1..6): rows x cols of 4 x 4 blocks per block, blocks per macroblock, first block's index.
    struct Type {
      int64_t rows, cols, per_row, count, first;
    };
    const Type types[6] = {{4, 4, 1, 1, 0}, {2, 4, 1, 2, 1}, {4, 2, 2, 2, 3},
                           {2, 2, 2, 4, 5}, {1, 2, 2, 8, 9}, {2, 1, 4, 8, 17}};
    for (int t = 0; t < 6; ++t) {
      const Type& ty = types[t];
      for (int64_t mb = 0; mb < mbs_; ++mb)
        for (int64_t b = 0; b < ty.count; ++b) {
          const int64_t r0 = b / ty.per_row * ty.rows, c0 = b % ty.per_row * ty.cols;
          for (int64_t p = 0; p < kMaxPos + 1; ++p) {
            uint32_t sum = 0;
            for (int64_t r = 0; r < ty.rows; ++r)
              for (int64_t c = 0; c < ty.cols; ++c) sum += sad4(mb, r0 + r, c0 + c, p);
            const int64_t at = (ty.first * mbs_ + mb * ty.count + b) * kPadded + p;
            if (sad[at] != uint16_t(sum))
              return "SAD type " + std::to_string(t + 1) + " [" + std::to_string(at) +
                     "] = " + std::to_string(sad[at]) + ", expected " + std::to_string(sum);
          }
        }
    }
    return "";
  }

 private:
  // One round of a kernel: 4 words in, 5 out. in/out: word offsets of the blocks (a 16-bit offset / 2).
  void round(Warp& w, const Int& pos, int64_t in, const int64_t (&in_step)[4], const int64_t (&out)[5],
             uint32_t pc) {
    const Lanes<uint32_t> i00 = w.load(pc, sads_, pos + in);
    const Lanes<uint32_t> i01 = w.load(pc + 0x10, sads_, pos + (in + in_step[1]));
    const Lanes<uint32_t> i10 = w.load(pc + 0x20, sads_, pos + (in + in_step[2]));
    const Lanes<uint32_t> i11 = w.load(pc + 0x30, sads_, pos + (in + in_step[3]));
    w.compute(kGapAdd);
    w.store(pc + 0x40, sads_, pos + out[0], i00 + i10);
    w.compute(kGapAdd);
    w.store(pc + 0x50, sads_, pos + out[1], i01 + i11);
    w.compute(kGapAdd);
    w.store(pc + 0x60, sads_, pos + out[2], i00 + i01);
    w.compute(kGapAdd);
    w.store(pc + 0x70, sads_, pos + out[3], i10 + i11);
    w.compute(kGapAdd);
    w.store(pc + 0x80, sads_, pos + out[4], (i00 + i01) + (i10 + i11));
    w.compute(kGapLoop);
  }

  void calc_8(Warp& w) {
    // threadIdx.y is the warp: its 8 x 8 block (tx, ty) of the macroblock.
    const int64_t y = w.warp_in_cta(), tx = y & 1, ty = y >> 1;
    const int64_t mbi = (int64_t(w.block_idx().y) * mbw_ + w.block_idx().x) * kPadded;
    const int64_t bi = (mbs_ * 25 + (ty * 8 + tx * 2)) * kPadded + mbi * 16;
    const int64_t bo6 = ((mbs_ << 4) + mbs_ + (ty * 4 + tx * 2)) * kPadded + mbi * 8;
    const int64_t bo5 = ((mbs_ << 3) + mbs_ + (ty * 4 + tx)) * kPadded + mbi * 8;
    const int64_t bo4 = ((mbs_ << 2) + mbs_ + (ty * 2 + tx)) * kPadded + mbi * 4;
    const int64_t steps[4] = {0, kHalf, 4 * kHalf, 5 * kHalf};
    const int64_t out[5] = {bo6 / 2, bo6 / 2 + kHalf, bo5 / 2, bo5 / 2 + 2 * kHalf, bo4 / 2};
    w.compute(kGapEntry8);
    w.for_(w.thread_idx_x(), kWords, 32, [&](const Int& pos) { round(w, pos, bi / 2, steps, out, 0x10); });
  }

  void calc_16(Warp& w) {
    const int64_t m = mbs_ * kPadded;
    const int64_t mbi = (int64_t(w.block_idx().y) * mbw_ + w.block_idx().x) * kPadded;
    const int64_t bi = ((m + mbi) << 2) + m, bo3 = ((m + mbi) << 1) + m, bo2 = m + mbi * 2, bo1 = mbi;
    const int64_t steps[4] = {0, kHalf, 2 * kHalf, 3 * kHalf};
    const int64_t out[5] = {bo3 / 2, bo3 / 2 + kHalf, bo2 / 2, bo2 / 2 + kHalf, bo1 / 2};
    w.compute(kGapEntry16);
    w.for_(w.thread_idx_x(), kWords, 32, [&](const Int& pos) { round(w, pos, bi / 2, steps, out, 0x100); });
  }

  uint32_t mbw_, mbh_;
  uint64_t seed_;
  int64_t mbs_ = 0;
  DeviceArray<uint16_t> cur_;
  DeviceArray<uint32_t> sads_;
};

}  // namespace

void register_parboil_sad(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/sad";
  p.suite = "Parboil 2.5, CUDA";
  p.source = "github.com/abduld/Parboil @a4c63da, benchmarks/sad/src/cuda (largerBlocks.cu, main.cu, sad.h)";
  p.input =
      "Parboil's large input (taken as a 1920 x 1072 frame pair, 120 x 67 macroblocks; sad has no medium "
      "one) scaled to 1920 x 512 (120 x 32 macroblocks, 345 MiB of SADs instead of 723): the kernels stream "
      "each macroblock's SADs once, so rows only add length; 3.11 M warp instructions instead of 6.51 M. "
      "mb_sad_calc is not ported (texture reads; paper 003 excludes it too): its 4 x 4 SADs are seeded "
      "values in [0, 4080]";
  p.papers = "reuse distance (003)";
  p.kernels = "larger_sad_calc_8, larger_sad_calc_16 (mb_sad_calc not ported)";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t width = s.get_uint("width", 1920, 16, 16384) / 16 * 16;  // multiples of 16 (main.cu)
    const uint64_t height = s.get_uint("height", 512, 16, 16384) / 16 * 16;
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Sad>(uint32_t(width), uint32_t(height), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
