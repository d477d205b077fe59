// Rodinia 3.1 srad_v1 (speckle reducing anisotropic diffusion, the Heart Wall stage, CUDA): the image is
// Nr x Nc floats stored column by column (element ei is row ei % Nr of column ei / Nr). extract scales it
// down and exponentiates it; per iteration prepare copies the image and its squares into two sum arrays,
// reduce sums them block by block (512-thread blocks, a shared-memory tree; the host relaunches it on the
// block sums until one block is left), the host derives q0sqr from the two totals, srad computes the four
// directional derivatives (neighbours through the iN/iS/jW/jE index arrays) and the saturated diffusion
// coefficient, and srad2 the divergence and the image update; compress takes the log and scales back up.
// Every kernel: one thread per element, blocks of 512 threads, ceil(Ne / 512) blocks.
//
// reduce, as the source has it: a block whose threads are all busy sums its 512 values in a tree; the last
// block of a launch whose element count is not a multiple of 512 sums the largest power of two df <= nf of
// them in a tree, and thread df - 1 adds the remaining ones from d_sums[i] with i the element's index, not
// i * d_mul as the first loads use (Rodinia's code: a later launch's remainder reads the wrong elements; kept
// as written, the port and its reference compute the benchmark's value).
#include <algorithm>
#include <cmath>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

constexpr int64_t kThreads = 512;  // define.c NUMBER_THREADS

// nvcc 13.0 -arch=sm_75 -Xptxas -v (sm_70 is no longer supported): registers per thread; reduce's two
// 512-float shared arrays are its only static shared memory.
constexpr uint32_t kRegsExtract = 14, kRegsPrepare = 10, kRegsReduce = 61, kRegsSrad = 22, kRegsSrad2 = 17;
constexpr uint32_t kRegsCompress = 12, kShmemReduce = 4096;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access or barrier on the path taken (branches
// included), shared-memory accesses excluded (the port's shared accesses count one each).
constexpr uint32_t kGapExtractLd = 12, kGapExtractSt = 19;    // expf
constexpr uint32_t kGapCompressLd = 12, kGapCompressSt = 39;  // logf
constexpr uint32_t kGapPrepLd = 14, kGapPrepSt = 2, kGapPrepLd2 = 0, kGapPrepSt2 = 3;
constexpr uint32_t kGapRedLd = 24, kGapRedLd2 = 1, kGapRedSync = 1;      // the first loads, the barrier
constexpr uint32_t kGapRedMode = 8;                                      // nf, the block's path
constexpr uint32_t kGapRedTest = 3, kGapRedAdd = 1;                      // per tree level: the test; an add
constexpr uint32_t kGapRedLast = 2;                                      // the last thread's stores
constexpr uint32_t kGapRedDf = 19;                                       // the divisibility loop
constexpr uint32_t kGapRemSums = 3, kGapRemSums2 = 1, kGapRemStore = 2;  // the remainder loop (unrolled x4)
// srad: the index arithmetic (row and column), then the nine loads (the PTX loads d_iN[row] before d_I[ei];
// the port keeps the source's order), the coefficient, the five stores.
constexpr uint32_t kGapSradIdx = 34;
constexpr uint32_t kGapSradLd[9] = {kGapSradIdx, 3, 2, 3, 3, 4, 3, 3, 3};
constexpr uint32_t kGapSradCoef = 36, kGapSradSt = 2;
// srad2: the index arithmetic, ten loads (the compiler loads d_c[ei] once for cN and cW), the store.
constexpr uint32_t kGapSrad2Ld[10] = {32, 6, 6, 1, 2, 0, 4, 3, 0, 2};
constexpr uint32_t kGapSrad2St = 6;

// The original image's size (data/srad/image.pgm, 502 rows x 458 columns).
constexpr int64_t kOriRows = 502, kOriCols = 458;

int64_t blocks_for(int64_t n) {
  return n / kThreads + (n % kThreads != 0 ? 1 : 0);
}

class SradV1 : public KernelPort {
 public:
  SradV1(int64_t rows, int64_t cols, int niter, float lambda, uint32_t seed)
      : nr_(rows), nc_(cols), ne_(rows * cols), niter_(niter), lambda_(lambda), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // The image file read column by column (502 x 458 grey levels), here seeded grey levels 0..255; then
    // resize(): tiled up (or cut) to Nr x Nc, column-major.
    std::vector<float> ori(size_t(kOriRows * kOriCols));
    LibcRand rng(seed_);
    for (float& v : ori) v = float(rng.rand() % 256);
    image_.resize(size_t(ne_));
    for (int64_t j = 0, j2 = 0; j < nc_; ++j, ++j2) {
      if (j2 >= kOriCols) j2 -= kOriCols;
      for (int64_t i = 0, i2 = 0; i < nr_; ++i, ++i2) {
        if (i2 >= kOriRows) i2 -= kOriRows;
        image_[size_t(j * nr_ + i)] = ori[size_t(j2 * kOriRows + i2)];
      }
    }
    I_ = mem.alloc<float>("d_I", size_t(ne_));
    iN_ = mem.alloc<int32_t>("d_iN", size_t(nr_));
    iS_ = mem.alloc<int32_t>("d_iS", size_t(nr_));
    jE_ = mem.alloc<int32_t>("d_jE", size_t(nc_));
    jW_ = mem.alloc<int32_t>("d_jW", size_t(nc_));
    for (int64_t i = 0; i < nr_; ++i) iN_[size_t(i)] = int32_t(i - 1), iS_[size_t(i)] = int32_t(i + 1);
    for (int64_t j = 0; j < nc_; ++j) jW_[size_t(j)] = int32_t(j - 1), jE_[size_t(j)] = int32_t(j + 1);
    iN_[0] = 0, iS_[size_t(nr_ - 1)] = int32_t(nr_ - 1), jW_[0] = 0, jE_[size_t(nc_ - 1)] = int32_t(nc_ - 1);
    sums_ = mem.alloc<float>("d_sums", size_t(ne_));
    sums2_ = mem.alloc<float>("d_sums2", size_t(ne_));
    dN_ = mem.alloc<float>("d_dN", size_t(ne_));
    dS_ = mem.alloc<float>("d_dS", size_t(ne_));
    dW_ = mem.alloc<float>("d_dW", size_t(ne_));
    dE_ = mem.alloc<float>("d_dE", size_t(ne_));
    c_ = mem.alloc<float>("d_c", size_t(ne_));
    I_.host() = image_;
  }

  void run(Launcher& host) override {
    const uint32_t blocks = uint32_t(blocks_for(ne_));
    host.launch(elementwise("extract", blocks, kRegsExtract, 0x10, kGapExtractLd, kGapExtractSt,
                            [](float x) { return std::exp(x / 255); }));
    for (int iter = 0; iter < niter_; ++iter) {
      host.launch(prepare(blocks));
      int64_t blocks2 = blocks, no = ne_, mul = 1;
      while (blocks2 != 0) {
        host.launch(reduce(uint32_t(blocks2), no, mul));
        no = blocks2;
        if (blocks2 == 1) {
          blocks2 = 0;
        } else {
          mul *= kThreads;
          blocks2 = blocks_for(blocks2);
        }
      }
      host.launch(srad(blocks, q0sqr_of(sums_[0], sums2_[0])));
      host.launch(srad2(blocks));
    }
    host.launch(elementwise("compress", blocks, kRegsCompress, 0x510, kGapCompressLd, kGapCompressSt,
                            [](float x) { return std::log(x) * 255; }));
  }

  std::string check() const override {
    // The kernels run one thread after another, block after block (no block reads what another block of
    // the same launch writes); the same operations in the same order.
    const size_t n = size_t(ne_);
    std::vector<float> I = image_, sums(n), sums2(n), dN(n), dS(n), dW(n), dE(n), c(n);
    for (float& x : I) x = std::exp(x / 255);
    for (int iter = 0; iter < niter_; ++iter) {
      for (int64_t ei = 0; ei < ne_; ++ei) {
        sums[size_t(ei)] = I[size_t(ei)];
        sums2[size_t(ei)] = I[size_t(ei)] * I[size_t(ei)];
      }
      int64_t blocks2 = blocks_for(ne_), no = ne_, mul = 1;
      while (blocks2 != 0) {
        for (int64_t bx = 0; bx < blocks2; ++bx) reduce_block(sums, sums2, bx, blocks2, no, mul);
        no = blocks2;
        if (blocks2 == 1) {
          blocks2 = 0;
        } else {
          mul *= kThreads;
          blocks2 = blocks_for(blocks2);
        }
      }
      const float q0sqr = q0sqr_of(sums[0], sums2[0]);
      for (int64_t ei = 0; ei < ne_; ++ei) {
        const auto [row, col] = row_col(ei);
        const float Jc = I[size_t(ei)];
        const float n = I[size_t(iN_[size_t(row)] + nr_ * col)] - Jc;
        const float s = I[size_t(iS_[size_t(row)] + nr_ * col)] - Jc;
        const float w = I[size_t(row + nr_ * jW_[size_t(col)])] - Jc;
        const float e = I[size_t(row + nr_ * jE_[size_t(col)])] - Jc;
        const float g2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
        const float l = (n + s + w + e) / Jc;
        const float num = float((0.5 * g2) - ((1.0 / 16.0) * (l * l)));
        float den = float(1 + (0.25 * l));
        const float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        float cl = float(1.0 / (1.0 + den));
        if (cl < 0)
          cl = 0;
        else if (cl > 1)
          cl = 1;
        dN[size_t(ei)] = n, dS[size_t(ei)] = s, dW[size_t(ei)] = w, dE[size_t(ei)] = e, c[size_t(ei)] = cl;
      }
      for (int64_t ei = 0; ei < ne_; ++ei) {
        const auto [row, col] = row_col(ei);
        const float cN = c[size_t(ei)], cW = cN;
        const float cS = c[size_t(iS_[size_t(row)] + nr_ * col)];
        const float cE = c[size_t(row + nr_ * jE_[size_t(col)])];
        const size_t k = size_t(ei);
        const float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
        I[k] = float(I[k] + 0.25 * lambda_ * D);
      }
    }
    for (float& x : I) x = std::log(x) * 255;
    for (size_t k = 0; k < I.size(); ++k)
      if (!(I_[k] == I[k]) && !(std::isnan(I_[k]) && std::isnan(I[k])))
        return "d_I[" + std::to_string(k) + "] = " + std::to_string(I_[k]) + ", expected " +
               std::to_string(I[k]);
    return "";
  }

 private:
  // The host's statistics: the ROI is the whole image.
  float q0sqr_of(float total, float total2) const {
    const float meanROI = total / float(ne_);
    const float meanROI2 = meanROI * meanROI;
    const float varROI = (total2 / float(ne_)) - meanROI2;
    return varROI / meanROI2;
  }

  // srad's and srad2's row and column of element ei (column-major, Nr rows).
  std::pair<int64_t, int64_t> row_col(int64_t ei) const {
    int64_t row = (ei + 1) % nr_ - 1, col = (ei + 1) / nr_ + 1 - 1;
    if ((ei + 1) % nr_ == 0) row = nr_ - 1, col = col - 1;
    return {row, col};
  }

  // One block of reduce, thread by thread, as the kernel computes it.
  void reduce_block(std::vector<float>& sums, std::vector<float>& sums2, int64_t bx, int64_t grid, int64_t no,
                    int64_t mul) const {
    std::vector<float> p(kThreads), p2(kThreads);
    for (int64_t tx = 0; tx < kThreads; ++tx) {
      const int64_t ei = bx * kThreads + tx;
      if (ei < no) p[size_t(tx)] = sums[size_t(ei * mul)], p2[size_t(tx)] = sums2[size_t(ei * mul)];
    }
    const int64_t nf = kThreads - (grid * kThreads - no);
    int64_t top = kThreads;  // the tree's width
    if (nf != kThreads && bx == grid - 1) {
      top = 0;
      for (int64_t i = 2; i <= kThreads; i *= 2)
        if (nf >= i) top = i;
    }
    for (int64_t i = 2; i <= top; i *= 2)
      for (int64_t tx = i - 1; tx < top; tx += i) {
        p[size_t(tx)] = p[size_t(tx)] + p[size_t(tx - i / 2)];
        p2[size_t(tx)] = p2[size_t(tx)] + p2[size_t(tx - i / 2)];
      }
    if (top == kThreads) {
      sums[size_t(bx * mul * kThreads)] = p[kThreads - 1];
      sums2[size_t(bx * mul * kThreads)] = p2[kThreads - 1];
    } else {
      const size_t tx = size_t(top - 1);
      for (int64_t i = bx * kThreads + top; i < bx * kThreads + nf; ++i) {
        p[tx] = p[tx] + sums[size_t(i)];
        p2[tx] = p2[tx] + sums2[size_t(i)];
      }
      sums[size_t(bx * mul * kThreads)] = p[tx];
      sums2[size_t(bx * mul * kThreads)] = p2[tx];
    }
  }

  KernelLaunch launch_of(const char* name, uint32_t blocks, uint32_t regs) const {
    KernelLaunch k;
    k.name = name;
    k.grid = {blocks, 1, 1};
    k.block = {uint32_t(kThreads), 1, 1};
    k.regs_per_thread = regs;
    return k;
  }

  // extract and compress: d_I[ei] = f(d_I[ei]).
  template <class F>
  KernelLaunch elementwise(const char* name, uint32_t blocks, uint32_t regs, uint32_t pc, uint32_t gap_ld,
                           uint32_t gap_st, F f) {
    KernelLaunch k = launch_of(name, blocks, regs);
    k.body = [this, pc, gap_ld, gap_st, f](Warp& w) {
      const Int ei = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      w.compute(gap_ld);
      w.if_(ei < ne_, [&] {
        const Float x = w.load(pc, I_, ei);
        w.compute(gap_st);
        w.store(pc + 0x10, I_, ei, map(x, f));
      });
    };
    return k;
  }

  KernelLaunch prepare(uint32_t blocks) {
    KernelLaunch k = launch_of("prepare", blocks, kRegsPrepare);
    k.body = [this](Warp& w) {
      const Int ei = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      w.compute(kGapPrepLd);
      w.if_(ei < ne_, [&] {
        const Float x0 = w.load(0x110, I_, ei);
        w.compute(kGapPrepSt);
        w.store(0x120, sums_, ei, x0);
        // d_I[ei] * d_I[ei]: loaded again after the store (it may alias), once for both operands.
        w.compute(kGapPrepLd2);
        const Float x = w.load(0x130, I_, ei);
        w.compute(kGapPrepSt2);
        w.store(0x140, sums2_, ei, x * x);
      });
    };
    return k;
  }

  KernelLaunch reduce(uint32_t grid, int64_t no, int64_t mul) {
    KernelLaunch k = launch_of("reduce", grid, kRegsReduce);
    k.shmem_per_cta = kShmemReduce;
    k.body = [this, no, mul](Warp& w) {
      const int64_t bx = w.block_idx().x, gx = w.grid_dim().x;
      const Int tx = w.thread_idx_x();
      const Int ei = bx * kThreads + tx;
      const int64_t nf = kThreads - (gx * kThreads - no);
      auto& psum = w.shared<float>(0, size_t(kThreads));
      auto& psum2 = w.shared<float>(1, size_t(kThreads));
      w.compute(kGapRedLd);
      w.if_(ei < no, [&] {
        w.shared_store(psum, tx, w.load(0x210, sums_, ei * mul));
        w.compute(kGapRedLd2);
        w.shared_store(psum2, tx, w.load(0x220, sums2_, ei * mul));
      });
      w.compute(kGapRedSync);
      w.sync();
      w.compute(kGapRedMode);
      // The tree over the first `top` threads (all of them but in a partial last block).
      auto tree = [&](int64_t top) {
        for (int64_t i = 2; i <= top; i *= 2) {
          w.compute(kGapRedTest);
          w.if_((tx + 1) % i == 0 && tx < top, [&] {
            const Float a = w.shared_load(psum, tx) + w.shared_load(psum, tx - i / 2);
            w.compute(kGapRedAdd);
            w.shared_store(psum, tx, a);
            const Float b = w.shared_load(psum2, tx - i / 2) + w.shared_load(psum2, tx);
            w.compute(kGapRedAdd);
            w.shared_store(psum2, tx, b);
          });
          w.sync();
        }
      };
      if (nf == kThreads || bx != gx - 1) {
        tree(kThreads);
        w.compute(kGapRedLast);
        w.if_(tx == kThreads - 1, [&] {
          w.store(0x230, sums_, bx * mul * kThreads, w.shared_load(psum, tx));
          w.store(0x240, sums2_, bx * mul * kThreads, w.shared_load(psum2, tx));
        });
      } else {
        int64_t df = 0;
        for (int64_t i = 2; i <= kThreads; i *= 2)
          if (nf >= i) df = i;
        w.compute(kGapRedDf);
        tree(df);
        w.compute(kGapRedLast);
        w.if_(tx == df - 1, [&] {
          Float a = w.shared_load(psum, tx), b = w.shared_load(psum2, tx);
          for (int64_t i = bx * kThreads + df; i < bx * kThreads + nf; ++i) {
            w.compute(kGapRemSums);
            a = a + w.load(0x250, sums_, Int(i));
            w.compute(kGapRemSums2);
            b = b + w.load(0x260, sums2_, Int(i));
          }
          w.shared_store(psum, tx, a);
          w.shared_store(psum2, tx, b);
          w.compute(kGapRemStore);
          w.store(0x270, sums_, bx * mul * kThreads, a);
          w.store(0x280, sums2_, bx * mul * kThreads, b);
        });
      }
    };
    return k;
  }

  KernelLaunch srad(uint32_t blocks, float q0sqr) {
    KernelLaunch k = launch_of("srad", blocks, kRegsSrad);
    k.body = [this, q0sqr](Warp& w) {
      const Int ei = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      const Bool edge = (ei + 1) % nr_ == 0;
      const Int row = select<int64_t>(edge, nr_ - 1, (ei + 1) % nr_ - 1);
      const Int col = select<int64_t>(edge, (ei + 1) / nr_ - 1, (ei + 1) / nr_ + 1 - 1);
      w.if_(ei < ne_, [&] {
        w.compute(kGapSradLd[0]);
        const Float jc = w.load(0x310, I_, ei);
        w.compute(kGapSradLd[1]);
        const Int in = w.load(0x320, iN_, row).as<int64_t>();
        w.compute(kGapSradLd[2]);
        const Float n = w.load(0x330, I_, in + nr_ * col) - jc;
        w.compute(kGapSradLd[3]);
        const Int is = w.load(0x340, iS_, row).as<int64_t>();
        w.compute(kGapSradLd[4]);
        const Float s = w.load(0x350, I_, is + nr_ * col) - jc;
        w.compute(kGapSradLd[5]);
        const Int jw = w.load(0x360, jW_, col).as<int64_t>();
        w.compute(kGapSradLd[6]);
        const Float we = w.load(0x370, I_, row + nr_ * jw) - jc;
        w.compute(kGapSradLd[7]);
        const Int je = w.load(0x380, jE_, col).as<int64_t>();
        w.compute(kGapSradLd[8]);
        const Float e = w.load(0x390, I_, row + nr_ * je) - jc;
        const Float g2 = (n * n + s * s + we * we + e * e) / (jc * jc);
        const Float l = (n + s + we + e) / jc;
        const Float num = ((0.5 * g2) - ((1.0 / 16.0) * (l * l))).as<float>();
        Float den = (1 + (0.25 * l)).as<float>();
        const Float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        const Float cl = (1.0 / (1.0 + den)).as<float>();
        const Float c = select<float>(cl < 0.0f, 0.0f, select<float>(cl > 1.0f, 1.0f, cl));
        w.compute(kGapSradCoef);
        w.store(0x3a0, dN_, ei, n);
        w.compute(kGapSradSt);
        w.store(0x3b0, dS_, ei, s);
        w.compute(kGapSradSt);
        w.store(0x3c0, dW_, ei, we);
        w.compute(kGapSradSt);
        w.store(0x3d0, dE_, ei, e);
        w.compute(kGapSradSt);
        w.store(0x3e0, c_, ei, c);
      });
    };
    return k;
  }

  KernelLaunch srad2(uint32_t blocks) {
    KernelLaunch k = launch_of("srad2", blocks, kRegsSrad2);
    k.body = [this](Warp& w) {
      const Int ei = int64_t(w.block_idx().x) * kThreads + w.thread_idx_x();
      const Bool edge = (ei + 1) % nr_ == 0;
      const Int row = select<int64_t>(edge, nr_ - 1, (ei + 1) % nr_ - 1);
      const Int col = select<int64_t>(edge, (ei + 1) / nr_ - 1, (ei + 1) / nr_ + 1 - 1);
      w.if_(ei < ne_, [&] {
        w.compute(kGapSrad2Ld[0]);
        const Float cn = w.load(0x410, c_, ei);
        w.compute(kGapSrad2Ld[1]);
        const Int is = w.load(0x420, iS_, row).as<int64_t>();
        w.compute(kGapSrad2Ld[2]);
        const Float cs = w.load(0x430, c_, is + nr_ * col);
        const Float cw = cn;  // d_c[ei] again: the compiler reuses cN's load
        w.compute(kGapSrad2Ld[3]);
        const Int je = w.load(0x440, jE_, col).as<int64_t>();
        w.compute(kGapSrad2Ld[4]);
        const Float ce = w.load(0x450, c_, row + nr_ * je);
        w.compute(kGapSrad2Ld[5]);
        const Float dn = w.load(0x460, dN_, ei);
        w.compute(kGapSrad2Ld[6]);
        const Float ds = w.load(0x470, dS_, ei);
        w.compute(kGapSrad2Ld[7]);
        const Float dw = w.load(0x480, dW_, ei);
        w.compute(kGapSrad2Ld[8]);
        const Float de = w.load(0x490, dE_, ei);
        const Float d = cn * dn + cs * ds + cw * dw + ce * de;
        w.compute(kGapSrad2Ld[9]);
        const Float i = w.load(0x4a0, I_, ei);
        w.compute(kGapSrad2St);
        w.store(0x4b0, I_, ei, (i + 0.25 * lambda_ * d).as<float>());
      });
    };
    return k;
  }

  int64_t nr_, nc_, ne_;
  int niter_;
  float lambda_;
  uint32_t seed_;
  std::vector<float> image_;  // the resized input image, for check()
  DeviceArray<float> I_;
  DeviceArray<int32_t> iN_, iS_, jE_, jW_;
  DeviceArray<float> sums_, sums2_, dN_, dS_, dW_, dE_, c_;
};

}  // namespace

void register_rodinia_srad_v1(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/srad_v1";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/srad/srad_v1/main.cu + extract, prepare, reduce, "
      "srad, "
      "srad2, compress _kernel.cu @ 9c10d3e";
  p.input =
      "Rodinia's run: 502 x 458 (data/srad/image.pgm, read column by column), 100 iterations, lambda 0.5; "
      "default here the same image size with 10 iterations: the footprint is the same every iteration (7.4 "
      "MiB "
      "in eight image-sized arrays, 9.8x the fermi LLC of 768 KiB) at 3.0 M warp instructions instead of 30 "
      "M. The "
      "image "
      "file is replaced by seeded grey levels (glibc rand() % 256, srand(seed)) of its size, resized to rows "
      "x "
      "cols as resize() does (tiled)";
  p.papers = "TSC/TSC+ (000, srad v1), G-Cache (001, SD1), Decoupled L1D (002, SD1)";
  p.kernels = "extract, prepare, reduce, srad, srad2, compress";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t rows = s.get_uint("rows", 502, 2, 8192);
    const uint64_t cols = s.get_uint("cols", 458, 2, 8192);
    const uint64_t iters = s.get_uint("iterations", 10, 1, 1000);
    const uint64_t seed = s.get_uint("seed", 1, 0, 0xffffffffu);
    return std::make_unique<SradV1>(int64_t(rows), int64_t(cols), int(iters), 0.5f, uint32_t(seed));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
