// CUDA SDK matrixMul: C = A B with shared-memory tiling, MatrixMulCUDA<32> (the sample's block_size; <16>
// with block = 16): CTAs of 32 x 32 threads, each CTA one 32 x 32 tile of C, each thread one element. Per
// tile step along the shared dimension, every thread loads one element of A's tile and one of B's (a warp:
// one row of each tile, 128 B) into shared memory, a barrier, 32 multiply-adds from the shared tiles (fully
// unrolled), a barrier. At the end each thread stores its element of C. The host launches the kernel once to
// warm up, then nIter times on the same input. The multiply-adds are fused (fma.rn.f32 in the PTX); the port
// and the reference both use fmaf in the kernel's order, so results compare exactly.
#include <cmath>
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on MatrixMulCUDA<32>: PTX between
// the memory instructions (shared-memory accesses add one each, in the machinery); <16> has the same gaps.
constexpr uint32_t kGapEntry = 38;  // parameters, tile bases, loop test
constexpr uint32_t kGapFma = 1;     // each fma after its two shared loads
constexpr uint32_t kGapStep = 5;    // pointer steps and the loop test, before the next tile's load of A
constexpr uint32_t kGapExit = 7;    // loop exit and C's index
// Registers: ptxas -v gives 44 (<32>) and 39 (<16>) on sm_75. A 1024-thread CTA on a 32768-register SM
// (Fermi, where the sample runs <32>) needs at most 32, and ptxas -maxrregcount=32 compiles <32> without
// spills: 32 for <32>.
constexpr uint32_t kRegs32 = 32, kRegs16 = 39;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// fmaf(a, b, c) lane by lane, with the operands' dependences.
Float fma(const Float& a, const Float& b, const Float& c) {
  Float r = c;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = std::fmaf(a.v[l], b.v[l], c.v[l]);
  r.deps |= a.deps;
  r.deps |= b.deps;
  return r;
}

class MatrixMul : public KernelPort {
 public:
  MatrixMul(uint32_t block, uint32_t wa, uint32_t ha, uint32_t wb, uint32_t launches, uint64_t seed)
      : block_(block), wa_(wa), ha_(ha), wb_(wb), launches_(launches), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    a_ = mem.alloc<float>("d_A", size_t(wa_) * ha_);
    b_ = mem.alloc<float>("d_B", size_t(wb_) * wa_);  // hB = wA
    c_ = mem.alloc<float>("d_C", size_t(wb_) * ha_);
    if (seed_ == 0) {  // the sample's ConstantInit: A = 1, B = 0.01
      for (auto& v : a_.host()) v = 1.0f;
      for (auto& v : b_.host()) v = 0.01f;
      return;
    }
    uint64_t s = seed_;
    for (auto& v : a_.host()) v = float(splitmix(s) % 2048) / 1024.0f - 1.0f;
    for (auto& v : b_.host()) v = float(splitmix(s) % 2048) / 1024.0f - 1.0f;
  }

  void run(Launcher& host) override {
    for (uint32_t it = 0; it < launches_; ++it) {
      KernelLaunch k;
      k.name = "MatrixMulCUDA<" + std::to_string(block_) + ">";
      k.grid = {wb_ / block_, ha_ / block_, 1};
      k.block = {block_, block_, 1};
      k.regs_per_thread = block_ == 32 ? kRegs32 : kRegs16;
      k.shmem_per_cta = 2 * block_ * block_ * sizeof(float);  // As and Bs (ptxas -v: 8192 and 2048 B)
      k.body = [this](Warp& w) { body(w); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override {
    for (uint32_t row = 0; row < ha_; ++row)
      for (uint32_t col = 0; col < wb_; ++col) {
        float want = 0.0f;
        for (uint32_t k = 0; k < wa_; ++k)
          want = std::fmaf(a_[size_t(row) * wa_ + k], b_[size_t(k) * wb_ + col], want);
        const float got = c_[size_t(row) * wb_ + col];
        if (got != want)
          return "C[" + std::to_string(row) + "][" + std::to_string(col) + "] = " + std::to_string(got) +
                 ", expected " + std::to_string(want);
      }
    return "";
  }

 private:
  void body(Warp& w) {
    const int64_t wa = wa_, wb = wb_, blk = block_;
    const int64_t bx = w.block_idx().x, by = w.block_idx().y;
    const Int& tx = w.thread_idx_x();
    const Int& ty = w.thread_idx_y();
    const int64_t a_begin = wa * blk * by, a_end = a_begin + wa - 1, a_step = blk;
    const int64_t b_begin = blk * bx, b_step = blk * wb;
    std::vector<float>& as = w.shared<float>(0, blk * blk);
    std::vector<float>& bs = w.shared<float>(1, blk * blk);
    Float csub = 0.0f;
    w.compute(kGapEntry);
    // The tile loop's bounds are the CTA's: every thread runs the same trips.
    for (int64_t a = a_begin, b = b_begin; a <= a_end; a += a_step, b += b_step) {
      const Int tile = ty * blk + tx;
      w.shared_store(as, tile, w.load(0x10, a_, a + wa * ty + tx));
      w.shared_store(bs, tile, w.load(0x20, b_, b + wb * ty + tx));
      w.sync();
      for (int64_t k = 0; k < blk; ++k) {
        const Float x = w.shared_load(as, ty * blk + k);
        const Float y = w.shared_load(bs, tx + k * blk);
        csub = fma(x, y, csub);
        w.compute(kGapFma);
      }
      w.sync();
      w.compute(kGapStep);
    }
    w.compute(kGapExit);
    const int64_t c = wb * blk * by + blk * bx;
    w.store(0x30, c_, c + wb * ty + tx, csub);
  }

  uint32_t block_, wa_, ha_, wb_, launches_;
  uint64_t seed_;
  DeviceArray<float> a_, b_, c_;
};

}  // namespace

void register_sdk_matrixmul(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/matrixmul";
  p.suite = "CUDA SDK samples";
  p.source = "github.com/NVIDIA/cuda-samples @c94ff366, Samples/0_Introduction/matrixMul (matrixMul.cu)";
  p.input =
      "the sample's default, unscaled: block_size 32, A 320 x 320, B 640 x 320 (wA = hA = 320, wB = 640; "
      "A, B, C 1.95 MB, paper 004's 1.9 MB), A = 1 and B = 0.01 as ConstantInit sets them (seed = 0; "
      "another seed: uniform values in [-1, 1)); 2 launches, the warm-up and one of the nIter = 300 timed "
      "ones (paper 004 lists 2 kernels; every launch repeats the same stream): 0.52 M warp instructions. "
      "block = 16 runs MatrixMulCUDA<16> (256-thread CTAs, for SMs that hold fewer than 1024 threads)";
  p.papers = "Decoupled L1D (002, MM), H-Xbar LLC (004, MM: 1.9 MB of private LLC data)";
  p.kernels = "MatrixMulCUDA<32> (MatrixMulCUDA<16> with block = 16)";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t block = s.get_uint("block", 32, 16, 32);
    if (block != 16 && block != 32) throw ConfigError("sdk/matrixmul: block must be 16 or 32");
    // The grid covers C with whole tiles: every size a multiple of the block.
    const uint64_t wa = s.get_uint("wa", 320, block, 8192) / block * block;
    const uint64_t ha = s.get_uint("ha", 320, block, 8192) / block * block;
    const uint64_t wb = s.get_uint("wb", 640, block, 8192) / block * block;
    const uint64_t launches = s.get_uint("launches", 2, 1, 301);
    const uint64_t seed = s.get_uint("seed", 0);
    return std::make_unique<MatrixMul>(uint32_t(block), uint32_t(wa), uint32_t(ha), uint32_t(wb),
                                       uint32_t(launches), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
