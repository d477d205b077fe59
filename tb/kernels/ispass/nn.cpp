// ISPASS-2009 NN: a convolutional neural network that recognises handwritten digits, NUM 29x29 images at
// once, layer by layer in four kernels. executeFirstLayer: a CTA of 13x13 threads per (feature map, image),
// each thread a 5x5 window of the image (stride 2) times 25 weights; executeSecondLayer: a CTA of 5x5
// threads per (map of 50, image), 25 window positions over the 6 maps of layer 2; executeThirdLayer and
// executeFourthLayer: single-thread CTAs per (neuron, image), fully connected (1250 and 100 inputs). Every
// CTA of a layer reads the same weights (125,100 floats in layer 3), which is why the benchmark likes a
// private LLC. Each sum is the kernel's fma chain (fma.rn.f32 in its PTX, std::fma here) and the activation
// 1.7159 tanh(2/3 x) is computed in double around a float tanh, as the source's double literals make it;
// the reference uses the same functions, so the layers compare exactly.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 NN_kernel.cu, PTX instructions between global memory instructions (ld.param
// included); the loops' unrolling (layer 1 fully, layer 2 by 2 rotated, layer 3 by 2, layer 4 by 4) kept.
constexpr uint32_t kL1Entry = 15, kL1First = 6, kL1Step = 5, kL1Store = 42;
constexpr uint32_t kL2Entry = 11, kL2First = 20, kL2Odd = 8, kL2Even = 9, kL2Pair = 4, kL2Store = 46;
constexpr uint32_t kL3Entry = 9, kL3First = 11, kL3Even = 9, kL3Odd = 3, kL3Store = 46;
constexpr uint32_t kL4Entry = 9, kL4First = 10, kL4Head = 9, kL4Mid = 4, kL4Last = 3, kL4Store = 47;
// ptxas -v, sm_75 (no shared memory, no barriers).
constexpr uint32_t kL1Regs = 64, kL2Regs = 70, kL3Regs = 61, kL4Regs = 61;

// The kernels' __constant__ window offsets: a 5x5 window in a 29-wide image and in a 13-wide map.
constexpr int64_t kTemplate1[25] = {0,  1,  2,  3,  4,  29, 30, 31,  32,  33,  58,  59, 60,
                                    61, 62, 87, 88, 89, 90, 91, 116, 117, 118, 119, 120};
constexpr int64_t kTemplate2[25] = {0,  1,  2,  3,  4,  13, 14, 15, 16, 17, 26, 27, 28,
                                    29, 30, 39, 40, 41, 42, 43, 52, 53, 54, 55, 56};

float activation(float x) {
  return float(1.7159 * double(std::tanh(float(0.66666667 * double(x)))));
}

Float fma_lanes(const Float& a, const Float& b, const Float& c) {
  Float r{Float::Uninit{}};
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = std::fma(a.v[l], b.v[l], c.v[l]);
  r.deps = a.deps;
  r.deps |= b.deps;
  r.deps |= c.deps;
  return r;
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class NeuralNetwork : public KernelPort {
 public:
  NeuralNetwork(uint32_t num, uint64_t seed) : num_(num), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    l1n_ = mem.alloc<float>("Layer1_Neurons_GPU", size_t(29) * 29 * num_);
    l1w_ = mem.alloc<float>("Layer1_Weights_GPU", 156);
    l2n_ = mem.alloc<float>("Layer2_Neurons_GPU", size_t(13) * 13 * 6 * num_);
    l2w_ = mem.alloc<float>("Layer2_Weights_GPU", 7800);
    l3n_ = mem.alloc<float>("Layer3_Neurons_GPU", size_t(1250) * num_);
    l3w_ = mem.alloc<float>("Layer3_Weights_GPU", 125100);
    l4n_ = mem.alloc<float>("Layer4_Neurons_GPU", size_t(100) * num_);
    l4w_ = mem.alloc<float>("Layer4_Weights_GPU", 1010);
    l5n_ = mem.alloc<float>("Layer5_Neurons_GPU", size_t(10) * num_);
    uint64_t s = seed_;
    auto uniform = [&](float scale) { return scale * (float(splitmix(s) >> 40) / float(1 << 23) - 1.0f); };
    // Weights (the lw*.wei files): uniform in +-1/sqrt(inputs per neuron), so no layer saturates.
    for (size_t i = 0; i < l1w_.size(); ++i) l1w_[i] = uniform(0.2f);
    for (size_t i = 0; i < l2w_.size(); ++i) l2w_[i] = uniform(0.08f);
    for (size_t i = 0; i < l3w_.size(); ++i) l3w_[i] = uniform(0.028f);
    for (size_t i = 0; i < l4w_.size(); ++i) l4w_[i] = uniform(0.1f);
    // Images (t10k-images-idx3-ubyte): 28x28 bytes in a 29x29 frame whose last row and column stay 0, as
    // readIn leaves them; a pixel is ink (128..255) with probability 1/5, else 0; neuron = 1 - byte/256.
    std::vector<uint8_t> image(size_t(29) * 29 * num_, 0);
    for (uint32_t j = 0; j < num_; ++j)
      for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x) {
          const uint64_t r = splitmix(s);
          image[size_t(j) * 841 + size_t(y) * 29 + size_t(x)] =
              r % 5 == 0 ? uint8_t(128 + (r >> 8) % 128) : 0;
        }
    for (size_t i = 0; i < image.size(); ++i) l1n_[i] = float(1.0 - double(float(image[i]) / 256));
  }

  void run(Launcher& host) override {
    KernelLaunch k1;
    k1.name = "executeFirstLayer";
    k1.grid = {6, num_, 1};
    k1.block = {13, 13, 1};
    k1.regs_per_thread = kL1Regs;
    k1.body = [this](Warp& w) {
      const int64_t block_id = w.block_idx().x, image = w.block_idx().y;
      const Int px = w.thread_idx_x(), py = w.thread_idx_y();
      int64_t weight_begin = block_id * 26;
      const Int window_x = px * 2, window_y = py * 2;
      w.compute(kL1Entry);
      Float result = w.load(0x10, l1w_, Int(weight_begin)) + Float(0.0f);
      ++weight_begin;
      for (int i = 0; i < 25; ++i) {
        w.compute(i == 0 ? kL1First : kL1Step);
        const Float n = w.load(0x20, l1n_, window_y * 29 + window_x + kTemplate1[i] + 29 * 29 * image);
        const Float wt = w.load(0x30, l1w_, Int(weight_begin + i));
        result = fma_lanes(n, wt, result);
      }
      w.compute(kL1Store);
      w.store(0x40, l2n_, block_id * 169 + py * 13 + px + 13 * 13 * 6 * image, map(result, activation));
    };
    host.launch(std::move(k1));

    KernelLaunch k2;
    k2.name = "executeSecondLayer";
    k2.grid = {50, num_, 1};
    k2.block = {5, 5, 1};
    k2.regs_per_thread = kL2Regs;
    k2.body = [this](Warp& w) {
      const int64_t block_id = w.block_idx().x, image = w.block_idx().y;
      const Int px = w.thread_idx_x(), py = w.thread_idx_y();
      int64_t weight_begin = block_id * 26 * 6;
      const Int window_x = px * 2, window_y = py * 2;
      w.compute(kL2Entry);
      Float result = w.load(0x110, l2w_, Int(weight_begin)) + Float(0.0f);
      ++weight_begin;
      for (int i = 0; i < 25; ++i) {
        const Int pos = window_x + window_y * 13 + kTemplate2[i] + 13 * 13 * 6 * image;
        for (int m = 0; m < 6; ++m) {  // the six maps of layer 2, 169 neurons apart
          w.compute(m > 0 ? kL2Pair : i == 0 ? kL2First : i % 2 ? kL2Odd : kL2Even);
          const Float n = w.load(0x120 + 0x20 * m, l2n_, pos + 169 * m);
          const Float wt = w.load(0x130 + 0x20 * m, l2w_, Int(weight_begin + i * 6 + m));
          result = fma_lanes(n, wt, result);
        }
      }
      w.compute(kL2Store);
      w.store(0x1e0, l3n_, block_id * 25 + py * 5 + px + 1250 * image, map(result, activation));
    };
    host.launch(std::move(k2));

    KernelLaunch k3;
    k3.name = "executeThirdLayer";
    k3.grid = {100, num_, 1};
    k3.block = {1, 1, 1};
    k3.regs_per_thread = kL3Regs;
    k3.body = [this](Warp& w) {
      const int64_t block_id = w.block_idx().x, image = w.block_idx().y;
      int64_t weight_begin = block_id * 1251;
      w.compute(kL3Entry);
      Float result = w.load(0x210, l3w_, Int(weight_begin)) + Float(0.0f);
      ++weight_begin;
      for (int64_t i = 0; i < 1250; ++i) {
        w.compute(i == 0 ? kL3First : i % 2 ? kL3Odd : kL3Even);
        const Float n = w.load(0x220, l3n_, Int(i + 1250 * image));
        const Float wt = w.load(0x230, l3w_, Int(weight_begin + i));
        result = fma_lanes(n, wt, result);
      }
      w.compute(kL3Store);
      w.store(0x240, l4n_, Int(block_id + 100 * image), map(result, activation));
    };
    host.launch(std::move(k3));

    KernelLaunch k4;
    k4.name = "executeFourthLayer";
    k4.grid = {10, num_, 1};
    k4.block = {1, 1, 1};
    k4.regs_per_thread = kL4Regs;
    k4.body = [this](Warp& w) {
      const int64_t block_id = w.block_idx().x, image = w.block_idx().y;
      int64_t weight_begin = block_id * 101;
      w.compute(kL4Entry);
      Float result = w.load(0x310, l4w_, Int(weight_begin)) + Float(0.0f);
      ++weight_begin;
      for (int64_t i = 0; i < 100; ++i) {
        w.compute(i == 0 ? kL4First : i % 4 == 0 ? kL4Head : i % 4 == 3 ? kL4Last : kL4Mid);
        const Float n = w.load(0x320, l4n_, Int(i + 100 * image));
        const Float wt = w.load(0x330, l4w_, Int(weight_begin + i));
        result = fma_lanes(n, wt, result);
      }
      w.compute(kL4Store);
      w.store(0x340, l5n_, Int(block_id + 10 * image), map(result, activation));
    };
    host.launch(std::move(k4));
  }

  std::string check() const override {
    std::vector<float> l2(l2n_.size()), l3(l3n_.size()), l4(l4n_.size()), l5(l5n_.size());
    for (uint32_t img = 0; img < num_; ++img) {
      for (int map = 0; map < 6; ++map)
        for (int y = 0; y < 13; ++y)
          for (int x = 0; x < 13; ++x) {
            float r = 0.0f + l1w_[size_t(map) * 26];
            for (int i = 0; i < 25; ++i)
              r = std::fma(l1n_[size_t(img) * 841 + size_t(y * 2 * 29 + x * 2 + kTemplate1[i])],
                           l1w_[size_t(map) * 26 + 1 + size_t(i)], r);
            l2[size_t(img) * 1014 + size_t(map * 169 + y * 13 + x)] = activation(r);
          }
      for (int map = 0; map < 50; ++map)
        for (int y = 0; y < 5; ++y)
          for (int x = 0; x < 5; ++x) {
            const size_t wb = size_t(map) * 156;
            float r = 0.0f + l2w_[wb];
            for (int i = 0; i < 25; ++i)
              for (int m = 0; m < 6; ++m)
                r = std::fma(l2[size_t(img) * 1014 + size_t(m * 169 + y * 2 * 13 + x * 2 + kTemplate2[i])],
                             l2w_[wb + 1 + size_t(i * 6 + m)], r);
            l3[size_t(img) * 1250 + size_t(map * 25 + y * 5 + x)] = activation(r);
          }
      for (int n = 0; n < 100; ++n) {
        float r = 0.0f + l3w_[size_t(n) * 1251];
        for (int i = 0; i < 1250; ++i)
          r = std::fma(l3[size_t(img) * 1250 + size_t(i)], l3w_[size_t(n) * 1251 + 1 + size_t(i)], r);
        l4[size_t(img) * 100 + size_t(n)] = activation(r);
      }
      for (int n = 0; n < 10; ++n) {
        float r = 0.0f + l4w_[size_t(n) * 101];
        for (int i = 0; i < 100; ++i)
          r = std::fma(l4[size_t(img) * 100 + size_t(i)], l4w_[size_t(n) * 101 + 1 + size_t(i)], r);
        l5[size_t(img) * 10 + size_t(n)] = activation(r);
      }
    }
    auto compare = [](const char* what, const std::vector<float>& ref, const DeviceArray<float>& a) {
      for (size_t i = 0; i < ref.size(); ++i)
        if (a[i] != ref[i])
          return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(a[i]) + ", expected " +
                 std::to_string(ref[i]);
      return std::string();
    };
    for (const std::string& e : {compare("Layer2_Neurons", l2, l2n_), compare("Layer3_Neurons", l3, l3n_),
                                 compare("Layer4_Neurons", l4, l4n_), compare("Layer5_Neurons", l5, l5n_)})
      if (!e.empty()) return e;
    return "";
  }

 private:
  uint32_t num_;
  uint64_t seed_;
  DeviceArray<float> l1n_, l1w_, l2n_, l2w_, l3n_, l3w_, l4n_, l4w_, l5n_;
};

}  // namespace

void register_ispass_nn(PortRegistry& r) {
  PortInfo p;
  p.name = "ispass/nn";
  p.suite = "GPGPU-Sim ISPASS-2009";
  p.source =
      "github.com/accel-sim/gpu-app-collection @52c11fbc, src/cuda/ispass-2009/NN (NN.cu, NN_kernel.cu)";
  p.input =
      "NUM = 28 images (README.GPGPU-Sim runs 'NN 28'): 4 launches, 4,648 CTAs, 7.54 M warp memory "
      "instructions (fermi: 11 s), 0.90 MB (weights 0.54 MB, shared by every CTA of a layer; images and "
      "layers 12.9 KB an image). The data files (lw1..lw4.wei weights, MNIST t10k-images-idx3-ubyte) are "
      "replaced by seeded equivalents of the same sizes (splitmix64 from `seed`): weights uniform in "
      "+-0.2/0.08/0.028/0.1 per layer, 28x28 images in a 29x29 frame (last row and column 0, as readIn "
      "leaves them) with one pixel in five ink (128..255), neuron = 1 - byte/256. Addresses do not depend on "
      "the data. Paper 004 lists 5.7 MB of shared data (more images); `images` scales the per-image part "
      "(269 K warp instructions an image)";
  p.papers = "H-Xbar LLC (004, NN: private-LLC-friendly)";
  p.kernels = "executeFirstLayer, executeSecondLayer, executeThirdLayer, executeFourthLayer";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t num = s.get_uint("images", 28, 1, 10000);
    const uint64_t seed = s.get_uint("seed", 2009);
    return std::make_unique<NeuralNetwork>(uint32_t(num), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
