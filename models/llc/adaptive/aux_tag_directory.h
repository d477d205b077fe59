// Auxiliary Tag Directory (paper 004 section 4.4): predicts the private LLC's miss rate while the LLC runs
// shared, by dynamic set sampling (Qureshi et al., the paper's [40]) of `sampled_sets` sets of ONE slice.
//
// What a private slice would hold. In private mode cluster c's slice of a memory controller caches every
// line of that controller that c touches, in the same number of sets as a shared slice, which caches only
// its own 1/k of the controller's lines (k = slices per controller = clusters) for all clusters. So the
// lines of one sampled shared set compete, in cluster c's private slice, with k times as many lines: to
// them the private set offers about ways / k ways. The ATD therefore keeps, per sampled set, one LRU stack
// per cluster of `private_ways` (default ways / clusters, at least 1) entries: an access is a predicted
// private hit when its line is in the requesting cluster's stack. Read-shared lines are private hits for
// every cluster after its own first touch (each private slice holds its own copy), and a footprint that
// fits the shared LLC but not one cluster's slice thrashes the small stacks, as it would the private
// slice. A shared shadow (the slice's own ways) gives the hits a shared slice would have, for comparison.
//
// The paper's words ("one additional bit per SM-router to store which SM-router last accessed the cache
// line"; a hit counts "for which the access originates from the same SM-router as the one stored") were
// tried first, as a last-accessor tag and as a presence vector: the first predicted a private miss rate of
// 0.54 for a read-shared table whose private run missed 1.5 %, the second could not see a private slice's
// smaller share of capacity (a 512 KiB table: predicted 0.14 against 0.27 measured).
//
// Hardware budget. The paper gives 432 bytes: 8 sets x 16 ways x 27 bits (a 19-bit tag plus 8 SM-router
// bits). The per-cluster stacks hold the same number of entries (clusters x ways / clusters per set) plus
// the shared shadow; the model keeps full 64-bit lines (no aliasing) and LRU stamps beside them.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/lru_policy.h"

namespace gms {

class AuxTagDirectory {
 public:
  enum class Outcome : uint8_t {
    NotSampled,  // the set is not shadowed: nothing counted
    PrivateHit,  // in the requesting cluster's stack: a predicted private hit
    CrossHit,  // not in the cluster's stack but in the shared shadow: a shared hit, a predicted private miss
    Miss,      // ATD miss (the line is installed, LRU victim evicted)
  };

  // `slice_sets` and `ways`: the shadowed slice's geometry. Sampled sets are spread evenly over the slice:
  // sets 0, stride, 2 x stride, ... with stride = slice_sets / sampled_sets (so a 48-set slice samples
  // sets 0, 6, ..., 42). `sampled_sets` must lie in [1, slice_sets]; ways in [1, 64].
  // `clusters`: SM clusters (requests carry cluster < clusters); `private_ways`: entries per cluster and
  // sampled set, 0 = max(1, ways / clusters).
  AuxTagDirectory(uint32_t slice_sets, uint32_t ways, uint32_t sampled_sets = 8, uint32_t clusters = 1,
                  uint32_t private_ways = 0);

  // One access of the shadowed slice: `line` its line address, `set` its set within the slice (as the
  // slice's own index function computed it: the ATD does not re-derive it, so any set hash works), and
  // the requesting SM's cluster. Every access counts, reads and writes alike, as the slice's hit rate does.
  Outcome access(uint64_t line, uint32_t set, unsigned cluster);

  // The bytes an ATD with these arguments allocates (line, valid flag and LRU stamp per entry of the
  // shared shadow and of every cluster's stacks). For the memory budget (models/system/memory_budget.h).
  static uint64_t footprint(uint32_t ways, uint32_t sampled_sets, uint32_t clusters,
                            uint32_t private_ways = 0);

  bool sampled(uint32_t set) const { return set % stride_ == 0 && set / stride_ < sampled_sets_; }
  uint32_t sampled_sets() const { return sampled_sets_; }
  uint32_t stride() const { return stride_; }
  uint32_t ways() const { return shared_.ways; }
  uint32_t private_ways() const { return private_ways_; }
  uint32_t clusters() const { return uint32_t(private_.size()); }

  // Counters of the current profiling window (accesses to sampled sets only).
  uint64_t accesses() const { return accesses_; }
  uint64_t private_hits() const { return private_hits_; }
  uint64_t hits() const { return shared_hits_; }  // what the shared slice would hit (the shared shadow)
  // 1 - private_hits / accesses; 0 when nothing was sampled (check accesses() first).
  double private_miss_rate() const {
    return accesses_ ? 1.0 - double(private_hits_) / double(accesses_) : 0.0;
  }

  // A new profiling window: counters to zero, entries kept (the shadowed slice stays warm too).
  void reset_counters() { accesses_ = private_hits_ = shared_hits_ = 0; }
  // The LLC was invalidated (private -> shared switch): entries and counters cleared.
  void clear();

 private:
  // One set-associative LRU shadow over the sampled sets.
  struct Shadow {
    Shadow(uint32_t sets, uint32_t ways);
    bool access(uint32_t slot, uint64_t line);  // true on a hit; a miss installs the line
    void clear();
    uint32_t sets, ways;
    std::vector<uint64_t> line;  // sets x ways
    std::vector<uint8_t> valid;  // sets x ways
    LruPolicy lru;
  };
  uint32_t sampled_sets_, stride_, private_ways_;
  Shadow shared_;                // the slice's own ways: what a shared slice hits
  std::vector<Shadow> private_;  // per cluster, private_ways ways
  uint64_t accesses_ = 0, private_hits_ = 0, shared_hits_ = 0;
};

const char* to_string(AuxTagDirectory::Outcome o);

}  // namespace gms
