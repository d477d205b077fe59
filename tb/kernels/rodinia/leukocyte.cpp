// Rodinia 3.1 leukocyte (CUDA): detects white blood cells in frame 0 of a microscopy video and tracks them
// through the next frames. Detection: the host takes the gradients of the frame's vein band (rows 110-328,
// column-major floats); GICOV_kernel (one CTA per column, one thread per row, 22 pixels of margin) scores
// every pixel by the best of 7 circles (radii 8-20, 150 points each, both gradients read per point: the
// source's texture fetches, emitted as global loads as __ldg would make them), dilate_kernel takes the
// maximum over a disc of radius 12 (176-thread CTAs, one thread per pixel) and the host keeps the local
// maxima whose score passes the threshold. Tracking, per frame: the host cuts an 81 x 41 window around each
// cell, takes its gradient magnitude and normalises it; IMGVF_kernel (one 320-thread CTA per cell) copies
// the window into shared memory, iterates the motion gradient vector flow (reading the window's image from
// global memory every iteration) until the mean change is below 1e-5 or 500 iterations, and copies it back.
//
// What the host does that is not ported: the detection's active-contour refinement of each maximum (the
// cells are the maxima that pass the score threshold and the border test, centred where found) and the
// tracking's snake evolution (the cells keep their positions). The frames are seeded: a noise background
// with bright discs of a cell's radius rolling along the vein (see Frames), so that detection finds cells
// as it does in the video.
//
// IMGVF_kernel reads neighbours in shared memory that other warps write in the same barrier interval (the
// source's race): the port's result is that of warps running in order between barriers (the order the
// machinery runs them when their streams are pulled in order), which check()'s reference reproduces.
#include <cmath>
#include <cstdint>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 -arch=sm_75 -Xptxas -v (texture references replaced by __ldg loads, CUDA 13 has none):
// registers per thread; IMGVF_kernel's static shared memory (the 41 x 81 field, the 320-float buffer).
constexpr uint32_t kRegsGicov = 27, kRegsDilate = 33, kRegsImgvf = 63, kShmemImgvf = 14568;
// PTX (nvcc --ptx -arch=sm_75) instructions before each global access, shared accesses not counted (each
// adds one). GICOV: the entry, per circle, per point (the address, then the second gradient; the running
// statistics), the store. dilate: the entry, per structuring-element row, per element (the bounds and
// element test), the store. IMGVF: the entry and the four per-cell loads, the copy in (per element), the
// iteration's per-element stencil (eight heavisides) to the image load, the buffer and write back, the
// reduction's levels, the copy out.
constexpr uint32_t kGicovEntry = 18, kGicovCircle = 9, kGicovX = 21, kGicovY = 5, kGicovSt = 4;
constexpr uint32_t kDilEntry = 26, kDilRow = 12, kDilEl = 8, kDilLd = 3, kDilSt = 6;
constexpr uint32_t kImgEntry = 39, kImgPtr2 = 3, kImgM = 4, kImgN = 0, kImgCopy = 7, kImgLoop = 4;
constexpr uint32_t kImgStencil = 340, kImgAfter = 29, kImgLevel = 2, kImgOut = 7;

constexpr double kPi = 3.14159;  // misc_math.h's PI
constexpr int kNPoints = 150, kNCircles = 7, kMaxRad = 20, kMinRad = 8, kStrelR = 12;
constexpr int64_t kStrel = 2 * kStrelR + 1, kMargin = kMaxRad + 2;
constexpr int64_t kTop = 110, kBottom = 328;  // find_ellipse.h: the vein band, rows TOP..BOTTOM
constexpr double kThreshold = 1.8, kRadius = 10.0, kB = 5.0;
constexpr int64_t kDilThreads = 176, kImgThreads = 320, kImgPow2 = 256, kMaxIter = 500;
constexpr float kCutoff = 0.00001f;
constexpr int64_t kMaxCellElems = 41 * 81;

struct Tables {
  float sin_a[kNPoints], cos_a[kNPoints];
  int32_t tx[kNCircles * kNPoints], ty[kNCircles * kNPoints];
  float strel[kStrel * kStrel];
  Tables() {  // compute_constants()
    float theta[kNPoints];
    for (int n = 0; n < kNPoints; ++n) {
      theta[n] = float((double(n) * 2.0 * kPi) / double(kNPoints));
      sin_a[n] = float(std::sin(double(theta[n])));
      cos_a[n] = float(std::cos(double(theta[n])));
    }
    for (int k = 0; k < kNCircles; ++k) {
      const double rad = double(kMinRad + 2 * k);
      for (int n = 0; n < kNPoints; ++n) {
        tx[k * kNPoints + n] = int32_t(std::cos(double(theta[n])) * rad);
        ty[k * kNPoints + n] = int32_t(std::sin(double(theta[n])) * rad);
      }
    }
    for (int64_t i = 0; i < kStrel; ++i)
      for (int64_t j = 0; j < kStrel; ++j)
        strel[i * kStrel + j] =
            std::sqrt(float((i - kStrelR) * (i - kStrelR) + (j - kStrelR) * (j - kStrelR))) <= float(kStrelR)
                ? 1.0f
                : 0.0f;
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

float heaviside(float x) {
  return float((std::atan(x) * (1.0 / kPi)) + 0.5);
}

// gradient_x / gradient_y of a row-major m x n matrix.
std::vector<double> gradient(const std::vector<double>& in, int64_t m, int64_t n, bool along_x) {
  std::vector<double> r(in.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      auto at = [&](int64_t a, int64_t b) { return in[size_t(a * n + b)]; };
      double v;
      if (along_x)
        v = j == 0       ? at(i, 1) - at(i, 0)
            : j == n - 1 ? at(i, j) - at(i, j - 1)
                         : (at(i, j + 1) - at(i, j - 1)) / 2.0;
      else
        v = i == 0       ? at(1, j) - at(0, j)
            : i == m - 1 ? at(i, j) - at(i - 1, j)
                         : (at(i + 1, j) - at(i - 1, j)) / 2.0;
      r[size_t(i * n + j)] = v;
    }
  return r;
}

struct Cell {
  double xc, yc;         // frame coordinates
  int64_t u1, v1, m, n;  // the tracking window
  int64_t offset;        // into the I / IMGVF arrays
};

class Leukocyte : public KernelPort {
 public:
  Leukocyte(int64_t width, int64_t height, int64_t band, uint32_t frames, uint32_t discs, uint32_t seed)
      : w_(width), h_(height), band_(band), frames_(frames), discs_(discs), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // The discs: seeded centres in the band, rolling 1 pixel per frame to the right.
    LibcRand rng(seed_);
    for (uint32_t d = 0; d < discs_; ++d) {
      // Band rows 56.. (detection keeps maxima whose row - 40 is over 15) to band - 24 (GICOV's margin).
      const int64_t x = 40 + rng.rand() % (w_ - 100),
                    y = kTop + 56 + rng.rand() % std::max<int64_t>(1, band_ - 80);
      disc_.push_back({x, y});
    }
    // Detection's input: frame 0's band, its gradients, column-major floats.
    const std::vector<double> band = frame(0, false, kTop, band_);
    const std::vector<double> gx = gradient(band, band_, w_, true), gy = gradient(band, band_, w_, false);
    grad_x_ = mem.alloc<float>("device_grad_x", size_t(band_ * w_));
    grad_y_ = mem.alloc<float>("device_grad_y", size_t(band_ * w_));
    for (int64_t m = 0; m < band_; ++m)
      for (int64_t n = 0; n < w_; ++n) {
        grad_x_[size_t(n * band_ + m)] = float(gx[size_t(m * w_ + n)]);
        grad_y_[size_t(n * band_ + m)] = float(gy[size_t(m * w_ + n)]);
      }
    gicov_ = mem.alloc<float>("device_gicov", size_t(band_ * w_));
    dilated_ = mem.alloc<float>("device_img_dilated", size_t(band_ * w_));
    // The cells, from a sequential GICOV and dilation (the kernels compute the same; check() compares).
    ref_gicov_ = gicov_ref();
    ref_dilated_ = dilate_ref(ref_gicov_);
    cells_ = detect(ref_gicov_, ref_dilated_);
    int64_t total = 0;
    for (Cell& c : cells_) c.offset = total, total += c.m * c.n;
    const size_t nc = std::max<size_t>(cells_.size(), 1);
    i_array_ = mem.alloc<int64_t>("device_I_array", nc);
    imgvf_array_ = mem.alloc<int64_t>("device_IMGVF_array", nc);
    m_array_ = mem.alloc<int32_t>("device_m_array", nc);
    n_array_ = mem.alloc<int32_t>("device_n_array", nc);
    i_all_ = mem.alloc<float>("device_I_all", size_t(std::max<int64_t>(total, 1)));
    imgvf_all_ = mem.alloc<float>("device_IMGVF_all", size_t(std::max<int64_t>(total, 1)));
    // The pointer arrays hold element offsets into the two buffers (the kernel adds them to their bases).
    for (size_t c = 0; c < cells_.size(); ++c) {
      i_array_[c] = imgvf_array_[c] = cells_[c].offset;
      m_array_[c] = int32_t(cells_[c].m);
      n_array_[c] = int32_t(cells_[c].n);
    }
  }

  void run(Launcher& host) override {
    const int64_t gm = band_, gn = w_;
    KernelLaunch g;
    g.name = "GICOV_kernel";
    g.grid = {uint32_t(gn - 2 * kMargin), 1, 1};
    g.block = {uint32_t(gm - 2 * kMargin), 1, 1};
    g.regs_per_thread = kRegsGicov;
    g.body = [this](Warp& w) { gicov_kernel(w); };
    host.launch(std::move(g));
    KernelLaunch d;
    d.name = "dilate_kernel";
    d.grid = {uint32_t(dilate_blocks(gm, gn)), 1, 1};
    d.block = {uint32_t(kDilThreads), 1, 1};
    d.regs_per_thread = kRegsDilate;
    d.body = [this](Warp& w) { dilate_kernel(w); };
    host.launch(std::move(d));
    if (cells_.size() != detect(gicov_.host(), dilated_.host()).size()) detect_error_ = true;
    if (cells_.empty()) return;
    for (uint32_t f = 1; f <= frames_; ++f) {
      // IMGVF_cuda_init: each cell's normalised gradient magnitude into both buffers.
      const std::vector<double> img = frame(f, true, 0, h_);
      for (const Cell& c : cells_) {
        const std::vector<double> ie = window(img, c);
        for (int64_t e = 0; e < c.m * c.n; ++e)
          i_all_[size_t(c.offset + e)] = imgvf_all_[size_t(c.offset + e)] = float(ie[size_t(e)]);
      }
      if (f == frames_) last_i_ = i_all_.host();
      KernelLaunch k;
      k.name = "IMGVF_kernel";
      k.grid = {uint32_t(cells_.size()), 1, 1};
      k.block = {uint32_t(kImgThreads), 1, 1};
      k.regs_per_thread = kRegsImgvf;
      k.shmem_per_cta = kShmemImgvf;
      k.body = [this](Warp& w) { imgvf_kernel(w); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override;

  static int64_t dilate_blocks(int64_t m, int64_t n) {
    return int64_t((float(m * n) / float(kDilThreads)) + 0.5f);
  }
  size_t cells() const { return cells_.size(); }

 private:
  // Frame f as get_frame() returns it (flipped, rows top..top + rows - 1), grey levels 0..255 (divided by
  // 255 when scaled): noise 60..91 and discs of radius 10 at 220.
  std::vector<double> frame(uint32_t f, bool scaled, int64_t top, int64_t rows) const {
    std::vector<double> r(size_t(rows * w_));
    LibcRand rng(seed_ * 7919u + f + 1);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < w_; ++j) {
        double v = 60 + rng.rand() % 8;
        for (const auto& d : disc_) {  // 220 to radius 6, falling linearly to the background at 14
          const double dx = double(j - (d.first + f)), dy = double(top + i - d.second);
          const double dist = std::sqrt(dx * dx + dy * dy);
          if (dist < 14) v = std::max(v, 220 - 160 * std::max(0.0, dist - 6) / 8);
        }
        r[size_t(i * w_ + j)] = scaled ? v * (1.0 / 255.0) : v;
      }
    return r;
  }

  std::vector<float> gicov_ref() const;
  std::vector<float> dilate_ref(const std::vector<float>& g) const;
  std::vector<Cell> detect(const std::vector<float>& g, const std::vector<float>& dil) const;
  std::vector<double> window(const std::vector<double>& img, const Cell& c) const;
  void gicov_kernel(Warp& w);
  void dilate_kernel(Warp& w);
  void imgvf_kernel(Warp& w);

  int64_t w_, h_, band_;
  uint32_t frames_, discs_, seed_;
  std::vector<std::pair<int64_t, int64_t>> disc_;
  std::vector<float> ref_gicov_, ref_dilated_, last_i_;
  std::vector<Cell> cells_;
  bool detect_error_ = false;
  DeviceArray<float> grad_x_, grad_y_, gicov_, dilated_;
  DeviceArray<int64_t> i_array_, imgvf_array_;
  DeviceArray<int32_t> m_array_, n_array_;
  DeviceArray<float> i_all_, imgvf_all_;
};

std::vector<float> Leukocyte::gicov_ref() const {
  const Tables& t = tables();
  const int64_t gm = band_, gn = w_;
  std::vector<float> out(size_t(gm * gn), 0.0f);
  for (int64_t i = kMargin; i < gn - kMargin; ++i)
    for (int64_t j = kMargin; j < gm - kMargin; ++j) {
      float best = 0.0f;
      for (int k = 0; k < kNCircles; ++k) {
        float sum = 0.0f, m2 = 0.0f, mean = 0.0f;
        for (int n = 0; n < kNPoints; ++n) {
          const int64_t addr = (i + t.tx[k * kNPoints + n]) * gm + j + t.ty[k * kNPoints + n];
          const float p = grad_x_[size_t(addr)] * t.cos_a[n] + grad_y_[size_t(addr)] * t.sin_a[n];
          sum += p;
          const float delta = p - mean;
          mean = mean + (delta / float(n + 1));
          m2 = m2 + (delta * (p - mean));
        }
        mean = sum / float(kNPoints);
        const float var = m2 / float(kNPoints - 1);
        if ((mean * mean) / var > best) best = (mean * mean) / var;
      }
      out[size_t(i * gm + j)] = best;
    }
  return out;
}

std::vector<float> Leukocyte::dilate_ref(const std::vector<float>& g) const {
  const Tables& t = tables();
  const int64_t m = band_, n = w_, threads = dilate_blocks(m, n) * kDilThreads;
  std::vector<float> out(size_t(m * n), 0.0f);
  for (int64_t tid = 0; tid < threads; ++tid) {
    const int64_t i = tid % m, j = tid / m;
    float mx = 0.0f;
    for (int64_t ei = 0; ei < kStrel; ++ei) {
      const int64_t y = i - kStrelR + ei;
      if (y < 0 || y >= m) continue;
      for (int64_t ej = 0; ej < kStrel; ++ej) {
        const int64_t x = j - kStrelR + ej;
        if (x >= 0 && x < n && t.strel[ei * kStrel + ej] != 0 && g[size_t(x * m + y)] > mx)
          mx = g[size_t(x * m + y)];
      }
    }
    out[size_t(i * n + j)] = mx;
  }
  return out;
}

// The host's cell finding: local maxima (GICOV equal to its dilation, not 0) in the band, score sqrt(GICOV)
// above the threshold, the cell's circle inside the frame's border; the tracking window around each.
std::vector<Cell> Leukocyte::detect(const std::vector<float>& g, const std::vector<float>& dil) const {
  std::vector<Cell> cells;
  const int64_t m = band_, n = w_;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double gv = g[size_t(j * m + i)], dv = dil[size_t(i * n + j)];
      if (std::fabs(gv - 0.0) < 0.000001 || !(std::fabs(dv - gv) < 0.000001)) continue;
      if (!(i > 29 && i < band_ - 1 + 39)) continue;
      const double x = double(j), y = double(i - 40), score = std::sqrt(gv);
      if (!(score < -kThreshold || score > kThreshold)) continue;
      if (!(x - kRadius > kB && y - kRadius > kB && x + kRadius < double(w_) - kB &&
            y + kRadius < double(h_) - kB))
        continue;
      Cell c{};
      c.xc = x, c.yc = y + double(kTop);
      const double r = kRadius;
      c.u1 = int64_t(std::max(c.xc - 4.0 * r + 0.5, 0.0));
      const int64_t u2 = int64_t(std::min(c.xc + 4.0 * r + 0.5, double(w_ - 1)));
      c.v1 = int64_t(std::max(c.yc - 2.0 * r + 1.5, 0.0));
      const int64_t v2 = int64_t(std::min(c.yc + 2.0 * r + 1.5, double(h_ - 1)));
      c.m = v2 - c.v1 + 1, c.n = u2 - c.u1 + 1;
      if (c.m * c.n > kMaxCellElems) continue;  // the kernel's shared field holds 41 x 81
      cells.push_back(c);
    }
  return cells;
}

// The tracking window's gradient magnitude, normalised as MGVF() does.
std::vector<double> Leukocyte::window(const std::vector<double>& img, const Cell& c) const {
  std::vector<double> sub(size_t(c.m * c.n));
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) sub[size_t(i * c.n + j)] = img[size_t((c.v1 + i) * w_ + c.u1 + j)];
  const std::vector<double> gx = gradient(sub, c.m, c.n, true), gy = gradient(sub, c.m, c.n, false);
  std::vector<double> ie(sub.size());
  for (size_t e = 0; e < ie.size(); ++e) ie[e] = std::sqrt(gx[e] * gx[e] + gy[e] * gy[e]);
  double imax = ie[0], imin = ie[0];
  for (double v : ie) {
    if (v > imax)
      imax = v;
    else if (v < imin)
      imin = v;
  }
  const double scale = 1.0 / (imax - imin + std::pow(2.0, -52.0));
  for (double& v : ie) v = (v - imin) * scale;
  return ie;
}

void Leukocyte::gicov_kernel(Warp& w) {
  const Tables& t = tables();
  const int64_t gm = band_;
  const int64_t i = int64_t(w.block_idx().x) + kMargin;
  const Int j = w.thread_idx_x() + kMargin;
  Float best = 0.0f;
  w.compute(kGicovEntry);
  for (int k = 0; k < kNCircles; ++k) {
    Float sum = 0.0f, m2 = 0.0f, mean = 0.0f;
    w.compute(kGicovCircle);
    for (int n = 0; n < kNPoints; ++n) {
      const Int addr = (i + t.tx[k * kNPoints + n]) * gm + (j + t.ty[k * kNPoints + n]);
      w.compute(kGicovX);
      const Float gxv = w.load(0x10, grad_x_, addr);
      w.compute(kGicovY);
      const Float gyv = w.load(0x20, grad_y_, addr);
      const Float p = gxv * t.cos_a[n] + gyv * t.sin_a[n];
      sum = sum + p;
      const Float delta = p - mean;
      mean = mean + delta / float(n + 1);
      m2 = m2 + delta * (p - mean);
    }
    mean = sum / float(kNPoints);
    const Float var = m2 / float(kNPoints - 1);
    const Float score = mean * mean / var;
    best = select<float>(score > best, score, best);
  }
  w.compute(kGicovSt);
  w.store(0x30, gicov_, j + i * gm, best);
}

void Leukocyte::dilate_kernel(Warp& w) {
  const Tables& t = tables();
  const int64_t m = band_, n = w_;
  const Int tid = w.global_x();
  const Int i = tid % m, j = tid / m;
  Float mx = 0.0f;
  w.compute(kDilEntry);
  for (int64_t ei = 0; ei < kStrel; ++ei) {
    const Int y = i - kStrelR + ei;
    w.compute(kDilRow);
    w.if_(y >= 0 && y < m, [&] {
      for (int64_t ej = 0; ej < kStrel; ++ej) {
        const Int x = j - kStrelR + ej;
        w.compute(kDilEl);
        if (t.strel[ei * kStrel + ej] == 0) continue;  // constant memory: the test needs no load
        w.if_(x >= 0 && x < n, [&] {
          w.compute(kDilLd);
          const Float v = w.load(0x100, gicov_, x * m + y);
          mx = select<float>(v > mx, v, mx);
        });
      }
    });
  }
  w.compute(kDilSt);
  w.store(0x110, dilated_, i * n + j, mx);
}

void Leukocyte::imgvf_kernel(Warp& w) {
  auto& field = w.shared<float>(0, size_t(kMaxCellElems));
  auto& buffer = w.shared<float>(1, size_t(kImgThreads));
  auto& converged = w.shared<int32_t>(2, 1);
  const Int cell(int64_t(w.block_idx().x));
  const Int tid = w.thread_idx_x();
  w.compute(kImgEntry);
  const Int imgvf_off = w.load(0x200, imgvf_array_, cell);
  w.compute(kImgPtr2);
  const Int i_off = w.load(0x210, i_array_, cell);
  w.compute(kImgM);
  const int64_t m = w.load(0x220, m_array_, cell)[0];  // warp-uniform
  w.compute(kImgN);
  const int64_t n = w.load(0x230, n_array_, cell)[0];
  const int64_t max = (m * n + kImgThreads - 1) / kImgThreads;
  Int i = 0, j = 0;
  for (int64_t tb = 0; tb < max; ++tb) {
    const int64_t off = tb * kImgThreads;
    i = (tid + off) / n;
    j = (tid + off) % n;
    w.compute(kImgCopy);
    w.if_(i < m, [&] { w.shared_store(field, i * n + j, w.load(0x240, imgvf_all_, imgvf_off + i * n + j)); });
    w.compute(kImgLoop);
  }
  w.sync();
  w.if_(tid == 0, [&] { w.shared_store(converged, Int(0), 0); });
  w.sync();
  const float one_nth = 1.f / float(n);
  const Int tid_mod = tid % n;
  const int64_t tbsize_mod = kImgThreads % n;
  const float one_over_e = float(1.0 / 0.0000000001f);
  const float vx = 1.0f, vy = 1.0f;
  const double mu = 0.5, lambda = 8.0 * mu + 1.0;
  int64_t iterations = 0;
  while (w.shared_load(converged, Int(0))[w.active() ? __builtin_ctz(w.active()) : 0] == 0 &&
         iterations < kMaxIter) {
    Float total_diff = 0.0f;
    Int old_i = 0, old_j = 0;
    j = tid_mod - tbsize_mod;
    for (int64_t tb = 0; tb < max; ++tb) {
      old_i = i, old_j = j;
      const int64_t off = tb * kImgThreads;
      i = map((tid + off).as<float>() * one_nth, [](float x) { return x; }).as<int64_t>();
      j = j + tbsize_mod;
      j = select<int64_t>(j >= n, j - n, j);
      Float new_val = 0.0f, old_val = 0.0f;
      w.compute(kImgStencil);
      w.if_(i < m, [&] {
        const Int row_u = select<int64_t>(i == 0, 0, i - 1),
                  row_d = select<int64_t>(i == m - 1, m - 1, i + 1);
        const Int col_l = select<int64_t>(j == 0, 0, j - 1),
                  col_r = select<int64_t>(j == n - 1, n - 1, j + 1);
        const Float ov = w.shared_load(field, i * n + j);
        const Float u = w.shared_load(field, row_u * n + j) - ov,
                    d = w.shared_load(field, row_d * n + j) - ov;
        const Float l = w.shared_load(field, i * n + col_l) - ov,
                    r = w.shared_load(field, i * n + col_r) - ov;
        const Float ur = w.shared_load(field, row_u * n + col_r) - ov;
        const Float dr = w.shared_load(field, row_d * n + col_r) - ov;
        const Float ul = w.shared_load(field, row_u * n + col_l) - ov;
        const Float dl = w.shared_load(field, row_d * n + col_l) - ov;
        Float nv;
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
          const float s = heaviside((u[lane] * -vy) * one_over_e) * u[lane] +
                          heaviside((d[lane] * vy) * one_over_e) * d[lane] +
                          heaviside((l[lane] * -vx) * one_over_e) * l[lane] +
                          heaviside((r[lane] * vx) * one_over_e) * r[lane] +
                          heaviside((ur[lane] * (vx - vy)) * one_over_e) * ur[lane] +
                          heaviside((dr[lane] * (vx + vy)) * one_over_e) * dr[lane] +
                          heaviside((ul[lane] * (-vx - vy)) * one_over_e) * ul[lane] +
                          heaviside((dl[lane] * (-vx + vy)) * one_over_e) * dl[lane];
          nv.v[lane] = float(ov[lane] + (mu / lambda) * s);
        }
        nv.deps = ov.deps;
        const Float vi = w.load(0x250, i_all_, i_off + i * n + j);
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
          nv.v[lane] = float(nv.v[lane] - ((1.0 / lambda) * vi.v[lane] * (nv.v[lane] - vi.v[lane])));
        nv.deps |= vi.deps;
        for (uint32_t b = w.active(); b; b &= b - 1) {
          const unsigned lane = unsigned(__builtin_ctz(b));
          new_val.v[lane] = nv.v[lane];
          old_val.v[lane] = ov.v[lane];
        }
        new_val.deps = nv.deps;
      });
      w.compute(kImgAfter);
      if (tb > 0)
        w.if_(old_i < m, [&] { w.shared_store(field, old_i * n + old_j, w.shared_load(buffer, tid)); });
      if (tb < max - 1)
        w.shared_store(buffer, tid, new_val);
      else
        w.if_(i < m, [&] { w.shared_store(field, i * n + j, new_val); });
      total_diff = total_diff + map(new_val - old_val, [](float x) { return std::fabs(x); });
      w.sync();
    }
    w.shared_store(buffer, tid, total_diff);
    w.sync();
    w.if_(tid >= kImgPow2, [&] {
      w.shared_store(buffer, tid - kImgPow2,
                     w.shared_load(buffer, tid - kImgPow2) + w.shared_load(buffer, tid));
    });
    w.sync();
    for (int64_t th = kImgPow2 / 2; th > 0; th /= 2) {
      w.compute(kImgLevel);
      w.if_(tid < th, [&] {
        w.shared_store(buffer, tid, w.shared_load(buffer, tid) + w.shared_load(buffer, tid + th));
      });
      w.sync();
    }
    w.if_(tid == 0, [&] {
      const float mean = w.shared_load(buffer, Int(0))[0] / float(m * n);
      if (mean < kCutoff) w.shared_store(converged, Int(0), 1);
    });
    w.sync();
    ++iterations;
  }
  for (int64_t tb = 0; tb < max; ++tb) {
    const int64_t off = tb * kImgThreads;
    i = (tid + off) / n;
    j = (tid + off) % n;
    w.compute(kImgOut);
    w.if_(i < m, [&] { w.store(0x260, imgvf_all_, imgvf_off + i * n + j, w.shared_load(field, i * n + j)); });
  }
}

std::string Leukocyte::check() const {
  if (detect_error_) return "the kernels' GICOV / dilation find other cells than the sequential ones";
  for (size_t e = 0; e < ref_gicov_.size(); ++e)
    if (gicov_[e] != ref_gicov_[e])
      return "gicov[" + std::to_string(e) + "] = " + std::to_string(gicov_[e]) + ", expected " +
             std::to_string(ref_gicov_[e]);
  for (size_t e = 0; e < ref_dilated_.size(); ++e)
    if (dilated_[e] != ref_dilated_[e])
      return "dilated[" + std::to_string(e) + "] = " + std::to_string(dilated_[e]) + ", expected " +
             std::to_string(ref_dilated_[e]);
  if (cells_.empty() || frames_ == 0) return "";
  // The last frame's MGVF, sequentially: threads by warps in order, a warp's reads before its writes.
  const double mu = 0.5, lambda = 8.0 * mu + 1.0;
  const float one_over_e = float(1.0 / 0.0000000001f);
  for (size_t ci = 0; ci < cells_.size(); ++ci) {
    const Cell& c = cells_[ci];
    const int64_t m = c.m, n = c.n, max = (m * n + kImgThreads - 1) / kImgThreads;
    std::vector<float> f(last_i_.begin() + c.offset, last_i_.begin() + c.offset + m * n);
    const float* img = last_i_.data() + c.offset;
    std::vector<float> buffer(kImgThreads);
    std::vector<int64_t> ti(kImgThreads), tj(kImgThreads);
    for (int64_t t = 0; t < kImgThreads; ++t) ti[size_t(t)] = (t + (max - 1) * kImgThreads) / n;
    const float one_nth = 1.f / float(n);
    for (int64_t it = 0; it < kMaxIter; ++it) {
      std::vector<float> diff(kImgThreads, 0.0f);
      for (int64_t t = 0; t < kImgThreads; ++t) tj[size_t(t)] = t % n - kImgThreads % n;
      for (int64_t tb = 0; tb < max; ++tb)
        for (int64_t w0 = 0; w0 < kImgThreads; w0 += 32) {
          float nv[32], ov[32];
          int64_t oi[32], oj[32];
          for (int64_t t = w0; t < w0 + 32; ++t) {  // reads
            const size_t l = size_t(t - w0);
            oi[l] = ti[size_t(t)], oj[l] = tj[size_t(t)];
            const int64_t i = int64_t(float(t + tb * kImgThreads) * one_nth);
            int64_t j = tj[size_t(t)] + kImgThreads % n;
            if (j >= n) j -= n;
            ti[size_t(t)] = i, tj[size_t(t)] = j;
            nv[l] = 0.0f, ov[l] = 0.0f;
            if (i < m) {
              const int64_t ru = i == 0 ? 0 : i - 1, rd = i == m - 1 ? m - 1 : i + 1;
              const int64_t cl = j == 0 ? 0 : j - 1, cr = j == n - 1 ? n - 1 : j + 1;
              const float o = f[size_t(i * n + j)];
              auto at = [&](int64_t a, int64_t b) { return f[size_t(a * n + b)] - o; };
              const float u = at(ru, j), d = at(rd, j), le = at(i, cl), r = at(i, cr);
              const float ur = at(ru, cr), dr = at(rd, cr), ul = at(ru, cl), dl = at(rd, cl);
              const float s =
                  heaviside((u * -1.0f) * one_over_e) * u + heaviside((d * 1.0f) * one_over_e) * d +
                  heaviside((le * -1.0f) * one_over_e) * le + heaviside((r * 1.0f) * one_over_e) * r +
                  heaviside((ur * 0.0f) * one_over_e) * ur + heaviside((dr * 2.0f) * one_over_e) * dr +
                  heaviside((ul * -2.0f) * one_over_e) * ul + heaviside((dl * 0.0f) * one_over_e) * dl;
              float v = float(o + (mu / lambda) * s);
              const float vi = img[i * n + j];
              v = float(v - ((1.0 / lambda) * vi * (v - vi)));
              nv[l] = v, ov[l] = o;
            }
          }
          for (int64_t t = w0; t < w0 + 32; ++t) {  // writes
            const size_t l = size_t(t - w0);
            if (tb > 0 && oi[l] < m) f[size_t(oi[l] * n + oj[l])] = buffer[size_t(t)];
            if (tb < max - 1)
              buffer[size_t(t)] = nv[l];
            else if (ti[size_t(t)] < m)
              f[size_t(ti[size_t(t)] * n + tj[size_t(t)])] = nv[l];
            diff[size_t(t)] += std::fabs(nv[l] - ov[l]);
          }
        }
      for (int64_t t = 0; t < kImgThreads; ++t) buffer[size_t(t)] = diff[size_t(t)];
      for (int64_t t = kImgPow2; t < kImgThreads; ++t) buffer[size_t(t - kImgPow2)] += buffer[size_t(t)];
      for (int64_t th = kImgPow2 / 2; th > 0; th /= 2)
        for (int64_t t = 0; t < th; ++t) buffer[size_t(t)] += buffer[size_t(t + th)];
      if (buffer[0] / float(m * n) < kCutoff) break;
    }
    for (int64_t e = 0; e < m * n; ++e)
      if (imgvf_all_[size_t(c.offset + e)] != f[size_t(e)])
        return "cell " + std::to_string(ci) + " IMGVF[" + std::to_string(e) +
               "] = " + std::to_string(imgvf_all_[size_t(c.offset + e)]) + ", expected " +
               std::to_string(f[size_t(e)]);
  }
  return "";
}

}  // namespace

void register_rodinia_leukocyte(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/leukocyte";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/leukocyte/CUDA/detect_main.c, find_ellipse.c, "
      "find_ellipse_kernel.cu, track_ellipse.c, track_ellipse_kernel.cu, misc_math.c @ 9c10d3e";
  p.input =
      "the run script's: testfile.avi, 5 frames tracked. The video is replaced by seeded frames of 640 x 480 "
      "(the size assumed for testfile.avi; width and height are size keys): noise (60-67) and 36 bright "
      "discs "
      "of a cell's radius (220, edge ramp from radius 6 to 14) rolling 1 pixel a frame along the vein, of "
      "which detection keeps 34. Texture reads are global loads (as __ldg). Default 1 tracked frame instead "
      "of "
      "5: 12.1 M warp instructions (GICOV_kernel 7.5 M and dilate_kernel 2.1 M, run once whatever the "
      "frames; "
      "IMGVF_kernel 2.45 M per frame), over the few-million budget. Size keys: width, height, band (the vein "
      "band's rows, 219; fewer for small runs), frames, discs, seed";
  p.papers = "Decoupled L1D (002, LFK)";
  p.kernels = "GICOV_kernel, dilate_kernel, IMGVF_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t width = s.get_uint("width", 640, 2 * kMargin + 64, 4096);
    // band: BOTTOM - TOP + 1 (219 in the source; fewer rows for small runs: GICOV's block is band - 44).
    const uint64_t band = s.get_uint("band", uint64_t(kBottom - kTop + 1), 96, 4096);
    const uint64_t height = s.get_uint("height", 480, kTop + band, 8192);
    const uint64_t frames = s.get_uint("frames", 1, 0, 1000);
    const uint64_t discs = s.get_uint("discs", 36, 0, 1000);
    const uint64_t seed = s.get_uint("seed", 1, 0, 0xffffffffu);
    if (Leukocyte::dilate_blocks(int64_t(band), int64_t(width)) * kDilThreads > int64_t(band * width))
      throw ConfigError(
          "rodinia/leukocyte: dilate_kernel's rounded grid would write past the image for this width");
    return std::make_unique<Leukocyte>(int64_t(width), int64_t(height), int64_t(band), uint32_t(frames),
                                       uint32_t(discs), uint32_t(seed));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
