// The chunk-masked miss path that every sectored design shares (sector cache, TSC / TSC+, DSC). A load
// looks up which of its chunks the design's storage holds: present chunks are read at once, missing ones
// are fetched through one MSHR entry per 128 B line that remembers which chunks are already requested and
// not yet back (paper 000 sec. 3.4, "issued chunk mask"): a later miss to the line asks only for chunks
// not yet requested, the LLC returns only what was asked, and each waiting load is answered when the last
// of its chunks has arrived. A store marks chunks of a pending fill stale: they answer the loads already
// waiting (older than the store) but are not installed, and later loads wait for them (rf_no_fill).
//
// Chunks here are "granules" of 8, 16, 32 or 64 B (TSC explores 8-64 B, paper 000 sec. 5.4); a mask
// holds one bit per granule of the 128 B line. Granules under 32 B travel as MemReq::word_mask.
#pragma once
#include <cstdint>

#include "models/l1/l1_pipeline.h"

namespace gms {

class SectoredL1 : public L1Pipeline {
 public:
  using Mask = uint16_t;

  SectoredL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env,
             unsigned granule_bytes, uint32_t extra_hit_latency);
  ~SectoredL1() override;

  void invalidate_all() override;
  unsigned granule_bytes() const { return granule_; }
  unsigned granules() const { return kLineBytes / granule_; }
  Mask full_mask() const { return Mask((1u << granules()) - 1); }

 protected:
  // ---- What a storage organisation provides (all masks are granules of one 128 B line) -------------
  // Valid granules of line (reserved ones are not valid).
  virtual Mask cached(uint64_t line) = 0;
  // Copies valid granules m of line into the 128 B-framed dst; the replacement state sees an access.
  virtual void read(uint64_t line, Mask m, unsigned char* dst) = 0;
  // Room for granules m of line (none of them valid or reserved now), reserved for their fill. False when
  // there is no room without touching a reserved granule; then nothing has changed. Valid data it
  // displaces is dropped and counted with count_evictions().
  virtual bool reserve(uint64_t line, Mask m) = 0;
  // Reserved granules m arrived: install them from the 128 B-framed src.
  virtual void fill(uint64_t line, Mask m, const unsigned char* src) = 0;
  // Reserved granules m are released without data (a store made them stale, or the reply failed).
  virtual void unreserve(uint64_t line, Mask m) = 0;
  // Valid granules m of line are dropped (write-evict); returns how many were valid.
  virtual unsigned invalidate(uint64_t line, Mask m) = 0;
  // Byte `offset` of line is now `byte` in memory: a valid cached copy takes it.
  virtual void patch(uint64_t line, unsigned offset, unsigned char byte) = 0;
  // Kernel-boundary flush: every valid granule dropped, reserved ones stay pending. Returns the lines
  // (or chunks, for chunk storage) dropped.
  virtual uint32_t invalidate_storage() = 0;

  // ---- Policy hooks --------------------------------------------------------------------------------
  // The granules a load asks of the cache, given those the SM wants (TSC+ coarse mode: the whole line).
  virtual Mask access_mask(uint64_t /*line*/, Mask wanted) { return wanted; }
  // A load sent a request for `fetched` granules of line downstream (TSC+ sampler counters).
  virtual void on_fetch(uint64_t /*line*/, Mask /*fetched*/) {}

  // Evictions caused by a timed access are counted; a functional path counts nothing.
  void count_evictions(uint64_t n) {
    if (!functional_) st_.evictions += n;
  }
  Mask wanted_granules(const MemReq& r) const;
  Mask granules_of_chunks(uint8_t chunks) const;
  Mask granules_of_words(uint16_t words) const;
  uint8_t chunks_of(Mask m) const;  // 32 B chunks holding any of m
  uint16_t words_of(Mask m) const;  // 8 B words of m
  void copy_granules(unsigned char* dst, const unsigned char* src, Mask m) const;
  uint32_t hit_cycles() const { return params_.hit_latency + extra_hit_; }

 private:
  bool access_load(Payload& t, uint64_t line, uint64_t c) override;
  void on_store(uint64_t line, uint8_t chunks, bool functional) override;
  void on_store_allocate(Payload& t, uint64_t line, uint8_t chunks) override;
  // A store's write to granules of a line with a fill pending: those granules' fill is not installed.
  void mark_stale(uint64_t line, Mask written, bool functional);
  void on_fill(Payload& down, uint64_t c) override;
  bool functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) override;
  void functional_install(uint64_t line, const unsigned char* data) override;
  void functional_write(uint64_t addr, unsigned char byte) override;

  // MshrFile::Entry::cookie holds the granules requested and not yet back (bits 0-15) and those of them
  // a later store made stale (bits 16-31).
  static Mask pending_of(const MshrFile::Entry& e) { return Mask(e.cookie); }
  static Mask stale_of(const MshrFile::Entry& e) { return Mask(e.cookie >> 16); }
  static void set_state(MshrFile::Entry& e, Mask pending, Mask stale) {
    e.cookie = uint64_t(pending) | uint64_t(stale) << 16;
  }
  Mask granules_returned(const MemReq& reply) const;

  unsigned granule_;
  uint32_t extra_hit_;
  bool functional_ = false;
};

}  // namespace gms
