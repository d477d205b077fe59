#include "tb/traces/kernel_counts.h"

#include <stdexcept>
#include <vector>

#include "models/coalescing/coalescer.h"

namespace gms {

MemInstCounters::MemInstCounters(StatGroup& g)
    : inst_ld(g.counter(
          "inst_executed_ld",
          "warp-level global load instructions (Nsight: l1tex__t_requests_pipe_lsu_mem_global_op_ld)",
          "instructions")),
      inst_st(g.counter(
          "inst_executed_st",
          "warp-level global store instructions (Nsight: l1tex__t_requests_pipe_lsu_mem_global_op_st)",
          "instructions")),
      lines_ld(g.counter("line_requests_ld", "coalesced 128 B line requests of the loads", "requests")),
      lines_st(g.counter("line_requests_st", "coalesced 128 B line requests of the stores", "requests")),
      sectors_ld(g.counter(
          "sectors_ld", "32 B sectors the loads touch (Nsight: l1tex__t_sectors_pipe_lsu_mem_global_op_ld)",
          "sectors")),
      sectors_st(g.counter(
          "sectors_st", "32 B sectors the stores touch (Nsight: l1tex__t_sectors_pipe_lsu_mem_global_op_st)",
          "sectors")) {}

struct CountingWorkload::Shared {
  std::unique_ptr<StatGroup> group;
  std::unique_ptr<MemInstCounters> total;
  std::vector<std::unique_ptr<StatGroup>> kernel_groups;
  std::vector<std::unique_ptr<MemInstCounters>> kernels;
  Coalescer coalescer;

  void count(const WarpInst& in, MemInstCounters& k) {
    if (in.kind == MemKind::Barrier) return;  // not a memory instruction
    const auto& lines = coalescer.run(in);
    uint64_t sectors = 0;
    for (const LineRequest& r : lines) sectors += unsigned(__builtin_popcount(r.chunk_mask));
    MemInstCounters* sets[2] = {&k, total.get()};
    for (MemInstCounters* c : sets) {
      if (in.kind == MemKind::Store) {
        ++c->inst_st;
        c->lines_st += lines.size();
        c->sectors_st += sectors;
      } else {
        ++c->inst_ld;
        c->lines_ld += lines.size();
        c->sectors_ld += sectors;
      }
    }
  }
};

namespace {

using Shared = CountingWorkload::Shared;

class CountingWarp : public WarpStream {
 public:
  CountingWarp(std::unique_ptr<WarpStream> inner, std::shared_ptr<Shared> sh, MemInstCounters* k)
      : inner_(std::move(inner)), sh_(std::move(sh)), k_(k) {}
  bool next(WarpInst& out) override {
    if (!inner_->next(out)) return false;
    sh_->count(out, *k_);
    return true;
  }

 private:
  std::unique_ptr<WarpStream> inner_;
  std::shared_ptr<Shared> sh_;
  MemInstCounters* k_;
};

class CountingKernel : public KernelSource {
 public:
  CountingKernel(std::unique_ptr<KernelSource> inner, std::shared_ptr<Shared> sh, MemInstCounters* k)
      : inner_(std::move(inner)), sh_(std::move(sh)), k_(k) {}
  const KernelInfo& info() const override { return inner_->info(); }
  std::unique_ptr<CtaWork> next_cta() override {
    auto cta = inner_->next_cta();
    if (cta)
      for (auto& w : cta->warps) w = std::make_unique<CountingWarp>(std::move(w), sh_, k_);
    return cta;
  }

 private:
  std::unique_ptr<KernelSource> inner_;
  std::shared_ptr<Shared> sh_;
  MemInstCounters* k_;
};

}  // namespace

CountingWorkload::CountingWorkload(std::unique_ptr<Workload> inner)
    : inner_(std::move(inner)), shared_(std::make_shared<Shared>()) {}

CountingWorkload::CountingWorkload(std::unique_ptr<Workload> inner, StatGroup& parent)
    : CountingWorkload(std::move(inner)) {
  attach(parent);
}

CountingWorkload::~CountingWorkload() = default;

void CountingWorkload::attach(StatGroup& parent) {
  if (shared_->group) throw std::logic_error("CountingWorkload attached twice");
  shared_->group = std::make_unique<StatGroup>(
      parent, "workload",
      "memory instructions of the workload as issued, per kernel (k0, k1, ...) and in total");
  shared_->total = std::make_unique<MemInstCounters>(*shared_->group);
}

StatGroup& CountingWorkload::stats() {
  if (!shared_->group) throw std::logic_error("CountingWorkload: attach() first");
  return *shared_->group;
}

std::unique_ptr<KernelSource> CountingWorkload::next_kernel() {
  if (!shared_->group) throw std::logic_error("CountingWorkload: attach() before the first kernel");
  auto k = inner_->next_kernel();
  if (!k) return nullptr;
  Shared& s = *shared_;
  s.kernel_groups.push_back(
      std::make_unique<StatGroup>(*s.group, "k" + std::to_string(s.kernels.size()), k->info().name));
  s.kernels.push_back(std::make_unique<MemInstCounters>(*s.kernel_groups.back()));
  return std::make_unique<CountingKernel>(std::move(k), shared_, s.kernels.back().get());
}

}  // namespace gms
