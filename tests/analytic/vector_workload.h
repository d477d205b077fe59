// A workload spelled out in the test: kernels of CTAs of warps of instructions, each instruction the
// addresses of its active lanes (lane i = the i-th address).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/analytic/rd_model.h"
#include "models/common/workload.h"

namespace gms::test {

struct VInst {
  std::vector<uint64_t> addrs;
  bool store = false;
  uint8_t width = 4;
};
using VWarp = std::vector<VInst>;
struct VCta {
  std::vector<VWarp> warps;
};
struct VKernel {
  std::string name = "k";
  uint32_t threads_per_cta = 32;
  std::vector<VCta> ctas;
};

class VectorWorkload : public Workload {
 public:
  explicit VectorWorkload(std::vector<VKernel> ks) : ks_(std::move(ks)) {}
  std::string name() const override { return "vector"; }
  std::unique_ptr<KernelSource> next_kernel() override {
    if (next_ >= ks_.size()) return nullptr;
    return std::make_unique<Source>(ks_[next_++]);
  }

 private:
  struct Stream : WarpStream {
    const VWarp* w;
    size_t i = 0;
    explicit Stream(const VWarp* x) : w(x) {}
    bool next(WarpInst& out) override {
      if (i >= w->size()) return false;
      const VInst& v = (*w)[i++];
      out = WarpInst();
      out.kind = v.store ? MemKind::Store : MemKind::Load;
      out.width = v.width;
      for (size_t l = 0; l < v.addrs.size(); ++l) {
        out.addr[l] = v.addrs[l];
        out.active_mask |= 1u << l;
      }
      return true;
    }
  };
  struct Source : KernelSource {
    const VKernel& k;
    KernelInfo inf;
    size_t c = 0;
    explicit Source(const VKernel& x) : k(x) {
      inf.name = k.name;
      inf.num_ctas = uint32_t(k.ctas.size());
      inf.threads_per_cta = k.threads_per_cta;
    }
    const KernelInfo& info() const override { return inf; }
    std::unique_ptr<CtaWork> next_cta() override {
      if (c >= k.ctas.size()) return nullptr;
      auto w = std::make_unique<CtaWork>();
      w->cta_id = uint32_t(c);
      for (const auto& wp : k.ctas[c].warps) w->warps.push_back(std::make_unique<Stream>(&wp));
      ++c;
      return w;
    }
  };
  std::vector<VKernel> ks_;
  size_t next_ = 0;
};

// Element e of the paper's examples: 4 elements per 128 B line, so element e lives at e * 32.
inline uint64_t elem(uint64_t e) {
  return e * 32;
}

// Runs the model on the kernels and returns every access it classified, in order (result in *out).
inline std::vector<RdAccess> run_recorded(const RdParams& p, std::vector<VKernel> ks,
                                          RdResult* out = nullptr) {
  std::vector<RdAccess> rec;
  RdModel m(p);
  m.set_observer([&](const RdAccess& a) { rec.push_back(a); });
  VectorWorkload w(std::move(ks));
  RdResult r = m.run(w);
  if (out) *out = r;
  return rec;
}

}  // namespace gms::test
