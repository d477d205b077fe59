// A map from 64-bit keys to 32-bit slots, open addressing with linear probing in one flat table: a lookup
// reads one host cache line where std::unordered_map reads a bucket and then a node. For indexes that are
// looked up per request while their entries are cold in host caches (the golden checker's warps with loads
// in flight: 8,000 warps on the H100 preset). The key ~0 is reserved (it marks an empty bucket).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gms {

class U64SlotMap {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint64_t kEmptyKey = ~uint64_t(0);

  U64SlotMap() { rebuild(kMinBuckets); }

  // The key's slot, or kNone.
  uint32_t find(uint64_t key) const {
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      const Bucket& b = table_[i];
      if (b.key == key) return b.slot;
      if (b.key == kEmptyKey) return kNone;
    }
  }
  // Precondition: the key is absent and not kEmptyKey.
  void insert(uint64_t key, uint32_t slot) {
    if (key == kEmptyKey) throw std::logic_error("U64SlotMap: the key ~0 is reserved");
    if (2 * (size_ + 1) > table_.size()) rebuild(2 * table_.size());
    place(key, slot);
    ++size_;
  }
  // Removes the key; false if it was absent. Backward-shift deletion: no tombstones, probes stay short.
  bool erase(uint64_t key) {
    size_t i = home(key);
    for (;; i = (i + 1) & mask_) {
      if (table_[i].key == key) break;
      if (table_[i].key == kEmptyKey) return false;
    }
    for (size_t j = (i + 1) & mask_; table_[j].key != kEmptyKey; j = (j + 1) & mask_) {
      // The entry at j may move back to the hole at i unless its home lies cyclically in (i, j].
      const size_t h = home(table_[j].key);
      const bool stays = i < j ? (h > i && h <= j) : (h > i || h <= j);
      if (stays) continue;
      table_[i] = table_[j];
      i = j;
    }
    table_[i].key = kEmptyKey;
    --size_;
    return true;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    for (Bucket& b : table_) b.key = kEmptyKey;
    size_ = 0;
  }
  // f(key, slot) for every entry, in table order.
  template <class F>
  void for_each(F f) const {
    for (const Bucket& b : table_)
      if (b.key != kEmptyKey) f(b.key, b.slot);
  }

 private:
  static constexpr size_t kMinBuckets = 64;
  struct Bucket {
    uint64_t key = kEmptyKey;
    uint32_t slot = kNone;
  };
  // Fibonacci hashing: the top bits of key * 2^64/phi (consecutive warp ids spread over the table).
  size_t home(uint64_t key) const { return size_t((key * 0x9e3779b97f4a7c15ULL) >> shift_); }
  void place(uint64_t key, uint32_t slot) {
    size_t i = home(key);
    while (table_[i].key != kEmptyKey) i = (i + 1) & mask_;
    table_[i] = Bucket{key, slot};
  }
  void rebuild(size_t buckets) {  // buckets: a power of two
    std::vector<Bucket> old;
    old.swap(table_);
    table_.assign(buckets, Bucket());
    mask_ = buckets - 1;
    shift_ = unsigned(64 - __builtin_ctzll(buckets));
    for (const Bucket& b : old)
      if (b.key != kEmptyKey) place(b.key, b.slot);
  }

  std::vector<Bucket> table_;
  size_t mask_ = 0;
  unsigned shift_ = 0;
  size_t size_ = 0;
};

}  // namespace gms
