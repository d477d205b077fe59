// G-Cache (design `gcache`; paper 001, section 4): 128 B lines under SRRIP, a bypass switch per set and
// bypass on fill. A miss takes an MSHR entry but no way (allocate on fill). When the fill arrives, a set
// victim bit in the LLC's reply (this L1 lost the line early: contention) opens the set's switch; with
// the switch on, the fill is not installed if every valid line of the set is hot (RRPV < hot_threshold,
// or < victim_hot_threshold when the reply's victim bit is set), and each such bypass ages every line of
// the set by one so a line that keeps coming back gets in eventually. Stores write through and evict.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/srrip_policy.h"
#include "models/cache/tag_array.h"
#include "models/l1/l1_pipeline.h"

namespace gms {

class GCacheL1 : public L1Pipeline {
 public:
  GCacheL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~GCacheL1() override;

  void invalidate_all() override;

  TagArray& tags() { return tags_; }
  const SrripPolicy& srrip() const { return *srrip_; }
  bool switch_on(uint32_t set) const { return switch_[set] != 0; }
  uint32_t switches_on() const { return switches_on_; }

 protected:
  bool access_load(Payload& t, uint64_t line, uint64_t c) override;
  void on_store(uint64_t line, uint8_t chunks, bool functional) override;
  void on_fill(Payload& down, uint64_t c) override;
  bool functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) override;
  void functional_install(uint64_t line, const unsigned char* data) override;
  void functional_write(uint64_t addr, unsigned char byte) override;
  void write_probes() override;

 private:
  // Fill-time policy (gcache_l1_fill.cpp).
  bool bypass_fill(uint32_t set, bool victim_bit) const;  // the switch is on and every valid line is hot
  void age_set(uint32_t set);                             // a bypass: every valid line's RRPV + 1
  void install(uint32_t set, uint64_t line, const unsigned char* data);
  void open_switch(uint32_t set);
  // Periodic reset, done lazily by the first access or fill at or after each reset point.
  void maybe_reset_switches(uint64_t c);

  const GCacheParams& g_;
  SrripPolicy* srrip_;  // owned by tags_
  TagArray tags_;
  std::vector<uint8_t> switch_;  // bypass switch per set
  uint32_t switches_on_ = 0;
  uint64_t next_reset_ = 0;  // first cycle of the next periodic reset (unused when reset is off)

  Counter& fill_bypasses_;
  Counter& switch_opens_;
  Counter& switch_resets_;
  Counter& victim_bits_returned_;
  Probe<uint32_t> probe_switches_;
};

}  // namespace gms
