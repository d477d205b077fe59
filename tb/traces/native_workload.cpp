#include "tb/traces/native_workload.h"

#include <vector>

#include "models/common/bounded_input.h"

namespace gms {

bool PackedWarpStream::next(TraceInst& out) {
  if (done_ == warp_.count) {
    warp_.bytes = {};  // the warp is done: give its memory back
    return false;
  }
  const uint8_t* base = warp_.bytes.data();
  SpanSource src(base + pos_, base + warp_.bytes.size());
  decode_inst(src, st_, out);
  pos_ = size_t(src.pos() - base);
  ++done_;
  return true;
}

bool PackedWarpStream::next(WarpInst& out) {
  if (!next(t_)) return false;
  out = t_.inst;
  return true;
}

struct NativeTraceWorkload::State {
  std::unique_ptr<NativeTraceSource> src;
  KernelInfo info;
  uint32_t next_cta = 0;
  uint64_t kernel_seq = 0;  // which kernel the sources may read from
  std::vector<PackedWarp> warps;

  std::unique_ptr<CtaWork> read_cta() {
    if (next_cta == info.num_ctas) return nullptr;
    auto cta = std::make_unique<CtaWork>();
    cta->cta_id = next_cta;
    src->read_cta(next_cta, info.warps_per_cta(), warps);
    ++next_cta;
    for (PackedWarp& w : warps) cta->warps.push_back(std::make_unique<PackedWarpStream>(std::move(w)));
    return cta;
  }
};

namespace {

class NativeKernel : public KernelSource {
 public:
  NativeKernel(std::shared_ptr<NativeTraceWorkload::State> st) : st_(std::move(st)), seq_(st_->kernel_seq) {}
  const KernelInfo& info() const override { return info_; }
  std::unique_ptr<CtaWork> next_cta() override {
    if (st_->kernel_seq != seq_) return nullptr;  // the workload moved on to a later kernel
    return st_->read_cta();
  }

 private:
  std::shared_ptr<NativeTraceWorkload::State> st_;
  uint64_t seq_;
  KernelInfo info_ = st_->info;
};

}  // namespace

NativeTraceWorkload::NativeTraceWorkload(const std::string& path) : st_(std::make_shared<State>()) {
  st_->src = open_native_trace(path);
}

NativeTraceWorkload::NativeTraceWorkload(std::unique_ptr<InputFile> in) : st_(std::make_shared<State>()) {
  st_->src = open_native_trace(std::move(in));
}

std::string NativeTraceWorkload::name() const {
  return st_->src->workload_name();
}

std::unique_ptr<KernelSource> NativeTraceWorkload::next_kernel() {
  if (st_->kernel_seq > 0)
    while (st_->read_cta()) {
    }
  ++st_->kernel_seq;
  st_->next_cta = 0;
  if (!st_->src->next_kernel(st_->info)) {
    st_->info.num_ctas = 0;
    return nullptr;
  }
  return std::make_unique<NativeKernel>(st_);
}

}  // namespace gms
