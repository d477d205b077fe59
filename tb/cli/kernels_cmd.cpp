#include "tb/cli/kernels_cmd.h"

#include <sys/resource.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms {

namespace {

struct Counts {
  uint64_t launches = 0, loads = 0, stores = 0, atomics = 0, barriers = 0;
  uint64_t compute = 0;  // the instructions between them (the gaps), as Nsight's inst_executed counts them
};

Counts count(Workload& w) {
  Counts c;
  for (std::unique_ptr<KernelSource> k; (k = w.next_kernel());) {
    ++c.launches;
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());)
      for (auto& warp : cta->warps)
        for (WarpInst i; warp->next(i);) {
          ++(i.kind == MemKind::Load     ? c.loads
             : i.kind == MemKind::Store  ? c.stores
             : i.kind == MemKind::Atomic ? c.atomics
                                         : c.barriers);
          c.compute += i.gap;
        }
  }
  return c;
}

double cpu_seconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) * 1e-6;
}

}  // namespace

int run_kernels_command(int argc, char** argv) {
  bool counting = false;
  std::vector<std::string> names;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--count")
      counting = true;
    else if (a == "-h" || a == "--help") {
      std::cout << "usage: gpumemsys kernels [--count] [NAME...]\n"
                   "  lists the kernel ports (-w NAME runs one); --count runs each default input without a\n"
                   "  simulator and adds its launches and warp instructions\n";
      return 0;
    } else if (!a.empty() && a[0] == '-')
      throw ConfigError("command line: kernels: unknown option '" + a + "' (expected --count or port names)");
    else if (!kernels::PortRegistry::builtin().find(a))
      throw ConfigError("command line: kernels: no kernel port named '" + a + "'");
    else
      names.push_back(a);
  }
  std::vector<const kernels::PortInfo*> ports;
  if (names.empty())
    ports = kernels::PortRegistry::builtin().all();
  else
    for (const std::string& n : names) ports.push_back(kernels::PortRegistry::builtin().find(n));
  for (const kernels::PortInfo* p : ports) {
    const ConfigNode size = ConfigNode::load_string("{}", p->name);
    kernels::PortWorkload w(p->name, p->make(size));
    std::vector<AddressRange> ranges;
    w.footprint(ranges);
    uint64_t bytes = 0;
    for (const AddressRange& r : ranges) bytes += r.end - r.begin;
    std::printf(
        "%s\n  suite      %s\n  source     %s\n  kernels    %s\n  input      %s\n  footprint  %.2f MiB in "
        "%zu "
        "arrays\n  papers     %s\n",
        p->name.c_str(), p->suite.c_str(), p->source.c_str(), p->kernels.c_str(), p->input.c_str(),
        double(bytes) / (1024.0 * 1024.0), ranges.size(), p->papers.c_str());
    if (counting) {
      const double t0 = cpu_seconds();
      const Counts c = count(w);
      const double cpu = cpu_seconds() - t0;
      const uint64_t memory = c.loads + c.stores + c.atomics, insts = memory + c.barriers + c.compute;
      std::printf(
          "  launches   %llu\n  warp insts %llu (%llu loads, %llu stores, %s%llu barriers, %llu compute), "
          "generated in %.2f CPU s (%.1f M/s; memory %.1f M/s)\n",
          (unsigned long long)c.launches, (unsigned long long)insts, (unsigned long long)c.loads,
          (unsigned long long)c.stores, c.atomics ? (std::to_string(c.atomics) + " atomics, ").c_str() : "",
          (unsigned long long)c.barriers, (unsigned long long)c.compute, cpu,
          cpu > 0 ? double(insts) / cpu / 1e6 : 0.0, cpu > 0 ? double(memory) / cpu / 1e6 : 0.0);
      const std::string wrong = w.check();
      if (!wrong.empty()) {
        std::fprintf(stderr, "gpumemsys: kernels: %s computed a wrong result: %s\n", p->name.c_str(),
                     wrong.c_str());
        return 3;
      }
      std::printf("  result     equals the sequential reference\n");
    }
  }
  return 0;
}

}  // namespace gms
