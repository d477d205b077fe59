// The baseline GPU L1 data cache (papers 000/002 baseline, GPGPU-Sim-like): allocate-on-miss with
// reserved lines and MSHR merging; write-through, write-no-allocate, write-evict on a store hit.
// Only the policy lives here; ports, queues and reservation-fail holding are the shared L1Pipeline.
#pragma once
#include <cstdint>

#include "models/cache/tag_array.h"
#include "models/l1/l1_pipeline.h"

namespace gms {

class BaselineL1 : public L1Pipeline {
 public:
  BaselineL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~BaselineL1() override;

  void invalidate_all() override;

  TagArray& tags() { return tags_; }

 protected:
  bool access_load(Payload& t, uint64_t line, uint64_t c) override;
  void on_store(uint64_t line, uint8_t chunks, bool functional) override;
  void on_fill(Payload& down, uint64_t c) override;
  bool functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) override;
  void functional_install(uint64_t line, const unsigned char* data) override;
  void functional_write(uint64_t addr, unsigned char byte) override;
  void prefetch_lookup(uint64_t line) const override { tags_.prefetch_set(tags_.set_of(line)); }

  // A load that lacks a resource: a miss without an MSHR entry, a miss-queue slot or a free way, or a
  // hit-pending load whose line's entry is at its merge limit or whose fill a store cancelled. The
  // baseline stalls (a reservation fail of `cause`); stall_bypass sends the load around the cache.
  virtual bool on_miss_stall(Payload& t, uint64_t line, uint64_t c, Counter& cause);
  // bypass_load, and the bypass is one access to the set for a bypassing replacement policy (PDP).
  bool bypass_and_note(Payload& t, uint64_t line, uint64_t c);

  // Small lines (l1.line_bytes 32 or 64): the SM sends one request per small line, framed as its 128 B
  // line; the design's line ("key") is the small line holding the request's chunks.
  uint64_t line_key(uint64_t line, uint8_t chunks) const;
  uint8_t key_chunks(uint64_t key) const;  // the chunks of the 128 B line that line `key` holds
  static void line_to_frame(unsigned char* frame, uint64_t key, const unsigned char* data, uint8_t mask);
  void store_to(uint64_t key, bool functional);
  // A miss of t to line `key` (within the 128 B `line`) takes way `victim` of `set` (free or unreserved):
  // the way is reserved, an MSHR entry holds t, the read of the key's chunks is queued; counted.
  void commit_miss(Payload& t, uint64_t line, uint64_t key, uint32_t set, uint32_t victim,
                   uint64_t c);  // write-evict or cancel the pending fill of one line

  TagArray tags_;
  Counter* protected_bypasses_ = nullptr;  // PDP: loads bypassed because every way was protected
};

}  // namespace gms
