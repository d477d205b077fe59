// GoldenMemory: atomics (docs/atomics.md). The operands of a kernel's atomics are summed per element; at the
// kernel's end the image holds the start value plus that sum, whatever order the LLC applied them in. While
// the kernel runs, a load of such a byte may see any partial sum: it is counted racy and not checked.
#include <algorithm>

#include "tb/checker/golden_memory.h"

namespace gms {

void GoldenMemory::on_atomic(uint64_t, uint64_t, uint64_t addr, const uint8_t* operand, unsigned bytes) {
  ++atomics_seen_;
  uint64_t v = 0;
  for (unsigned b = 0; b < bytes && b < 8; ++b) v |= uint64_t(operand[b]) << (8 * b);
  auto [it, added] = atomic_sums_.try_emplace(addr);
  if (added) charge(kAtomicCost);
  AtomicSum& s = it->second;
  if (s.width && s.width != bytes) s.mixed = true;
  s.width = uint8_t(std::max<unsigned>(s.width, bytes));
  s.sum += v;
  for (uint64_t a = addr; a < addr + bytes; ++a) {  // an aligned element lies in one page
    auto [p, made] = atomic_pages_.try_emplace(a / kPageBytes);
    if (made) {
      charge(kAtomicPageCost);
      p->second = std::make_unique<AtomicBytes>();
    }
    p->second->set(a % kPageBytes);
  }
}

const GoldenMemory::AtomicBytes* GoldenMemory::atomic_page(uint64_t page) const {
  auto it = atomic_pages_.find(page);
  return it == atomic_pages_.end() ? nullptr : it->second.get();
}

// Byte by byte: atomic bytes are racy; the others are checked as usual.
void GoldenMemory::check_around_atomics(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* got,
                                        unsigned n, const AtomicBytes& atomic, Mismatch& m) {
  const uint64_t page = addr / kPageBytes;
  for (unsigned i = 0; i < n; ++i) {
    const uint64_t a = addr + i;
    if (atomic[a % kPageBytes]) {
      ++racy_bytes_;
      racy_in_load_ = true;
      continue;
    }
    const PageView& v = view(page);
    if (v.write || (v.image && v.image->has_unknown))
      check_bytes(warp_uid, seq, a, got + i, 1, v.write, v.image, m);
    else
      check_image(a, got + i, 1, v.image, m);
  }
}

void GoldenMemory::commit_atomics() {
  for (const auto& [addr, s] : atomic_sums_) {
    const uint64_t page = addr / kPageBytes;
    const unsigned o = unsigned(addr % kPageBytes);
    auto w = writes_.find(page);
    bool stored = false;
    if (w != writes_.end() && w->second)
      for (unsigned b = 0; b < s.width; ++b) stored |= w->second->written(o + b);
    ImagePage& img = image_page(page);
    bool unknown = s.mixed || stored;
    for (unsigned b = 0; b < s.width; ++b) unknown |= img.unknown[o + b];
    if (unknown) {
      atomic_unknown_.emplace_back(addr, s.width);
      continue;
    }
    uint64_t v = 0;
    for (unsigned b = 0; b < s.width; ++b) v |= uint64_t(img.bytes[o + b]) << (8 * b);
    v += s.sum;
    for (unsigned b = 0; b < s.width; ++b) img.bytes[o + b] = uint8_t(v >> (8 * b));
  }
  if (budget_) budget_->release(atomic_sums_.size() * kAtomicCost + atomic_pages_.size() * kAtomicPageCost);
  atomic_sums_.clear();
  atomic_pages_.clear();
  last_ = PageView();
}

void GoldenMemory::mark_unknown(uint64_t addr, unsigned n) {
  for (uint64_t a = addr; a < addr + n; ++a) {
    ImagePage& img = image_page(a / kPageBytes);
    img.unknown[a % kPageBytes] = true;
    img.has_unknown = true;
    auto [u, added] = unknown_values_.try_emplace(a);
    if (added) charge(kValueSetCost);
    u->second.set();  // any value
  }
  last_ = PageView();
}

}  // namespace gms
