// Helpers for the Accel-Sim importer tests: temporary folders, sample paths, draining a workload.
#pragma once
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/stats.h"
#include "models/common/workload.h"
#include "tb/traces/accelsim_workload.h"

namespace gms::test {

inline std::string sample(const std::string& rel) {
  return std::string(GMS_SOURCE_DIR) + "/tests/data/accelsim/" + rel;
}

// A fresh folder for one test (each test case runs in its own process; names keep them apart).
inline std::string temp_dir(const std::string& name) {
  const std::string d = std::string(GMS_BINARY_DIR) + "/test-tmp/accelsim_" + name;
  std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  return d;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

struct Issued {
  std::string kernel;
  uint32_t cta = 0;
  uint32_t warp = 0;
  WarpInst inst;
};

// Every memory instruction of every kernel, CTA by CTA, warp by warp.
inline std::vector<Issued> drain(Workload& w) {
  std::vector<Issued> out;
  while (auto k = w.next_kernel()) {
    while (auto cta = k->next_cta()) {
      for (uint32_t i = 0; i < cta->warps.size(); ++i) {
        Issued is;
        is.kernel = k->info().name;
        is.cta = cta->cta_id;
        is.warp = i;
        while (cta->warps[i]->next(is.inst)) out.push_back(is);
      }
    }
  }
  return out;
}

// The ConfigError message of f(), or "<no error>".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no error>";
}

// A statistic summed over the SMs' groups (sm0, sm1, ...).
inline double sum_sms(StatGroup& root, const std::string& stat) {
  double s = 0;
  for (const auto* g : root.children()) {
    const std::string& n = g->name();
    if (n.size() > 2 && n.rfind("sm", 0) == 0 && std::isdigit(static_cast<unsigned char>(n[2])))
      s += root.value(n + "." + stat);
  }
  return s;
}

}  // namespace gms::test
