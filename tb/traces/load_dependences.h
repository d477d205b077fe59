// Turns the register operands of one warp's trace into the scoreboard fields of its memory instructions
// (WarpInst::waits_on, writes, wait_gap): which registers each memory instruction, or a compute instruction
// between it and the previous memory instruction, reads while an earlier load of the warp may still be
// writing them. Only loads are asynchronous in the model (compute instructions are one issue cycle each),
// so only registers whose last writer is a load are tracked.
#pragma once
#include <cstdint>

#include "models/common/reg_set.h"

namespace gms {

class LoadDependences {
 public:
  // A new warp: nothing is written by a load yet.
  void reset();
  // A non-memory instruction (one gap cycle of the next memory instruction).
  void compute(const RegSet& srcs, const RegSet& dsts);
  // A load or store of `width` bytes per lane with its listed operands: fills its scoreboard fields.
  void memory(bool load, unsigned width, const RegSet& srcs, const RegSet& dsts, RegSet& waits_on,
              RegSet& writes, uint32_t& wait_gap);

  // The registers a load of `width` bytes per lane with destination list `dsts` writes: a wide load with
  // one listed destination fills consecutive registers from it (.64 two, .128 four), else `dsts`.
  static RegSet load_writes(unsigned width, const RegSet& dsts);
  // Registers whose last writer is a load of the warp (what a reader of them waits for).
  const RegSet& load_written() const { return load_written_; }

 private:
  RegSet load_written_;  // registers whose last writer is a load
  RegSet gap_reads_;     // load-written registers read by the compute instructions since the last memory one
  uint32_t gap_ = 0;     // compute instructions since the last memory instruction
  uint32_t first_dep_ = 0;
  bool has_dep_ = false;  // first_dep_: index in the gap of the first compute instruction in gap_reads_
};

}  // namespace gms
