// Auxiliary Tag Directory (paper 004 section 4.4): predicts the private LLC's miss rate while the LLC runs
// shared, by dynamic set sampling (Qureshi et al., the paper's [40]). It shadows `sampled_sets` sets of ONE
// slice with the slice's associativity and LRU; each entry keeps the line and the cluster (SM-router) that
// last touched it. An access that hits an entry last touched by the same cluster would also have hit in
// that cluster's private slice: a predicted private hit. Any other outcome (a miss, or a hit on a line
// last touched by another cluster) is a predicted private miss. This is the paper's rule; it ignores that
// a private slice holds the whole controller partition for one cluster (capacity is approximated by the
// shared slice's sets, as in the paper).
//
// Hardware budget. The paper gives 432 bytes: 8 sets x 16 ways = 128 entries of 27 bits = 3456 bits, which
// matches a 19-bit tag (32-bit address - 7 offset bits - 6 index bits of the 48-set slice) plus a one-hot
// vector of 8 bits, one per SM-router. The paper's budget holds no replacement state. This model stores
// per entry the full 64-bit line address (no tag truncation, so no false hits from aliasing), the cluster
// as an index (16 bits; log2(clusters) bits would do, the one-hot vector is a hardware encoding), a valid
// flag, and the LRU stamps of the cache core's LruPolicy beside the entries. It therefore predicts what an
// exact tag copy would, which is what the paper's budget aims at.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/lru_policy.h"

namespace gms {

class AuxTagDirectory {
 public:
  enum class Outcome : uint8_t {
    NotSampled,  // the set is not shadowed: nothing counted
    PrivateHit,  // ATD hit, last touched by the requesting cluster
    CrossHit,    // ATD hit, last touched by another cluster: a shared hit, a predicted private miss
    Miss,        // ATD miss (the line is installed, LRU victim evicted)
  };

  // `slice_sets` and `ways`: the shadowed slice's geometry. Sampled sets are spread evenly over the slice:
  // sets 0, stride, 2 x stride, ... with stride = slice_sets / sampled_sets (so a 48-set slice samples
  // sets 0, 6, ..., 42). `sampled_sets` must lie in [1, slice_sets]; ways in [1, 64].
  AuxTagDirectory(uint32_t slice_sets, uint32_t ways, uint32_t sampled_sets = 8);

  // One access of the shadowed slice: `line` its line address, `set` its set within the slice (as the
  // slice's own index function computed it: the ATD does not re-derive it, so any set hash works), and
  // the requesting SM's cluster. Every access counts, reads and writes alike, as the slice's hit rate does.
  Outcome access(uint64_t line, uint32_t set, unsigned cluster);

  bool sampled(uint32_t set) const { return set % stride_ == 0 && set / stride_ < sampled_sets_; }
  uint32_t sampled_sets() const { return sampled_sets_; }
  uint32_t stride() const { return stride_; }
  uint32_t ways() const { return ways_; }

  // Counters of the current profiling window (accesses to sampled sets only).
  uint64_t accesses() const { return accesses_; }
  uint64_t private_hits() const { return private_hits_; }
  uint64_t hits() const { return private_hits_ + cross_hits_; }  // what the shared slice would hit
  // 1 - private_hits / accesses; 0 when nothing was sampled (check accesses() first).
  double private_miss_rate() const {
    return accesses_ ? 1.0 - double(private_hits_) / double(accesses_) : 0.0;
  }

  // A new profiling window: counters to zero, entries kept (the shadowed slice stays warm too).
  void reset_counters() { accesses_ = private_hits_ = cross_hits_ = 0; }
  // The LLC was invalidated (private -> shared switch): entries and counters cleared.
  void clear();

 private:
  struct Entry {
    uint64_t line = 0;
    uint16_t cluster = 0;
    bool valid = false;
  };
  Entry* set_entries(uint32_t slot) { return &entries_[size_t(slot) * ways_]; }

  uint32_t ways_, sampled_sets_, stride_;
  std::vector<Entry> entries_;  // sampled_sets x ways
  LruPolicy lru_;               // the cache core's LRU, over the sampled sets only
  uint64_t accesses_ = 0, private_hits_ = 0, cross_hits_ = 0;
};

const char* to_string(AuxTagDirectory::Outcome o);

}  // namespace gms
