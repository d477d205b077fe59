// Per-set reuse stacks (paper 003 sec. 4.3): one reuse tree per cache set, chosen by any of the cache
// core's set-index functions (Fermi XOR hash included), plus one global tree over all lines whose
// distance tells capacity from associativity misses. Lines live in a flat hash table of per-line state.
// A store's write-evict of a line in the cache leaves a *hole* in its set stack: the way is free but the
// lines below keep their depth (an invalidation brings no evicted line back); the next line inserted into
// the set takes the hole. A line outside the cache is simply removed (it held no way).
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/reuse_tree.h"
#include "models/l1/set_index.h"

namespace gms {

constexpr uint64_t kNever = ~uint64_t(0);
constexpr uint32_t kInfDistance = ~uint32_t(0);

struct LineState {
  uint64_t line = 0;  // byte address of the line
  uint32_t set = 0;
  uint32_t gpos = 0, spos = 0;      // positions in the global and the set tree (0 = not resident)
  uint64_t fill_time = kNever;      // an MSHR entry is in flight for the line until this time stamp
  uint32_t mshr_warp = 0;           // the warp that holds that entry
  uint64_t last_effect = kNever;    // time stamp of the line's last effect on the stack
  uint64_t evict_seq = 0;           // effects issued before this stamp are dropped (store write-evict)
  uint32_t sh_node = ~uint32_t(0);  // node in the shadow fully associative LRU (when not exact_global)
  bool seen = false;                // referenced before (not compulsory)
  bool store_evicted = false;       // removed by a store since its last effect
};

struct StackLookup {
  uint32_t set_distance = kInfDistance;  // distinct lines of the same set since the last effect
  // Distinct lines of any set since the last effect: exact with one set or exact_global, else kInfDistance.
  uint32_t global_distance = kInfDistance;
  bool fa_hit = false;  // a fully associative LRU cache of the same capacity holds the line
};

class SetStacks {
 public:
  // exact_global: keep a global reuse tree for exact whole-cache distances; otherwise (faster, the
  // default) a shadow fully associative LRU of the cache's capacity decides capacity vs associativity.
  SetStacks(const SetIndexer& idx, uint32_t ways, bool exact_global = false);

  // Slot of `line` (a line's byte address), created on first use; find() returns kNoSlot if absent.
  static constexpr uint32_t kNoSlot = ~uint32_t(0);
  uint32_t slot(uint64_t line);
  uint32_t find(uint64_t line) const;
  LineState& state(uint32_t s) { return states_[s]; }

  StackLookup lookup(uint32_t s) const {
    const LineState& st = states_[s];
    if (!st.gpos) return {};
    if (single_) {
      const uint32_t g = global_.newer_than(st.gpos);
      return {g, g, g < capacity_};
    }
    const uint32_t d = sets_[st.set].newer_than(st.spos);
    if (exact_) {
      const uint32_t g = global_.newer_than(st.gpos);
      return {d, g, g < capacity_};
    }
    return {d, kInfDistance, st.sh_node != kNil};
  }
  // The line becomes the most recent of its set and of the cache; when it was not in the cache it takes
  // a hole of its set if there is one.
  void touch(uint32_t s);
  // The line leaves the stacks (write-evict); in the cache it leaves a hole.
  void remove(uint32_t s);
  void clear();
  size_t lines() const { return states_.size(); }
  size_t bytes() const;

 private:
  static constexpr uint32_t kHole = 0xfffffffeu;
  uint32_t probe(uint64_t line) const;
  uint32_t push_set(uint32_t set, uint32_t owner);
  void shadow_unlink(uint32_t s);
  void shadow_touch(uint32_t s);
  ReuseTree& set_tree(uint32_t set) { return single_ ? global_ : sets_[set]; }
  void grow();

  SetIndexer idx_;
  uint32_t ways_;
  std::vector<std::vector<uint32_t>> holes_;  // hole positions per set (at most `ways` each)
  bool holes_reset_ = false;
  ReuseTree global_;
  std::vector<ReuseTree> sets_;
  std::vector<LineState> states_;
  struct Bucket {
    uint64_t key = 0;  // line + 1 (0 = empty)
    uint32_t slot = 0;
  };
  std::vector<Bucket> table_;  // open addressing, linear probing
  uint64_t mask_ = 0;
  bool single_ = false;    // one set: the set tree is the global tree
  bool exact_ = false;     // keep the global tree with several sets
  uint32_t capacity_ = 0;  // lines in the cache
  static constexpr uint32_t kNil = 0xffffffffu;
  // Shadow LRU: `capacity_` nodes in one small array (stays in the CPU cache), most recent at head.
  struct Node {
    uint32_t prev, next, owner;
  };
  std::vector<Node> nodes_;
  uint32_t sh_head_ = kNil, sh_tail_ = kNil, sh_used_ = 0;
  unsigned shift_ = 54;  // hash: top bits of a multiplicative hash
};

}  // namespace gms
