// Row copy by column walks, as recorded on the H100 (../shared/traces/h100-colcopy, kernel-9): one CTA of
// 128 threads; thread t copies row t of a row-major 128 x 1024 float matrix, `for (x = 0; x < 1024; x++)
// out[t*1024 + x] = in[t*1024 + x]`, so each warp instruction touches one word of 32 lines 4 KiB apart.
// The store depends on the load.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

class ColCopy : public KernelPort {
 public:
  ColCopy(uint32_t rows, uint32_t cols, uint32_t block) : rows_(rows), cols_(cols), block_(block) {}
  void setup(DeviceMemory& mem) override {
    in_ = mem.alloc<float>("in", size_t(rows_) * cols_);
    out_ = mem.alloc<float>("out", size_t(rows_) * cols_);
    for (size_t i = 0; i < in_.size(); ++i) in_[i] = float(i % 4099);
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "colcopy_rows";
    k.block = {block_, 1, 1};
    k.grid = {(rows_ + block_ - 1) / block_, 1, 1};
    k.regs_per_thread = 24;  // the recorded kernel's -nregs
    k.body = [this](Warp& w) {
      const Int t = w.global_x();
      const int64_t C = cols_;
      w.if_(t < int64_t(rows_), [&] {
        w.for_(0, C, 1, [&](const Int& x) {
          const Float v = w.load(0x230, in_, t * C + x);
          w.store(0x240, out_, t * C + x, v);
        });
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    for (size_t i = 0; i < in_.size(); ++i)
      if (out_[i] != in_[i]) return "out[" + std::to_string(i) + "] = " + std::to_string(out_[i]);
    return "";
  }

 private:
  uint32_t rows_, cols_, block_;
  DeviceArray<float> in_, out_;
};

}  // namespace

void register_recorded_colcopy(PortRegistry& r) {
  PortInfo p;
  p.name = "recorded/colcopy";
  p.suite = "recorded on H100";
  p.source = "../shared/traces/h100-colcopy/README.md, kernel-9";
  p.input = "128 x 1024 floats, one CTA of 128 threads (the recording's)";
  p.papers = "-";
  p.kernels = "colcopy_rows";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t rows = s.get_uint("rows", 128, 1, uint64_t(1) << 24);
    const uint64_t cols = s.get_uint("cols", 1024, 1, uint64_t(1) << 24);
    const uint64_t block = s.get_uint("block", 128, 1, 1024);
    return std::make_unique<ColCopy>(uint32_t(rows), uint32_t(cols), uint32_t(block));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
