#include "tb/cli/kernels_cmd.h"

#include <sys/resource.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/kernels/default_counts.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms {

namespace {

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
    const auto insts_line = [](const kernels::WarpInstCounts& c) {
      std::string atomics = c.atomics ? std::to_string(c.atomics) + " atomics, " : "";
      std::printf("  warp insts %llu (%llu loads, %llu stores, %s%llu barriers, %llu compute)",
                  (unsigned long long)c.total(), (unsigned long long)c.loads, (unsigned long long)c.stores,
                  atomics.c_str(), (unsigned long long)c.barriers, (unsigned long long)c.compute);
    };
    if (!counting) {
      if (const kernels::WarpInstCounts* d = kernels::default_counts(p->name)) {
        insts_line(*d);
        std::printf(" at the default input (--count recounts)\n");
      }
      continue;
    }
    {
      const double t0 = cpu_seconds();
      uint64_t launches = 0;
      const kernels::WarpInstCounts c = kernels::count_warp_insts(w, launches);
      const double cpu = cpu_seconds() - t0;
      std::printf("  launches   %llu\n", (unsigned long long)launches);
      insts_line(c);
      std::printf(", generated in %.2f CPU s (%.1f M/s; memory %.1f M/s)\n", cpu,
                  cpu > 0 ? double(c.total()) / cpu / 1e6 : 0.0,
                  cpu > 0 ? double(c.memory()) / cpu / 1e6 : 0.0);
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
