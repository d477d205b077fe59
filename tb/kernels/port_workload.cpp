#include "tb/kernels/port_workload.h"

namespace gms::kernels {

uint64_t DeviceMemory::place(uint64_t bytes) {
  constexpr uint64_t kBig = uint64_t(2) << 20, kSmall = 256;
  uint64_t base;
  if (ranges_.size() < placement_.size()) {
    base = placement_[ranges_.size()];
  } else {
    const uint64_t align = bytes >= kBig ? kBig : kSmall;
    base = (next_ + align - 1) / align * align;
  }
  ranges_.push_back({base, base + bytes});
  if (base + bytes > next_) next_ = base + bytes;
  return base;
}

PortWorkload::PortWorkload(std::string name, std::unique_ptr<KernelPort> port, uint64_t base,
                           std::vector<uint64_t> placement)
    : name_(std::move(name)), port_(std::move(port)), mem_(base) {
  mem_.set_placement(std::move(placement));
  port_->setup(mem_);
  host_ = std::make_unique<Fiber>([this] { port_->run(*this); }, rt_.stacks);
}

PortWorkload::~PortWorkload() {
  host_.reset();  // unwinds the host code while the port it runs is alive
}

void PortWorkload::launch(KernelLaunch k) {
  pending_ = PortKernel::make_state(std::move(k));
  ++launched_;
  host_->yield();
}

std::unique_ptr<KernelSource> PortWorkload::next_kernel() {
  if (previous_ && previous_->next_cta < previous_->info.num_ctas)
    PortKernel(previous_, rt_).finish_functionally();  // CTAs nobody pulled: their results still count
  previous_.reset();
  pending_.reset();
  host_->resume();
  if (!pending_) return nullptr;  // the host code ended
  previous_ = pending_;
  return std::make_unique<PortKernel>(pending_, rt_);
}

bool PortWorkload::footprint(std::vector<AddressRange>& out) const {
  out.insert(out.end(), mem_.ranges().begin(), mem_.ranges().end());
  return true;
}

void PortWorkload::run_functionally() {
  for (std::unique_ptr<KernelSource> k; (k = next_kernel());)
    static_cast<PortKernel&>(*k).finish_functionally();
}

}  // namespace gms::kernels
