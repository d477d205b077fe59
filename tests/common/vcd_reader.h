// A small reader of value change dumps (IEEE 1364 VCD), ours, for tests that check what a traced run
// shows: the header's $timescale, nested $scope/$var declarations, and the body's #time stamps and value
// changes (scalars 0/1/x/z, vectors b..., reals r...). Each signal is named by its scope path and its
// reference joined with '.', e.g. "SystemC.dram0.command", and keeps its changes in time order. Values
// with x or z bits are kept as text and are not `known`. Malformed input throws std::runtime_error naming
// the line.
#pragma once
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace gms::test {

struct VcdChange {
  uint64_t time = 0;   // in timescale units
  uint64_t value = 0;  // integer value (0 for reals and unknown values)
  double real = 0;     // for real variables
  bool known = true;   // no x or z bit
  std::string text;    // the value as written (bits without the 'b', or the real's digits)
};

struct VcdSignal {
  std::string name;  // hierarchical: scopes and reference joined with '.'
  std::string kind;  // wire, reg, real, ...
  unsigned width = 0;
  std::vector<VcdChange> changes;  // in time order; the $dumpvars values first

  // The value in force at `time` (the last change at or before it); 0 before the first change.
  uint64_t value_at(uint64_t time) const;
  // The changes with from <= time <= to.
  std::vector<VcdChange> changes_between(uint64_t from, uint64_t to) const;
  // The time of the first change to `value` at or after `from`; UINT64_MAX if none.
  uint64_t first_time_of(uint64_t value, uint64_t from = 0) const;
};

class VcdFile {
 public:
  static VcdFile parse(std::istream& in);
  static VcdFile load(const std::string& path);  // runtime_error naming the path if it cannot be read

  const std::string& timescale() const { return timescale_; }  // e.g. "1 ps"
  // Picoseconds per timescale unit (fs resolutions give 0: not used here).
  uint64_t ps_per_unit() const;
  uint64_t first_time() const { return first_time_; }  // the first #time stamp
  uint64_t last_time() const { return last_time_; }    // the last #time stamp
  size_t size() const { return signals_.size(); }
  bool has(const std::string& name) const { return by_name_.count(name) != 0; }
  // runtime_error naming the signal (and the file's signal count) if it is not declared.
  const VcdSignal& signal(const std::string& name) const;
  // Every signal name, sorted.
  std::vector<std::string> names() const;
  // The names that start with `prefix`, sorted.
  std::vector<std::string> names_under(const std::string& prefix) const;

 private:
  std::string timescale_;
  uint64_t first_time_ = 0, last_time_ = 0;
  std::vector<VcdSignal> signals_;
  std::map<std::string, size_t> by_name_;
};

}  // namespace gms::test
