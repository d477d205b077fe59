#include "tb/traces/load_dependences.h"

namespace gms {

void LoadDependences::reset() {
  load_written_.clear();
  gap_reads_.clear();
  gap_ = 0;
  has_dep_ = false;
}

void LoadDependences::compute(const RegSet& srcs, const RegSet& dsts) {
  const RegSet dep = srcs & load_written_;
  if (dep.any()) {
    if (!has_dep_) first_dep_ = gap_;
    has_dep_ = true;
    gap_reads_ |= dep;
  }
  // A register this instruction writes holds its result from now on, not a load's (a write to a register
  // a load is still filling would wait in the hardware too; rare, and left out).
  load_written_.remove(dsts);
  ++gap_;
}

RegSet LoadDependences::load_writes(unsigned width, const RegSet& dsts) {
  // A wide load fills consecutive registers from the one listed: .64 two, .128 four.
  const unsigned per_lane = width > 4 ? width / 4 : 1;
  if (dsts.count() != 1 || per_lane == 1) return dsts;
  RegSet writes;
  dsts.for_each([&](unsigned r) {
    for (unsigned k = 0; k < per_lane; ++k) writes.set(r + k);
  });
  return writes;
}

void LoadDependences::memory(bool load, unsigned width, const RegSet& srcs, const RegSet& dsts,
                             RegSet& waits_on, RegSet& writes, uint32_t& wait_gap) {
  waits_on = gap_reads_;
  waits_on |= srcs & load_written_;  // address registers (pointer chasing), store data
  wait_gap = has_dep_ ? gap_ - first_dep_ : 0;
  writes.clear();
  if (load) {
    writes = load_writes(width, dsts);
    waits_on |= writes & load_written_;  // a load may not overwrite a register an earlier load still fills
    load_written_ |= writes;
  }
  gap_reads_.clear();
  gap_ = 0;
  has_dep_ = false;
}

}  // namespace gms
