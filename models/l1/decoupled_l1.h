// Decoupled L1D (design `decoupled`, paper 002 sec. 4): locality-driven bypassing. A decoupled tag store
// (same sets, more ways, per entry a reference count RC and the Position of its data line) sits in front
// of the baseline data store. A load whose line has no tag entry gets one and bypasses the cache; a
// load whose entry has no data line raises RC and allocates a data line only once RC reaches the
// locality threshold, else bypasses; a load whose entry has a data line is a baseline hit or
// hit-pending. Data-store allocations and evictions age the set's other entries (dynamic aging), and an
// evicted line's entry restarts at RC 0. SM dueling (SmDuel) picks the design or the baseline
// (threshold 0) for the SMs that follow. Stores, fills and the data store are the baseline's.
#pragma once
#include <cstdint>
#include <memory>

#include "models/l1/baseline_l1.h"
#include "models/l1/decoupled_tag_store.h"
#include "models/l1/sm_duel.h"

namespace gms {

class DecoupledL1 : public BaselineL1 {
 public:
  DecoupledL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~DecoupledL1() override;

  void invalidate_all() override;

  DecoupledTagStore& tag_store() { return ts_; }
  SmDuel& duel() { return *duel_; }
  uint32_t mode() const { return mode_; }

 protected:
  bool access_load(Payload& t, uint64_t line, uint64_t c) override;
  void on_store(uint64_t line, uint8_t chunks, bool functional) override;
  void on_fill(Payload& down, uint64_t c) override;
  void functional_install(uint64_t line, const unsigned char* data) override;

 private:
  // A data line for `line` (tag entry `tw`, or a new one when tw < 0): a baseline miss plus the tag-store
  // bookkeeping. False (reservation fail, nothing changed) when an MSHR, a miss-queue slot or a way lacks.
  bool allocate_line(Payload& t, uint64_t line, uint32_t set, int tw, uint64_t c);
  // A new tag entry for `line` (LFU victim), RC = 1, no data line.
  int new_tag(uint32_t set, uint64_t line);
  // After the baseline changed the data line of `line`: clear the entry's Position if the line is gone.
  void sync_position(uint64_t line);

  const DecoupledParams dp_;
  std::unique_ptr<DecisionBoard> own_board_;  // when the system wired none (unit tests)
  DecoupledTagStore ts_;
  std::unique_ptr<SmDuel> duel_;
  uint32_t mode_ = SmDuel::kDesign;
  Counter& tag_allocations_;
  Counter& tag_evictions_;
  Counter& rc_threshold_allocations_;
  Counter& aging_steps_;
  Counter& duel_switches_;
  Counter& design_loads_;
  Counter& baseline_loads_;
  Probe<uint32_t> probe_mode_;
};

}  // namespace gms
