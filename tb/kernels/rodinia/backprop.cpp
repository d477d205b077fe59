// Rodinia 3.1 backprop (one training step of a 3-layer perceptron, in x 16 x 1, CUDA): bpnn_layerforward_CUDA
// (each 16 x 16 block multiplies 16 input units by their 16 x 16 slice of the input->hidden weights and
// reduces the products over its 16 rows in shared memory: a partial sum per hidden unit and block), then on
// the host the hidden units (the blocks' partial sums), the output layer, its error and the hidden error,
// then bpnn_adjust_weights_cuda (every input->hidden weight and its previous change updated with the hidden
// deltas; block (0, 0)'s first row also updates the bias row). Before the second kernel the host copies the
// original weights back over the first kernel's reduction results, as the benchmark does. Grid 1 x in/16.
#include <cmath>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

constexpr int64_t kHeight = 16, kWidth = 16;  // backprop.h HEIGHT, WIDTH
constexpr int64_t kHid = 16, kOut = 1;        // bpnn_create(layer_size, 16, 1)
constexpr double kEta = 0.3, kMomentum = 0.3;

// ptxas -v (nvcc 13.0, -arch=sm_75; sm_70 is no longer supported): registers per thread, static shared
// memory per CTA.
constexpr uint32_t kRegsForward = 20, kShmemForward = 1088, kRegsAdjust = 28;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access or barrier on the path taken,
// shared-memory accesses excluded (the port's count one each). The reduction loop is unrolled (4 steps).
constexpr uint32_t kGapInput = 17, kGapSync1 = 1, kGapWeight = 9, kGapSync2 = 5, kGapSync3 = 1;
constexpr uint32_t kGapReduceStep = 9, kGapStoreWeight = 0, kGapSync4 = 0, kGapPartial = 5;
// bpnn_adjust_weights_cuda: the PTX reloads delta, ly and oldw after the store to w (they may alias).
constexpr uint32_t kGapDelta = 20, kGapLy = 5, kGapOldw = 4, kGapW = 4, kGapStoreW = 3;
constexpr uint32_t kGapDelta2 = 0, kGapLy2 = 2, kGapOldw2 = 1, kGapStoreOldw = 4, kGapSync = 0;
constexpr uint32_t kGapBiasDelta = 3, kGapBiasOldw = 3, kGapBiasW = 4, kGapBiasStoreW = 3;
constexpr uint32_t kGapBiasDelta2 = 0, kGapBiasOldw2 = 1, kGapBiasStoreOldw = 4;

float squash(float x) {
  return float(1.0 / (1.0 + std::exp(-x)));
}

class Backprop : public KernelPort {
 public:
  explicit Backprop(int64_t in) : in_(in), blocks_(in / 16) {}

  void setup(DeviceMemory& mem) override {
    const size_t nw = size_t((in_ + 1) * (kHid + 1));
    input_ = mem.alloc<float>("input_cuda", size_t(in_ + 1));
    output_hidden_ = mem.alloc<float>("output_hidden_cuda", size_t(kHid + 1));
    input_hidden_ = mem.alloc<float>("input_hidden_cuda", nw);
    partial_ = mem.alloc<float>("hidden_partial_sum", size_t(blocks_ * kWidth));
    hidden_delta_ = mem.alloc<float>("hidden_delta_cuda", size_t(kHid + 1));
    prev_weights_ = mem.alloc<float>("input_prev_weights_cuda", nw, 0.0f);
    // bpnn_initialize(7); bpnn_create: input weights, then hidden weights, rand() / RAND_MAX row by row;
    // target 0.1; load(): input units 1..in.
    LibcRand rng(7);
    auto rnd = [&] { return float(rng.rand()) / float(LibcRand::kRandMax); };
    weights_.resize(nw);
    for (auto& x : weights_) x = rnd();
    hidden_weights_.resize(size_t((kHid + 1) * (kOut + 1)));
    for (auto& x : hidden_weights_) x = rnd();
    for (int64_t k = 1; k <= in_; ++k) input_[size_t(k)] = rnd();
    input_hidden_.host() = weights_;
  }

  void run(Launcher& host) override {
    KernelLaunch f;
    f.name = "bpnn_layerforward_CUDA";
    f.grid = {1, uint32_t(blocks_), 1};
    f.block = {uint32_t(kWidth), uint32_t(kHeight), 1};
    f.regs_per_thread = kRegsForward;
    f.shmem_per_cta = kShmemForward;
    f.body = [this](Warp& w) { forward(w); };
    host.launch(std::move(f));

    // The host's part: hidden units from the partial sums, the output layer and the errors.
    const std::vector<float> hidden_delta = host_step(partial_.host());
    for (int64_t j = 0; j <= kHid; ++j) hidden_delta_[size_t(j)] = hidden_delta[size_t(j)];
    input_hidden_.host() = weights_;  // the original weights copied again

    KernelLaunch a;
    a.name = "bpnn_adjust_weights_cuda";
    a.grid = {1, uint32_t(blocks_), 1};
    a.block = {uint32_t(kWidth), uint32_t(kHeight), 1};
    a.regs_per_thread = kRegsAdjust;
    a.body = [this](Warp& w) { adjust(w); };
    host.launch(std::move(a));
  }

  std::string check() const override {
    // bpnn_layerforward_CUDA's partial sums, reduced in the kernel's tree order.
    const int64_t H = kHid + 1;
    std::vector<float> partial(size_t(blocks_ * kWidth));
    for (int64_t by = 0; by < blocks_; ++by)
      for (int64_t tx = 0; tx < kWidth; ++tx) {
        float m[kHeight];
        for (int64_t ty = 0; ty < kHeight; ++ty)
          m[ty] = weights_[size_t(H * kHeight * by + H * ty + tx + 1 + H)] *
                  input_[size_t(kHeight * by + ty + 1)];
        for (int64_t p = 2; p <= kHeight; p *= 2)
          for (int64_t ty = 0; ty < kHeight; ty += p) m[ty] = m[ty] + m[ty + p / 2];
        partial[size_t(by * kHid + tx)] = m[0];
      }
    for (size_t i = 0; i < partial.size(); ++i)
      if (partial_[i] != partial[i])
        return "hidden_partial_sum[" + std::to_string(i) + "] = " + std::to_string(partial_[i]) +
               ", expected " + std::to_string(partial[i]);
    const std::vector<float> delta = host_step(partial);
    std::vector<float> w = weights_, oldw(weights_.size(), 0.0f);
    for (int64_t k = 1; k <= in_; ++k)
      for (int64_t j = 1; j <= kHid; ++j) {
        const size_t i = size_t(k * H + j);
        w[i] = float(w[i] + ((kEta * delta[size_t(j)] * input_[size_t(k)]) + (kMomentum * oldw[i])));
        oldw[i] = float((kEta * delta[size_t(j)] * input_[size_t(k)]) + (kMomentum * oldw[i]));
      }
    for (int64_t j = 1; j <= kHid; ++j) {
      const size_t i = size_t(j);
      w[i] = float(w[i] + ((kEta * delta[i]) + (kMomentum * oldw[i])));
      oldw[i] = float((kEta * delta[i]) + (kMomentum * oldw[i]));
    }
    for (size_t i = 0; i < w.size(); ++i) {
      if (input_hidden_[i] != w[i])
        return "w[" + std::to_string(i) + "] = " + std::to_string(input_hidden_[i]) + ", expected " +
               std::to_string(w[i]);
      if (prev_weights_[i] != oldw[i])
        return "oldw[" + std::to_string(i) + "] = " + std::to_string(prev_weights_[i]) + ", expected " +
               std::to_string(oldw[i]);
    }
    return "";
  }

 private:
  void forward(Warp& w) {
    const int64_t by = w.block_idx().y, H = kHid + 1;
    const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
    const Int index = H * kHeight * by + H * ty + tx + 1 + H;
    const Int index_in = kHeight * by + ty + 1;
    auto& input_node = w.shared<float>(0, size_t(kHeight));
    auto& weight_matrix = w.shared<float>(1, size_t(kHeight * kWidth));
    const Int me = ty * kWidth + tx;

    w.if_(tx == 0, [&] {
      w.compute(kGapInput);
      w.shared_store(input_node, ty, w.load(0x10, input_, index_in));
    });
    w.compute(kGapSync1);
    w.sync();
    w.compute(kGapWeight);
    w.shared_store(weight_matrix, me, w.load(0x20, input_hidden_, index));
    w.compute(kGapSync2);
    w.sync();
    w.shared_store(weight_matrix, me, w.shared_load(weight_matrix, me) * w.shared_load(input_node, ty));
    w.compute(kGapSync3);
    w.sync();
    for (int64_t i = 1; i <= 4; ++i) {  // i <= log2(HEIGHT)
      const int64_t power_two = int64_t(1) << i;
      w.compute(kGapReduceStep);
      w.if_(ty % power_two == 0, [&] {
        w.shared_store(
            weight_matrix, me,
            w.shared_load(weight_matrix, me) + w.shared_load(weight_matrix, me + power_two / 2 * kWidth));
      });
      w.sync();
    }
    w.compute(kGapStoreWeight);
    w.store(0x30, input_hidden_, index, w.shared_load(weight_matrix, me));
    w.compute(kGapSync4);
    w.sync();
    w.if_(tx == 0, [&] {
      w.compute(kGapPartial);
      w.store(0x40, partial_, by * kHid + ty, w.shared_load(weight_matrix, tx * kWidth + ty));
    });
  }

  void adjust(Warp& w) {
    const int64_t by = w.block_idx().y, H = kHid + 1;
    const Int tx = w.thread_idx_x(), ty = w.thread_idx_y();
    const Int index = H * kHeight * by + H * ty + tx + 1 + H;
    const Int index_y = kHeight * by + ty + 1;
    const Int index_x = tx + 1;

    w.compute(kGapDelta);
    Float d = w.load(0x110, hidden_delta_, index_x);
    w.compute(kGapLy);
    Float ly = w.load(0x120, input_, index_y);
    w.compute(kGapOldw);
    Float o = w.load(0x130, prev_weights_, index);
    w.compute(kGapW);
    const Float wv = w.load(0x140, input_hidden_, index);
    w.compute(kGapStoreW);
    w.store(0x150, input_hidden_, index, wv + ((kEta * d * ly) + (kMomentum * o)));
    w.compute(kGapDelta2);
    d = w.load(0x160, hidden_delta_, index_x);
    w.compute(kGapLy2);
    ly = w.load(0x170, input_, index_y);
    w.compute(kGapOldw2);
    o = w.load(0x180, prev_weights_, index);
    w.compute(kGapStoreOldw);
    w.store(0x190, prev_weights_, index, (kEta * d * ly) + (kMomentum * o));
    w.compute(kGapSync);
    w.sync();

    w.if_(ty == 0 && by == 0, [&] {
      w.compute(kGapBiasDelta);
      Float bd = w.load(0x1a0, hidden_delta_, index_x);
      w.compute(kGapBiasOldw);
      Float bo = w.load(0x1b0, prev_weights_, index_x);
      w.compute(kGapBiasW);
      const Float bw = w.load(0x1c0, input_hidden_, index_x);
      w.compute(kGapBiasStoreW);
      w.store(0x1d0, input_hidden_, index_x, bw + ((kEta * bd) + (kMomentum * bo)));
      w.compute(kGapBiasDelta2);
      bd = w.load(0x1e0, hidden_delta_, index_x);
      w.compute(kGapBiasOldw2);
      bo = w.load(0x1f0, prev_weights_, index_x);
      w.compute(kGapBiasStoreOldw);
      w.store(0x200, prev_weights_, index_x, (kEta * bd) + (kMomentum * bo));
    });
  }

  // bpnn_train_cuda between the kernels: hidden units from the partial sums and the bias weights, the
  // hidden -> output layer, the output error (target 0.1) and the hidden deltas (indices 1..16).
  std::vector<float> host_step(const std::vector<float>& partial) const {
    const int64_t H = kHid + 1;
    std::vector<float> hidden(size_t(H), 0.0f), output(size_t(kOut + 1), 0.0f);
    for (int64_t j = 1; j <= kHid; ++j) {
      float sum = 0.0f;
      for (int64_t k = 0; k < blocks_; ++k) sum += partial[size_t(k * kHid + j - 1)];
      sum += weights_[size_t(j)];
      hidden[size_t(j)] = float(1.0 / (1.0 + std::exp(-sum)));
    }
    hidden[0] = 1.0f;  // bpnn_layerforward's thresholding unit
    for (int64_t j = 1; j <= kOut; ++j) {
      float sum = 0.0f;
      for (int64_t k = 0; k <= kHid; ++k)
        sum += hidden_weights_[size_t(k * (kOut + 1) + j)] * hidden[size_t(k)];
      output[size_t(j)] = squash(sum);
    }
    std::vector<float> delta_o(size_t(kOut + 1), 0.0f), delta_h(size_t(H), 0.0f);
    for (int64_t j = 1; j <= kOut; ++j) {
      const float o = output[size_t(j)], t = 0.1f;
      delta_o[size_t(j)] = float(o * (1.0 - o) * (t - o));
    }
    for (int64_t j = 1; j <= kHid; ++j) {
      const float h = hidden[size_t(j)];
      float sum = 0.0f;
      for (int64_t k = 1; k <= kOut; ++k)
        sum += delta_o[size_t(k)] * hidden_weights_[size_t(j * (kOut + 1) + k)];
      delta_h[size_t(j)] = float(h * (1.0 - h) * sum);
    }
    return delta_h;
  }

  int64_t in_, blocks_;
  std::vector<float> weights_, hidden_weights_;  // the input->hidden weights as generated, hidden->output
  DeviceArray<float> input_, output_hidden_, input_hidden_, partial_, hidden_delta_, prev_weights_;
};

}  // namespace

void register_rodinia_backprop(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/backprop";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/backprop/backprop_cuda.cu + backprop_cuda_kernel.cu + "
      "backprop.c + facetrain.c + imagenet.c @ 9c10d3e";
  p.input =
      "weights and inputs from srand(7)/rand() in the benchmark's order (glibc's generator); Rodinia's run "
      "file uses 2,097,152 input units (2 x 142 MiB of weights, 15 M warp memory instructions), the usual "
      "Rodinia input is 65,536; default here 131,072 (two 8.5 MiB weight arrays, about the 18.8 MB paper "
      "004 lists for BP; 11x the fermi LLC), 0.85 M warp memory instructions (1.44 M with the barriers)";
  p.papers = "G-Cache (001, BP), Decoupled L1D (002, BP), H-Xbar LLC (004, BP)";
  p.kernels = "bpnn_layerforward_CUDA, bpnn_adjust_weights_cuda";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t in = s.get_uint("in", 131072, 16, uint64_t(1) << 24);
    if (in % 16) throw ConfigError("rodinia/backprop: in (the input layer size) must be a multiple of 16");
    return std::make_unique<Backprop>(int64_t(in));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
