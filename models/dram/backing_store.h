// The real contents of the whole GPU memory (global addresses), shared by every DRAM channel. Sparse:
// 4 KiB pages created on the first write (or DMI grant) and filled with gms::initial_byte(), so that
// memory nobody wrote still has known, checkable contents; a read of a page nobody wrote computes them
// and makes no page.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "models/common/data_budget.h"

namespace gms {

class BackingStore {
 public:
  static constexpr unsigned kPageBytes = 4096;  // also the DMI grant size
  static constexpr uint64_t page_base(uint64_t addr) { return addr & ~uint64_t(kPageBytes - 1); }

  // Every page and page-table region it creates is charged to `budget` (none: unbounded), before it is
  // made: a refused charge (DataBudgetExceeded) leaves the store as it was.
  explicit BackingStore(DataBudget* budget = nullptr) : budget_(budget) {}
  BackingStore(const BackingStore&) = delete;
  BackingStore& operator=(const BackingStore&) = delete;

  void read(uint64_t addr, uint8_t* dst, unsigned len);
  // byte_enable may be null (write all bytes); otherwise byte i is written when byte_enable[i] != 0
  // (TLM uses 0xff for enabled, 0x00 for disabled).
  void write(uint64_t addr, const uint8_t* src, unsigned len, const uint8_t* byte_enable);
  // The 4 KiB page holding addr (created if new); stays valid for the store's lifetime (DMI).
  uint8_t* page(uint64_t addr);
  size_t pages() const { return pages_; }
  // Heap bytes of its pages and page-table regions (what it charges).
  uint64_t data_bytes() const { return pages_ * kPageCost + regions_.size() * kRegionCost; }

 private:
  const uint8_t* find_page(uint64_t addr);  // nullptr: never written (no page)
  struct Page {
    uint8_t bytes[kPageBytes];
  };
  // The slot of addr's page in the page table (the page itself may be absent); nullptr when create is
  // false and addr's region has no table. Remembers the region for the next call.
  std::unique_ptr<Page>* slot_of(uint64_t addr, bool create);
  // Two-level page table: 1 GiB regions (hash map, few entries) of 2^18 page slots (flat array), so a
  // random access costs an array index instead of a hash-node walk.
  static constexpr unsigned kRegionShift = 30;
  static_assert(kPageBytes == 4096, "page index below uses addr >> 12");
  static constexpr size_t kPagesPerRegion = size_t(1) << (kRegionShift - 12);
  struct Region {
    std::unique_ptr<Page> pages[kPagesPerRegion];
  };
  static constexpr uint64_t kPageCost = sizeof(Page) + 16, kRegionCost = sizeof(Region) + 16 + 48;
  DataBudget* budget_;
  std::unordered_map<uint64_t, std::unique_ptr<Region>> regions_;
  uint64_t last_region_id_ = ~uint64_t(0);
  Region* last_region_ = nullptr;
  size_t pages_ = 0;
  // Streams touch the same page many times in a row: remember the last one to skip the hash lookup.
  uint64_t last_base_ = ~uint64_t(0);
  uint8_t* last_page_ = nullptr;
};

}  // namespace gms
