// Vector add, c[i] = a[i] + b[i], as recorded on the H100 (../shared/traces/h100-sample, kernel-2: n =
// 2,621,440 floats, 10,240 CTAs of 256 threads): `i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n)`
// load a[i], load b[i], store c[i]. PCs are the recorded ones.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

class VecAdd : public KernelPort {
 public:
  VecAdd(uint64_t n, uint32_t block) : n_(n), block_(block) {}
  void setup(DeviceMemory& mem) override {
    a_ = mem.alloc<float>("a", n_);
    b_ = mem.alloc<float>("b", n_);
    c_ = mem.alloc<float>("c", n_);
    for (uint64_t i = 0; i < n_; ++i) {
      a_[i] = float(i % 1000) * 0.5f;
      b_[i] = float(i % 7) - 3.0f;
    }
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "vecadd";
    k.block = {block_, 1, 1};
    k.grid = {uint32_t((n_ + block_ - 1) / block_), 1, 1};
    k.regs_per_thread = 12;  // the recorded kernel's -nregs
    k.body = [this](Warp& w) {
      const Int i = w.global_x();
      w.if_(i < int64_t(n_), [&] {
        const Float a = w.load(0x30, a_, i);
        const Float b = w.load(0x40, b_, i);
        w.store(0x50, c_, i, a + b);
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    for (uint64_t i = 0; i < n_; ++i)
      if (c_[i] != a_[i] + b_[i]) return "c[" + std::to_string(i) + "] = " + std::to_string(c_[i]);
    return "";
  }

 private:
  uint64_t n_;
  uint32_t block_;
  DeviceArray<float> a_, b_, c_;
};

}  // namespace

void register_recorded_vecadd(PortRegistry& r) {
  PortInfo p;
  p.name = "recorded/vecadd";
  p.suite = "recorded on H100";
  p.source = "../shared/traces/h100-sample/README.md, kernel-2";
  p.input = "n = 2,621,440 floats (the recording's)";
  p.papers = "-";
  p.kernels = "vecadd";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t n = s.get_uint("n", 2621440, 1, uint64_t(1) << 32);
    const uint64_t block = s.get_uint("block", 256, 1, 1024);
    return std::make_unique<VecAdd>(n, uint32_t(block));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
