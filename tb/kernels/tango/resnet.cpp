// Tango ResNet (GPU, CUDA): ResNet-50 on one 224x224x3 image, 227 launches of 14 kernels in the host
// code's order. conv1 (executeFirstLayerCUDA: 7x7x3 at stride 2, pad 3, 64 maps of 112x112, each of 32x32
// threads computing a 4x4 patch, tfactor 4), its batch norm, scale and ReLU (the _split kernels, same
// patches) and a 3x3 stride-2 max pool to 56x56 (executepoolingCuda, 4x4 patches). Stage 2 (3 bottleneck
// blocks, 56x56) runs the _split kernels on 32x32 threads with 2x2 patches; stages 3-5 (4, 6 and 3 blocks at
// 28x28, 14x14, 7x7) the one-pixel kernels on f x f threads. A block: 1x1 conv (64..512 maps; the first
// block of a stage also a 1x1 projection branch, both at the stage's stride), 3x3 conv, 1x1 conv (256..2048
// maps), each followed by executeBnNormLayerCUDA, executeScaleLayerCUDA and (except the projection and
// the last 1x1) executeReLULayerCUDA; then executeEltWiseLayerCUDA adds the shortcut and a ReLU follows.
// Then poolingAverageCUDA (one thread per map) and executeFCLayerCUDA (one thread per class, no bias).
// Every convolution is execute3DconvolutionCuda(_split): per output pixel, loops over the input maps and the
// clipped window (per-lane trip counts at the borders), weight then input load, fma. The host copies each
// layer's weights, means, variances, scales and biases into the stage's reused buffers before the launch
// that reads them; the port does the same (seeded values, in the source's order). The source frees each
// stage's buffers after it (a real allocator may hand the same addresses to the next stage); the port keeps
// them all. check() runs the same sequence thread by thread in plain C++ (same operations: the window term
// fma(B, W_b, fma(R, W_r, G * W_g)), conv and FC fma(x, w, sum), batch norm in double, scale as an fma) and
// compares every array exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/tango/tango_common.h"

namespace gms::kernels {

namespace {

using tango::active_lanes;
using tango::lanewise;
using tango::splitmix;

// nvcc 13.0 --ptx -arch=sm_75 on the source's kernels: PTX instructions between global memory instructions
// (ld.param included), on the path the launch takes. executeFirstLayerCUDA's 7-wide window loop is unrolled
// 4x with a remainder in the PTX; the port runs it as one loop (the same active lanes and instructions: the
// column trip count is the same in every lane of a warp) with the unrolled body's per-step counts.
constexpr uint32_t kFirstEntry = 45, kFirstPixel = 31, kFirstRow = 11, kFirstStepR = 2, kFirstB = 2,
                   kFirstStore = 4, kFirstNext = 3;
// executepoolingCuda (3x3 window: the remainder path of its unrolled loop).
constexpr uint32_t kPoolEntry = 39, kPoolPixel = 22, kPoolRow = 11, kPoolStep = 2, kPoolStore = 4,
                   kPoolNext = 3;
// execute3DconvolutionCuda(_split) with a 1x1 or 3x3 window: its columns run in the unrolled loop's
// remainder path (up to 3 weight / input pairs per window row).
constexpr uint32_t kConvEntry = 50, kConvSplitEntry = 97, kConvSplitNext = 28;  // to the feature loop
constexpr uint32_t kConvFeature = 6, kConvRow = 20;       // feature loop top; window row top to its 1st pair
constexpr uint32_t kConvPair[3] = {0, 3, 2};              // before each pair's weight load (after the row's)
constexpr uint32_t kConvRowEnd = 4, kConvFeatureEnd = 3;  // last fma and loop control
constexpr uint32_t kConvStore = 9, kConvSplitStore = 6;   // the store guard
// Batch norm / scale (x, per-map p, per-map q, store); the _split variants load p first.
constexpr uint32_t kBnEntry = 15, kBnMean = 2, kBnVar = 3, kBnStore = 5;
constexpr uint32_t kScEntry = 15, kScScale = 2, kScBias = 1, kScStore = 1;
constexpr uint32_t kNormSplitEntry = 42, kBnSplitVar = 2, kBnSplitStore = 5, kScSplitStore = 1;
constexpr uint32_t kEltEntry = 15, kEltB = 1, kEltStore = 2, kEltSplitEntry = 40, kEltSplitB = 0;
constexpr uint32_t kReluEntry = 11, kReluStore = 3, kReluSplitEntry = 34, kReluSplitStore = 2;
constexpr uint32_t kSplitNext = 3;  // a _split kernel's next pixel of its patch
constexpr uint32_t kAvgEntry = 32, kAvgStep = 1, kAvgRow = 6, kAvgStore = 6;  // poolingAverageCUDA
constexpr uint32_t kFcEntry = 23, kFcStep = 1, kFcQuadEnd = 7, kFcStore = 3;  // executeFCLayerCUDA
// ptxas -v, sm_75: registers per thread (no shared memory).
constexpr uint32_t kRegsFirst = 55, kRegsPool = 56, kRegsAvg = 43, kRegsConv = 61, kRegsConvSplit = 64,
                   kRegsBn = 26, kRegsBnSplit = 42, kRegsSc = 12, kRegsScSplit = 28, kRegsElt = 12,
                   kRegsEltSplit = 34, kRegsRelu = 8, kRegsReluSplit = 20, kRegsFc = 38;

float uniform(uint64_t& s, float lo, float hi) {
  return float(lo + (hi - lo) * (double(splitmix(s) >> 11) / double(1ull << 53)));
}

float first_term(float r, float wr, float g, float wg, float b, float wb) {
  return std::fma(b, wb, std::fma(r, wr, g * wg));
}
float bn(float x, float mean, float var) {
  return float(double(x - mean) / std::sqrt(double(var) + 1e-5));
}

using Arr = DeviceArray<float>;

enum class Kind { Fill, First, Pool, Conv, Bn, Scale, Relu, Elt, Avg, Fc };

// One step of the host code: a kernel launch with its arguments, or a host-to-device copy of seeded values.
struct Op {
  explicit Op(Kind k) : kind(k) {}
  Kind kind;
  bool split = false;                  // the _split variant (2-D patches of tf x tf pixels per thread)
  int a = -1, b = -1, c = -1, d = -1;  // arrays (ids), in the kernel's parameter order
  int64_t out = 0, fr = 0, fc = 0, sw = 1, k = 1, pad = 0, in_output = 0, in_fr = 0, tf = 1;
  int64_t size = 0;  // f_size / size / input parameter
  uint32_t grid = 1;
  Dim3 block;
  uint64_t gen = 0;  // Fill: which seeded stream
  int64_t n = 0;     // Fill: values copied
  float lo = 0, hi = 0;
};

class ResNet : public KernelPort {
 public:
  ResNet(uint32_t div, uint32_t ctas, uint32_t sm_regs, uint64_t seed)
      : div_(div), cap_(ctas), sm_regs_(sm_regs), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    plan(mem);
    uint64_t s = seed_;
    for (float& x : arr_[input_].host()) x = uniform(s, -1.0f, 1.0f);  // input.txt: a mean-subtracted image
  }

  void run(Launcher& host) override {
    for (const Op& op : ops_) {
      if (op.kind == Kind::Fill)
        fill(op, arr_[size_t(op.a)].host());
      else
        host.launch(launch(op));
    }
  }

  std::string check() const override {
    std::vector<std::vector<float>> m;
    for (const Arr& a : arr_) m.emplace_back(a.size(), 0.0f);
    m[size_t(input_)] = arr_[size_t(input_)].host();
    for (const Op& op : ops_) reference(op, m);
    for (size_t i = 0; i < arr_.size(); ++i)
      for (size_t j = 0; j < m[i].size(); ++j)
        if (arr_[i][j] != m[i][j])
          return arr_[i].name() + "[" + std::to_string(j) + "] = " + std::to_string(arr_[i][j]) +
                 ", expected " + std::to_string(m[i][j]);
    return "";
  }

 private:
  int alloc(DeviceMemory& mem, const std::string& name, int64_t n) {
    arr_.push_back(mem.alloc<float>(name, size_t(n)));
    return int(arr_.size() - 1);
  }
  int64_t ch(int64_t c) const { return c / div_; }
  uint32_t grid(int64_t n) const { return uint32_t(std::min<int64_t>(n, cap_)); }
  uint32_t regs(uint32_t ptxas, const Dim3& block) const {
    return tango::capped_regs(ptxas, block, sm_regs_);
  }
  void fill(const Op& op, std::vector<float>& dst) const {
    uint64_t s = seed_ ^ (0x5851f42d4c957f2dull * (op.gen + 1));
    for (int64_t i = 0; i < op.n; ++i) dst[size_t(i)] = uniform(s, op.lo, op.hi);
  }
  void add_fill(int arr, int64_t n, float lo, float hi) {
    Op f{Kind::Fill};
    f.a = arr, f.n = n, f.lo = lo, f.hi = hi, f.gen = gens_++;
    ops_.push_back(f);
  }

  // The host code's sequence (resnet_host.cu, CUDA path): allocations in its order, then the ops.
  struct Stage {
    const char* tag;
    int64_t f, mid, out, blocks, in_ch, in_f, sw;
    bool split;
  };
  void plan(DeviceMemory& mem) {
    const int64_t c1 = ch(64);
    int mvsb[4];
    mvsb[0] = alloc(mem, "mean_GPU", c1), mvsb[1] = alloc(mem, "var_GPU", c1);
    mvsb[2] = alloc(mem, "scale_GPU", c1), mvsb[3] = alloc(mem, "bias_GPU", c1);
    const int w1 = alloc(mem, "Layer1_Weights_GPU", c1 * 147);
    const int l2 = alloc(mem, "Layer2_Neurons_GPU", c1 * 112 * 112);
    input_ = alloc(mem, "Layer1_Neurons_GPU", 224 * 224 * 3);
    const int pool = alloc(mem, "Layer2_pool_GPU", c1 * 56 * 56);
    const Dim3 b32{32, 32, 1};
    add_fill(w1, c1 * 147, -0.2f, 0.2f);
    Op first{Kind::First};
    first.a = input_, first.b = w1, first.c = l2, first.sw = 2, first.pad = 3, first.in_fr = 224,
    first.fr = 112, first.fc = 112, first.out = c1, first.tf = 4, first.grid = grid(c1), first.block = b32;
    ops_.push_back(first);
    norm_ops(mvsb, l2, c1, 112, true, 4, b32, true);
    Op p{Kind::Pool};
    p.split = true, p.a = l2, p.b = pool, p.out = c1, p.fr = 56, p.fc = 56, p.k = 3, p.sw = 2, p.in_fr = 112,
    p.size = 112, p.pad = 1, p.tf = 4, p.grid = grid(c1), p.block = b32;
    ops_.push_back(p);
    const Stage stages[4] = {{"2", 56, 64, 256, 3, 64, 56, 1, true},
                             {"3", 28, 128, 512, 4, 256, 56, 2, false},
                             {"4", 14, 256, 1024, 6, 512, 28, 2, false},
                             {"5", 7, 512, 2048, 3, 1024, 14, 2, false}};
    int in = pool;
    for (const Stage& st : stages) in = stage(mem, st, in);
    // poolingAverageCUDA and executeFCLayerCUDA: the source's copy puts their buffers in one contiguous
    // region (its research variant); Tango's own lines, commented out there, allocate them one by one.
    const int64_t c5 = ch(2048);
    const int avg = alloc(mem, "Out_GPU", c5);
    const int fcw = alloc(mem, "Layer_FC_Weights_GPU", 1000 * c5);
    const int fco = alloc(mem, "Layer_FC_Out_GPU", 1000);
    Op a{Kind::Avg};
    a.a = in, a.b = avg, a.k = 7, a.size = 7, a.grid = grid(c5), a.block = {1, 1, 1};
    ops_.push_back(a);
    add_fill(fcw, 1000 * c5, -2.0f / std::sqrt(float(c5)), 2.0f / std::sqrt(float(c5)));
    Op fc{Kind::Fc};
    fc.a = avg, fc.b = fcw, fc.c = fco, fc.size = c5, fc.grid = grid(1000), fc.block = {1, 1, 1};
    ops_.push_back(fc);
  }

  // Batch norm, scale and (if relu) ReLU of `x` (ch maps of f x f), with their parameter copies.
  void norm_ops(const int* mvsb, int x, int64_t chn, int64_t f, bool split, int64_t tf, Dim3 block,
                bool with_relu) {
    add_fill(mvsb[0], chn, -0.1f, 0.1f);
    add_fill(mvsb[1], chn, 0.5f, 1.5f);
    Op b{Kind::Bn};
    b.split = split, b.a = x, b.b = mvsb[0], b.c = mvsb[1], b.out = chn, b.size = split ? f : f * f,
    b.tf = tf, b.grid = grid(chn), b.block = block;
    ops_.push_back(b);
    add_fill(mvsb[2], chn, 0.5f, 1.0f);
    add_fill(mvsb[3], chn, -0.1f, 0.1f);
    Op s = b;
    s.kind = Kind::Scale, s.b = mvsb[2], s.c = mvsb[3];
    ops_.push_back(s);
    if (with_relu) relu_op(x, chn, f, split, tf, block);
  }
  void relu_op(int x, int64_t chn, int64_t f, bool split, int64_t tf, Dim3 block) {
    Op r{Kind::Relu};
    r.split = split, r.a = x, r.size = split ? f : chn * f * f, r.tf = tf, r.grid = grid(chn),
    r.block = block;
    ops_.push_back(r);
  }
  void conv_op(int in, int w, int out, int64_t out_n, int64_t f, int64_t sw, int64_t k, int64_t pad,
               int64_t in_output, int64_t in_fr, bool split, Dim3 block) {
    const int64_t fan = in_output * k * k;
    add_fill(w, out_n * fan, -1.7f / std::sqrt(float(fan)), 1.7f / std::sqrt(float(fan)));
    Op c{Kind::Conv};
    c.split = split, c.a = in, c.b = w, c.c = out, c.out = out_n, c.fr = f, c.fc = f, c.sw = sw, c.k = k,
    c.pad = pad, c.in_output = in_output, c.in_fr = in_fr, c.tf = split ? 2 : 1, c.grid = grid(out_n),
    c.block = block;
    ops_.push_back(c);
  }

  int stage(DeviceMemory& mem, const Stage& st, int in) {
    const std::string t = st.tag;
    const int64_t mid = ch(st.mid), out = ch(st.out), in_ch = ch(st.in_ch), f = st.f;
    const int res_out = alloc(mem, "Layer" + t + "c_Neurons_GPU", out * f * f);
    int mvsb[4];
    mvsb[0] = alloc(mem, "mean_GPU", out), mvsb[1] = alloc(mem, "var_GPU", out);
    mvsb[2] = alloc(mem, "scale_GPU", out), mvsb[3] = alloc(mem, "bias_GPU", out);
    int wa, wa1, wb, wc, b1, a, b, elt, c2 = -1;
    if (t == "2") {
      wa = alloc(mem, "Layer2a_Weights_GPU", mid * ch(64));
      wb = alloc(mem, "Layer2b_Weights_GPU", mid * mid * 9);
      wc = alloc(mem, "Layer2c_Weights_GPU", out * mid);
      wa1 = wc;  // res2b/2c_branch2a reuse Layer2c_Weights_GPU
      a = alloc(mem, "Layer2a_Neurons_GPU", mid * f * f);
      b = alloc(mem, "Layer2b_Neurons_GPU", mid * f * f);
      elt = alloc(mem, "Layer_ELtwise_Neurons_GPU", out * f * f);
      b1 = elt;  // res2a_branch1 writes the sum buffer directly
    } else if (t == "3") {
      wc = alloc(mem, "Layer3c_Weights_GPU", in_ch * out);
      wa1 = alloc(mem, "Layer3c1_Weights_GPU", out * mid);
      wa = alloc(mem, "Layer3a_Weights_GPU", mid * in_ch);
      wb = alloc(mem, "Layer3b_Weights_GPU", mid * mid * 9);
      b1 = alloc(mem, "Layer3b1_Neurons_GPU", out * f * f);
      a = alloc(mem, "Layer3a_Neurons_GPU", mid * f * f);
      b = alloc(mem, "Layer3b_Neurons_GPU", mid * f * f);
      c2 = alloc(mem, "Layer3c2_Neurons_GPU", out * f * f);
      elt = alloc(mem, "Layer_ELtwise_Neurons_GPU", out * f * f);
    } else if (t == "4") {
      wa = alloc(mem, "Layer4a_Weights_GPU", mid * in_ch);
      wa1 = alloc(mem, "Layer4a1_Weights_GPU", mid * out);
      wb = alloc(mem, "Layer4b_Weights_GPU", mid * mid * 9);
      wc = alloc(mem, "Layer4c_Weights_GPU", out * in_ch);
      b1 = alloc(mem, "Layer4b1_Neurons_GPU", out * f * f);
      a = alloc(mem, "Layer4a_Neurons_GPU", mid * f * f);
      b = alloc(mem, "Layer4b_Neurons_GPU", mid * f * f);
      elt = alloc(mem, "Layer_ELtwise_Neurons_GPU", out * f * f);
    } else {
      wa = alloc(mem, "Layer5a_Weights_GPU", mid * in_ch);
      wb = alloc(mem, "Layer5b_Weights_GPU", mid * mid * 9);
      wc = alloc(mem, "Layer5c_Weights_GPU", out * in_ch);
      wa1 = alloc(mem, "Layer5a1_Weights_GPU", out * mid);
      b1 = alloc(mem, "Layer5b1_Neurons_GPU", out * f * f);
      a = alloc(mem, "Layer5a_Neurons_GPU", mid * f * f);
      b = alloc(mem, "Layer5b_Neurons_GPU", mid * f * f);
      elt = alloc(mem, "Layer_ELtwise_Neurons_GPU", out * f * f);
    }
    const bool split = st.split;
    const Dim3 block = split ? Dim3{32, 32, 1} : Dim3{uint32_t(f), uint32_t(f), 1};
    const int64_t tf = split ? 2 : 1;
    for (int64_t blk = 0; blk < st.blocks; ++blk) {
      if (blk == 0) {
        conv_op(in, wc, b1, out, f, st.sw, 1, 0, in_ch, st.in_f, split, block);  // branch1
        norm_ops(mvsb, b1, out, f, split, tf, block, false);
        conv_op(in, wa, a, mid, f, st.sw, 1, 0, in_ch, st.in_f, split, block);  // branch2a
      } else {
        conv_op(elt, wa1, a, mid, f, 1, 1, 0, out, f, split, block);
      }
      norm_ops(mvsb, a, mid, f, split, tf, block, true);
      conv_op(a, wb, b, mid, f, 1, 3, 1, mid, f, split, block);  // branch2b
      norm_ops(mvsb, b, mid, f, split, tf, block, true);
      const int c = (t == "3" && blk == 1) ? c2 : res_out;       // res3b_branch2c writes Layer3c2_Neurons_GPU
      conv_op(b, wc, c, out, f, 1, 1, 0, mid, f, split, block);  // branch2c
      norm_ops(mvsb, c, out, f, split, tf, block, false);
      Op e{Kind::Elt};
      const bool last = blk == st.blocks - 1;
      e.split = split, e.a = blk == 0 ? b1 : elt, e.b = c, e.c = last ? c : elt,
      e.size = split ? f : out * f * f, e.tf = tf, e.grid = grid(out), e.block = block;
      ops_.push_back(e);
      relu_op(last ? c : elt, out, f, split, tf, block);
    }
    return res_out;
  }

  // ---- the kernels, warp by warp ----

  KernelLaunch launch(const Op& op) {
    KernelLaunch k;
    k.grid = {op.grid, 1, 1};
    k.block = op.block;
    Arr* A = op.a >= 0 ? &arr_[size_t(op.a)] : nullptr;
    Arr* B = op.b >= 0 ? &arr_[size_t(op.b)] : nullptr;
    Arr* C = op.c >= 0 ? &arr_[size_t(op.c)] : nullptr;
    switch (op.kind) {
      case Kind::First:
        k.name = "executeFirstLayerCUDA";
        k.regs_per_thread = regs(kRegsFirst, k.block);
        k.body = [op, A, B, C](Warp& w) { first_body(w, op, *A, *B, *C); };
        break;
      case Kind::Pool:
        k.name = "executepoolingCuda";
        k.regs_per_thread = regs(kRegsPool, k.block);
        k.body = [op, A, B](Warp& w) { pool_body(w, op, *A, *B); };
        break;
      case Kind::Conv:
        k.name = op.split ? "execute3DconvolutionCuda_split" : "execute3DconvolutionCuda";
        k.regs_per_thread = regs(op.split ? kRegsConvSplit : kRegsConv, k.block);
        k.body = [op, A, B, C](Warp& w) { conv_body(w, op, *A, *B, *C); };
        break;
      case Kind::Bn:
      case Kind::Scale:
        k.name = op.kind == Kind::Bn ? (op.split ? "executeBnNormLayerCUDA_split" : "executeBnNormLayerCUDA")
                                     : (op.split ? "executeScaleLayerCUDA_split" : "executeScaleLayerCUDA");
        k.regs_per_thread = regs(
            op.kind == Kind::Bn ? (op.split ? kRegsBnSplit : kRegsBn) : (op.split ? kRegsScSplit : kRegsSc),
            k.block);
        k.body = [op, A, B, C](Warp& w) { norm_body(w, op, *A, *B, *C); };
        break;
      case Kind::Relu:
        k.name = op.split ? "executeReLULayerCUDA_split" : "executeReLULayerCUDA";
        k.regs_per_thread = regs(op.split ? kRegsReluSplit : kRegsRelu, k.block);
        k.body = [op, A](Warp& w) { relu_body(w, op, *A); };
        break;
      case Kind::Elt:
        k.name = op.split ? "executeEltWiseLayerCUDA_split" : "executeEltWiseLayerCUDA";
        k.regs_per_thread = regs(op.split ? kRegsEltSplit : kRegsElt, k.block);
        k.body = [op, A, B, C](Warp& w) { elt_body(w, op, *A, *B, *C); };
        break;
      case Kind::Avg:
        k.name = "poolingAverageCUDA";
        k.regs_per_thread = regs(kRegsAvg, k.block);
        k.body = [op, A, B](Warp& w) { avg_body(w, op, *A, *B); };
        break;
      case Kind::Fc:
        k.name = "executeFCLayerCUDA";
        k.regs_per_thread = regs(kRegsFc, k.block);
        k.body = [op, A, B, C](Warp& w) { fc_body(w, op, *A, *B, *C); };
        break;
      case Kind::Fill:
        break;
    }
    return k;
  }

  // The _split kernels' patch: lanes whose (row_even, col_even) lies inside f run body(row, col) for each of
  // the tf x tf pixels.
  template <class F>
  static void patches(Warp& w, int64_t tf, int64_t fr, int64_t fc, uint32_t entry, uint32_t next, F body) {
    const Int row_even = w.thread_idx_x() * tf, col_even = w.thread_idx_y() * tf;
    w.compute(entry);
    w.if_(row_even < fr && col_even < fc, [&] {
      for (int64_t r = 0; r < tf; ++r)
        for (int64_t c = 0; c < tf; ++c) {
          if (r + c > 0) w.compute(next);
          body(row_even + r, col_even + c);
        }
    });
  }

  static void first_body(Warp& w, const Op& op, Arr& in, Arr& wt, Arr& out) {
    const int64_t output = w.block_idx().x, cw = op.in_fr, kk = 7;
    patches(w, op.tf, op.fr, op.fc, kFirstEntry, kFirstNext, [&](const Int& row, const Int& col) {
      const Int colstride = max(row * op.sw - op.pad, int64_t(0)) * (3 * cw);
      const Int stride = max(col * op.sw - op.pad, int64_t(0)) * 3;
      const Bool top = row * op.sw < op.pad, left = col * op.sw < op.pad;
      const Int x_pad = select<int64_t>(top, op.pad - row * op.sw, 0);
      const Int y_pad = select<int64_t>(left, op.pad - col * op.sw, 0);
      Int loopr = select<int64_t>(top, kk - x_pad, kk), loopc = select<int64_t>(left, kk - y_pad, kk);
      loopc = select<int64_t>(col > op.fc - op.pad, cw - stride / 3, loopc);
      loopr = select<int64_t>(row > op.fr - op.pad, cw - colstride / (3 * cw), loopr);
      Float product(0.0f);
      w.compute(kFirstPixel);
      w.for_(Int(0), loopr, Int(1), [&](const Int& i) {
        w.compute(kFirstRow);
        w.for_(Int(0), loopc, Int(1), [&](const Int& j) {
          const Int n = i * (cw * 3) + j * 3 + stride + colstride;
          const Int m = i * 7 + j + output * 147 + x_pad * kk + y_pad;
          w.compute(kFirstStepR);
          const Float wr = w.load(0x100, wt, m);
          const Float r = w.load(0x110, in, n);
          const Float wg = w.load(0x120, wt, m + 49);
          const Float g = w.load(0x130, in, n + 1);
          w.compute(kFirstB);
          const Float wb = w.load(0x140, wt, m + 98);
          const Float b = w.load(0x150, in, n + 2);
          Float t{Float::Uninit{}};
          for (unsigned l = 0; l < kWarpSize; ++l)
            t.v[l] = first_term(r.v[l], wr.v[l], g.v[l], wg.v[l], b.v[l], wb.v[l]);
          t.deps = r.deps;
          for (const Float* x : {&wr, &g, &wg, &b, &wb}) t.deps |= x->deps;
          product = select<float>(active_lanes(w), product + t, product);
        });
      });
      w.compute(kFirstStore);
      w.store(0x200, out, row * op.fc + col + output * op.fr * op.fc, product);
    });
  }

  static void pool_body(Warp& w, const Op& op, Arr& in, Arr& out) {
    const int64_t output = w.block_idx().x, in_fr = op.in_fr, in_fc = op.size;
    patches(w, op.tf, op.fr, op.fc, kPoolEntry, kPoolNext, [&](const Int& row, const Int& col) {
      const Int colstride = max((row * op.sw - op.pad) * in_fr, int64_t(0));
      const Int stride = max(col * op.sw - op.pad, int64_t(0));
      Int loopc = select<int64_t>(col < op.pad, op.k - op.pad, op.k);
      Int loopr = select<int64_t>(row < op.pad, op.k - op.pad, op.k);
      loopc = select<int64_t>(col > op.fc - op.pad, in_fc - stride, loopc);
      loopr = select<int64_t>(row > op.fr - op.pad, in_fr - colstride / in_fr, loopr);
      Float mx(0.0f);
      w.compute(kPoolPixel);
      w.for_(Int(0), loopr, Int(1), [&](const Int& i) {
        w.compute(kPoolRow);
        w.for_(Int(0), loopc, Int(1), [&](const Int& j) {
          w.compute(kPoolStep);
          const Float v = w.load(0x100, in, i * in_fc + j + stride + colstride + output * in_fr * in_fc);
          mx = select<float>(active_lanes(w) && mx < v, v, mx);
        });
      });
      w.compute(kPoolStore);
      w.store(0x200, out, row * op.fc + col + output * op.fr * op.fc, mx);
    });
  }

  static void conv_pixel(Warp& w, const Op& op, Arr& in, Arr& wt, Arr& out, const Int& row, const Int& col) {
    const int64_t output = w.block_idx().x, k = op.k, in_fr = op.in_fr;
    const Int colstride = max((row * op.sw - op.pad) * in_fr, int64_t(0));
    const Int stride = max(col * op.sw - op.pad, int64_t(0));
    const Bool top = row * op.sw < op.pad, left = col * op.sw < op.pad;
    const Int x_pad = select<int64_t>(top, op.pad - row * op.sw, 0);
    const Int y_pad = select<int64_t>(left, op.pad - col * op.sw, 0);
    Int loopr = select<int64_t>(top, k - x_pad, k), loopc = select<int64_t>(left, k - y_pad, k);
    loopc = select<int64_t>(col * op.sw >= in_fr - op.pad, in_fr - stride, loopc);
    loopr = select<int64_t>(row * op.sw >= in_fr - op.pad, in_fr - colstride / in_fr, loopr);
    Float product(0.0f);
    for (int64_t feature = 0; feature < op.in_output; ++feature) {
      w.compute(kConvFeature);
      const Int nbase = stride + colstride + feature * in_fr * in_fr;
      const Int wbase = x_pad * k + y_pad + (output * k * k * op.in_output + feature * k * k);
      w.for_(Int(0), loopr, Int(1), [&](const Int& i) {
        w.compute(kConvRow);
        w.for_(Int(0), loopc, Int(1), [&](const Int& j) {
          const int64_t jj = std::min<int64_t>(j.v[0], 2);  // every lane still in the loop has the same j
          w.compute(kConvPair[jj]);
          const Float wv = w.load(0x100 + uint32_t(jj) * 0x20, wt, wbase + i * k + j);
          const Float nv = w.load(0x110 + uint32_t(jj) * 0x20, in, nbase + i * in_fr + j);
          product = select<float>(
              active_lanes(w),
              lanewise(nv, wv, product, [](float x, float y, float z) { return std::fma(x, y, z); }),
              product);
        });
        w.compute(kConvRowEnd);
      });
      w.compute(kConvFeatureEnd);
    }
    w.compute(kConvStore);
    w.if_(loopc > 0 && loopr > 0,
          [&] { w.store(0x200, out, row * op.fc + col + output * op.fr * op.fc, product); });
  }

  static void conv_body(Warp& w, const Op& op, Arr& in, Arr& wt, Arr& out) {
    if (op.split) {
      patches(w, op.tf, op.fr, op.fc, kConvSplitEntry, kConvSplitNext,
              [&](const Int& row, const Int& col) { conv_pixel(w, op, in, wt, out, row, col); });
    } else {
      w.compute(kConvEntry);
      conv_pixel(w, op, in, wt, out, w.thread_idx_x(), w.thread_idx_y());
    }
  }

  // Batch norm (p = mean, q = var) or scale (p = scale, q = bias) of one element.
  static void norm_elem(Warp& w, const Op& op, Arr& x, Arr& p, Arr& q, const Int& idx) {
    const int64_t output = w.block_idx().x;
    const bool is_bn = op.kind == Kind::Bn;
    Float v, pv;
    if (op.split) {  // the per-map value first
      pv = w.load(0x100, p, Int(output));
      v = w.load(0x110, x, idx);
      w.compute(is_bn ? kBnSplitVar : 0);
    } else {
      v = w.load(0x100, x, idx);
      w.compute(is_bn ? kBnMean : kScScale);
      pv = w.load(0x110, p, Int(output));
      w.compute(is_bn ? kBnVar : kScBias);
    }
    const Float qv = w.load(0x120, q, Int(output));
    Float r{Float::Uninit{}};
    for (unsigned l = 0; l < kWarpSize; ++l)
      r.v[l] = is_bn ? bn(v.v[l], pv.v[l], qv.v[l]) : std::fma(v.v[l], pv.v[l], qv.v[l]);
    r.deps = v.deps;
    r.deps |= pv.deps;
    r.deps |= qv.deps;
    w.compute(is_bn ? (op.split ? kBnSplitStore : kBnStore) : (op.split ? kScSplitStore : kScStore));
    w.store(0x130, x, idx, r);
  }
  static void norm_body(Warp& w, const Op& op, Arr& x, Arr& p, Arr& q) {
    const int64_t output = w.block_idx().x, f = op.size;
    if (op.split) {
      patches(w, op.tf, f, f, kNormSplitEntry, kSplitNext, [&](const Int& row, const Int& col) {
        norm_elem(w, op, x, p, q, row * f + col + output * f * f);
      });
    } else {
      w.compute(op.kind == Kind::Bn ? kBnEntry : kScEntry);
      norm_elem(w, op, x, p, q, w.thread_idx_x() * int64_t(w.block_dim().x) + w.thread_idx_y() + output * f);
    }
  }

  static Int flat(const Warp& w) {
    const int64_t bx = w.block_dim().x, by = w.block_dim().y;
    return w.thread_idx_x() * bx + w.thread_idx_y() + int64_t(w.block_idx().x) * bx * by;
  }

  static void relu_elem(Warp& w, Arr& x, const Int& idx, uint32_t store_gap) {
    const Float v = w.load(0x100, x, idx);
    w.compute(store_gap);
    w.if_(v < 0.0f, [&] { w.store(0x110, x, idx, 0.0f); });
  }
  static void relu_body(Warp& w, const Op& op, Arr& x) {
    const int64_t output = w.block_idx().x, f = op.size;
    if (op.split) {
      patches(w, op.tf, f, f, kReluSplitEntry, kSplitNext, [&](const Int& row, const Int& col) {
        relu_elem(w, x, row * f + col + output * f * f, kReluSplitStore);
      });
    } else {
      w.compute(kReluEntry);
      relu_elem(w, x, flat(w), kReluStore);
    }
  }

  static void elt_elem(Warp& w, Arr& a, Arr& b, Arr& out, const Int& idx, uint32_t b_gap) {
    const Float av = w.load(0x100, a, idx);
    w.compute(b_gap);
    const Float bv = w.load(0x110, b, idx);
    w.compute(kEltStore);
    w.store(0x120, out, idx, av + bv);
  }
  static void elt_body(Warp& w, const Op& op, Arr& a, Arr& b, Arr& out) {
    const int64_t output = w.block_idx().x, f = op.size;
    if (op.split) {
      patches(w, op.tf, f, f, kEltSplitEntry, kSplitNext, [&](const Int& row, const Int& col) {
        elt_elem(w, a, b, out, row * f + col + output * f * f, kEltSplitB);
      });
    } else {
      w.compute(kEltEntry);
      elt_elem(w, a, b, out, flat(w), kEltB);
    }
  }

  static void avg_body(Warp& w, const Op& op, Arr& in, Arr& out) {
    const int64_t output = w.block_idx().x, k = op.k, f = op.size;
    Float sum(0.0f);
    w.compute(kAvgEntry);
    for (int64_t i = 0; i < k; ++i) {
      if (i > 0) w.compute(kAvgRow);
      for (int64_t j = 0; j < k; ++j) {
        if (j > 0) w.compute(kAvgStep);
        sum = sum + w.load(0x100, in, Int(output * f * f + i * f + j));
      }
    }
    w.compute(kAvgStore);
    w.store(0x110, out, Int(output), sum / float(k * k));
  }

  static void fc_body(Warp& w, const Op& op, Arr& in, Arr& wt, Arr& out) {
    const int64_t o = w.block_idx().x, input = op.size;
    Float product(0.0f);
    w.compute(kFcEntry);
    for (int64_t i = 0; i < input; ++i) {
      if (i > 0) w.compute(i % 4 == 0 ? kFcQuadEnd : kFcStep);
      const Float wv = w.load(0x100, wt, Int(o * input + i));
      const Float x = w.load(0x110, in, Int(i));
      product = lanewise(x, wv, product, [](float a, float b, float c) { return std::fma(a, b, c); });
    }
    w.compute(kFcStore);
    w.store(0x200, out, Int(o), product);
  }

  // ---- the reference: each launch thread by thread ----

  template <class F>
  static void threads(const Op& op, F f) {
    for (uint32_t bx = 0; bx < op.grid; ++bx)
      for (uint32_t ty = 0; ty < op.block.y; ++ty)
        for (uint32_t tx = 0; tx < op.block.x; ++tx) f(int64_t(bx), int64_t(tx), int64_t(ty));
  }
  template <class F>
  static void patch(const Op& op, int64_t tx, int64_t ty, int64_t fr, int64_t fc, F f) {
    const int64_t re = tx * op.tf, ce = ty * op.tf;
    if (!(re < fr && ce < fc)) return;
    for (int64_t row = re; row < re + op.tf; ++row)
      for (int64_t col = ce; col < ce + op.tf; ++col) f(row, col);
  }

  void reference(const Op& op, std::vector<std::vector<float>>& m) const {
    auto arr = [&](int id) -> std::vector<float>& { return m[size_t(id)]; };
    switch (op.kind) {
      case Kind::Fill:
        fill(op, arr(op.a));
        break;
      case Kind::First: {
        const auto &in = arr(op.a), &wt = arr(op.b);
        auto& out = arr(op.c);
        const int64_t cw = op.in_fr, kk = 7;
        threads(op, [&](int64_t output, int64_t tx, int64_t ty) {
          patch(op, tx, ty, op.fr, op.fc, [&](int64_t row, int64_t col) {
            const int64_t colstride = std::max<int64_t>(3 * (row * op.sw - op.pad) * cw, 0);
            const int64_t stride = std::max<int64_t>(3 * (col * op.sw - op.pad), 0);
            int64_t x_pad = 0, y_pad = 0, loopc = kk, loopr = kk;
            if (row * op.sw < op.pad) x_pad = op.pad - row * op.sw, loopr = kk - x_pad;
            if (col * op.sw < op.pad) y_pad = op.pad - col * op.sw, loopc = kk - y_pad;
            if (col > op.fc - op.pad) loopc = cw - stride / 3;
            if (row > op.fr - op.pad) loopr = cw - colstride / (3 * cw);
            float product = 0;
            for (int64_t i = 0; i < loopr; ++i)
              for (int64_t j = 0; j < loopc; ++j) {
                const size_t n = size_t(i * cw * 3 + j * 3 + stride + colstride);
                const size_t q = size_t(i * 7 + j + output * 147 + kk * x_pad + y_pad);
                product = product + first_term(in[n], wt[q], in[n + 1], wt[q + 49], in[n + 2], wt[q + 98]);
              }
            out[size_t(output * op.fr * op.fc + row * op.fc + col)] = product;
          });
        });
        break;
      }
      case Kind::Pool: {
        const auto& in = arr(op.a);
        auto& out = arr(op.b);
        const int64_t in_fr = op.in_fr, in_fc = op.size;
        threads(op, [&](int64_t output, int64_t tx, int64_t ty) {
          patch(op, tx, ty, op.fr, op.fc, [&](int64_t row, int64_t col) {
            const int64_t colstride = std::max<int64_t>((row * op.sw - op.pad) * in_fr, 0);
            const int64_t stride = std::max<int64_t>(col * op.sw - op.pad, 0);
            int64_t loopr = op.k, loopc = op.k;
            if (col < op.pad) loopc = op.k - op.pad;
            if (row < op.pad) loopr = op.k - op.pad;
            if (col > op.fc - op.pad) loopc = in_fc - stride;
            if (row > op.fr - op.pad) loopr = in_fr - colstride / in_fr;
            float mx = 0;
            for (int64_t i = 0; i < loopr; ++i)
              for (int64_t j = 0; j < loopc; ++j) {
                const float v = in[size_t(output * in_fr * in_fc + i * in_fc + j + stride + colstride)];
                if (mx < v) mx = v;
              }
            out[size_t(output * op.fr * op.fc + row * op.fc + col)] = mx;
          });
        });
        break;
      }
      case Kind::Conv: {
        const auto &in = arr(op.a), &wt = arr(op.b);
        auto& out = arr(op.c);
        auto pixel = [&](int64_t output, int64_t row, int64_t col) {
          const int64_t k = op.k, in_fr = op.in_fr;
          const int64_t colstride = std::max<int64_t>((row * op.sw - op.pad) * in_fr, 0);
          const int64_t stride = std::max<int64_t>(col * op.sw - op.pad, 0);
          int64_t x_pad = 0, y_pad = 0, loopc = k, loopr = k;
          if (row * op.sw < op.pad) x_pad = op.pad - row * op.sw, loopr = k - x_pad;
          if (col * op.sw < op.pad) y_pad = op.pad - col * op.sw, loopc = k - y_pad;
          if (col * op.sw >= in_fr - op.pad) loopc = in_fr - stride;
          if (row * op.sw >= in_fr - op.pad) loopr = in_fr - colstride / in_fr;
          float product = 0;
          for (int64_t feature = 0; feature < op.in_output; ++feature)
            for (int64_t i = 0; i < loopr; ++i)
              for (int64_t j = 0; j < loopc; ++j)
                product = std::fma(in[size_t(feature * in_fr * in_fr + i * in_fr + j + stride + colstride)],
                                   wt[size_t(output * k * k * op.in_output + feature * k * k + i * k + j +
                                             k * x_pad + y_pad)],
                                   product);
          if (loopc > 0 && loopr > 0) out[size_t(output * op.fr * op.fc + row * op.fc + col)] = product;
        };
        threads(op, [&](int64_t output, int64_t tx, int64_t ty) {
          if (op.split)
            patch(op, tx, ty, op.fr, op.fc, [&](int64_t row, int64_t col) { pixel(output, row, col); });
          else
            pixel(output, tx, ty);
        });
        break;
      }
      case Kind::Bn:
      case Kind::Scale:
      case Kind::Relu:
      case Kind::Elt: {
        auto elem = [&](int64_t output, size_t i) {
          if (op.kind == Kind::Bn) {
            auto& x = arr(op.a);
            x[i] = bn(x[i], arr(op.b)[size_t(output)], arr(op.c)[size_t(output)]);
          } else if (op.kind == Kind::Scale) {
            auto& x = arr(op.a);
            x[i] = std::fma(x[i], arr(op.b)[size_t(output)], arr(op.c)[size_t(output)]);
          } else if (op.kind == Kind::Relu) {
            auto& x = arr(op.a);
            if (x[i] < 0) x[i] = 0;
          } else {
            arr(op.c)[i] = arr(op.a)[i] + arr(op.b)[i];
          }
        };
        const int64_t f = op.size;
        threads(op, [&](int64_t output, int64_t tx, int64_t ty) {
          if (op.split) {
            patch(op, tx, ty, f, f,
                  [&](int64_t row, int64_t col) { elem(output, size_t(output * f * f + row * f + col)); });
          } else {
            const int64_t bx = op.block.x, by = op.block.y;
            const int64_t i = (op.kind == Kind::Bn || op.kind == Kind::Scale)
                                  ? output * f + tx * bx + ty
                                  : output * bx * by + tx * bx + ty;
            elem(output, size_t(i));
          }
        });
        break;
      }
      case Kind::Avg: {
        const auto& in = arr(op.a);
        auto& out = arr(op.b);
        const int64_t f = op.size;
        for (int64_t o = 0; o < int64_t(op.grid); ++o) {
          float sum = 0;
          for (int64_t i = 0; i < op.k; ++i)
            for (int64_t j = 0; j < op.k; ++j) sum = sum + in[size_t(o * f * f + i * f + j)];
          out[size_t(o)] = sum / float(op.k * op.k);
        }
        break;
      }
      case Kind::Fc: {
        const auto &in = arr(op.a), &wt = arr(op.b);
        auto& out = arr(op.c);
        for (int64_t o = 0; o < int64_t(op.grid); ++o) {
          float product = 0;
          for (int64_t i = 0; i < op.size; ++i)
            product = std::fma(in[size_t(i)], wt[size_t(o * op.size + i)], product);
          out[size_t(o)] = product;
        }
        break;
      }
    }
  }

  int64_t div_, cap_;
  uint64_t sm_regs_, seed_;
  std::vector<Arr> arr_;
  std::vector<Op> ops_;
  int input_ = -1;
  uint64_t gens_ = 0;
};

}  // namespace

void register_tango_resnet(PortRegistry& r) {
  PortInfo p;
  p.name = "tango/resnet";
  p.suite = "Tango (Karki et al., ISPASS 2019)";
  p.source =
      "gitlab.com/Tango-DNNbench/Tango, GPU/ResNet (CUDA, by A. Karki): resnet_host.cu and rn_kernel.cu, "
      "read "
      "from public copies in the code index (the GitLab repository is not reachable from here). rn_kernel.cu "
      "carries the author header unmodified. The resnet_host.cu copy is a research derivative: around the "
      "last two launches it adds a contiguous physical allocation (device_allocate_contigous, an "
      "'optimized-order' file) for the average pool's output and the FC weights and output, keeping Tango's "
      "own cudaMalloc lines as comments; the port follows those (three ordinary allocations). Every launch, "
      "its geometry and arguments are the copy's. comsys-lab/Multi-Tenant-GPU's basic_models/Resnet18 is a "
      "different network (ResNet-18), not followed";
  p.input =
      "The source's one 224x224x3 image: ResNet-50 (conv1, 3 + 4 + 6 + 3 bottleneck blocks, average pool, FC "
      "1000), 227 launches. Original channels 64 .. 2048: about 281 M warp memory instructions (fitted from "
      "div 8..64) and 61 MiB, far past a minute. Default div = 16: every channel count divided by 16 (conv1 "
      "4 maps, blocks 4-16-... up to 128 maps; 1000 classes kept), spatial sizes, launch geometry (32x32 "
      "threads with 4x4 and 2x2 patches, then f x f threads) and kernels unchanged: 2.10 M warp memory "
      "instructions (17.0 M with compute), 2.6 MiB (37-50 s wall, 24 CPU s on fermi). `div` 1..64, a power "
      "of "
      "2 (1 restores the original); `ctas` caps every grid (the first maps / classes of each launch, for "
      "tests); `sm_regs` (32768, Fermi's) caps registers per thread so that one CTA "
      "fits (the 1024-thread CTAs: 32); 65536 keeps the ptxas counts. The data files (input.txt, conv*, "
      "res*_branch*, bn*_mean/var, sc*_scale/bias, fc.txt) are replaced by seeded values (splitmix64 from "
      "`seed`, one stream per copy): image in +-1, weights in +-1.7/sqrt(fan-in), means in +-0.1, variances "
      "0.5..1.5, scales 0.5..1, biases in +-0.1. Addresses do not depend on the data, except that "
      "executeReLULayerCUDA stores only where the value is negative";
  p.papers = "adaptive LLC (004, Table 2: RN)";
  p.kernels =
      "executeFirstLayerCUDA, executeBnNormLayerCUDA(_split), executeScaleLayerCUDA(_split), "
      "executeReLULayerCUDA(_split), executepoolingCuda, execute3DconvolutionCuda(_split), "
      "executeEltWiseLayerCUDA(_split), poolingAverageCUDA, executeFCLayerCUDA (227 launches)";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const tango::NetSize n = tango::read_net_size(s, "tango/resnet", 16, 64, 2048, "a power of 2 up to 64");
    return std::make_unique<ResNet>(n.div, n.ctas, n.sm_regs, n.seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
