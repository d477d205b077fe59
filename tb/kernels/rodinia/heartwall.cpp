// Rodinia 3.1 heartwall (CUDA): tracks 51 sample points (20 endocardium, 31 epicardium) through the frames
// of an ultrasound video. One launch per frame, one 256-thread CTA per point. Frame 0 copies each point's
// 51 x 51 template out of the frame. Every later frame: the point's 81 x 81 search window is copied out
// of the frame (d_in2), correlated with the rotated template (shared memory) into the 131 x 131 d_conv,
// and normalised by local sums computed with padded cumulative sums, once of the window and once of its
// squares (pad, cumulative sum down the columns, two selections and a difference, cumulative sum along
// the rows, two selections and a difference); the template's mean and deviation come from column / row
// sums and a shared reduction; the normalised correlation is masked by a 10 x 10 box around the previous
// position (d_tMask convolved), the row maxima go to shared memory and thread 0 stores the new position.
// Every 10th frame the point's position and template are updated (the template blended with the frame).
// Every loop is `for (e = tid; e < n; e += 256)` over column-major arrays; all arrays are per point
// (51 cudaMallocs of each), the frame is column-major (row + col * frame_rows).
//
// The source has no barrier between the second row-difference pass (d_in2_sub_cumh = sel - sub_cumh, of
// the squares) and the cumulative sum along its rows, which reads elements other warps write: what that
// pass reads depends on the warps' order, so d_in2_sqr_sub2, d_mask_conv and the tracked positions do too.
// check() compares what does not depend on it (the last launch's d_in2, d_conv, d_in2_sub2, d_in_sqr and
// d_tMask, recomputed sequentially from the launch's inputs), and the templates after frame 0.
#include <cmath>
#include <cstdint>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

// Points tracked by default (of kPoints): a fermi run of about half a minute; every point's arrays stay
// allocated.
constexpr uint64_t kDefaultPoints = 8;

namespace {

// nvcc 13.0 -arch=sm_75 -Xptxas -v (main.cu with kernel.cu, NUMBER_THREADS 256): registers per thread,
// static shared memory (the rotated template, partial sums and row maxima).
constexpr uint32_t kRegs = 55, kShmem = 11872;
// PTX (nvcc --ptx -arch=sm_75) instructions before each global access on a loop iteration's path, shared
// accesses not counted (each adds one). The entry; frame 0's position stores and template copy; a window
// copy; the correlation's per-element setup, per template column and per multiply-add; a padded copy (its
// test, load, store; the zero store); a column cumulative sum (its setup, load, store); a selection (load,
// store); a difference (two loads, store); the squares (load, store); the deviation pass (two loads,
// store); the template's column / row sums (per load); the scaling and normalising passes; the mask (its
// position loads, the store), its box sum (setup, per column, per load; the two accesses after); a row's
// maximum (per load); thread 0's position stores; the template update; a loop's increment and test.
constexpr uint32_t kEntry = 44, kF0Ld = 7, kF0St = 4, kF0Ld2 = 3, kF0St2 = 3;
constexpr uint32_t kF0LoopRow = 10, kF0LoopCol = 2, kF0LoopFrame = 5, kF0LoopSt = 3;
constexpr uint32_t kWinRow = 14, kWinCol = 4, kWinLd = 14, kWinSt = 2, kRotLd = 15;
constexpr uint32_t kConvSetup = 55, kConvCol = 10, kConvMad = 4, kConvSt = 2;
constexpr uint32_t kPadTest = 28, kPadLd = 7, kPadSt = 4, kPadZero = 5;
constexpr uint32_t kCumSetup = 14, kCumLd = 2, kCumSt = 1, kSelLd = 16, kSelSt = 2;
constexpr uint32_t kSubLd = 4, kSubLd2 = 0, kSubSt = 1, kSqrLd = 3, kSqrSt = 2;
constexpr uint32_t kDevLd = 4, kDevLd2 = 2, kDevSt = 4, kSumSetup = 7, kSumLd = 3, kFinal = 4;
constexpr uint32_t kScaleLd = 3, kScaleSt = 1, kNormLd = 4, kNormLd2 = 2, kNormSt = 1;
constexpr uint32_t kMaskPos = 12, kMaskSetup = 20, kMaskSt = 5;
constexpr uint32_t kBoxSetup = 55, kBoxCol = 8, kBoxLd = 2, kBoxLd2 = 2, kBoxSt = 2, kMaxLd = 5;
constexpr uint32_t kPosLd = 22, kPosSt = 1, kPosLd2 = 4, kPosSt2 = 1;
constexpr uint32_t kUpdLd = 9, kUpdSt = 4, kUpdLd2 = 3, kUpdSt2 = 3;
constexpr uint32_t kUpdRow = 9, kUpdCol = 2, kUpdIn = 3, kUpdFrame = 4, kUpdStore = 3, kLoop = 4;

constexpr int64_t kThreads = 256;  // NUMBER_THREADS
constexpr int64_t kEndo = 20, kEpi = 31, kPoints = kEndo + kEpi;
constexpr int64_t kMaxMove = 10;
constexpr float kAlpha = 0.87f;
// The video (data/heartwall/test.avi): 104 frames of 609 x 590 (width x height).
constexpr int64_t kVideoFrames = 104, kFrameRows = 590, kFrameCols = 609;

constexpr int32_t kEndoRow[kEndo] = {369, 400, 429, 452, 476, 486, 479, 458, 433, 404,
                                     374, 346, 318, 294, 277, 269, 275, 287, 311, 339};
constexpr int32_t kEndoCol[kEndo] = {408, 406, 397, 383, 354, 322, 294, 270, 250, 237,
                                     235, 241, 254, 273, 300, 328, 356, 383, 401, 411};
constexpr int32_t kEpiRow[kEpi] = {390, 419, 448, 474, 501, 519, 535, 542, 543, 538, 528,
                                   511, 491, 466, 438, 406, 376, 347, 318, 291, 275, 259,
                                   256, 252, 252, 257, 266, 283, 305, 331, 360};
constexpr int32_t kEpiCol[kEpi] = {457, 454, 446, 431, 411, 388, 361, 331, 301, 273, 243,
                                   218, 196, 178, 166, 157, 155, 165, 177, 197, 218, 248,
                                   276, 304, 333, 361, 391, 415, 434, 448, 455};

// main.cu's common.* sizes for a search radius sSize and a template radius tSize (40 and 25 in the source).
struct Sizes {
  int64_t s_size, t_size, in_rows, in_elem, in2_rows, in2_elem, conv_rows, conv_elem, pad_rows, pad_elem;
  int64_t sel_row_low, sel_rows, sel_elem, cumh_rows, cumh_elem, cumh_sel_col_low, cumh_sel_cols,
      cumh_sel_elem;
  int64_t sub2_cols, sub2_elem, tmask_rows, tmask_elem;
  Sizes(int64_t s, int64_t t) : s_size(s), t_size(t) {
    in_rows = 2 * t + 1, in_elem = in_rows * in_rows;                       // the template
    in2_rows = 2 * s + 1, in2_elem = in2_rows * in2_rows;                   // the search window
    conv_rows = in_rows + in2_rows - 1, conv_elem = conv_rows * conv_rows;  // their convolution
    pad_rows = in2_rows + 2 * in_rows, pad_elem = pad_rows * pad_rows;      // the padded window
    sel_row_low = 1 + in_rows, sel_rows = pad_rows - 1 - sel_row_low + 1, sel_elem = sel_rows * pad_rows;
    cumh_rows = pad_rows - in_rows - 1, cumh_elem = cumh_rows * pad_rows;
    cumh_sel_col_low = 1 + in_rows, cumh_sel_cols = pad_rows - 1 - cumh_sel_col_low + 1;
    cumh_sel_elem = cumh_rows * cumh_sel_cols;
    sub2_cols = pad_rows - in_rows - 1, sub2_elem = cumh_rows * sub2_cols;
    tmask_rows = in_rows + 2 * s + 1 - 1, tmask_elem = tmask_rows * tmask_rows;
  }
  int64_t point_arr(int a) const {
    const int64_t n[12] = {in2_elem,  conv_elem, pad_elem,  sel_elem, cumh_elem,  cumh_sel_elem,
                           sub2_elem, in2_elem,  sub2_elem, in_elem,  tmask_elem, tmask_elem};
    return n[a];
  }
};

constexpr int64_t kMaskRows = kMaxMove, kMaskOff = (kMaskRows - 1) / 2 + ((kMaskRows - 1) % 2 ? 1 : 0);

// A column-major element's row and column, as the kernel computes them.
void row_col(const Int& e, int64_t rows, Int& row, Int& col) {
  const Int m = (e + 1) % rows;
  row = select<int64_t>(m == 0, rows - 1, m - 1);
  col = select<int64_t>(m == 0, (e + 1) / rows - 1, (e + 1) / rows);
}

// The arrays one point owns (one cudaMalloc each, 51 of each kind in main.cu's order).
enum PointArr {
  kIn2,
  kConv,
  kPad,
  kPadSel,
  kCumh,
  kCumhSel,
  kSub2,
  kIn2Sqr,
  kSqrSub2,
  kInSqr,
  kTMask,
  kMaskConv
};
constexpr int kPointArrs = 12;
constexpr const char* kPointArrNames[kPointArrs] = {
    "d_in2",      "d_conv",    "d_in2_pad_cumv", "d_in2_pad_cumv_sel", "d_in2_sub_cumh", "d_in2_sub_cumh_sel",
    "d_in2_sub2", "d_in2_sqr", "d_in2_sqr_sub2", "d_in_sqr",           "d_tMask",        "d_mask_conv"};

class Heartwall : public KernelPort {
 public:
  Heartwall(uint32_t frames, uint32_t points, int64_t s_size, int64_t t_size, uint32_t seed)
      : frames_(frames), points_(points), seed_(seed), z_(s_size, t_size) {}

  void setup(DeviceMemory& mem) override {
    const Sizes& z = z_;
    frame_ = mem.alloc<float>("d_frame", size_t(kFrameRows * kFrameCols));
    endo_row_ = mem.alloc<int32_t>("d_endoRow", kEndo);
    endo_col_ = mem.alloc<int32_t>("d_endoCol", kEndo);
    t_endo_row_ = mem.alloc<int32_t>("d_tEndoRowLoc", size_t(kEndo * kVideoFrames));
    t_endo_col_ = mem.alloc<int32_t>("d_tEndoColLoc", size_t(kEndo * kVideoFrames));
    epi_row_ = mem.alloc<int32_t>("d_epiRow", kEpi);
    epi_col_ = mem.alloc<int32_t>("d_epiCol", kEpi);
    t_epi_row_ = mem.alloc<int32_t>("d_tEpiRowLoc", size_t(kEpi * kVideoFrames));
    t_epi_col_ = mem.alloc<int32_t>("d_tEpiColLoc", size_t(kEpi * kVideoFrames));
    endo_t_ = mem.alloc<float>("d_endoT", size_t(z.in_elem * kEndo));
    epi_t_ = mem.alloc<float>("d_epiT", size_t(z.in_elem * kEpi));
    for (int64_t i = 0; i < kEndo; ++i)
      endo_row_[size_t(i)] = kEndoRow[i], endo_col_[size_t(i)] = kEndoCol[i];
    for (int64_t i = 0; i < kEpi; ++i) epi_row_[size_t(i)] = kEpiRow[i], epi_col_[size_t(i)] = kEpiCol[i];
    for (int a = 0; a < kPointArrs; ++a)
      for (int64_t p = 0; p < kPoints; ++p)
        arr_[a].push_back(mem.alloc<float>(kPointArrNames[a], size_t(z.point_arr(a))));
  }

  void run(Launcher& host) override {
    for (uint32_t f = 0; f < frames_; ++f) {
      // get_frame(): the video's grey levels as floats, column-major; here glibc rand() % 256 after
      // srand(seed + frame).
      LibcRand rng(seed_ + f);
      for (auto& v : frame_.host()) v = float(rng.rand() % 256);
      if (f + 1 == frames_) {  // the last launch's inputs, for check()
        last_frame_ = frame_.host();
        last_row_ = {endo_row_.host(), epi_row_.host()};
        last_col_ = {endo_col_.host(), epi_col_.host()};
        last_t_ = {endo_t_.host(), epi_t_.host()};
        last_trow_ = {t_endo_row_.host(), t_epi_row_.host()};
        last_tcol_ = {t_endo_col_.host(), t_epi_col_.host()};
      }
      KernelLaunch k;
      k.name = "kernel";
      k.grid = {points_, 1, 1};
      k.block = {uint32_t(kThreads), 1, 1};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, f](Warp& w) { kernel(w, int64_t(f)); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override;

 private:
  struct Point {
    DeviceArray<int32_t>*row, *col, *trow, *tcol;
    DeviceArray<float>* t;
    int64_t no, in_pointer;
  };
  Point point(int64_t bx) {
    const Sizes& z = z_;
    if (bx < kEndo) return {&endo_row_, &endo_col_, &t_endo_row_, &t_endo_col_, &endo_t_, bx, bx * z.in_elem};
    const int64_t no = bx - kEndo;
    return {&epi_row_, &epi_col_, &t_epi_row_, &t_epi_col_, &epi_t_, no, no * z.in_elem};
  }

  // for (e = tid; e < n; e += 256) body(e).
  template <class B>
  void each(Warp& w, int64_t n, B&& body) {
    w.for_(w.thread_idx_x(), Int(n), Int(kThreads), [&](const Int& e) {
      body(e);
      w.compute(kLoop);
    });
  }

  void kernel(Warp& w, int64_t frame_no);
  // The padded copy of `src` (81 x 81) into d_in2_pad_cumv, its column sums, the two selections and the
  // difference (PCs from pc).
  void pad_and_cumulate(Warp& w, DeviceArray<float>& src, int64_t bx, uint32_t pc);

  uint32_t frames_, points_, seed_;
  Sizes z_;
  DeviceArray<float> frame_;
  DeviceArray<int32_t> endo_row_, endo_col_, t_endo_row_, t_endo_col_;
  DeviceArray<int32_t> epi_row_, epi_col_, t_epi_row_, t_epi_col_;
  DeviceArray<float> endo_t_, epi_t_;
  std::vector<DeviceArray<float>> arr_[kPointArrs];
  // The last launch's inputs.
  std::vector<float> last_frame_;
  std::vector<std::vector<int32_t>> last_row_, last_col_, last_trow_, last_tcol_;
  std::vector<std::vector<float>> last_t_;
};

void Heartwall::pad_and_cumulate(Warp& w, DeviceArray<float>& src, int64_t bx, uint32_t pc) {
  const Sizes& z = z_;
  auto& pad = arr_[kPad][size_t(bx)];
  auto& sel = arr_[kPadSel][size_t(bx)];
  auto& cumh = arr_[kCumh][size_t(bx)];
  each(w, z.pad_elem, [&](const Int& e) {
    Int row, col;
    row_col(e, z.pad_rows, row, col);
    w.compute(kPadTest);
    w.if_else(
        row > z.in_rows - 1 && row < z.in_rows + z.in2_rows && col > z.in_rows - 1 &&
            col < z.in_rows + z.in2_rows,
        [&] {
          const Float v = w.load(pc, src, (col - z.in_rows) * z.in2_rows + (row - z.in_rows));
          w.compute(kPadLd);
          w.store(pc + 0x10, pad, e, v);
        },
        [&] {
          w.compute(kPadZero);
          w.store(pc + 0x20, pad, e, 0.0f);
        });
  });
  w.sync();
  // Cumulative sum down each column (the source reloads the stored element as the running sum; the
  // compiled code keeps it in a register).
  each(w, z.pad_rows, [&](const Int& e) {
    const Int pos_ori = e * z.pad_rows;
    Float sum = 0.0f;
    w.compute(kCumSetup);
    w.for_(pos_ori, pos_ori + z.pad_rows, Int(1), [&](const Int& p) {
      w.compute(kCumLd);
      const Float v = w.load(pc + 0x30, pad, p) + sum;
      w.compute(kCumSt);
      w.store(pc + 0x40, pad, p, v);
      sum = v;
    });
  });
  w.sync();
  each(w, z.sel_elem, [&](const Int& e) {
    Int row, col;
    row_col(e, z.sel_rows, row, col);
    w.compute(kSelLd);
    const Float v = w.load(pc + 0x50, pad, col * z.pad_rows + (row + z.sel_row_low - 1));
    w.compute(kSelSt);
    w.store(pc + 0x60, sel, e, v);
  });
  w.sync();
  each(w, z.cumh_elem, [&](const Int& e) {
    Int row, col;
    row_col(e, z.cumh_rows, row, col);
    w.compute(kSelLd);
    const Float v = w.load(pc + 0x70, pad, col * z.pad_rows + row);
    w.compute(kSelSt);
    w.store(pc + 0x80, cumh, e, v);
  });
  w.sync();
  each(w, z.cumh_elem, [&](const Int& e) {
    w.compute(kSubLd);
    const Float a = w.load(pc + 0x90, sel, e);
    w.compute(kSubLd2);
    const Float b = w.load(pc + 0xa0, cumh, e);
    w.compute(kSubSt);
    w.store(pc + 0xb0, cumh, e, a - b);
  });
}

void Heartwall::kernel(Warp& w, int64_t frame_no) {
  const Sizes& z = z_;
  const int64_t bx = w.block_idx().x;
  const Int tx = w.thread_idx_x();
  Point pt = point(bx);
  auto A = [&](PointArr a) -> DeviceArray<float>& { return arr_[a][size_t(bx)]; };
  const Int pn(pt.no);
  w.compute(kEntry);
  if (frame_no == 0) {
    w.if_(tx == 0, [&] {
      const Int pointer = pt.no * kVideoFrames + frame_no;
      w.compute(kF0Ld);
      const Int r = w.load(0x10, *pt.row, pn).as<int64_t>();
      w.compute(kF0St);
      w.store(0x20, *pt.trow, pointer, r);
      w.compute(kF0Ld2);
      const Int c = w.load(0x30, *pt.col, pn).as<int64_t>();
      w.compute(kF0St2);
      w.store(0x40, *pt.tcol, pointer, c);
    });
    each(w, z.in_elem, [&](const Int& e) {
      Int row, col;
      row_col(e, z.in_rows, row, col);
      w.compute(kF0LoopRow);
      const Int ori_row = w.load(0x50, *pt.row, pn).as<int64_t>() - 25 + row - 1;
      w.compute(kF0LoopCol);
      const Int ori_col = w.load(0x60, *pt.col, pn).as<int64_t>() - 25 + col - 1;
      w.compute(kF0LoopFrame);
      const Float v = w.load(0x70, frame_, ori_col * kFrameRows + ori_row);
      w.compute(kF0LoopSt);
      w.store(0x80, *pt.t, pt.in_pointer + col * z.in_rows + row, v);
    });
  }
  if (frame_no != 0) {
    auto& in2 = A(kIn2);
    w.compute(kWinRow);
    const Int rowlow = w.load(0x100, *pt.row, pn).as<int64_t>() - z.s_size;
    w.compute(kWinCol);
    const Int collow = w.load(0x110, *pt.col, pn).as<int64_t>() - z.s_size;
    each(w, z.in2_elem, [&](const Int& e) {
      Int row, col;
      row_col(e, z.in2_rows, row, col);
      w.compute(kWinLd);
      const Float v = w.load(0x120, frame_, (col + collow - 1) * kFrameRows + (row + rowlow - 1));
      w.compute(kWinSt);
      w.store(0x130, in2, e, v);
    });
    w.sync();
    // The template rotated by 180 degrees into shared memory.
    auto& rot = w.shared<float>(0, size_t(z.in_elem));
    each(w, z.in_elem, [&](const Int& e) {
      Int row, col;
      row_col(e, z.in_rows, row, col);
      w.compute(kRotLd);
      const Float v =
          w.load(0x140, *pt.t, pt.in_pointer + (z.in_rows - 1 - col) * z.in_rows + (z.in_rows - 1 - row));
      w.shared_store(rot, e, v);
    });
    w.sync();
    // The full 2-D convolution of the rotated template with the window.
    auto& conv = A(kConv);
    each(w, z.conv_elem, [&](const Int& e) {
      const Int m = (e + 1) % z.conv_rows;
      const Int ic = select<int64_t>(m == 0, z.conv_rows, m);
      const Int jc = select<int64_t>(m == 0, (e + 1) / z.conv_rows, (e + 1) / z.conv_rows + 1);
      const Int j = jc, jp1 = j + 1, i = ic, ip1 = i + 1;  // ioffset = joffset = 0
      const Int ja1 = select<int64_t>(jp1 > z.in2_rows, jp1 - z.in2_rows, 1);
      const Int ja2 = select<int64_t>(j > z.in_rows, z.in_rows, j);
      const Int ia1 = select<int64_t>(ip1 > z.in2_rows, ip1 - z.in2_rows, 1);
      const Int ia2 = select<int64_t>(i > z.in_rows, z.in_rows, i);
      Float s = 0.0f;
      w.compute(kConvSetup);
      w.for_(ja1, ja2 + 1, Int(1), [&](const Int& ja) {
        const Int jb = jp1 - ja;
        w.compute(kConvCol);
        w.for_(ia1, ia2 + 1, Int(1), [&](const Int& ia) {
          const Int ib = ip1 - ia;
          const Float t = w.shared_load(rot, (ja - 1) * z.in_rows + ia - 1);
          w.compute(kConvMad);
          s = s + t * w.load(0x150, in2, (jb - 1) * z.in2_rows + ib - 1);
        });
      });
      w.compute(kConvSt);
      w.store(0x160, conv, e, s);
    });
    w.sync();
    // Local sums of the window: padded cumulative sums down the columns, then along the rows.
    auto& cumh = A(kCumh);
    auto& cumh_sel = A(kCumhSel);
    auto& sub2 = A(kSub2);
    pad_and_cumulate(w, in2, bx, 0x200);
    w.sync();
    auto row_cumsum = [&](uint32_t pc) {
      each(w, z.cumh_rows, [&](const Int& e) {
        Float sum = 0.0f;
        w.compute(kCumSetup);
        w.for_(e, e + z.cumh_elem, Int(z.cumh_rows), [&](const Int& p) {
          w.compute(kCumLd);
          const Float v = w.load(pc, cumh, p) + sum;
          w.compute(kCumSt);
          w.store(pc + 0x10, cumh, p, v);
          sum = v;
        });
      });
    };
    auto select_and_diff = [&](DeviceArray<float>& out, uint32_t pc) {
      each(w, z.cumh_sel_elem, [&](const Int& e) {
        Int row, col;
        row_col(e, z.cumh_rows, row, col);
        w.compute(kSelLd);
        const Float v = w.load(pc, cumh, (col + z.cumh_sel_col_low - 1) * z.cumh_rows + row);
        w.compute(kSelSt);
        w.store(pc + 0x10, cumh_sel, e, v);
      });
      w.sync();
      each(w, z.sub2_elem, [&](const Int& e) {
        Int row, col;
        row_col(e, z.cumh_rows, row, col);
        w.compute(kSelLd);
        const Float v = w.load(pc + 0x20, cumh, col * z.cumh_rows + row);
        w.compute(kSelSt);
        w.store(pc + 0x30, out, e, v);
      });
      w.sync();
      each(w, z.sub2_elem, [&](const Int& e) {
        w.compute(kSubLd);
        const Float a = w.load(pc + 0x40, cumh_sel, e);
        w.compute(kSubLd2);
        const Float b = w.load(pc + 0x50, out, e);
        w.compute(kSubSt);
        w.store(pc + 0x60, out, e, a - b);
      });
      w.sync();
    };
    row_cumsum(0x300);
    w.sync();
    select_and_diff(sub2, 0x320);
    // The same for the window's squares.
    auto& in2_sqr = A(kIn2Sqr);
    auto& sqr_sub2 = A(kSqrSub2);
    each(w, z.in2_elem, [&](const Int& e) {
      w.compute(kSqrLd);
      const Float t = w.load(0x400, in2, e);
      w.compute(kSqrSt);
      w.store(0x410, in2_sqr, e, t * t);
    });
    w.sync();
    pad_and_cumulate(w, in2_sqr, bx, 0x500);
    // (no barrier here in the source)
    row_cumsum(0x600);
    w.sync();
    select_and_diff(sqr_sub2, 0x620);
    each(w, z.sub2_elem, [&](const Int& e) {
      w.compute(kDevLd);
      const Float t = w.load(0x700, sub2, e);
      w.compute(kDevLd2);
      Float t2 = w.load(0x710, sqr_sub2, e) - t * t / float(z.in_elem);
      t2 = select<float>(t2 < 0.0f, 0.0f, t2);
      w.compute(kDevSt);
      w.store(0x720, sqr_sub2, e, map(t2, [](float x) { return std::sqrt(x); }));
    });
    w.sync();
    // The template's statistics.
    auto& in_sqr = A(kInSqr);
    each(w, z.in_elem, [&](const Int& e) {
      w.compute(kSqrLd);
      const Float t = w.load(0x730, *pt.t, pt.in_pointer + e);
      w.compute(kSqrSt);
      w.store(0x740, in_sqr, e, t * t);
    });
    w.sync();
    auto& partial = w.shared<float>(1, size_t(z.in_rows));
    auto& sqr_partial = w.shared<float>(2, size_t(z.in_rows));
    auto& finals = w.shared<float>(3, 3);  // in_final_sum, in_sqr_final_sum, denomT
    each(w, z.in_rows, [&](const Int& e) {
      Float sum = 0.0f;
      w.compute(kSumSetup);
      for (int64_t i = 0; i < z.in_rows; ++i) {
        w.compute(kSumLd);
        sum = sum + w.load(0x750, *pt.t, pt.in_pointer + e * z.in_rows + i);
      }
      w.shared_store(partial, e, sum);
    });
    w.sync();
    each(w, z.in_rows, [&](const Int& e) {
      Float sum = 0.0f;
      w.compute(kSumSetup);
      for (int64_t i = 0; i < z.in_rows; ++i) {
        w.compute(kSumLd);
        sum = sum + w.load(0x760, in_sqr, e + z.in_rows * i);
      }
      w.shared_store(sqr_partial, e, sum);
    });
    w.sync();
    w.if_else(
        tx == 0,
        [&] {
          Float s = 0.0f;
          for (int64_t i = 0; i < z.in_rows; ++i) s = s + w.shared_load(partial, Int(i)), w.compute(kFinal);
          w.shared_store(finals, Int(0), s);
        },
        [&] {
          w.if_(tx == 1, [&] {
            Float s = 0.0f;
            for (int64_t i = 0; i < z.in_rows; ++i)
              s = s + w.shared_load(sqr_partial, Int(i)), w.compute(kFinal);
            w.shared_store(finals, Int(1), s);
          });
        });
    w.sync();
    w.if_(tx == 0, [&] {
      const Float mean = w.shared_load(finals, Int(0)) / float(z.in_elem);
      const Float var = w.shared_load(finals, Int(1)) / float(z.in_elem) - mean * mean;
      const Float dev = map(var, [](float x) { return std::sqrt(x); });
      w.compute(kFinal * 3);
      w.shared_store(finals, Int(2), std::sqrt(float(z.in_elem - 1)) * dev);
    });
    w.sync();
    const Float denom = w.shared_load(finals, Int(2));
    each(w, z.sub2_elem, [&](const Int& e) {
      w.compute(kScaleLd);
      const Float v = w.load(0x770, sqr_sub2, e);
      w.compute(kScaleSt);
      w.store(0x780, sqr_sub2, e, v * denom);
    });
    w.sync();
    const Float in_final = w.shared_load(finals, Int(0));
    each(w, z.conv_elem, [&](const Int& e) {
      w.compute(kNormLd);
      const Float c = w.load(0x790, conv, e);
      w.compute(kNormLd2);
      const Float s2 = w.load(0x7a0, sub2, e);
      w.compute(kNormSt);
      w.store(0x7b0, conv, e, c - s2 * in_final / float(z.in_elem));
    });
    w.sync();
    each(w, z.sub2_elem, [&](const Int& e) {
      w.compute(kNormLd);
      const Float c = w.load(0x7c0, conv, e);
      w.compute(kNormLd2);
      const Float d = w.load(0x7d0, sqr_sub2, e);
      w.compute(kNormSt);
      w.store(0x7e0, sqr_sub2, e, c / d);
    });
    w.sync();
    // The mask: 1 at the previous position in the 131 x 131 frame of the correlation.
    const int64_t cent = z.s_size + z.t_size + 1;
    const Int pointer = frame_no - 1 + pt.no * kVideoFrames;
    w.compute(kMaskPos);
    const Int tr = w.load(0x800, *pt.trow, pointer).as<int64_t>();
    const Int r0 = w.load(0x810, *pt.row, pn).as<int64_t>();
    const Int tmask_row = cent + tr - r0 - 1;
    const Int tc = w.load(0x820, *pt.tcol, pointer).as<int64_t>();
    const Int c0 = w.load(0x830, *pt.col, pn).as<int64_t>();
    const Int tmask_col = cent + tc - c0 - 1;
    auto& tmask = A(kTMask);
    w.compute(kMaskSetup);
    each(w, z.tmask_elem, [&](const Int& e) {
      const Int location = tmask_col * z.tmask_rows + tmask_row;
      w.compute(kMaskSt);
      w.if_else(
          e == location, [&] { w.store(0x840, tmask, e, 1.0f); }, [&] { w.store(0x850, tmask, e, 0.0f); });
    });
    w.sync();
    auto& mask_conv = A(kMaskConv);
    each(w, z.tmask_elem, [&](const Int& e) {
      const Int m = (e + 1) % z.tmask_rows;
      const Int ic = select<int64_t>(m == 0, z.tmask_rows, m);
      const Int jc = select<int64_t>(m == 0, (e + 1) / z.tmask_rows, (e + 1) / z.tmask_rows + 1);
      const Int j = jc + kMaskOff, jp1 = j + 1, i = ic + kMaskOff, ip1 = i + 1;
      const Int ja1 = select<int64_t>(jp1 > kMaskRows, jp1 - kMaskRows, 1);
      const Int ja2 = select<int64_t>(j > z.tmask_rows, z.tmask_rows, j);
      const Int ia1 = select<int64_t>(ip1 > kMaskRows, ip1 - kMaskRows, 1);
      const Int ia2 = select<int64_t>(i > z.tmask_rows, z.tmask_rows, i);
      Float s = 0.0f;
      w.compute(kBoxSetup);
      w.for_(ja1, ja2 + 1, Int(1), [&](const Int& ja) {
        w.compute(kBoxCol);
        w.for_(ia1, ia2 + 1, Int(1), [&](const Int& ia) {
          w.compute(kBoxLd);
          s = s + w.load(0x860, tmask, z.tmask_rows * (ja - 1) + ia - 1);
        });
      });
      w.compute(kBoxLd2);
      const Float v = w.load(0x870, sqr_sub2, e);
      w.compute(kBoxSt);
      w.store(0x880, mask_conv, e, v * s);
    });
    w.sync();
    // Each row's largest magnitude (thread i: row i), then thread 0 picks the largest.
    auto& max_val = w.shared<float>(4, 131);
    auto& max_coo = w.shared<int64_t>(5, 131);
    Float largest = 0.0f;
    Int largest_coo = 0;
    each(w, z.tmask_rows, [&](const Int& e) {
      for (int64_t i = 0; i < z.tmask_rows; ++i) {
        const Int c = e * z.tmask_rows + i;
        w.compute(kMaxLd);
        const Float v = map(w.load(0x890, mask_conv, c), [](float x) { return std::fabs(x); });
        const Bool bigger = v > largest;
        largest_coo = select<int64_t>(bigger, c, largest_coo);
        largest = select<float>(bigger, v, largest);
      }
      w.shared_store(max_coo, e, largest_coo);
      w.shared_store(max_val, e, largest);
    });
    w.sync();
    w.if_(tx == 0, [&] {
      Float fin_val = 0.0f;
      Int fin_coo = 0;
      for (int64_t i = 0; i < z.tmask_rows; ++i) {
        const Float v = w.shared_load(max_val, Int(i));
        const Int c = w.shared_load(max_coo, Int(i));
        const Bool bigger = v > fin_val;
        fin_coo = select<int64_t>(bigger, c, fin_coo);
        fin_val = select<float>(bigger, v, fin_val);
        w.compute(kFinal);
      }
      const Int m = (fin_coo + 1) % z.tmask_rows;
      const Int lrow = select<int64_t>(m == 0, z.tmask_rows - 1, m - 1) + 1;
      const Int lcol =
          select<int64_t>(m == 0, (fin_coo + 1) / z.tmask_rows - 1, (fin_coo + 1) / z.tmask_rows) + 1;
      const Int off_row = lrow - z.in_rows - (z.s_size - z.t_size),
                off_col = lcol - z.in_rows - (z.s_size - z.t_size);
      const Int p = frame_no + pt.no * kVideoFrames;
      w.compute(kPosLd);
      const Int rr = w.load(0x8a0, *pt.row, pn).as<int64_t>();
      w.compute(kPosSt);
      w.store(0x8b0, *pt.trow, p, rr + off_row);
      w.compute(kPosLd2);
      const Int cc = w.load(0x8c0, *pt.col, pn).as<int64_t>();
      w.compute(kPosSt2);
      w.store(0x8d0, *pt.tcol, p, cc + off_col);
    });
    w.sync();
  }
  if (frame_no != 0 && frame_no % 10 == 0) {
    // The template update: the new position, then the template blended with the frame around it.
    const Int loc = pt.no * kVideoFrames + frame_no;
    w.compute(kUpdLd);
    const Int r = w.load(0x900, *pt.trow, loc).as<int64_t>();
    w.compute(kUpdSt);
    w.store(0x910, *pt.row, pn, r);
    w.compute(kUpdLd2);
    const Int c = w.load(0x920, *pt.tcol, loc).as<int64_t>();
    w.compute(kUpdSt2);
    w.store(0x930, *pt.col, pn, c);
    each(w, z.in_elem, [&](const Int& e) {
      Int row, col;
      row_col(e, z.in_rows, row, col);
      w.compute(kUpdRow);
      const Int ori_row = w.load(0x940, *pt.row, pn).as<int64_t>() - 25 + row - 1;
      w.compute(kUpdCol);
      const Int ori_col = w.load(0x950, *pt.col, pn).as<int64_t>() - 25 + col - 1;
      w.compute(kUpdIn);
      const Float t = w.load(0x960, *pt.t, pt.in_pointer + e);
      w.compute(kUpdFrame);
      const Float fv = w.load(0x970, frame_, ori_col * kFrameRows + ori_row);
      w.compute(kUpdStore);
      w.store(0x980, *pt.t, pt.in_pointer + e, kAlpha * t + (1.00 - kAlpha) * fv);
    });
  }
}

std::string Heartwall::check() const {
  const Sizes& z = z_;
  if (frames_ == 0) return "";
  const int64_t f = int64_t(frames_) - 1;
  for (int64_t bx = 0; bx < int64_t(points_); ++bx) {
    const int side = bx < kEndo ? 0 : 1;
    const int64_t no = side ? bx - kEndo : bx;
    const int64_t row0 = last_row_[size_t(side)][size_t(no)], col0 = last_col_[size_t(side)][size_t(no)];
    const float* tmpl = last_t_[size_t(side)].data() + no * z.in_elem;
    auto fail = [&](const char* what, int64_t i, double got, double want) {
      return std::string("point ") + std::to_string(bx) + " " + what + "[" + std::to_string(i) +
             "] = " + std::to_string(got) + ", expected " + std::to_string(want);
    };
    if (f == 0) {  // the template copied out of frame 0
      const auto& t = side ? epi_t_ : endo_t_;
      for (int64_t c = 0; c < z.in_rows; ++c)
        for (int64_t r = 0; r < z.in_rows; ++r) {
          const float want = last_frame_[size_t((col0 - 25 + c - 1) * kFrameRows + row0 - 25 + r - 1)];
          if (t[size_t(no * z.in_elem + c * z.in_rows + r)] != want)
            return fail("d_T", c * z.in_rows + r, t[size_t(no * z.in_elem + c * z.in_rows + r)], want);
        }
      continue;
    }
    // The window.
    std::vector<float> in2(z.in2_elem);
    for (int64_t c = 0; c < z.in2_rows; ++c)
      for (int64_t r = 0; r < z.in2_rows; ++r)
        in2[size_t(c * z.in2_rows + r)] =
            last_frame_[size_t((c + col0 - z.s_size - 1) * kFrameRows + r + row0 - z.s_size - 1)];
    for (int64_t i = 0; i < z.in2_elem; ++i)
      if (arr_[kIn2][size_t(bx)][size_t(i)] != in2[size_t(i)])
        return fail("d_in2", i, arr_[kIn2][size_t(bx)][size_t(i)], in2[size_t(i)]);
    // Local sums of the window (the same sums in the same order as the kernel's passes).
    std::vector<float> pad(z.pad_elem, 0.0f);
    for (int64_t c = 0; c < z.in2_rows; ++c)
      for (int64_t r = 0; r < z.in2_rows; ++r)
        pad[size_t((c + z.in_rows) * z.pad_rows + r + z.in_rows)] = in2[size_t(c * z.in2_rows + r)];
    for (int64_t c = 0; c < z.pad_rows; ++c)
      for (int64_t r = 1; r < z.pad_rows; ++r)
        pad[size_t(c * z.pad_rows + r)] += pad[size_t(c * z.pad_rows + r - 1)];
    std::vector<float> cumh(z.cumh_elem);
    for (int64_t c = 0; c < z.pad_rows; ++c)
      for (int64_t r = 0; r < z.cumh_rows; ++r)
        cumh[size_t(c * z.cumh_rows + r)] =
            pad[size_t(c * z.pad_rows + r + z.sel_row_low - 1)] - pad[size_t(c * z.pad_rows + r)];
    for (int64_t r = 0; r < z.cumh_rows; ++r)
      for (int64_t c = 1; c < z.pad_rows; ++c)
        cumh[size_t(c * z.cumh_rows + r)] += cumh[size_t((c - 1) * z.cumh_rows + r)];
    std::vector<float> sub2(z.sub2_elem);
    for (int64_t c = 0; c < z.sub2_cols; ++c)
      for (int64_t r = 0; r < z.cumh_rows; ++r)
        sub2[size_t(c * z.cumh_rows + r)] =
            cumh[size_t((c + z.cumh_sel_col_low - 1) * z.cumh_rows + r)] - cumh[size_t(c * z.cumh_rows + r)];
    for (int64_t i = 0; i < z.sub2_elem; ++i)
      if (arr_[kSub2][size_t(bx)][size_t(i)] != sub2[size_t(i)])
        return fail("d_in2_sub2", i, arr_[kSub2][size_t(bx)][size_t(i)], sub2[size_t(i)]);
    // The template's squares and the normalised correlation's numerator.
    float sum = 0.0f;
    std::vector<float> partial(z.in_rows);
    for (int64_t c = 0; c < z.in_rows; ++c) {
      float s = 0.0f;
      for (int64_t r = 0; r < z.in_rows; ++r) s = s + tmpl[c * z.in_rows + r];
      partial[size_t(c)] = s;
    }
    for (float p : partial) sum = sum + p;
    for (int64_t i = 0; i < z.in_elem; ++i)
      if (arr_[kInSqr][size_t(bx)][size_t(i)] != tmpl[i] * tmpl[i])
        return fail("d_in_sqr", i, arr_[kInSqr][size_t(bx)][size_t(i)], tmpl[i] * tmpl[i]);
    for (int64_t jc = 1; jc <= z.conv_rows; ++jc)
      for (int64_t ic = 1; ic <= z.conv_rows; ++ic) {
        const int64_t ja1 = jc + 1 > z.in2_rows ? jc + 1 - z.in2_rows : 1, ja2 = std::min(jc, z.in_rows);
        const int64_t ia1 = ic + 1 > z.in2_rows ? ic + 1 - z.in2_rows : 1, ia2 = std::min(ic, z.in_rows);
        float s = 0.0f;
        for (int64_t ja = ja1; ja <= ja2; ++ja)
          for (int64_t ia = ia1; ia <= ia2; ++ia) {
            const int64_t jb = jc + 1 - ja, ib = ic + 1 - ia;
            const float t = tmpl[(z.in_rows - 1 - (ja - 1)) * z.in_rows + (z.in_rows - 1 - (ia - 1))];
            s = s + t * in2[size_t((jb - 1) * z.in2_rows + ib - 1)];
          }
        const int64_t e = (jc - 1) * z.conv_rows + ic - 1;
        const float want = s - sub2[size_t(e)] * sum / float(z.in_elem);
        if (arr_[kConv][size_t(bx)][size_t(e)] != want)
          return fail("d_conv", e, arr_[kConv][size_t(bx)][size_t(e)], want);
      }
    // The mask (the previous position is the launch's input).
    const int64_t p = f - 1 + no * kVideoFrames;
    const int64_t mr = z.s_size + z.t_size + 1 + last_trow_[size_t(side)][size_t(p)] - row0 - 1;
    const int64_t mc = z.s_size + z.t_size + 1 + last_tcol_[size_t(side)][size_t(p)] - col0 - 1;
    for (int64_t i = 0; i < z.tmask_elem; ++i)
      if (arr_[kTMask][size_t(bx)][size_t(i)] != (i == mc * z.tmask_rows + mr ? 1.0f : 0.0f))
        return fail("d_tMask", i, arr_[kTMask][size_t(bx)][size_t(i)], i == mc * z.tmask_rows + mr);
  }
  return "";
}

}  // namespace

void register_rodinia_heartwall(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/heartwall";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/heartwall/main.cu, kernel.cu, define.c @ 9c10d3e";
  p.input =
      "the run script's: test.avi (104 frames, 609 wide x 590 high: frame_rows 590), 20 frames, 51 points "
      "(NUMBER_THREADS 256). The video is replaced by seeded frames of its size (glibc rand() % 256 per "
      "pixel "
      "after srand(seed + frame), column-major floats as get_frame returns them); the points and their start "
      "positions are the source's. Default 2 frames (frame 0 copies the templates, frame 1 tracks) and the "
      "first 8 of the 51 points (8 CTAs): 51 points are 40.65 M warp instructions (206 CPU s on fermi), "
      "nearly all loads and stores (the 131 x 131 correlation's inner loop loads the window once per "
      "multiply-add), not reducible by frames; 8 points keep every array (footprint 46 MB: 51 points x 12 "
      "per-point arrays, all allocated) and run in about 30 CPU s on fermi; points=51 is the source's. Size "
      "keys: frames, points (the "
      "grid: the first n of the 51 points, endocardium first; all 51 points' arrays allocated), s_size and "
      "t_size (main.cu's sSize 40 and tSize 25, smaller for small runs), seed";
  p.papers = "Decoupled L1D (002, HT)";
  p.kernels = "kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t frames = s.get_uint("frames", 2, 1, uint64_t(kVideoFrames));
    const uint64_t points = s.get_uint("points", kDefaultPoints, 1, uint64_t(kPoints));
    // sSize and tSize: main.cu's search and template radii (the kernel's static shared arrays hold the
    // source's sizes, so not larger; the template copy's literal 25 stays as the source has it).
    const uint64_t t_size = s.get_uint("t_size", 25, 1, 25);
    const uint64_t s_size = s.get_uint("s_size", 40, t_size, 40);
    const uint64_t seed = s.get_uint("seed", 1, 0, 0xffffffffu);
    return std::make_unique<Heartwall>(uint32_t(frames), uint32_t(points), int64_t(s_size), int64_t(t_size),
                                       uint32_t(seed));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
