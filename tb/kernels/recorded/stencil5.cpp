// 2D 5-point stencil with clamped borders, as recorded on the H100 (../shared/traces/h100-sample, kernel-6:
// a 1024 x 1280 float grid, CTAs of 32 x 8 threads). Thread (x, y) loads its centre, west, east, north and
// south neighbours in that order (the recorded order; a neighbour outside the grid is clamped to the
// border) and stores their mean to out[y][x].
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

class Stencil5 : public KernelPort {
 public:
  Stencil5(uint32_t w, uint32_t h) : w_(w), h_(h) {}
  void setup(DeviceMemory& mem) override {
    in_ = mem.alloc<float>("in", size_t(w_) * h_);
    out_ = mem.alloc<float>("out", size_t(w_) * h_);
    for (size_t i = 0; i < in_.size(); ++i) in_[i] = float((i * 2654435761u) % 1024) / 16.0f;
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "stencil5";
    k.block = {32, 8, 1};
    k.grid = {(w_ + 31) / 32, (h_ + 7) / 8, 1};
    k.regs_per_thread = 22;  // the recorded kernel's -nregs
    k.body = [this](Warp& wp) {
      const Int x = wp.global_x(), y = wp.global_y();
      const int64_t W = w_, H = h_;
      wp.if_(x < W && y < H, [&] {
        const Int row = y * W;
        const Float c = wp.load(0x170, in_, row + x);
        const Float west = wp.load(0x180, in_, row + max(x - 1, int64_t(0)));
        const Float east = wp.load(0x190, in_, row + min(x + 1, W - 1));
        const Float north = wp.load(0x1a0, in_, max(y - 1, int64_t(0)) * W + x);
        const Float south = wp.load(0x1b0, in_, min(y + 1, H - 1) * W + x);
        wp.store(0x1c0, out_, row + x, (c + west + east + north + south) * 0.2f);
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    for (int64_t y = 0; y < int64_t(h_); ++y)
      for (int64_t x = 0; x < int64_t(w_); ++x) {
        auto at = [&](int64_t yy, int64_t xx) {
          yy = std::min<int64_t>(std::max<int64_t>(yy, 0), h_ - 1);
          xx = std::min<int64_t>(std::max<int64_t>(xx, 0), w_ - 1);
          return in_[size_t(yy * w_ + xx)];
        };
        const float want = (at(y, x) + at(y, x - 1) + at(y, x + 1) + at(y - 1, x) + at(y + 1, x)) * 0.2f;
        if (out_[size_t(y * w_ + x)] != want)
          return "out[" + std::to_string(y) + "][" + std::to_string(x) +
                 "] = " + std::to_string(out_[size_t(y * w_ + x)]) + ", expected " + std::to_string(want);
      }
    return "";
  }

 private:
  uint32_t w_, h_;
  DeviceArray<float> in_, out_;
};

}  // namespace

void register_recorded_stencil5(PortRegistry& r) {
  PortInfo p;
  p.name = "recorded/stencil5";
  p.suite = "recorded on H100";
  p.source = "../shared/traces/h100-sample/README.md, kernel-6";
  p.input = "1024 x 1280 floats (the recording's)";
  p.papers = "-";
  p.kernels = "stencil5";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t w = s.get_uint("width", 1024, 1, 65536);
    const uint64_t h = s.get_uint("height", 1280, 1, 65536);
    return std::make_unique<Stencil5>(uint32_t(w), uint32_t(h));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
