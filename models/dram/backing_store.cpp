#include "models/dram/backing_store.h"

#include <algorithm>
#include <cstring>

namespace gms {

// gms::initial_byte() hashes addr >> 3 and picks byte addr & 7 of the hash: hash once per 8 bytes.
// (The store test checks a whole page against initial_byte().)
void BackingStore::fill_initial(uint64_t base, uint8_t* bytes) {
  for (unsigned w = 0; w < kPageBytes; w += 8) {
    uint64_t x = ((base + w) >> 3) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(bytes + w, &x, 8);  // byte i of the word = bits 8i.. of x
#else
    for (unsigned i = 0; i < 8; ++i) bytes[w + i] = uint8_t(x >> (8 * i));
#endif
  }
}

uint8_t* BackingStore::page(uint64_t addr) {
  uint64_t base = page_base(addr);
  if (base == last_base_) return last_page_;
  uint64_t region_id = addr >> kRegionShift;
  if (region_id != last_region_id_) {
    auto& r = regions_[region_id];
    if (!r) r = std::make_unique<Region>();
    last_region_id_ = region_id;
    last_region_ = r.get();
  }
  auto& slot = last_region_->pages[(addr >> 12) & (kPagesPerRegion - 1)];
  if (!slot) {
    slot = std::make_unique<Page>();
    fill_initial(base, slot->bytes);
    ++pages_;
  }
  last_base_ = base;
  last_page_ = slot->bytes;
  return last_page_;
}

void BackingStore::read(uint64_t addr, uint8_t* dst, unsigned len) {
  while (len) {
    unsigned off = unsigned(addr - page_base(addr));
    unsigned n = std::min(len, kPageBytes - off);
    std::memcpy(dst, page(addr) + off, n);
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
