// Rodinia 3.1 lud (CUDA): in-place LU decomposition (Doolittle: unit lower L below the diagonal, U on and
// above it, no pivoting) of a dense float matrix, blocked by 16 x 16 tiles. For each tile step along the
// diagonal the host launches lud_diagonal (one 16-thread CTA factors the diagonal tile in shared memory),
// lud_perimeter (one 32-thread CTA per remaining tile of the step's row and column: threads 0..15 solve the
// row tile, 16..31 the column tile, both against the diagonal tile) and lud_internal (one 16 x 16 CTA per
// trailing tile: the tile minus the product of its perimeter tiles); a last lud_diagonal factors the last
// tile. The input is the suite's internal generator (common.c create_matrix, as the run script's -s).
#include <cmath>
#include <cstdint>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v: registers per thread and static shared memory of each kernel.
constexpr uint32_t kDiagRegs = 46, kDiagShmem = 1024, kPeriRegs = 64, kPeriShmem = 3072, kInternalRegs = 32,
                   kInternalShmem = 2048;
constexpr int64_t kBlock = 16;  // BLOCK_SIZE
// PTX (nvcc --ptx -arch=sm_75) instructions between global accesses (shared-memory accesses not counted;
// each adds one itself). The loads and stores are unrolled there: first gap, then the steady one.
constexpr uint32_t kDiagLoad0 = 9, kDiagLoad1 = 7, kDiagLoad = 3, kDiagStore0 = 7, kDiagStore = 3;
constexpr uint32_t kPeriRowEntry = 22, kPeriRowLoad = 1, kPeriRowSecond = 8;  // threads 0..15
constexpr uint32_t kPeriColEntry = 4, kPeriColLoad = 3, kPeriColDiag = 2;     // threads 16..31
constexpr uint32_t kPeriRowStore0 = 19, kPeriRowStore = 3, kPeriColStore0 = 17, kPeriColStore = 1;
constexpr uint32_t kIntRow = 17, kIntCol = 13, kIntSync = 3, kIntLoad = 20, kIntStore = 1;
// The shared-memory elimination loops are counted approximately from their unrolled PTX: per multiply-
// subtract step, per division, per loop test.
constexpr uint32_t kStep = 4, kDivide = 7, kTest = 4;

class Lud : public KernelPort {
 public:
  explicit Lud(uint32_t dim) : dim_(dim) {}

  void setup(DeviceMemory& mem) override {
    // create_matrix(): a symmetric Toeplitz matrix, m[i][j] = 10 exp(-0.001 |i - j|).
    const int64_t n = dim_;
    const float lamda = -0.001f;
    std::vector<float> coe(size_t(2 * n - 1));
    for (int64_t i = 0; i < n; ++i) {
      const float c = float(10 * std::exp(double(lamda * float(i))));
      coe[size_t(n - 1 + i)] = c;
      coe[size_t(n - 1 - i)] = c;
    }
    m_ = mem.alloc<float>("d_m", size_t(n) * size_t(n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) m_[size_t(i * n + j)] = coe[size_t(n - 1 - i + j)];
    initial_ = m_.host();
  }

  void run(Launcher& host) override {
    const int64_t n = dim_;
    int64_t i = 0;
    for (; i < n - kBlock; i += kBlock) {
      const uint32_t rest = uint32_t((n - i) / kBlock - 1);
      launch(host, "lud_diagonal", {1, 1, 1}, {uint32_t(kBlock), 1, 1}, kDiagRegs, kDiagShmem,
             [this, i](Warp& w) { diagonal(w, i); });
      launch(host, "lud_perimeter", {rest, 1, 1}, {uint32_t(2 * kBlock), 1, 1}, kPeriRegs, kPeriShmem,
             [this, i](Warp& w) { perimeter(w, i); });
      launch(host, "lud_internal", {rest, rest, 1}, {uint32_t(kBlock), uint32_t(kBlock), 1}, kInternalRegs,
             kInternalShmem, [this, i](Warp& w) { internal(w, i); });
    }
    launch(host, "lud_diagonal", {1, 1, 1}, {uint32_t(kBlock), 1, 1}, kDiagRegs, kDiagShmem,
           [this, i](Warp& w) { diagonal(w, i); });
  }

  // Against a sequential LU in double precision (the blocked kernels sum in another order): every element
  // within 1e-3 relative (of max(1, |expected|)). The matrix is symmetric positive definite (an AR(1)
  // covariance, condition ~2,000 at dim 256), so LU without pivoting is stable and the float result close.
  std::string check() const override {
    const int64_t n = dim_;
    std::vector<double> a(initial_.begin(), initial_.end());
    for (int64_t k = 0; k < n; ++k)
      for (int64_t r = k + 1; r < n; ++r) {
        a[size_t(r * n + k)] /= a[size_t(k * n + k)];
        for (int64_t c = k + 1; c < n; ++c)
          a[size_t(r * n + c)] -= a[size_t(r * n + k)] * a[size_t(k * n + c)];
      }
    for (size_t e = 0; e < a.size(); ++e)
      if (std::fabs(double(m_[e]) - a[e]) > 1e-3 * std::max(1.0, std::fabs(a[e])))
        return "m[" + std::to_string(e / size_t(n)) + "][" + std::to_string(e % size_t(n)) +
               "] = " + std::to_string(m_[e]) + ", expected " + std::to_string(a[e]);
    return "";
  }

 private:
  template <class F>
  void launch(Launcher& host, const char* name, Dim3 grid, Dim3 block, uint32_t regs, uint32_t shmem,
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

  void diagonal(Warp& w, int64_t offset) {
    auto& s = w.shared<float>(0, kBlock * kBlock);
    const int64_t n = dim_;
    const Int tx = w.thread_idx_x();
    int64_t array_offset = offset * n + offset;
    for (int64_t i = 0; i < kBlock; ++i) {
      w.compute(i == 0 ? kDiagLoad0 : i == 1 ? kDiagLoad1 : kDiagLoad);
      w.shared_store(s, tx + i * kBlock, w.load(0x10, m_, tx + array_offset));
      array_offset += n;
    }
    w.sync();
    for (int64_t i = 0; i < kBlock - 1; ++i) {
      w.compute(kTest);
      w.if_(tx > i, [&] {
        Float v = w.shared_load(s, tx * kBlock + i);
        for (int64_t j = 0; j < i; ++j) {
          w.compute(kStep);
          v = v - w.shared_load(s, tx * kBlock + j) * w.shared_load(s, Int(j * kBlock + i));
        }
        w.compute(kDivide);
        w.shared_store(s, tx * kBlock + i, v / w.shared_load(s, Int(i * kBlock + i)));
      });
      w.sync();
      w.compute(kTest);
      w.if_(tx > i, [&] {
        Float v = w.shared_load(s, tx + (i + 1) * kBlock);
        for (int64_t j = 0; j < i + 1; ++j) {
          w.compute(kStep);
          v = v - w.shared_load(s, Int((i + 1) * kBlock + j)) * w.shared_load(s, tx + j * kBlock);
        }
        w.shared_store(s, tx + (i + 1) * kBlock, v);
      });
      w.sync();
    }
    array_offset = (offset + 1) * n + offset;
    for (int64_t i = 1; i < kBlock; ++i) {
      w.compute(i == 1 ? kDiagStore0 : kDiagStore);
      w.store(0x20, m_, tx + array_offset, w.shared_load(s, tx + i * kBlock));
      array_offset += n;
    }
  }

  void perimeter(Warp& w, int64_t offset) {
    auto& dia = w.shared<float>(0, kBlock * kBlock);
    auto& peri_row = w.shared<float>(1, kBlock * kBlock);
    auto& peri_col = w.shared<float>(2, kBlock * kBlock);
    const int64_t n = dim_, bx = w.block_idx().x;
    const Int tx = w.thread_idx_x();
    const Bool row_half = tx < kBlock;
    w.if_else(
        row_half,
        [&] {
          const Int idx = tx;
          int64_t array_offset = offset * n + offset;
          for (int64_t i = 0; i < kBlock / 2; ++i) {
            w.compute(i == 0 ? kPeriRowEntry : kPeriRowLoad);
            w.shared_store(dia, idx + i * kBlock, w.load(0x110, m_, idx + array_offset));
            array_offset += n;
          }
          array_offset = offset * n + offset;
          for (int64_t i = 0; i < kBlock; ++i) {
            w.compute(i == 0 ? kPeriRowSecond : kPeriRowLoad);
            w.shared_store(peri_row, idx + i * kBlock,
                           w.load(0x120, m_, idx + (array_offset + (bx + 1) * kBlock)));
            array_offset += n;
          }
        },
        [&] {
          const Int idx = tx - kBlock;
          int64_t array_offset = (offset + kBlock / 2) * n + offset;
          for (int64_t i = kBlock / 2; i < kBlock; ++i) {
            w.compute(i == kBlock / 2 ? kPeriColEntry : kPeriColDiag);
            w.shared_store(dia, idx + i * kBlock, w.load(0x130, m_, idx + array_offset));
            array_offset += n;
          }
          array_offset = (offset + (bx + 1) * kBlock) * n + offset;
          for (int64_t i = 0; i < kBlock; ++i) {
            w.compute(kPeriColLoad);
            w.shared_store(peri_col, idx + i * kBlock, w.load(0x140, m_, idx + array_offset));
            array_offset += n;
          }
        });
    w.sync();
    w.if_else(
        row_half,
        [&] {
          const Int idx = tx;
          for (int64_t i = 1; i < kBlock; ++i) {
            w.compute(kTest);
            for (int64_t j = 0; j < i; ++j) {
              w.compute(kStep);
              const Float v =
                  w.shared_load(peri_row, idx + i * kBlock) -
                  w.shared_load(dia, Int(i * kBlock + j)) * w.shared_load(peri_row, idx + j * kBlock);
              w.shared_store(peri_row, idx + i * kBlock, v);
            }
          }
        },
        [&] {
          const Int idx = tx - kBlock;
          for (int64_t i = 0; i < kBlock; ++i) {
            w.compute(kTest);
            for (int64_t j = 0; j < i; ++j) {
              w.compute(kStep);
              const Float v =
                  w.shared_load(peri_col, idx * kBlock + i) -
                  w.shared_load(peri_col, idx * kBlock + j) * w.shared_load(dia, Int(j * kBlock + i));
              w.shared_store(peri_col, idx * kBlock + i, v);
            }
            w.compute(kDivide);
            w.shared_store(
                peri_col, idx * kBlock + i,
                w.shared_load(peri_col, idx * kBlock + i) / w.shared_load(dia, Int(i * kBlock + i)));
          }
        });
    w.sync();
    w.if_else(
        row_half,
        [&] {
          const Int idx = tx;
          int64_t array_offset = (offset + 1) * n + offset;
          for (int64_t i = 1; i < kBlock; ++i) {
            w.compute(i == 1 ? kPeriRowStore0 : kPeriRowStore);
            w.store(0x150, m_, idx + (array_offset + (bx + 1) * kBlock),
                    w.shared_load(peri_row, idx + i * kBlock));
            array_offset += n;
          }
        },
        [&] {
          const Int idx = tx - kBlock;
          int64_t array_offset = (offset + (bx + 1) * kBlock) * n + offset;
          for (int64_t i = 0; i < kBlock; ++i) {
            w.compute(i == 0 ? kPeriColStore0 : kPeriColStore);
            w.store(0x160, m_, idx + array_offset, w.shared_load(peri_col, idx + i * kBlock));
            array_offset += n;
          }
        });
  }

  void internal(Warp& w, int64_t offset) {
    auto& peri_row = w.shared<float>(0, kBlock * kBlock);
    auto& peri_col = w.shared<float>(1, kBlock * kBlock);
    const int64_t n = dim_;
    const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
    const int64_t row = offset + (int64_t(w.block_idx().y) + 1) * kBlock;
    const int64_t col = offset + (int64_t(w.block_idx().x) + 1) * kBlock;
    const Int me = ty * kBlock + tx;
    w.compute(kIntRow);
    w.shared_store(peri_row, me, w.load(0x210, m_, (ty + offset) * n + col + tx));
    w.compute(kIntCol);
    w.shared_store(peri_col, me, w.load(0x220, m_, (ty + row) * n + offset + tx));
    w.compute(kIntSync);
    w.sync();
    Float sum = 0.0f;
    for (int64_t i = 0; i < kBlock; ++i)
      sum = sum + w.shared_load(peri_col, ty * kBlock + i) * w.shared_load(peri_row, tx + i * kBlock);
    const Int at = (ty + row) * n + col + tx;
    w.compute(kIntLoad);
    const Float old = w.load(0x230, m_, at);
    w.compute(kIntStore);
    w.store(0x240, m_, at, old - sum);
  }

  uint32_t dim_;
  std::vector<float> initial_;
  DeviceArray<float> m_;
};

}  // namespace

void register_rodinia_lud(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/lud";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia cuda/lud (cuda/lud.cu, cuda/lud_kernel.cu, common/common.c; Rodinia "
      "3.1), commit 9c10d3e";
  p.input =
      "the run script's: -s 256, the suite's internal generator (a 256 x 256 Toeplitz matrix, 10 "
      "exp(-0.001 |i - j|)): 16 tile steps, 46 launches; footprint 256 KB, kept. Size keys: dim (a multiple "
      "of 16; 1024 gives 3.58 M warp instructions)";
  p.papers = "Decoupled L1D (002), H-Xbar LLC (004)";
  p.kernels = "lud_diagonal, lud_perimeter, lud_internal";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t dim = s.get_uint("dim", 256, 16, 8192);
    if (dim % 16) throw ConfigError("rodinia/lud: dim must be a multiple of 16");
    return std::make_unique<Lud>(uint32_t(dim));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
