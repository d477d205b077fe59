// The statistics tree. Each block owns a StatGroup (name, description) and registers counters,
// histograms and formulas (each with description and unit). A run writes the tree as stats.json and
// flat as stats.csv. Counters are plain integers: counting costs one add.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace gms {

// Counters and histograms hold only what counting touches; their names, descriptions and units live
// apart in the group (StatInfo). A group's counters are then neighbours in host memory: a block bumping
// four counters per event touches one cache line instead of four 104 B records (with hundreds of blocks,
// as in the H100 preset, those records were cold at every event).
struct StatInfo {
  std::string name, desc, unit;
};

struct Counter {
  uint64_t value = 0;
  Counter& operator++() {
    ++value;
    return *this;
  }
  Counter& operator+=(uint64_t v) {
    value += v;
    return *this;
  }
};

// Fixed-width buckets; values past the last bucket land in it (so nothing is lost).
struct Histogram {
  uint64_t bucket_width = 1;
  std::vector<uint64_t> counts;
  uint64_t samples = 0;
  double sum = 0;
  uint64_t max = 0;
  void add(uint64_t v) {
    size_t b = size_t(v / bucket_width);
    if (b >= counts.size()) b = counts.size() - 1;
    ++counts[b];
    ++samples;
    sum += double(v);
    if (v > max) max = v;
  }
  double mean() const { return samples ? sum / double(samples) : 0.0; }
};

struct Formula {
  std::string name, desc, unit;
  std::function<double()> fn;
};

class StatGroup {
 public:
  explicit StatGroup(std::string name, std::string desc = "");
  StatGroup(StatGroup& parent, std::string name, std::string desc = "");
  ~StatGroup();
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  Counter& counter(const std::string& name, const std::string& desc, const std::string& unit);
  Histogram& histogram(const std::string& name, const std::string& desc, const std::string& unit,
                       uint64_t bucket_width, size_t buckets);
  void formula(const std::string& name, const std::string& desc, const std::string& unit,
               std::function<double()> fn);

  const std::string& name() const { return name_; }
  const std::string& desc() const { return desc_; }
  std::string path() const;

  // Looks up "child.grandchild.stat" below this group; throws std::out_of_range when missing.
  double value(const std::string& path) const;
  const StatGroup* find_group(const std::string& path) const;
  // Sum of the named stat over all direct children that have it (e.g. "l1_*" totals).
  double sum_over_children(const std::string& stat) const;
  const std::vector<StatGroup*>& children() const { return children_; }

  void write_json(std::ostream& os, int indent = 0) const;
  void write_csv(std::ostream& os, bool header = true) const;

 private:
  bool lookup(const std::string& path, double& out) const;
  std::string name_, desc_;
  StatGroup* parent_ = nullptr;
  std::vector<StatGroup*> children_;
  std::deque<Counter> counters_;  // deque: stable addresses for the references blocks keep
  std::deque<StatInfo> counter_info_;
  std::deque<Histogram> histograms_;
  std::deque<StatInfo> histogram_info_;
  std::deque<Formula> formulas_;
  std::vector<std::pair<char, size_t>> order_;  // registration order for deterministic output
};

std::string format_double(double v);

}  // namespace gms
