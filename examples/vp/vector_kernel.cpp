#include "vector_kernel.h"

#include <utility>
#include <vector>

namespace {

// A warp's instructions, in program order.
class WarpProgram : public gms::WarpStream {
 public:
  explicit WarpProgram(std::vector<gms::WarpInst> insts) : insts_(std::move(insts)) {}
  bool next(gms::WarpInst& out) override {
    if (next_ == insts_.size()) return false;
    out = insts_[next_++];
    return true;
  }

 private:
  std::vector<gms::WarpInst> insts_;
  size_t next_ = 0;
};

// 32 lanes, 4 bytes each: one whole 128 B line.
gms::WarpInst line_access(gms::MemKind kind, uint64_t line, uint64_t pc) {
  gms::WarpInst w;
  w.pc = pc;
  w.kind = kind;
  w.active_mask = 0xffffffffu;
  w.width = 4;
  for (unsigned lane = 0; lane < gms::kWarpSize; ++lane) w.addr[lane] = line + 4 * lane;
  return w;
}

class VectorKernelSource : public gms::KernelSource {
 public:
  VectorKernelSource(const std::string& name, uint64_t src, uint64_t dst, uint32_t lines, bool store)
      : src_(src), dst_(dst), store_(store) {
    info_.name = name;
    info_.num_ctas = lines;
    info_.threads_per_cta = gms::kWarpSize;
  }
  const gms::KernelInfo& info() const override { return info_; }
  std::unique_ptr<gms::CtaWork> next_cta() override {
    if (next_ == info_.num_ctas) return nullptr;
    auto cta = std::make_unique<gms::CtaWork>();
    cta->cta_id = next_;
    const uint64_t offset = uint64_t(next_++) * 128;
    std::vector<gms::WarpInst> insts{line_access(gms::MemKind::Load, src_ + offset, 0x100)};
    if (store_) insts.push_back(line_access(gms::MemKind::Store, dst_ + offset, 0x108));
    cta->warps.push_back(std::make_unique<WarpProgram>(std::move(insts)));
    return cta;
  }

 private:
  uint64_t src_, dst_;
  bool store_;
  gms::KernelInfo info_;
  uint32_t next_ = 0;
};

}  // namespace

VectorKernel::VectorKernel(std::string name, uint64_t src, uint64_t dst, uint32_t lines, bool store)
    : name_(std::move(name)), src_(src), dst_(dst), lines_(lines), store_(store) {}

std::unique_ptr<gms::KernelSource> VectorKernel::next_kernel() {
  if (launched_) return nullptr;
  launched_ = true;
  return std::make_unique<VectorKernelSource>(name_, src_, dst_, lines_, store_);
}

void AccessLog::on_store(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) stored[addr + i] = data[i];
}

void AccessLog::on_load(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) loaded[addr + i] = data[i];
}
