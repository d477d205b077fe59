#include "tb/checker/program_footprints.h"

#include <algorithm>
#include <utility>

#include "models/common/config.h"
#include "models/common/mem_req.h"
#include "models/common/text_excerpt.h"

namespace gms {

namespace {

// Lines [first, end) that bytes [begin, end) touch (in line units, so the last line of the address space
// fits).
std::pair<uint64_t, uint64_t> to_lines(const AddressRange& r) {
  return {r.begin / kLineBytes, r.end / kLineBytes + (r.end % kLineBytes != 0)};
}

class GuardedWarp : public WarpStream {
 public:
  GuardedWarp(std::unique_ptr<WarpStream> inner, ProgramFootprints& f, unsigned program)
      : inner_(std::move(inner)), f_(f), program_(program) {}
  bool next(WarpInst& out) override {
    if (!inner_->next(out)) return false;
    if (out.kind == MemKind::Barrier) return true;  // no memory
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!(out.active_mask >> lane & 1)) continue;
      const uint64_t line = out.addr[lane] / kLineBytes;
      if (line == last_line_ && (out.addr[lane] + out.width - 1) / kLineBytes == line) continue;
      f_.touch(program_, out.addr[lane], out.width);
      last_line_ = line;
    }
    return true;
  }

 private:
  std::unique_ptr<WarpStream> inner_;
  ProgramFootprints& f_;
  unsigned program_;
  uint64_t last_line_ = UINT64_MAX;  // lanes of a warp mostly share lines: check each line once
};

class GuardedKernel : public KernelSource {
 public:
  GuardedKernel(std::unique_ptr<KernelSource> inner, ProgramFootprints& f, unsigned program)
      : inner_(std::move(inner)), f_(f), program_(program) {}
  const KernelInfo& info() const override { return inner_->info(); }
  std::unique_ptr<CtaWork> next_cta() override {
    std::unique_ptr<CtaWork> cta = inner_->next_cta();
    if (cta)
      for (auto& w : cta->warps) w = std::make_unique<GuardedWarp>(std::move(w), f_, program_);
    return cta;
  }

 private:
  std::unique_ptr<KernelSource> inner_;
  ProgramFootprints& f_;
  unsigned program_;
};

class GuardedWorkload : public Workload {
 public:
  GuardedWorkload(std::unique_ptr<Workload> inner, std::shared_ptr<ProgramFootprints> f, unsigned program)
      : inner_(std::move(inner)), f_(std::move(f)), program_(program) {}
  std::string name() const override { return inner_->name(); }
  std::unique_ptr<KernelSource> next_kernel() override {
    std::unique_ptr<KernelSource> k = inner_->next_kernel();
    return k ? std::make_unique<GuardedKernel>(std::move(k), *f_, program_) : nullptr;
  }
  bool footprint(std::vector<AddressRange>& out) const override { return inner_->footprint(out); }

 private:
  std::unique_ptr<Workload> inner_;
  std::shared_ptr<ProgramFootprints> f_;
  unsigned program_;
};

}  // namespace

std::string to_string(const AddressRange& r) {
  return "[" + to_hex(r.begin) + ", " + to_hex(r.end) + ")";
}

std::optional<AddressRange> first_overlap(const std::vector<AddressRange>& a,
                                          const std::vector<AddressRange>& b) {
  std::optional<AddressRange> best;
  for (const AddressRange& ra : a) {
    if (ra.end <= ra.begin) continue;
    for (const AddressRange& rb : b) {
      if (rb.end <= rb.begin) continue;
      const auto la = to_lines(ra), lb = to_lines(rb);
      const uint64_t first = std::max(la.first, lb.first), end = std::min(la.second, lb.second);
      if (first >= end || (best && first * kLineBytes >= best->begin)) continue;
      // The end of the last line of the address space is 2^64: shown as 0xffffffffffffffff.
      best = AddressRange{first * kLineBytes, end > UINT64_MAX / kLineBytes ? UINT64_MAX : end * kLineBytes};
    }
  }
  return best;
}

ProgramFootprints::ProgramFootprints(std::string source, std::vector<std::string> names)
    : source_(std::move(source)), names_(std::move(names)) {}

void ProgramFootprints::touch(unsigned program, uint64_t addr, unsigned bytes) {
  if (bytes == 0) return;
  const uint64_t first = addr / kLineBytes;
  const uint64_t last =
      addr > UINT64_MAX - (bytes - 1) ? UINT64_MAX / kLineBytes : (addr + bytes - 1) / kLineBytes;
  for (uint64_t line = first;; ++line) {
    uint16_t& owner = owner_[line / kLinesPerPage][line % kLinesPerPage];
    if (owner == 0) {
      owner = uint16_t(program + 1);
    } else if (owner != program + 1) {
      const uint64_t b = line * kLineBytes;
      throw ConfigError(source_ + ": program " + names_.at(program) + " accesses the line " +
                        to_string({b, b + kLineBytes}) + " that program " + names_.at(owner - 1u) +
                        " also uses: programs must use disjoint memory");
    }
    if (line == last) break;
  }
}

std::unique_ptr<Workload> guard_footprint(std::unique_ptr<Workload> inner,
                                          std::shared_ptr<ProgramFootprints> footprints, unsigned program) {
  return std::make_unique<GuardedWorkload>(std::move(inner), std::move(footprints), program);
}

}  // namespace gms
