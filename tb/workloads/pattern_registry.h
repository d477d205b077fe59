// Patterns by name. The built-in set (streaming, strided, random, hotcold) registers itself in
// builtin(); a new pattern is one file with a register_<name>() function plus one line in
// pattern_registry.cpp, and tests or tools can add their own to a copy of the registry.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tb/workloads/pattern.h"

namespace gms {

class PatternRegistry {
 public:
  // Throws std::logic_error if the name is taken (two patterns under one name is a programming error).
  void add(const std::string& name, PatternFactory factory);
  // nullptr when no pattern has that name.
  const PatternFactory* find(const std::string& name) const;
  std::vector<std::string> names() const;  // sorted

  // The built-in patterns.
  static const PatternRegistry& builtin();

 private:
  std::map<std::string, PatternFactory> factories_;
};

// One per built-in pattern file.
void register_streaming(PatternRegistry& registry);
void register_strided(PatternRegistry& registry);
void register_random(PatternRegistry& registry);
void register_hotcold(PatternRegistry& registry);

}  // namespace gms
