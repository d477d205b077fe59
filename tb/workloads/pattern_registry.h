// Patterns by name. The built-in set registers itself in builtin(); a new pattern is one file with a
// register_<name>() function plus one line in pattern_registry.cpp, and tests or tools can add their own
// to a copy of the registry. An own-program pattern (Pattern::next_inst) is added with own_program = true:
// the loader then does not read insts_per_warp / store_fraction for its kernels.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tb/workloads/pattern.h"

namespace gms {

class PatternRegistry {
 public:
  // Throws std::logic_error if the name is taken (two patterns under one name is a programming error).
  void add(const std::string& name, PatternFactory factory, bool own_program = false);
  // nullptr when no pattern has that name.
  const PatternFactory* find(const std::string& name) const;
  std::vector<std::string> names() const;           // sorted
  bool own_program(const std::string& name) const;  // false for unknown names

  // The built-in patterns.
  static const PatternRegistry& builtin();

 private:
  std::map<std::string, PatternFactory> factories_;
  std::map<std::string, bool> own_program_;
};

// One per built-in pattern file.
void register_streaming(PatternRegistry& registry);
void register_strided(PatternRegistry& registry);
void register_random(PatternRegistry& registry);
void register_hotcold(PatternRegistry& registry);
void register_kmeans(PatternRegistry& registry);
void register_spmv_csr(PatternRegistry& registry);
void register_bfs(PatternRegistry& registry);
void register_stencil2d(PatternRegistry& registry);
void register_matmul(PatternRegistry& registry);
void register_sharing(PatternRegistry& registry);
void register_colmajor_copy(PatternRegistry& registry);

}  // namespace gms
