// Per-set reuse stacks (paper 003 sec. 4.3): one reuse tree per cache set, chosen by any of the cache
// core's set-index functions (Fermi XOR hash included), plus one global tree over all lines whose
// distance tells capacity from associativity misses. Per-line state lives in a LineTable (line_table.h).
// A store's write-evict of a line in the cache leaves a *hole* in its set stack: the way is free but the
// lines below keep their depth (an invalidation brings no evicted line back); the next line inserted into
// the set takes the hole. A line outside the cache is simply removed (it held no way).
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/line_table.h"
#include "models/analytic/reuse_tree.h"
#include "models/cache/set_index.h"

namespace gms {

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
  static constexpr uint32_t kNoSlot = LineTable::kNoSlot;
  uint32_t slot(uint64_t line) {
    bool added = false;
    const uint32_t s = states_.find_or_add(line, added);
    if (added) states_[s].set = idx_.set_of(line);
    return s;
  }
  uint32_t find(uint64_t line) const { return states_.find(line); }
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
  uint32_t push_set(uint32_t set, uint32_t owner, uint32_t old_pos);  // old_pos 0: a new element
  void shadow_unlink(uint32_t s);
  void shadow_touch(uint32_t s);
  ReuseTree& set_tree(uint32_t set) { return single_ ? global_ : sets_[set]; }

  SetIndexer idx_;
  uint32_t ways_;
  std::vector<std::vector<uint32_t>> holes_;  // hole positions per set (at most `ways` each)
  bool holes_reset_ = false;
  ReuseTree global_;
  std::vector<ReuseTree> sets_;
  LineTable states_;
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
};

}  // namespace gms
