#include "models/analytic/set_stacks.h"

namespace gms {

SetStacks::SetStacks(const SetIndexer& idx, uint32_t ways, bool exact_global)
    : idx_(idx), ways_(ways), holes_(idx.sets()), global_(1024), sets_(idx.sets(), ReuseTree(64)) {
  single_ = idx.sets() == 1;
  exact_ = exact_global && !single_;
  capacity_ = ways * idx.sets();
  if (single_) sets_.clear();
  if (!single_ && !exact_) nodes_.resize(capacity_);
}

void SetStacks::shadow_unlink(uint32_t s) {
  const uint32_t n = states_[s].sh_node;
  if (n == kNil) return;
  Node& x = nodes_[n];
  if (x.prev != kNil)
    nodes_[x.prev].next = x.next;
  else
    sh_head_ = x.next;
  if (x.next != kNil)
    nodes_[x.next].prev = x.prev;
  else
    sh_tail_ = x.prev;
  states_[s].sh_node = kNil;
  // The freed node goes to the tail's far end: reuse it by swapping with the last used node.
  const uint32_t last = --sh_used_;
  if (n != last) {
    nodes_[n] = nodes_[last];
    Node& m = nodes_[n];
    if (m.prev != kNil)
      nodes_[m.prev].next = n;
    else
      sh_head_ = n;
    if (m.next != kNil)
      nodes_[m.next].prev = n;
    else
      sh_tail_ = n;
    states_[m.owner].sh_node = n;
  }
}

inline void SetStacks::shadow_touch(uint32_t s) {
  uint32_t n = states_[s].sh_node;
  if (n != kNil) {
    if (n == sh_head_) return;
    Node& x = nodes_[n];  // unlink, keep the node
    nodes_[x.prev].next = x.next;
    if (x.next != kNil)
      nodes_[x.next].prev = x.prev;
    else
      sh_tail_ = x.prev;
  } else if (sh_used_ == capacity_) {  // the LRU line leaves; its node, unlinked, takes this one
    n = sh_tail_;
    Node& x = nodes_[n];
    states_[x.owner].sh_node = kNil;
    sh_tail_ = x.prev;
    if (sh_tail_ != kNil)
      nodes_[sh_tail_].next = kNil;
    else
      sh_head_ = kNil;
    x.owner = s;
    states_[s].sh_node = n;
  } else {
    n = sh_used_++;
    nodes_[n].owner = s;
    states_[s].sh_node = n;
  }
  Node& x = nodes_[n];
  x.prev = kNil;
  x.next = sh_head_;
  if (sh_head_ != kNil) nodes_[sh_head_].prev = n;
  sh_head_ = n;
  if (sh_tail_ == kNil) sh_tail_ = n;
}

uint32_t SetStacks::push_set(uint32_t set, uint32_t owner, uint32_t old_pos) {
  holes_reset_ = true;  // a renumbering relabels every hole: the list is rebuilt then
  auto relabel = [this, set](uint32_t o, uint32_t q) {
    if (o == kHole) {
      if (holes_reset_) holes_[set].clear();
      holes_reset_ = false;
      holes_[set].push_back(q);
    } else if (single_) {
      states_[o].gpos = q;
    } else {
      states_[o].spos = q;
    }
  };
  ReuseTree& tree = set_tree(set);
  const uint32_t p = old_pos ? tree.repush(old_pos, owner, relabel) : tree.push(owner, relabel);
  holes_reset_ = false;
  return p;
}

void SetStacks::touch(uint32_t s) {
  LineState& st = states_[s];
  const uint32_t set = st.set;
  // Whether the line enters the cache matters only when its set has a hole to fill.
  bool inserted = false;
  if (!holes_[set].empty()) {
    const uint32_t d = lookup(s).set_distance;
    inserted = d == kInfDistance || d >= ways_;
  }
  // An element already in the trees moves to the newest position (erase + push, fused).
  const uint32_t gpos = st.gpos, spos = gpos ? st.spos : 0;
  if (single_) {
    st.gpos = push_set(set, s, gpos);
  } else {
    if (exact_) {
      auto relabel = [this](uint32_t o, uint32_t p) { states_[o].gpos = p; };
      st.gpos = gpos ? global_.repush(gpos, s, relabel) : global_.push(s, relabel);
    }
    st.spos = push_set(set, s, spos);
    if (!exact_) {
      st.gpos = 1;  // resident (no global tree)
      shadow_touch(s);
    }
  }
  st.store_evicted = false;
  if (inserted && !holes_[set].empty()) {  // the free way left by a write-evict takes the line
    set_tree(set).erase(holes_[set].back());
    holes_[set].pop_back();
  }
}

void SetStacks::remove(uint32_t s) {
  LineState& st = states_[s];
  if (!st.gpos) return;
  const StackLookup d = lookup(s);
  const uint32_t pos = single_ ? st.gpos : st.spos;
  if (d.set_distance < ways_) {
    set_tree(st.set).reown(pos, kHole);
    holes_[st.set].push_back(pos);
  } else {
    set_tree(st.set).erase(pos);
  }
  if (exact_) global_.erase(st.gpos);
  if (!single_ && !exact_) shadow_unlink(s);
  st.gpos = st.spos = 0;
  st.store_evicted = true;
}

void SetStacks::clear() {
  global_.clear();
  for (auto& t : sets_) t.clear();
  for (auto& h : holes_) h.clear();
  sh_head_ = sh_tail_ = kNil;
  sh_used_ = 0;
  states_.clear();
}

size_t SetStacks::bytes() const {
  size_t b = global_.bytes() + states_.bytes() + nodes_.capacity() * sizeof(Node);
  for (const auto& t : sets_) b += t.bytes();
  return b;
}

}  // namespace gms
