#include "tb/workloads/pattern_registry.h"

#include <stdexcept>

namespace gms {

void PatternRegistry::add(const std::string& name, PatternFactory factory, bool own_program) {
  if (!factories_.emplace(name, std::move(factory)).second)
    throw std::logic_error("pattern '" + name + "' registered twice");
  own_program_[name] = own_program;
}

bool PatternRegistry::own_program(const std::string& name) const {
  auto it = own_program_.find(name);
  return it != own_program_.end() && it->second;
}

const PatternFactory* PatternRegistry::find(const std::string& name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<std::string> PatternRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& f : factories_) out.push_back(f.first);
  return out;
}

const PatternRegistry& PatternRegistry::builtin() {
  static const PatternRegistry registry = [] {
    PatternRegistry r;
    register_streaming(r);
    register_strided(r);
    register_random(r);
    register_hotcold(r);
    register_kmeans(r);
    register_spmv_csr(r);
    register_bfs(r);
    register_stencil2d(r);
    register_matmul(r);
    register_sharing(r);
    register_colmajor_copy(r);
    return r;
  }();
  return registry;
}

}  // namespace gms
