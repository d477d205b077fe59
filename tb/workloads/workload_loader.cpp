#include "tb/workloads/workload_loader.h"

#include <cstdio>

#include "models/common/text_excerpt.h"
#include "tb/kernels/port_loader.h"

namespace gms {

namespace {

uint64_t read_line_aligned(const ConfigNode& n, const std::string& key, uint64_t def) {
  const uint64_t v = n.get_uint(key, def, 0, kWorkloadAddressLimit - 1);
  if (v % kLineBytes) n.fail(key, "value " + to_hex(v) + " must be a multiple of 128 (a line)");
  return v;
}

void check_region(const ConfigNode& n, const std::string& key, uint64_t start, uint64_t bytes) {
  if (bytes > kWorkloadAddressLimit - start)
    n.fail(key, "the region of " + std::to_string(bytes) + " bytes from " + to_hex(start) +
                    " ends past the 48-bit address space");
}

std::shared_ptr<const KernelSpec> load_kernel(const ConfigNode& n, const PatternRegistry& patterns) {
  auto k = std::make_shared<KernelSpec>();
  if (!n.is_map()) n.fail("", "expected a map of kernel keys");
  if (!n.has("pattern")) n.fail("pattern", "missing required key");
  k->pattern_name = n.get_choice("pattern", "", patterns.names());
  k->info.name = n.get_string("name", k->pattern_name);
  k->info.num_ctas = uint32_t(n.require_uint("grid", 1, UINT32_MAX));
  k->info.threads_per_cta = uint32_t(n.require_uint("block", 1, 1024));
  k->info.regs_per_thread = uint32_t(n.get_uint("regs_per_thread", 0, 0, 255));
  k->info.shmem_per_cta = uint32_t(n.get_uint("shmem_per_cta", 0, 0, UINT32_MAX));
  k->own_program = patterns.own_program(k->pattern_name);
  if (!k->own_program) {
    k->insts_per_warp = uint32_t(n.require_uint("insts_per_warp", 1, UINT32_MAX));
    k->store_fraction = n.get_double("store_fraction", 0.0, 0.0, 1.0);
  } else {
    for (const char* key : {"insts_per_warp", "store_fraction"})
      if (n.has(key))
        n.fail(key, "not a key of pattern '" + k->pattern_name +
                        "': its program sets the instructions of each warp (docs/workloads.md)");
  }
  k->gap = uint32_t(n.get_uint("gap", 0, 0, UINT32_MAX));
  k->base = read_line_aligned(n, "base", 0);

  KernelGeometry& g = k->geom;
  g.num_ctas = k->info.num_ctas;
  g.threads_per_cta = k->info.threads_per_cta;
  g.warps_per_cta = k->info.warps_per_cta();
  g.num_warps = uint64_t(g.num_ctas) * g.warps_per_cta;
  g.width = uint32_t(n.get_pow2("width", 4, 1, 16));
  g.stores_per_warp = KernelSpec::stores_before(k->insts_per_warp, k->store_fraction);
  g.loads_per_warp = k->insts_per_warp - g.stores_per_warp;

  k->pattern = (*patterns.find(k->pattern_name))(g, n);
  const uint64_t load_bytes = k->pattern->load_region_bytes();
  check_region(n, "base", k->base, load_bytes);
  // By default the outputs follow the inputs, so a kernel never reads what it writes.
  const uint64_t after_loads = (k->base + load_bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
  k->out_base = read_line_aligned(n, "out_base", after_loads);
  if (g.stores_per_warp > 0 || (k->own_program && k->pattern->store_region_bytes() > 0))
    check_region(n, "out_base", k->out_base, k->pattern->store_region_bytes());
  n.finish();
  return k;
}

}  // namespace

std::unique_ptr<SyntheticWorkload> load_synthetic_workload(const ConfigNode& root,
                                                           const PatternRegistry& patterns) {
  const ConfigNode w = root.require_child("workload");
  root.finish();
  const std::string name = w.get_string("name", "workload");
  const uint64_t seed = w.get_uint("seed", 1);
  std::vector<std::shared_ptr<const KernelSpec>> kernels;
  for (const ConfigNode& k : w.list("kernels")) kernels.push_back(load_kernel(k, patterns));
  if (kernels.empty()) w.fail("kernels", "a workload needs at least one kernel");
  w.finish();
  return std::make_unique<SyntheticWorkload>(name, seed, std::move(kernels));
}

std::unique_ptr<Workload> load_workload(const ConfigNode& root) {
  const ConfigNode w = root.child("workload");
  if (w.valid() && w.is_map() && w.has("port")) {  // a kernel port (tb/kernels/port_loader.h)
    root.finish();
    return kernels::load_port_workload(w);
  }
  return load_synthetic_workload(root);
}

std::unique_ptr<Workload> load_workload_file(const std::string& path) {
  return load_workload(ConfigNode::load_file(path, "workload file"));
}

std::unique_ptr<Workload> load_default_workload() {
  return load_workload(ConfigNode::load_string(embedded_default_workload_yaml(), "<built-in workload>"));
}

}  // namespace gms
