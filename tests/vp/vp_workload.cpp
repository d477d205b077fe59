#include "tests/vp/vp_workload.h"

#include <vector>

namespace gms::test {

namespace {

class InstStream : public WarpStream {
 public:
  explicit InstStream(std::vector<WarpInst> insts) : insts_(std::move(insts)) {}
  bool next(WarpInst& out) override {
    if (i_ == insts_.size()) return false;
    out = insts_[i_++];
    return true;
  }

 private:
  std::vector<WarpInst> insts_;
  size_t i_ = 0;
};

WarpInst line_inst(MemKind kind, uint64_t line, uint64_t pc) {
  WarpInst w;
  w.pc = pc;
  w.kind = kind;
  w.active_mask = 0xffffffffu;
  w.width = 4;
  for (unsigned l = 0; l < kWarpSize; ++l) w.addr[l] = line + 4 * l;
  return w;
}

class VectorKernel : public KernelSource {
 public:
  VectorKernel(uint64_t src, uint64_t dst, uint32_t ctas, bool store) : src_(src), dst_(dst), store_(store) {
    info_.name = "vector";
    info_.num_ctas = ctas;
    info_.threads_per_cta = kWarpSize;
  }
  const KernelInfo& info() const override { return info_; }
  std::unique_ptr<CtaWork> next_cta() override {
    if (next_ == info_.num_ctas) return nullptr;
    auto cta = std::make_unique<CtaWork>();
    cta->cta_id = next_;
    const uint64_t off = uint64_t(next_++) * 128;
    std::vector<WarpInst> insts{line_inst(MemKind::Load, src_ + off, 0x10)};
    if (store_) insts.push_back(line_inst(MemKind::Store, dst_ + off, 0x20));
    cta->warps.push_back(std::make_unique<InstStream>(std::move(insts)));
    return cta;
  }

 private:
  uint64_t src_, dst_;
  bool store_;
  KernelInfo info_;
  uint32_t next_ = 0;
};

}  // namespace

std::unique_ptr<KernelSource> VectorKernelWorkload::next_kernel() {
  if (given_) return nullptr;
  given_ = true;
  return std::make_unique<VectorKernel>(src_, dst_, ctas_, store_);
}

}  // namespace gms::test
