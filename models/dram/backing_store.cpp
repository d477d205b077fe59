#include "models/dram/backing_store.h"

#include <algorithm>
#include <cstring>

#include "models/common/memory_image.h"

namespace gms {

std::unique_ptr<BackingStore::Page>* BackingStore::slot_of(uint64_t addr, bool create) {
  const uint64_t region_id = addr >> kRegionShift;
  if (region_id != last_region_id_) {
    std::unique_ptr<Region>* r;
    if (create) {
      if (budget_ && !regions_.count(region_id)) budget_->charge(kRegionCost, "backing store");
      r = &regions_[region_id];
      if (!*r) *r = std::make_unique<Region>();
    } else {
      auto it = regions_.find(region_id);
      if (it == regions_.end()) return nullptr;
      r = &it->second;
    }
    last_region_id_ = region_id;
    last_region_ = r->get();
  }
  return &last_region_->pages[(addr >> 12) & (kPagesPerRegion - 1)];
}

uint8_t* BackingStore::page(uint64_t addr) {
  const uint64_t base = page_base(addr);
  if (base == last_base_) return last_page_;
  std::unique_ptr<Page>& slot = *slot_of(addr, true);
  if (!slot) {
    if (budget_) budget_->charge(kPageCost, "backing store");
    slot = std::make_unique<Page>();
    fill_initial_bytes(base, slot->bytes, kPageBytes);
    ++pages_;
  }
  last_base_ = base;
  last_page_ = slot->bytes;
  return last_page_;
}

const uint8_t* BackingStore::find_page(uint64_t addr) {
  const uint64_t base = page_base(addr);
  if (base == last_base_) return last_page_;
  std::unique_ptr<Page>* slot = slot_of(addr, false);
  if (!slot || !*slot) return nullptr;
  last_base_ = base;
  last_page_ = (*slot)->bytes;
  return last_page_;
}

void BackingStore::read(uint64_t addr, uint8_t* dst, unsigned len) {
  while (len) {
    unsigned off = unsigned(addr - page_base(addr));
    unsigned n = std::min(len, kPageBytes - off);
    if (const uint8_t* p = find_page(addr))
      std::memcpy(dst, p + off, n);
    else  // never written: computed, no page made (reads of input data would otherwise copy it all)
      fill_initial_bytes(addr, dst, n);
    addr += n;
    dst += n;
    len -= n;
  }
}

void BackingStore::write(uint64_t addr, const uint8_t* src, unsigned len, const uint8_t* byte_enable) {
  while (len) {
    unsigned off = unsigned(addr - page_base(addr));
    unsigned n = std::min(len, kPageBytes - off);
    uint8_t* p = page(addr) + off;
    if (!byte_enable) {
      std::memcpy(p, src, n);
    } else {
      for (unsigned i = 0; i < n; ++i)
        if (byte_enable[i]) p[i] = src[i];
      byte_enable += n;
    }
    addr += n;
    src += n;
    len -= n;
  }
}

}  // namespace gms
