// Tango AlexNet (GPU, CUDA): one 227x227x3 image through the eight layers, 22 launches of 7 kernels in the
// host code's order. Layer 1: executeFirstLayer (11x11x3 filters at stride 4, ReLU) as four launches that
// tile the 55x55 map (thread blocks 32x32, 32x23, 23x32, 23x23, threadIdx.x the row), the LRN
// (executelrnNormCuda_split, the same four tiles) and a 3x3 stride-2 max pool (executepoolingCuda, 27x27
// threads). Layer 2: the 5x5 grouped convolution as execute3DconvolutionCuda (group 1) then
// execute3Dconvolutiongroup2Cuda (group 2), 27x27 threads, then executelrnNormCuda and a pool to 13x13.
// Layers 3-5: 3x3 convolutions on 13x13 threads (layer 3 one group, 4 and 5 two), a pool to 6x6 after
// layer 5. Layers 6-8: executeFCLayer, one thread per CTA (4096, 4096 and 1000 CTAs), each streaming its
// weight row. One output element per thread everywhere; a CTA is one output map (conv, LRN, pool) or one
// neuron (FC).
// Kept from the source: the convolutions place a window at column `col` (not col - pad) once col >= pad,
// and their right-edge trip count runs past the row end, so the last input map's last pixel reads `pad`
// floats past the end of the layer's input array (each such array has `pad` zero guard floats: on the GPU
// those words belong to the allocator's padding or the next allocation); the LRN sums the squares of maps
// max(o-2,1)-1 .. min(o+2,C)-2, as the source's loop bounds do.
// Float arithmetic follows the PTX: a layer-1 window term is fma(B, W_b, fma(R, W_r, G * W_g)) added to
// the sum, a convolution or FC term fma(x, w, sum); the LRN squares in double (pow(double, 2)) and divides
// by powf(fma(alpha/5, sum, 1), beta). check() runs the same launches thread by thread in plain C++ with
// the same operations and compares every layer's output exactly.
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
// (ld.param included), on the path the launch geometry takes.
// executeFirstLayer: the 11 window columns unrolled (6 loads each, issued W_r, R, W_g, G, W_b, B), rows loop.
constexpr uint32_t kC1Entry = 25;   // kernel start to row 0's first load
constexpr uint32_t kC1NextRow = 9;  // a row's last load to the next row's first
constexpr uint32_t kC1NextCol = 2;  // a column's last load to the next column's first (fma, add)
constexpr uint32_t kC1Col0G = 1;    // before column 0's W_g (its address add); 0 in later columns
constexpr uint32_t kC1B = 2;        // before every W_b (mul, fma)
constexpr uint32_t kC1Bias = 10;    // the last row's last load to the bias load
constexpr uint32_t kC1Store = 8;    // the bias load to the store
// executepoolingCuda with a 3x3 window: the j loop's remainder path (3 loads), rows loop.
constexpr uint32_t kPoolEntry = 35, kPoolJ1 = 4, kPoolJ2 = 3, kPoolNextRow = 16, kPoolStore = 10;
// execute3DconvolutionCuda / ...group2Cuda: features, rows (per-lane trip count loopr), columns (per-lane
// loopc) 4x unrolled plus a remainder of loopc & 3 (each step a weight load, then an input load).
constexpr uint32_t kConvEntry = 51, kConvEntryG2 = 54;  // to the feature loop
constexpr uint32_t kConvFeature = 6;                    // feature loop top to the row loop
constexpr uint32_t kConvRow = 10;                       // row loop top to the column loops
constexpr uint32_t kConvQuadSetup = 7;                  // before the unrolled loop
constexpr uint32_t kConvQuadStep = 1;                   // before each unrolled step (add or fma)
constexpr uint32_t kConvQuadEnd = 7;                    // fma and the unrolled loop's control
constexpr uint32_t kConvRemTest = 2;                    // remainder test
constexpr uint32_t kConvRem1 = 8, kConvRemBra = 2, kConvRem2 = 1, kConvRemLast = 1;
constexpr uint32_t kConvRowEnd = 3, kConvFeatureEnd = 3, kConvBias = 3, kConvStore = 8;
// executeFCLayer: the input loop 4x unrolled (weight load, then input load), then a remainder loop.
constexpr uint32_t kFcEntry = 18, kFcQuadSetup = 7, kFcQuadStep = 1, kFcQuadEnd = 7, kFcRemTest = 2;
constexpr uint32_t kFcRemSetup = 5, kFcRemStep = 6, kFcBias = 3, kFcStore = 7;
// executelrnNormCuda(_split): estimated from the PTX's common path (pow(x, 2) in double and the final
// powf expand into special-case branches, so the exact count depends on the values).
constexpr uint32_t kLrnEntry = 55, kLrnTerm = 36, kLrnCenter = 40, kLrnStore = 105;
// ptxas -v, sm_75: registers per thread; no shared memory.
constexpr uint32_t kRegsConv1 = 62, kRegsPool = 51, kRegsConv = 61, kRegsConvG2 = 63, kRegsLrn = 44,
                   kRegsFc = 38;

constexpr float kAlpha = 0.0001f, kBeta = 0.75f;
constexpr int64_t kLocal = 5;

// Uniform in [-a, a).
float uniform(uint64_t& s, float a) {
  return float((double(splitmix(s) >> 11) / double(1ull << 53) * 2 - 1) * a);
}

// The arithmetic, shared by the warps and the reference.
float relu(float x) {
  return x < 0 ? 0.0f : x;
}
float conv1_term(float r, float wr, float g, float wg, float b, float wb) {
  return std::fma(b, wb, std::fma(r, wr, g * wg));
}
float lrn_add(float sum, float x) {
  return float(double(sum) + double(x) * double(x));
}
float lrn_value(float x, float sum) {
  return x / std::pow(std::fma(kAlpha / float(kLocal), sum, 1.0f), kBeta);
}

Float fma_lanes(const Float& a, const Float& b, const Float& c) {
  return lanewise(a, b, c, [](float x, float y, float z) { return std::fma(x, y, z); });
}

using Arr = DeviceArray<float>;

// One convolution launch's arguments (execute3DconvolutionCuda's parameter list).
struct Conv {
  int64_t out, fr, fc, sw, k, pad, in_output;
  bool group2;
};

// The channel counts: the source's divided by `div`.
struct Net {
  int64_t c1, c2, c3, c4, c5, f6, f7, classes;
  explicit Net(int64_t div)
      : c1(96 / div),
        c2(256 / div),
        c3(384 / div),
        c4(384 / div),
        c5(256 / div),
        f6(4096 / div),
        f7(4096 / div),
        classes(1000) {}
};

// ---- the reference: each launch thread by thread ----

void ref_conv1(const Arr& bias, const Arr& in, const Arr& wt, std::vector<float>& out, int64_t grid,
               int64_t bx_n, int64_t by_n, int64_t r_off, int64_t c_off) {
  for (int64_t output = 0; output < grid; ++output)
    for (int64_t ty = 0; ty < by_n; ++ty)
      for (int64_t tx = 0; tx < bx_n; ++tx) {
        const int64_t row = tx + r_off, col = ty + c_off;
        const int64_t colstride = 3 * row * 4 * 227, stride = col * 12;
        float product = 0;
        for (int64_t i = 0; i < 11; ++i)
          for (int64_t j = 0; j < 11; ++j) {
            const size_t n = size_t(i * 681 + j * 3 + stride + colstride);
            const size_t m = size_t(i * 11 + j + output * 363);
            product = product + conv1_term(in[n], wt[m], in[n + 1], wt[m + 121], in[n + 2], wt[m + 242]);
          }
        product = relu(product + bias[size_t(output)]);
        out[size_t(output * 3025 + row * 55 + col)] = product;
      }
}

void ref_lrn(const std::vector<float>& in, std::vector<float>& out, int64_t grid, int64_t out_n, int64_t fr,
             int64_t fc, int64_t bx_n, int64_t by_n, int64_t r_off, int64_t c_off) {
  for (int64_t output = 0; output < grid; ++output)
    for (int64_t ty = 0; ty < by_n; ++ty)
      for (int64_t tx = 0; tx < bx_n; ++tx) {
        const int64_t row = tx + r_off, col = ty + c_off;
        const int64_t n_start = output - 2 > 1 ? output - 2 : 1,
                      n_end = output + 2 < out_n ? output + 2 : out_n;
        float sum = 0;
        for (int64_t i = n_start - 1; i < n_end - 1; ++i)
          sum = lrn_add(sum, in[size_t(i * fr * fc + row * fc + col)]);
        const size_t o = size_t(output * fr * fc + row * fc + col);
        out[o] = lrn_value(in[o], sum);
      }
}

void ref_pool(const std::vector<float>& in, std::vector<float>& out, int64_t grid, int64_t out_fr,
              int64_t out_fc, int64_t in_fr, int64_t in_fc) {
  for (int64_t output = 0; output < grid; ++output)
    for (int64_t col = 0; col < out_fc; ++col)
      for (int64_t row = 0; row < out_fr; ++row) {
        const int64_t colstride = row * 2 * in_fc, stride = col * 2;
        float mx = 0;
        for (int64_t i = 0; i < 3; ++i)
          for (int64_t j = 0; j < 3; ++j) {
            const float v = in[size_t(output * in_fr * in_fc + i * in_fc + j + stride + colstride)];
            if (mx < v) mx = v;
          }
        out[size_t(output * out_fr * out_fc + row * out_fc + col)] = mx;
      }
}

void ref_conv(const Arr& bias, const std::vector<float>& in, const Arr& wt, std::vector<float>& out,
              int64_t grid, const Conv& c) {
  for (int64_t b = 0; b < grid; ++b)
    for (int64_t col = 0; col < c.fc; ++col)
      for (int64_t row = 0; row < c.fr; ++row) {
        const int64_t output = b + (c.group2 ? c.out : 0);
        const int64_t colstride = row > c.pad ? (row - c.pad) * c.fr : 0;
        const int64_t stride = col >= c.pad ? col * c.sw : 0;
        int64_t x_pad = 0, y_pad = 0, loopc = c.k, loopr = c.k;
        if (row < c.pad) x_pad = c.pad - row, loopr = c.k - x_pad;
        if (col < c.pad) y_pad = c.pad - col, loopc = c.k - y_pad;
        if (col >= c.fc - c.pad) loopc = c.fc + c.pad - col;
        if (row >= c.fr - c.pad) loopr = c.fr + c.pad - row;
        const int64_t f0 = c.group2 ? c.in_output : 0;
        float product = 0;
        for (int64_t feature = f0; feature < f0 + c.in_output; ++feature)
          for (int64_t i = 0; i < loopr; ++i)
            for (int64_t j = 0; j < loopc; ++j) {
              const size_t n = size_t(feature * c.fr * c.fc + i * c.fc + j + stride + colstride);
              const size_t m = size_t(output * c.k * c.k * c.in_output + (feature - f0) * c.k * c.k +
                                      i * c.k + j + c.k * x_pad + y_pad);
              product = std::fma(in[n], wt[m], product);
            }
        product = relu(product + bias[size_t(output)]);
        out[size_t(output * c.fr * c.fc + row * c.fc + col)] = product;
      }
}

void ref_fc(const Arr& bias, const std::vector<float>& in, const Arr& wt, std::vector<float>& out,
            int64_t grid, int64_t input, bool use_relu) {
  for (int64_t o = 0; o < grid; ++o) {
    float product = 0;
    for (int64_t i = 0; i < input; ++i) product = std::fma(in[size_t(i)], wt[size_t(o * input + i)], product);
    product = product + bias[size_t(o)];
    if (use_relu) product = relu(product);
    out[size_t(o)] = product;
  }
}

class AlexNet : public KernelPort {
 public:
  AlexNet(uint32_t div, uint32_t ctas, uint32_t sm_regs, uint64_t seed)
      : net_(div), cap_(ctas), sm_regs_(sm_regs), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // The source's cudaMalloc order. Inputs of a padded convolution carry `pad` guard floats (see top).
    const Net& n = net_;
    in_ = mem.alloc<float>("Layer1_Neurons_GPU", 227 * 227 * 3);
    w1_ = mem.alloc<float>("Layer1_Weights_GPU", size_t(363 * n.c1));
    b1_ = mem.alloc<float>("Layer1_bias_GPU", size_t(n.c1));
    conv1_ = mem.alloc<float>("Layer1_Norm_GPU", size_t(n.c1 * 3025));
    lrn1_ = mem.alloc<float>("Layer1_pool_GPU", size_t(n.c1 * 3025));
    pool1_ = mem.alloc<float>("Layer2_Neurons_GPU", size_t(n.c1 * 729 + 2));
    w2_ = mem.alloc<float>("Layer2_Weights_GPU", size_t(25 * (n.c1 / 2) * n.c2));
    b2_ = mem.alloc<float>("Layer2_bias_GPU", size_t(n.c2));
    conv2_ = mem.alloc<float>("Layer2_Norm_GPU", size_t(n.c2 * 729));
    lrn2_ = mem.alloc<float>("Layer2_pool_GPU", size_t(n.c2 * 729));
    pool2_ = mem.alloc<float>("Layer3_Neurons_GPU", size_t(n.c2 * 169 + 1));
    w3_ = mem.alloc<float>("Layer3_Weights_GPU", size_t(9 * n.c2 * n.c3));
    b3_ = mem.alloc<float>("Layer3_bias_GPU", size_t(n.c3));
    conv3_ = mem.alloc<float>("Layer4_Neurons_GPU", size_t(n.c3 * 169 + 1));
    w4_ = mem.alloc<float>("Layer4_Weights_GPU", size_t(9 * (n.c3 / 2) * n.c4));
    b4_ = mem.alloc<float>("Layer4_bias_GPU", size_t(n.c4));
    conv4_ = mem.alloc<float>("Layer5_Neurons_GPU", size_t(n.c4 * 169 + 1));
    w5_ = mem.alloc<float>("Layer5_Weights_GPU", size_t(9 * (n.c4 / 2) * n.c5));
    b5_ = mem.alloc<float>("Layer5_bias_GPU", size_t(n.c5));
    conv5_ = mem.alloc<float>("Layer5_pool_GPU", size_t(n.c5 * 169));
    pool5_ = mem.alloc<float>("Layer6_Neurons_GPU", size_t(n.c5 * 36));
    w6_ = mem.alloc<float>("Layer6_Weights_GPU", size_t(n.f6 * n.c5 * 36));
    b6_ = mem.alloc<float>("Layer6_bias_GPU", size_t(n.f6));
    fc6_ = mem.alloc<float>("Layer7_Neurons_GPU", size_t(n.f6));
    w7_ = mem.alloc<float>("Layer7_Weights_GPU", size_t(n.f7 * n.f6));
    b7_ = mem.alloc<float>("Layer7_bias_GPU", size_t(n.f7));
    fc7_ = mem.alloc<float>("Layer8_Neurons_GPU", size_t(n.f7));
    w8_ = mem.alloc<float>("Layer8_Weights_GPU", size_t(n.classes * n.f7));
    b8_ = mem.alloc<float>("Layer8_bias_GPU", size_t(n.classes));
    fc8_ = mem.alloc<float>("Layer9_Neurons_GPU", size_t(n.classes));
    // input.txt (a mean-subtracted image, interleaved RGB) and the conv*/fc*/bias* files: seeded uniform
    // values, weights scaled by their fan-in so that activations stay of order 1 through the layers.
    uint64_t s = seed_;
    for (float& x : in_.host()) x = uniform(s, 1.0f);
    const std::pair<Arr*, int64_t> weights[] = {{&w1_, 363},
                                                {&w2_, 25 * (n.c1 / 2)},
                                                {&w3_, 9 * n.c2},
                                                {&w4_, 9 * (n.c3 / 2)},
                                                {&w5_, 9 * (n.c4 / 2)},
                                                {&w6_, n.c5 * 36},
                                                {&w7_, n.f6},
                                                {&w8_, n.f7}};
    for (const auto& [w, fan_in] : weights)
      for (float& x : w->host()) x = uniform(s, 2.0f / std::sqrt(float(fan_in)));
    for (Arr* b : {&b1_, &b2_, &b3_, &b4_, &b5_, &b6_, &b7_, &b8_})
      for (float& x : b->host()) x = uniform(s, 0.1f);
  }

  void run(Launcher& host) override {
    const Net& n = net_;
    const Dim3 tiles[4] = {{32, 32, 1}, {32, 23, 1}, {23, 32, 1}, {23, 23, 1}};
    const int64_t offs[4][2] = {{0, 0}, {0, 32}, {32, 0}, {32, 32}};
    for (int t = 0; t < 4; ++t) conv1(host, tiles[t], offs[t][0], offs[t][1]);
    for (int t = 0; t < 4; ++t)
      lrn(host, "executelrnNormCuda_split", conv1_, lrn1_, n.c1, 55, tiles[t], offs[t][0], offs[t][1]);
    pool(host, lrn1_, pool1_, n.c1, 27, 55);
    const Conv l2{n.c2 / 2, 27, 27, 1, 5, 2, n.c1 / 2, false};
    conv(host, b2_, pool1_, w2_, conv2_, l2, {27, 27, 1});
    conv(host, b2_, pool1_, w2_, conv2_, group2(l2), {27, 27, 1});
    lrn(host, "executelrnNormCuda", conv2_, lrn2_, n.c2, 27, {27, 27, 1}, 0, 0);
    pool(host, lrn2_, pool2_, n.c2, 13, 27);
    conv(host, b3_, pool2_, w3_, conv3_, {n.c3, 13, 13, 1, 3, 1, n.c2, false}, {13, 13, 1});
    const Conv l4{n.c4 / 2, 13, 13, 1, 3, 1, n.c3 / 2, false};
    conv(host, b4_, conv3_, w4_, conv4_, l4, {13, 13, 1});
    conv(host, b4_, conv3_, w4_, conv4_, group2(l4), {13, 13, 1});
    const Conv l5{n.c5 / 2, 13, 13, 1, 3, 1, n.c4 / 2, false};
    conv(host, b5_, conv4_, w5_, conv5_, l5, {13, 13, 1});
    conv(host, b5_, conv4_, w5_, conv5_, group2(l5), {13, 13, 1});
    pool(host, conv5_, pool5_, n.c5, 6, 13);
    fc(host, b6_, pool5_, w6_, fc6_, n.f6, n.c5 * 36, true);
    fc(host, b7_, fc6_, w7_, fc7_, n.f7, n.f6, true);
    fc(host, b8_, fc7_, w8_, fc8_, n.classes, n.f7, false);
  }

  std::string check() const override {
    const Net& n = net_;
    auto zeros = [](const Arr& a) { return std::vector<float>(a.size(), 0.0f); };
    std::vector<float> conv1 = zeros(conv1_), lrn1 = zeros(lrn1_), pool1 = zeros(pool1_),
                       conv2 = zeros(conv2_), lrn2 = zeros(lrn2_), pool2 = zeros(pool2_),
                       conv3 = zeros(conv3_), conv4 = zeros(conv4_), conv5 = zeros(conv5_),
                       pool5 = zeros(pool5_), fc6 = zeros(fc6_), fc7 = zeros(fc7_), fc8 = zeros(fc8_);
    const int64_t tiles[4][4] = {{32, 32, 0, 0}, {32, 23, 0, 32}, {23, 32, 32, 0}, {23, 23, 32, 32}};
    for (const auto& t : tiles) ref_conv1(b1_, in_, w1_, conv1, grid(n.c1), t[0], t[1], t[2], t[3]);
    for (const auto& t : tiles) ref_lrn(conv1, lrn1, grid(n.c1), n.c1, 55, 55, t[0], t[1], t[2], t[3]);
    ref_pool(lrn1, pool1, grid(n.c1), 27, 27, 55, 55);
    const Conv l2{n.c2 / 2, 27, 27, 1, 5, 2, n.c1 / 2, false};
    ref_conv(b2_, pool1, w2_, conv2, grid(l2.out), l2);
    ref_conv(b2_, pool1, w2_, conv2, grid(l2.out), group2(l2));
    ref_lrn(conv2, lrn2, grid(n.c2), n.c2, 27, 27, 27, 27, 0, 0);
    ref_pool(lrn2, pool2, grid(n.c2), 13, 13, 27, 27);
    ref_conv(b3_, pool2, w3_, conv3, grid(n.c3), {n.c3, 13, 13, 1, 3, 1, n.c2, false});
    const Conv l4{n.c4 / 2, 13, 13, 1, 3, 1, n.c3 / 2, false};
    ref_conv(b4_, conv3, w4_, conv4, grid(l4.out), l4);
    ref_conv(b4_, conv3, w4_, conv4, grid(l4.out), group2(l4));
    const Conv l5{n.c5 / 2, 13, 13, 1, 3, 1, n.c4 / 2, false};
    ref_conv(b5_, conv4, w5_, conv5, grid(l5.out), l5);
    ref_conv(b5_, conv4, w5_, conv5, grid(l5.out), group2(l5));
    ref_pool(conv5, pool5, grid(n.c5), 6, 6, 13, 13);
    ref_fc(b6_, pool5, w6_, fc6, grid(n.f6), n.c5 * 36, true);
    ref_fc(b7_, fc6, w7_, fc7, grid(n.f7), n.f6, true);
    ref_fc(b8_, fc7, w8_, fc8, grid(n.classes), n.f7, false);
    const std::pair<const Arr*, const std::vector<float>*> layers[] = {
        {&conv1_, &conv1}, {&lrn1_, &lrn1},   {&pool1_, &pool1}, {&conv2_, &conv2}, {&lrn2_, &lrn2},
        {&pool2_, &pool2}, {&conv3_, &conv3}, {&conv4_, &conv4}, {&conv5_, &conv5}, {&pool5_, &pool5},
        {&fc6_, &fc6},     {&fc7_, &fc7},     {&fc8_, &fc8}};
    for (const auto& [got, want] : layers)
      for (size_t i = 0; i < want->size(); ++i)
        if ((*got)[i] != (*want)[i])
          return got->name() + "[" + std::to_string(i) + "] = " + std::to_string((*got)[i]) + ", expected " +
                 std::to_string((*want)[i]);
    return "";
  }

 private:
  int64_t grid(int64_t n) const { return std::min<int64_t>(n, cap_); }
  uint32_t regs(uint32_t ptxas, const Dim3& block) const {
    return tango::capped_regs(ptxas, block, sm_regs_);
  }
  static Conv group2(Conv c) {
    c.group2 = true;
    return c;
  }

  void conv1(Launcher& host, Dim3 block, int64_t r_off, int64_t c_off) {
    KernelLaunch k;
    k.name = "executeFirstLayer";
    k.grid = {uint32_t(grid(net_.c1)), 1, 1};
    k.block = block;
    k.regs_per_thread = regs(kRegsConv1, k.block);
    k.body = [this, r_off, c_off](Warp& w) {
      const int64_t output = w.block_idx().x;
      const Int row = w.thread_idx_x() + r_off, col = w.thread_idx_y() + c_off;
      const Int colstride = row * (3 * 4 * 227), stride = col * 12;
      Float product(0.0f);
      w.compute(kC1Entry);
      for (int64_t i = 0; i < 11; ++i) {
        if (i > 0) w.compute(kC1NextRow);
        for (int64_t j = 0; j < 11; ++j) {
          if (j > 0) w.compute(kC1NextCol);
          const Int n = colstride + stride + (i * 681 + j * 3);
          const int64_t m = i * 11 + j + output * 363;
          const uint32_t pc = 0x100 + uint32_t(j) * 0x60;
          const Float wr = w.load(pc, w1_, Int(m));
          const Float r = w.load(pc + 0x10, in_, n);
          if (j == 0) w.compute(kC1Col0G);
          const Float wg = w.load(pc + 0x20, w1_, Int(m + 121));
          const Float g = w.load(pc + 0x30, in_, n + 1);
          w.compute(kC1B);
          const Float wb = w.load(pc + 0x40, w1_, Int(m + 242));
          const Float b = w.load(pc + 0x50, in_, n + 2);
          Float t{Float::Uninit{}};
          for (unsigned l = 0; l < kWarpSize; ++l)
            t.v[l] = conv1_term(r.v[l], wr.v[l], g.v[l], wg.v[l], b.v[l], wb.v[l]);
          t.deps = r.deps;
          for (const Float* x : {&wr, &g, &wg, &b, &wb}) t.deps |= x->deps;
          product = product + t;
        }
      }
      w.compute(kC1Bias);
      const Float bias = w.load(0x800, b1_, Int(output));
      const Float v = map(product + bias, relu);
      w.compute(kC1Store);
      w.store(0x810, conv1_, row * 55 + col + output * 3025, v);
    };
    host.launch(std::move(k));
  }

  void lrn(Launcher& host, const char* name, Arr& in, Arr& out, int64_t out_n, int64_t f, Dim3 block,
           int64_t r_off, int64_t c_off) {
    KernelLaunch k;
    k.name = name;
    k.grid = {uint32_t(grid(out_n)), 1, 1};
    k.block = block;
    k.regs_per_thread = regs(kRegsLrn, k.block);
    k.body = [&in, &out, out_n, f, r_off, c_off](Warp& w) {
      const int64_t output = w.block_idx().x;
      const Int row = w.thread_idx_x() + r_off, col = w.thread_idx_y() + c_off;
      const int64_t n_start = output - 2 > 1 ? output - 2 : 1,
                    n_end = output + 2 < out_n ? output + 2 : out_n;
      Float sum(0.0f);
      for (int64_t i = n_start - 1; i < n_end - 1; ++i) {
        w.compute(i == n_start - 1 ? kLrnEntry : kLrnTerm);
        const Float x = w.load(0x100 + uint32_t((i - n_start + 1) % 4) * 0x10, in, row * f + col + i * f * f);
        for (unsigned l = 0; l < kWarpSize; ++l) sum.v[l] = lrn_add(sum.v[l], x.v[l]);
        sum.deps |= x.deps;
      }
      w.compute(n_end - 1 > n_start - 1 ? kLrnCenter : kLrnEntry);
      const Int o = row * f + col + output * f * f;
      const Float x = w.load(0x200, in, o);
      Float v{Float::Uninit{}};
      for (unsigned l = 0; l < kWarpSize; ++l) v.v[l] = lrn_value(x.v[l], sum.v[l]);
      v.deps = x.deps;
      v.deps |= sum.deps;
      w.compute(kLrnStore);
      w.store(0x210, out, o, v);
    };
    host.launch(std::move(k));
  }

  void pool(Launcher& host, Arr& in, Arr& out, int64_t out_n, int64_t out_f, int64_t in_f) {
    KernelLaunch k;
    k.name = "executepoolingCuda";
    k.grid = {uint32_t(grid(out_n)), 1, 1};
    k.block = {uint32_t(out_f), uint32_t(out_f), 1};
    k.regs_per_thread = regs(kRegsPool, k.block);
    k.body = [&in, &out, out_f, in_f](Warp& w) {
      const int64_t output = w.block_idx().x;
      const Int row = w.thread_idx_x(), col = w.thread_idx_y();
      const Int colstride = row * (2 * in_f), stride = col * 2;
      Float mx(0.0f);
      const uint32_t gaps[3] = {0, kPoolJ1, kPoolJ2};
      w.compute(kPoolEntry);
      for (int64_t i = 0; i < 3; ++i) {
        if (i > 0) w.compute(kPoolNextRow);
        for (int64_t j = 0; j < 3; ++j) {
          w.compute(gaps[j]);
          const Float v = w.load(0x100 + uint32_t(j) * 0x10, in,
                                 stride + colstride + (output * in_f * in_f + i * in_f + j));
          mx = select<float>(mx < v, v, mx);
        }
      }
      w.compute(kPoolStore);
      w.store(0x200, out, row * out_f + col + output * out_f * out_f, mx);
    };
    host.launch(std::move(k));
  }

  void conv(Launcher& host, Arr& bias, Arr& in, Arr& wt, Arr& out, const Conv& c, Dim3 block) {
    KernelLaunch k;
    k.name = c.group2 ? "execute3Dconvolutiongroup2Cuda" : "execute3DconvolutionCuda";
    k.grid = {uint32_t(grid(c.out)), 1, 1};
    k.block = block;
    k.regs_per_thread = regs(c.group2 ? kRegsConvG2 : kRegsConv, k.block);
    k.body = [&bias, &in, &wt, &out, c](Warp& w) {
      const int64_t output = int64_t(w.block_idx().x) + (c.group2 ? c.out : 0);
      const Int row = w.thread_idx_x(), col = w.thread_idx_y();
      const Int colstride = select<int64_t>(row > c.pad, (row - c.pad) * c.fr, 0);
      const Int stride = select<int64_t>(col >= c.pad, col * c.sw, 0);
      const Int x_pad = select<int64_t>(row < c.pad, c.pad - row, 0);
      const Int y_pad = select<int64_t>(col < c.pad, c.pad - col, 0);
      Int loopr = select<int64_t>(row < c.pad, c.k - x_pad, c.k);
      Int loopc = select<int64_t>(col < c.pad, c.k - y_pad, c.k);
      loopc = select<int64_t>(col >= c.fc - c.pad, c.fc + c.pad - col, loopc);
      loopr = select<int64_t>(row >= c.fr - c.pad, c.fr + c.pad - row, loopr);
      const Int rem = loopc & 3, quads = (loopc - rem) / 4;
      const int64_t f0 = c.group2 ? c.in_output : 0;
      Float product(0.0f);
      w.compute(c.group2 ? kConvEntryG2 : kConvEntry);
      for (int64_t feature = f0; feature < f0 + c.in_output; ++feature) {
        w.compute(kConvFeature);
        const Int nbase = stride + colstride + feature * c.fr * c.fc;
        const Int wbase =
            x_pad * c.k + y_pad + (output * c.k * c.k * c.in_output + (feature - f0) * c.k * c.k);
        w.for_(Int(0), loopr, Int(1), [&](const Int& i) {
          w.compute(kConvRow);
          auto step = [&](uint32_t pc, const Int& j) {
            const Float wv = w.load(pc, wt, wbase + i * c.k + j);
            const Float nv = w.load(pc + 0x10, in, nbase + i * c.fc + j);
            product = select<float>(active_lanes(w), fma_lanes(nv, wv, product), product);
          };
          w.if_(loopc >= 4, [&] {
            w.compute(kConvQuadSetup);
            w.for_(Int(0), quads, Int(1), [&](const Int& q) {
              for (int64_t p = 0; p < 4; ++p) {
                w.compute(kConvQuadStep);
                step(0x100 + uint32_t(p) * 0x20, q * 4 + p);
              }
              w.compute(kConvQuadEnd);
            });
          });
          w.compute(kConvRemTest);
          const Int j0 = quads * 4;
          w.if_(rem >= 1, [&] {
            w.compute(kConvRem1);
            step(0x200, j0);
            w.compute(kConvRemBra);
            w.if_(rem >= 2, [&] {
              w.compute(kConvRem2);
              step(0x220, j0 + 1);
              w.compute(kConvRemBra);
              w.if_(rem >= 3, [&] {
                step(0x240, j0 + 2);
                w.compute(kConvRemLast);
              });
            });
          });
          w.compute(kConvRowEnd);
        });
        w.compute(kConvFeatureEnd);
      }
      w.compute(kConvBias);
      const Float b = w.load(0x300, bias, Int(output));
      const Float v = map(product + b, relu);
      w.compute(kConvStore);
      w.store(0x310, out, row * c.fc + col + output * c.fr * c.fc, v);
    };
    host.launch(std::move(k));
  }

  void fc(Launcher& host, Arr& bias, Arr& in, Arr& wt, Arr& out, int64_t outputs, int64_t input,
          bool use_relu) {
    KernelLaunch k;
    k.name = "executeFCLayer";
    k.grid = {uint32_t(grid(outputs)), 1, 1};
    k.block = {1, 1, 1};
    k.regs_per_thread = regs(kRegsFc, k.block);
    k.body = [&bias, &in, &wt, &out, input, use_relu](Warp& w) {
      const int64_t o = w.block_idx().x, weight = o * input;
      Float product(0.0f);
      uint32_t gap = kFcEntry;
      auto step = [&](uint32_t pc, int64_t i) {
        w.compute(gap);
        const Float wv = w.load(pc, wt, Int(weight + i));
        const Float x = w.load(pc + 0x10, in, Int(i));
        product = fma_lanes(x, wv, product);
      };
      const int64_t rem = input & 3, quads = (input - rem) / 4;
      if (quads > 0) {
        gap += kFcQuadSetup;
        for (int64_t q = 0; q < quads; ++q) {
          for (int64_t p = 0; p < 4; ++p) {
            step(0x100 + uint32_t(p) * 0x20, q * 4 + p);
            gap = kFcQuadStep;
          }
          gap = kFcQuadEnd;
        }
      }
      gap += kFcRemTest;
      if (rem > 0) {
        gap += kFcRemSetup;
        for (int64_t i = quads * 4; i < input; ++i) {
          step(0x200, i);
          gap = kFcRemStep;
        }
      }
      w.compute(gap + kFcBias);
      const Float b = w.load(0x300, bias, Int(o));
      Float v = product + b;
      if (use_relu) v = map(v, relu);
      w.compute(kFcStore);
      w.store(0x310, out, Int(o), v);
    };
    host.launch(std::move(k));
  }

  Net net_;
  int64_t cap_;
  uint64_t sm_regs_;
  uint64_t seed_;
  Arr in_, w1_, b1_, conv1_, lrn1_, pool1_, w2_, b2_, conv2_, lrn2_, pool2_, w3_, b3_, conv3_, w4_, b4_,
      conv4_, w5_, b5_, conv5_, pool5_, w6_, b6_, fc6_, w7_, b7_, fc7_, w8_, b8_, fc8_;
};

}  // namespace

void register_tango_alexnet(PortRegistry& r) {
  PortInfo p;
  p.name = "tango/alexnet";
  p.suite = "Tango (Karki et al., ISPASS 2019)";
  p.source =
      "gitlab.com/Tango-DNNbench/Tango, GPU/AlexNet (CUDA, by A. Karki): alexnet_host.cu and an_kernel.cu, "
      "read "
      "from public copies of the two files in the code index (author header intact, unmodified launch code; "
      "the "
      "GitLab repository itself is not reachable from here). comsys-lab/Multi-Tenant-GPU's "
      "basic_models/Alexnet/AlexNet_ori.cu is a later rewrite (224x224 input, 64-192-384-256-256 channels, "
      "no "
      "LRN), not followed";
  p.input =
      "The source's one 227x227x3 image (NUM = 1), 22 launches. Original channels 96, 256, 384, 384, 256 and "
      "FC 4096, 4096, 1000: 160.9 M warp memory instructions and 250 MB (FC6's weights alone 151 MB, every "
      "word read once by a one-lane load), far past a minute. Default div = 8: every channel count and both "
      "hidden FC widths divided by 8 (12, 32, 48, 48, 32; 512, 512; 1000 classes kept), spatial sizes, "
      "kernels, grids' shape and per-thread work per input map unchanged: 4.16 M warp memory instructions, "
      "6.6 MiB (46 s wall, 16 CPU s on fermi). `div` 1, 2, 4, 8, 16 (1 restores the original); `ctas` caps "
      "every grid (the first maps / neurons of each layer, for tests); `sm_regs` (32768, Fermi's) caps "
      "registers per thread so that one CTA fits (1024 x 62 does not: 32 for the 32x32 tiles, 44 for "
      "27x27); 65536 keeps the ptxas counts. The data files (input.txt, conv1..5, fc6..8, bias1..8) are "
      "replaced by seeded equivalents (splitmix64 from `seed`): image uniform in +-1, weights uniform in "
      "+-2/sqrt(fan-in), biases in +-0.1. Addresses do not depend on the data";
  p.papers = "adaptive LLC (004, Table 2: AN)";
  p.kernels =
      "executeFirstLayer x 4, executelrnNormCuda_split x 4, executepoolingCuda x 3, execute3DconvolutionCuda "
      "x 4, execute3Dconvolutiongroup2Cuda x 3, executelrnNormCuda, executeFCLayer x 3";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const tango::NetSize n = tango::read_net_size(s, "tango/alexnet", 8, 16, 4096, "1, 2, 4, 8 or 16");
    return std::make_unique<AlexNet>(n.div, n.ctas, n.sm_regs, n.seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
