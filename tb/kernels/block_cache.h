// Memory blocks that ended CTAs gave back, by size, for the next CTAs of a port's run: a steady stream of
// CTAs allocates nothing for its runs, warps and streams. At most kKeep blocks of a size and kSizes sizes are
// kept, so memory stays flat. Owned by the run (PortRuntime), not global: every block goes back to the cache
// it came from, which must outlive the CTAs (as the fiber stacks must).
#pragma once
#include <cstddef>
#include <new>
#include <vector>

namespace gms::kernels {

class BlockCache {
 public:
  BlockCache() = default;
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;
  ~BlockCache() {
    for (auto& l : lists_)
      for (void* p : l.free) ::operator delete(p);
  }
  void* take(size_t bytes) {
    for (auto& l : lists_)
      if (l.bytes == bytes && !l.free.empty()) {
        void* p = l.free.back();
        l.free.pop_back();
        return p;
      }
    return ::operator new(bytes);
  }
  void give(void* p, size_t bytes) {
    for (auto& l : lists_)
      if (l.bytes == bytes) {
        if (l.free.size() < kKeep) return l.free.push_back(p);
        return ::operator delete(p);
      }
    if (lists_.size() < kSizes) {
      lists_.push_back({bytes, {p}});
      return;
    }
    ::operator delete(p);
  }

 private:
  static constexpr size_t kKeep = 4096, kSizes = 16;
  struct List {
    size_t bytes;
    std::vector<void*> free;
  };
  std::vector<List> lists_;
};

// std::allocator's interface over a BlockCache (for allocate_shared).
template <class T>
struct CachedAlloc {
  using value_type = T;
  explicit CachedAlloc(BlockCache& c) : cache(&c) {}
  template <class U>
  CachedAlloc(const CachedAlloc<U>& o) : cache(o.cache) {}  // NOLINT: rebinding
  T* allocate(size_t n) { return static_cast<T*>(cache->take(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { cache->give(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const CachedAlloc<U>& o) const {
    return cache == o.cache;
  }
  template <class U>
  bool operator!=(const CachedAlloc<U>& o) const {
    return cache != o.cache;
  }
  BlockCache* cache;
};

}  // namespace gms::kernels
