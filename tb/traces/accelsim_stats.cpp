#include "tb/traces/accelsim_stats.h"

#include <string>

namespace gms {

void AccelKernelCounts::add(const AccelKernelCounts& o) {
  ctas += o.ctas;
  trace_insts += o.trace_insts;
  loads += o.loads;
  stores += o.stores;
  atomics += o.atomics;
  compute += o.compute;
  unsupported += o.unsupported;
  predicated_off += o.predicated_off;
  exits += o.exits;
}

AccelKernelCounts& AccelImportStats::begin_kernel(const std::string& name, const std::string& file) {
  kernels_.emplace_back();
  kernels_.back().name = name;
  kernels_.back().file = file;
  if (group_) add_kernel_group(kernels_.size() - 1);
  return kernels_.back();
}

void AccelImportStats::count_unsupported(std::string_view mnemonic) {
  auto [it, fresh] = unsupported_.try_emplace(std::string(mnemonic), 0);
  ++it->second;
  if (fresh && group_) add_opcode_formula(it->first);
}

AccelKernelCounts AccelImportStats::total() const {
  AccelKernelCounts t;
  t.name = "total";
  for (const auto& k : kernels_) t.add(k);
  return t;
}

namespace {

void count_formulas(StatGroup& g, std::function<AccelKernelCounts()> get) {
  auto f = [&g, get](const char* name, const char* desc, uint64_t AccelKernelCounts::*m) {
    g.formula(name, desc, "count", [get, m] { return double(get().*m); });
  };
  f("ctas", "thread blocks read", &AccelKernelCounts::ctas);
  f("trace_insts", "instruction lines read from the trace", &AccelKernelCounts::trace_insts);
  f("loads", "warp-level global loads replayed (LDG*)", &AccelKernelCounts::loads);
  f("stores", "warp-level global stores replayed (STG*)", &AccelKernelCounts::stores);
  f("atomics", "warp-level global atomics replayed (ATOMG, ATOM, RED, REDG of 4 or 8 bytes)",
    &AccelKernelCounts::atomics);
  f("compute_insts", "instructions replayed as one compute gap cycle each", &AccelKernelCounts::compute);
  f("unsupported_insts", "global-memory instructions not replayed (one gap cycle each)",
    &AccelKernelCounts::unsupported);
  f("predicated_off", "LDG/STG with no active lane (one gap cycle each)", &AccelKernelCounts::predicated_off);
}

}  // namespace

void AccelImportStats::attach(StatGroup& parent) {
  if (group_) return;
  group_ = std::make_unique<StatGroup>(parent, "accelsim", "Accel-Sim trace import");
  group_->formula("memcpy_skipped", "MemcpyHtoD lines of kernelslist.g skipped", "count",
                  [this] { return double(memcpys_); });
  group_->formula("kernels", "kernels read", "count", [this] { return double(kernels_.size()); });
  count_formulas(*group_, [this] { return total(); });
  for (const auto& [m, n] : unsupported_) add_opcode_formula(m);
  for (size_t i = 0; i < kernels_.size(); ++i) add_kernel_group(i);
}

void AccelImportStats::add_kernel_group(size_t i) {
  kernel_groups_.emplace_back(*group_, "k" + std::to_string(i), kernels_[i].name);
  const AccelKernelCounts* k = &kernels_[i];
  count_formulas(kernel_groups_.back(), [k] { return *k; });
}

void AccelImportStats::add_opcode_formula(const std::string& m) {
  group_->formula("unsupported_" + m, "instructions of opcode " + m + " not replayed", "count",
                  [this, m] { return double(unsupported_.at(m)); });
}

void AccelImportStats::report(std::ostream& os) const {
  auto line = [&os](const AccelKernelCounts& k) {
    os << k.ctas << " thread blocks, " << k.trace_insts << " trace instructions -> " << k.mem_insts()
       << " warp memory instructions (" << k.loads << " loads, " << k.stores << " stores"
       << (k.atomics ? ", " + std::to_string(k.atomics) + " atomics" : std::string()) << "), " << k.compute
       << " compute, " << k.unsupported << " unsupported, " << k.predicated_off << " predicated off\n";
  };
  os << "Accel-Sim import: " << kernels_.size() << " kernels, " << memcpys_ << " MemcpyHtoD skipped\n";
  for (size_t i = 0; i < kernels_.size(); ++i) {
    os << "  kernel " << i << " " << kernels_[i].name << " (" << kernels_[i].file << "): ";
    line(kernels_[i]);
  }
  os << "  total: ";
  line(total());
  os << "  unsupported opcodes:";
  if (unsupported_.empty()) os << " none";
  for (const auto& [m, n] : unsupported_) os << " " << m << " " << n;
  os << "\n";
}

}  // namespace gms
