// Decisions one block makes for many: the TSC+ storage mode that SM 0's sampler sets choose for every
// SM, the Decoupled L1D dueling verdict. The system builder owns one DecisionBoard and hands it to the
// blocks through BlockEnv; a decision is a named value, traced in the VCD under the block "decisions"
// when that block is selected. Explicit wiring: no global, and tests build their own board.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

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

 private:
  VcdWriter* vcd_ = nullptr;
  std::map<std::string, std::unique_ptr<SharedDecision>> decisions_;
};

}  // namespace gms
