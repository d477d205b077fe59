// Rodinia 3.1 srad_v2 (speckle reducing anisotropic diffusion, CUDA): per iteration the host computes q0sqr
// from the region of interest of the image J, then launches srad_cuda_1 (directional derivatives N/S/W/E
// and the saturated diffusion coefficient C, from a 16 x 16 tile of J and its four halo strips staged in
// shared memory) and srad_cuda_2 (the divergence from C's south and east neighbours, and the image update
// of J). Blocks of 16 x 16 threads, a grid of cols/16 x rows/16.
//
// The kernels read one row beyond each end of J and C: srad_cuda_1 loads the north halo of the first block
// row from row -1 (and the west halo of block (0, 0) from element -1), and both kernels load the south halo
// of the last block row from row `rows` (and the east halo of the last block from element rows * cols),
// before overwriting those values with the clamped ones. The loads are part of the stream, so J and C are
// allocated with one guard row before and after the image (their footprint covers every address; the image
// starts one row into the allocation).
#include <algorithm>
#include <cmath>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

constexpr int64_t kBlock = 16;  // srad.h BLOCK_SIZE

// ptxas -v (nvcc 13.0, -arch=sm_75; sm_70 is no longer supported): registers per thread, static shared
// memory per CTA.
constexpr uint32_t kRegs1 = 22, kShmem1 = 6144;
constexpr uint32_t kRegs2 = 26, kShmem2 = 5120;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access or barrier on the path taken,
// shared-memory accesses excluded (the port's shared accesses count one each).
// srad_cuda_1
constexpr uint32_t kGapN = 24, kGapS = 7, kGapNTop = 8, kGapSBottom = 12, kGapSync1 = 2;
constexpr uint32_t kGapW = 3, kGapE = 3, kGapWLeft = 8, kGapERight = 14, kGapSync2 = 1;
constexpr uint32_t kGapJ = 4, kGapSync3 = 3;
constexpr uint32_t kGapCoef = 50;  // neighbour selection, the coefficient, its saturation
constexpr uint32_t kGapSync4 = 1, kGapStoreC = 3, kGapStore = 2;
// srad_cuda_2
constexpr uint32_t kGap2J = 23, kGap2Sync1 = 5, kGap2S = 2, kGap2SBottom = 11, kGap2Sync2 = 1;
constexpr uint32_t kGap2E = 2, kGap2ERight = 11, kGap2Sync3 = 1, kGap2C = 1, kGap2Sync4 = 3;
constexpr uint32_t kGap2N = 9, kGap2SC = 2, kGap2W = 4, kGap2EC = 3, kGap2Sync5 = 10, kGap2Store = 0;

// dst = src on the warp's active lanes (a write under a branch).
template <class T>
void assign_active(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

class SradV2 : public KernelPort {
 public:
  SradV2(int64_t rows, int64_t cols, int64_t r1, int64_t r2, int64_t c1, int64_t c2, float lambda, int niter)
      : rows_(rows), cols_(cols), r1_(r1), r2_(r2), c1_(c1), c2_(c2), lambda_(lambda), niter_(niter) {}

  void setup(DeviceMemory& mem) override {
    const size_t n = size_t(rows_ * cols_), guarded = n + 2 * size_t(cols_);
    J_ = mem.alloc<float>("J_cuda", guarded);
    C_ = mem.alloc<float>("C_cuda", guarded);
    E_ = mem.alloc<float>("E_C", n);
    W_ = mem.alloc<float>("W_C", n);
    S_ = mem.alloc<float>("S_C", n);
    N_ = mem.alloc<float>("N_C", n);
    // random_matrix: srand(7), I = rand() / RAND_MAX row by row; J = exp(I).
    LibcRand rng(7);
    for (size_t k = 0; k < n; ++k) {
      const float i = float(rng.rand()) / float(LibcRand::kRandMax);
      J_[size_t(cols_) + k] = float(std::exp(i));
    }
    J0_.assign(J_.host().begin() + cols_, J_.host().begin() + cols_ + int64_t(n));
  }

  void run(Launcher& host) override {
    for (int iter = 0; iter < niter_; ++iter) {
      const float q0sqr = q0sqr_of(J_.host().data() + cols_);
      host.launch(kernel1(q0sqr));
      host.launch(kernel2(q0sqr));
    }
  }

  std::string check() const override {
    // The benchmark's CPU path (srad.cu, #ifdef CPU), same operations in the same order.
    std::vector<float> J = J0_, c(J.size()), dN(J.size()), dS(J.size()), dW(J.size()), dE(J.size());
    for (int iter = 0; iter < niter_; ++iter) {
      const float q0sqr = q0sqr_of(J.data());
      for (int64_t i = 0; i < rows_; ++i)
        for (int64_t j = 0; j < cols_; ++j) {
          const size_t k = size_t(i * cols_ + j);
          const float Jc = J[k];
          dN[k] = J[size_t(std::max<int64_t>(i - 1, 0) * cols_ + j)] - Jc;
          dS[k] = J[size_t(std::min<int64_t>(i + 1, rows_ - 1) * cols_ + j)] - Jc;
          dW[k] = J[size_t(i * cols_ + std::max<int64_t>(j - 1, 0))] - Jc;
          dE[k] = J[size_t(i * cols_ + std::min<int64_t>(j + 1, cols_ - 1))] - Jc;
          const float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
          const float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
          const float num = float((0.5 * G2) - ((1.0 / 16.0) * (L * L)));
          float den = float(1 + (.25 * L));
          const float qsqr = num / (den * den);
          den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
          c[k] = float(1.0 / (1.0 + den));
          if (c[k] < 0)
            c[k] = 0;
          else if (c[k] > 1)
            c[k] = 1;
        }
      for (int64_t i = 0; i < rows_; ++i)
        for (int64_t j = 0; j < cols_; ++j) {
          const size_t k = size_t(i * cols_ + j);
          const float cN = c[k], cW = c[k];
          const float cS = c[size_t(std::min<int64_t>(i + 1, rows_ - 1) * cols_ + j)];
          const float cE = c[size_t(i * cols_ + std::min<int64_t>(j + 1, cols_ - 1))];
          const float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
          J[k] = float(J[k] + 0.25 * lambda_ * D);
        }
    }
    for (size_t k = 0; k < J.size(); ++k) {
      const float got = J_[size_t(cols_) + k];
      if (got != J[k])
        return "J[" + std::to_string(k) + "] = " + std::to_string(got) + ", expected " + std::to_string(J[k]);
    }
    return "";
  }

 private:
  // The host's statistics of the region of interest (rows r1..r2, columns c1..c2).
  float q0sqr_of(const float* J) const {
    float sum = 0, sum2 = 0;
    for (int64_t i = r1_; i <= r2_; ++i)
      for (int64_t j = c1_; j <= c2_; ++j) {
        const float tmp = J[i * cols_ + j];
        sum += tmp;
        sum2 += tmp * tmp;
      }
    const float size_R = float((r2_ - r1_ + 1) * (c2_ - c1_ + 1));
    const float meanROI = sum / size_R;
    const float varROI = (sum2 / size_R) - meanROI * meanROI;
    return varROI / (meanROI * meanROI);
  }

  Dim3 grid() const { return {uint32_t(cols_ / kBlock), uint32_t(rows_ / kBlock), 1}; }

  KernelLaunch kernel1(float q0sqr) {
    KernelLaunch k;
    k.name = "srad_cuda_1";
    k.grid = grid();
    k.block = {uint32_t(kBlock), uint32_t(kBlock), 1};
    k.regs_per_thread = kRegs1;
    k.shmem_per_cta = kShmem1;
    k.body = [this, q0sqr](Warp& w) {
      const int64_t bx = w.block_idx().x, by = w.block_idx().y, gx = w.grid_dim().x, gy = w.grid_dim().y;
      const int64_t cols = cols_, g = cols_;  // g: the guard row before the image
      const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
      const Int index = cols * kBlock * by + kBlock * bx + cols * ty + tx;
      const Int index_n = cols * kBlock * by + kBlock * bx + tx - cols;
      const Int index_s = cols * kBlock * by + kBlock * bx + cols * kBlock + tx;
      const Int index_w = cols * kBlock * by + kBlock * bx + cols * ty - 1;
      const Int index_e = cols * kBlock * by + kBlock * bx + cols * ty + kBlock;
      const size_t T = size_t(kBlock * kBlock);
      auto& temp = w.shared<float>(0, T);
      auto& temp_result = w.shared<float>(1, T);
      auto& north = w.shared<float>(2, T);
      auto& south = w.shared<float>(3, T);
      auto& east = w.shared<float>(4, T);
      auto& west = w.shared<float>(5, T);
      const Int me = ty * kBlock + tx;

      w.compute(kGapN);
      w.shared_store(north, me, w.load(0x10, J_, index_n + g));
      w.compute(kGapS);
      w.shared_store(south, me, w.load(0x20, J_, index_s + g));
      if (by == 0) {
        w.compute(kGapNTop);
        w.shared_store(north, me, w.load(0x30, J_, kBlock * bx + tx + g));
      } else if (by == gy - 1) {
        w.compute(kGapSBottom);
        w.shared_store(
            south, me,
            w.load(0x40, J_, cols * kBlock * (gy - 1) + kBlock * bx + cols * (kBlock - 1) + tx + g));
      }
      w.compute(kGapSync1);
      w.sync();

      w.compute(kGapW);
      w.shared_store(west, me, w.load(0x50, J_, index_w + g));
      w.compute(kGapE);
      w.shared_store(east, me, w.load(0x60, J_, index_e + g));
      if (bx == 0) {
        w.compute(kGapWLeft);
        w.shared_store(west, me, w.load(0x70, J_, cols * kBlock * by + cols * ty + g));
      } else if (bx == gx - 1) {
        w.compute(kGapERight);
        w.shared_store(east, me,
                       w.load(0x80, J_, cols * kBlock * by + kBlock * (gx - 1) + cols * ty + kBlock - 1 + g));
      }
      w.compute(kGapSync2);
      w.sync();

      w.compute(kGapJ);
      w.shared_store(temp, me, w.load(0x90, J_, index + g));
      w.compute(kGapSync3);
      w.sync();

      // The nine border cases pick each neighbour from the tile or a halo strip (shared loads).
      const Float jc = w.shared_load(temp, me);
      Float n, s, we, e;
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        const int64_t x = tx[l], y = ty[l], m = y * kBlock + x;
        const float c = jc[l];
        n[l] = (y == 0 ? north[size_t(m)] : temp[size_t(m - kBlock)]) - c;
        s[l] = (y == kBlock - 1 ? south[size_t(m)] : temp[size_t(m + kBlock)]) - c;
        we[l] = (x == 0 ? west[size_t(m)] : temp[size_t(m - 1)]) - c;
        e[l] = (x == kBlock - 1 ? east[size_t(m)] : temp[size_t(m + 1)]) - c;
      }
      n.deps = s.deps = we.deps = e.deps = jc.deps;
      w.compute(4);  // the four shared loads of the neighbours
      const Float g2 = (n * n + s * s + we * we + e * e) / (jc * jc);
      const Float l = (n + s + we + e) / jc;
      const Float num = ((0.5 * g2) - ((1.0 / 16.0) * (l * l))).as<float>();
      Float den = (1 + (.25 * l)).as<float>();
      const Float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
      const Float c = (1.0 / (1.0 + den)).as<float>();
      w.compute(kGapCoef);
      w.shared_store(temp_result, me, select<float>(c < 0.0f, 0.0f, select<float>(c > 1.0f, 1.0f, c)));
      w.compute(kGapSync4);
      w.sync();

      w.compute(kGapStoreC);
      w.store(0xa0, C_, index + g, w.shared_load(temp_result, me));
      w.compute(kGapStore);
      w.store(0xb0, E_, index, e);
      w.compute(kGapStore);
      w.store(0xc0, W_, index, we);
      w.compute(kGapStore);
      w.store(0xd0, S_, index, s);
      w.compute(kGapStore);
      w.store(0xe0, N_, index, n);
    };
    return k;
  }

  KernelLaunch kernel2(float q0sqr) {
    KernelLaunch k;
    k.name = "srad_cuda_2";
    k.grid = grid();
    k.block = {uint32_t(kBlock), uint32_t(kBlock), 1};
    k.regs_per_thread = kRegs2;
    k.shmem_per_cta = kShmem2;
    (void)q0sqr;  // an argument of srad_cuda_2 it does not use
    k.body = [this](Warp& w) {
      const int64_t bx = w.block_idx().x, by = w.block_idx().y, gx = w.grid_dim().x, gy = w.grid_dim().y;
      const int64_t cols = cols_, g = cols_;
      const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
      const Int index = cols * kBlock * by + kBlock * bx + cols * ty + tx;
      const Int index_s = cols * kBlock * by + kBlock * bx + cols * kBlock + tx;
      const Int index_e = cols * kBlock * by + kBlock * bx + cols * ty + kBlock;
      const size_t T = size_t(kBlock * kBlock);
      auto& south_c = w.shared<float>(0, T);
      auto& east_c = w.shared<float>(1, T);
      auto& c_temp = w.shared<float>(2, T);
      auto& c_result = w.shared<float>(3, T);
      auto& temp = w.shared<float>(4, T);
      const Int me = ty * kBlock + tx;

      w.compute(kGap2J);
      w.shared_store(temp, me, w.load(0x110, J_, index + g));
      w.compute(kGap2Sync1);
      w.sync();
      w.compute(kGap2S);
      w.shared_store(south_c, me, w.load(0x120, C_, index_s + g));
      if (by == gy - 1) {
        w.compute(kGap2SBottom);
        w.shared_store(
            south_c, me,
            w.load(0x130, C_, cols * kBlock * (gy - 1) + kBlock * bx + cols * (kBlock - 1) + tx + g));
      }
      w.compute(kGap2Sync2);
      w.sync();
      w.compute(kGap2E);
      w.shared_store(east_c, me, w.load(0x140, C_, index_e + g));
      if (bx == gx - 1) {
        w.compute(kGap2ERight);
        w.shared_store(
            east_c, me,
            w.load(0x150, C_, cols * kBlock * by + kBlock * (gx - 1) + cols * ty + kBlock - 1 + g));
      }
      w.compute(kGap2Sync3);
      w.sync();
      w.compute(kGap2C);
      w.shared_store(c_temp, me, w.load(0x160, C_, index + g));
      w.compute(kGap2Sync4);
      w.sync();

      const Float cc = w.shared_load(c_temp, me);
      Float cs, ce;
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        const int64_t x = tx[l], y = ty[l], m = y * kBlock + x;
        cs[l] = y == kBlock - 1 ? south_c[size_t(m)] : c_temp[size_t(m + kBlock)];
        ce[l] = x == kBlock - 1 ? east_c[size_t(m)] : c_temp[size_t(m + 1)];
      }
      w.compute(2);  // the two shared loads of the south and east coefficients
      const Float cn = cc, cw = cc;
      w.compute(kGap2N);
      const Float dn = w.load(0x170, N_, index);
      w.compute(kGap2SC);
      const Float ds = w.load(0x180, S_, index);
      w.compute(kGap2W);
      const Float dw = w.load(0x190, W_, index);
      w.compute(kGap2EC);
      const Float de = w.load(0x1a0, E_, index);
      const Float d_sum = cn * dn + cs * ds + cw * dw + ce * de;
      w.shared_store(c_result, me, w.shared_load(temp, me) + 0.25 * lambda_ * d_sum);
      w.compute(kGap2Sync5);
      w.sync();
      w.compute(kGap2Store);
      w.store(0x1b0, J_, index + g, w.shared_load(c_result, me));
    };
    return k;
  }

  int64_t rows_, cols_, r1_, r2_, c1_, c2_;
  float lambda_;
  int niter_;
  std::vector<float> J0_;  // the input image, for check()
  DeviceArray<float> J_, C_, E_, W_, S_, N_;
};

}  // namespace

void register_rodinia_srad_v2(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/srad_v2";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/srad/srad_v2/srad.cu + srad_kernel.cu @ 9c10d3e";
  p.input =
      "Rodinia's run: 2048 x 2048 image, ROI rows/cols 0..127, lambda 0.5, 2 iterations (96 MiB in six "
      "arrays); default here 2048 x 2048 with 1 iteration: the same footprint (128x the fermi LLC, nothing "
      "survives between iterations) at 2.5 M warp memory instructions (3.7 M with the barriers) instead of "
      "twice that. Image from srand(7)/rand() as "
      "the benchmark's random_matrix (glibc's generator), J = exp(I)";
  p.papers = "TSC/TSC+ (000, srad v2), G-Cache (001, SD2), Decoupled L1D (002, SD2)";
  p.kernels = "srad_cuda_1, srad_cuda_2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t rows = s.get_uint("rows", 2048, 32, 16384);
    const uint64_t cols = s.get_uint("cols", 2048, 32, 16384);
    const uint64_t iters = s.get_uint("iterations", 1, 1, 1000);
    if (rows % 16 || cols % 16) throw ConfigError("rodinia/srad_v2: rows and cols must be multiples of 16");
    const int64_t roi_r = std::min<int64_t>(127, int64_t(rows) - 1),
                  roi_c = std::min<int64_t>(127, int64_t(cols) - 1);
    return std::make_unique<SradV2>(int64_t(rows), int64_t(cols), 0, roi_r, 0, roi_c, 0.5f, int(iters));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
