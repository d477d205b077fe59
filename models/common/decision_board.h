// Decisions one block makes for many: the TSC+ storage mode that SM 0's sampler sets choose for every
// SM, the Decoupled L1D dueling verdict. The system builder owns one DecisionBoard and hands it to the
// blocks through BlockEnv; a decision is a named value, traced in the VCD under the block "decisions"
// when that block is selected. Explicit wiring: no global, and tests build their own board.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/trace.h"

namespace gms {

class SharedDecision {
 public:
  explicit SharedDecision(uint32_t initial) : value_(initial) {}
  uint32_t get() const { return value_; }
  // A change is counted and traced; setting the value it already has is free.
  void set(uint32_t v) {
    if (v == value_) return;
    value_ = v;
    ++changes_;
    probe_.set(v);
  }
  uint64_t changes() const { return changes_; }
  void attach(VcdWriter* vcd, const std::string& name) {
    probe_.attach(vcd, "decisions", name);
    probe_.set(value_);
  }

 private:
  uint32_t value_;
  uint64_t changes_ = 0;
  Probe<uint32_t> probe_;
};

// Scores that several blocks post per interval so that one of them can compare them (the SM dueling of
// the Decoupled L1D: SM 0 and SM 1 post loads and misses, the first access after an interval boundary
// judges). One record per slot; `judged` is the first interval without a verdict. Each slot's miss rate
// of the last judged interval (per mille) is traced under "decisions".
struct IntervalScore {
  uint64_t interval = UINT64_MAX;  // the interval the counts belong to
  uint64_t events = 0;
  uint64_t misses = 0;
};

class SharedScores {
 public:
  explicit SharedScores(size_t slots) : slots_(slots), probes_(slots) {}
  size_t size() const { return slots_.size(); }
  IntervalScore& slot(size_t i) { return slots_.at(i); }
  uint64_t judged = 0;
  void attach(VcdWriter* vcd, const std::string& name) {
    for (size_t i = 0; i < probes_.size(); ++i)
      probes_[i].attach(vcd, "decisions", name + ".miss_permille_" + std::to_string(i));
  }
  void trace(size_t i, uint32_t permille) { probes_.at(i).set(permille); }

 private:
  std::vector<IntervalScore> slots_;
  std::vector<Probe<uint32_t>> probes_;
};

class DecisionBoard {
 public:
  DecisionBoard() = default;
  // vcd: where decisions are traced (nullptr: not traced).
  explicit DecisionBoard(VcdWriter* vcd) : vcd_(vcd) {}
  DecisionBoard(const DecisionBoard&) = delete;
  DecisionBoard& operator=(const DecisionBoard&) = delete;

  // The decision called `name` (e.g. "l1.tsc_plus.mode"), made with value `initial` on first use; every
  // block asking for the same name shares it. References stay valid for the board's lifetime.
  SharedDecision& decision(const std::string& name, uint32_t initial) {
    auto it = decisions_.find(name);
    if (it != decisions_.end()) return *it->second;
    auto& d = decisions_[name] = std::make_unique<SharedDecision>(initial);
    d->attach(vcd_, name);
    return *d;
  }
  size_t size() const { return decisions_.size(); }
  // The score exchange called `name` with `slots` records, made on first use and shared like a decision.
  SharedScores& scores(const std::string& name, size_t slots) {
    auto it = scores_.find(name);
    if (it != scores_.end()) return *it->second;
    auto& s = scores_[name] = std::make_unique<SharedScores>(slots);
    s->attach(vcd_, name);
    return *s;
  }

 private:
  VcdWriter* vcd_ = nullptr;
  std::map<std::string, std::unique_ptr<SharedDecision>> decisions_;
  std::map<std::string, std::unique_ptr<SharedScores>> scores_;
};

}  // namespace gms
