// The testbench's golden memory (ARCHITECTURE.md, correctness contract). It mirrors what memory must hold
// and checks every load the SM returns as of the load's issue in its warp's program order: a byte the
// loading warp itself stored in this kernel before the load must read as the last such store's value (a
// store of the warp issued after the load, while it was in flight, must not be seen); a byte another warp
// stored in this kernel is racy (GPUs order memory only within a warp): it must hold a value some warp stored
// there (or the kernel-start value), and such loads are counted apart (racy_loads); any other
// byte must read as the kernel-start image (gms::initial_byte where nothing was ever written, else what
// earlier kernels left). Kernel end commits the kernel's stores.
// Storage is 4 KiB pages created when first written: no per-byte map. What a store of a warp overwrote is
// kept only while the warp has older loads in flight (a small per-warp undo log).
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "models/common/data_budget.h"
#include "models/common/memory_image.h"  // fill_initial_bytes, for callers
#include "models/common/stats.h"
#include "models/common/u64_slot_map.h"
#include "models/common/workload.h"

namespace gms {

// One load that returned wrong data: its first wrong byte and how many were wrong.
struct Mismatch {
  uint64_t warp_uid = 0;
  uint64_t load_addr = 0;
  unsigned load_bytes = 0;
  uint64_t addr = 0;  // first wrong byte
  uint8_t expected = 0;
  uint8_t got = 0;
  unsigned wrong_bytes = 0;
  uint64_t kernel = 0;  // kernels completed before the load
};
std::string to_string(const Mismatch& m);

class GoldenMemory : public MemObserver {
 public:
  static constexpr unsigned kPageBytes = 4096;
  static constexpr size_t kMaxReported = 10;

  // Statistics in a group of its own (name "golden_memory"), or hung under `parent` (e.g. the run's tree).
  GoldenMemory();
  explicit GoldenMemory(StatGroup& parent, const std::string& name = "golden_memory");

  // Charge every page and table entry it creates to `budget` (none: unbounded); a refused charge
  // (DataBudgetExceeded) ends the run, the checker's state after it is not meant to be used.
  void set_data_budget(DataBudget* budget) { budget_ = budget; }
  // Heap bytes of its pages and per-byte tables now (what it has charged and not given back).
  uint64_t data_bytes() const;

  void on_store(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data, unsigned bytes) override;
  void on_load_issue(uint64_t warp_uid, uint64_t seq, uint64_t first, uint64_t last) override;
  // A load that may read anywhere.
  void on_load_issue(uint64_t warp_uid, uint64_t seq) { on_load_issue(warp_uid, seq, 0, UINT64_MAX); }
  void on_load(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data, unsigned bytes) override;
  void on_load_done(uint64_t warp_uid, uint64_t seq) override;
  // Atomics of a kernel commute: their operands are summed per element and added to the image at the
  // kernel's end; a load of such a byte during the kernel is unordered (racy, not checked). An element
  // that a store also wrote in the kernel, or atomics of two widths overlap, ends unknown
  // (golden_atomics.cpp).
  void on_atomic(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* operand,
                 unsigned bytes) override;
  void on_kernel_end() override;
  // Without sequence numbers, for callers in program order with nothing in flight: the store comes first in
  // its warp's order, the load (checked at once) after every store so far.
  void on_store(uint64_t warp_uid, uint64_t addr, const uint8_t* data, unsigned bytes) {
    on_store(warp_uid, 0, addr, data, bytes);
  }
  void on_load(uint64_t warp_uid, uint64_t addr, const uint8_t* data, unsigned bytes) {
    on_load(warp_uid, UINT64_MAX, addr, data, bytes);
  }

  uint64_t loads_checked() const { return loads_checked_.value; }
  uint64_t bytes_checked() const { return bytes_checked_.value; }
  uint64_t mismatches() const { return mismatches_.value; }
  uint64_t racy_bytes() const { return racy_bytes_.value; }
  uint64_t racy_loads() const { return racy_loads_.value; }
  uint64_t write_conflicts() const { return write_conflicts_.value; }
  uint64_t atomics() const { return atomics_seen_.value; }
  uint64_t kernels() const { return kernels_.value; }
  bool passed() const { return mismatches_.value == 0; }
  // The first kMaxReported mismatching loads, in the order they were seen.
  const std::vector<Mismatch>& first_mismatches() const { return reported_; }
  const StatGroup& stats() const { return *stats_; }
  // Undo records held (bounded by the stores issued while older loads of the same warp are in flight).
  size_t undo_entries() const;

  // The committed image (contents at the start of the current kernel).
  uint8_t image_byte(uint64_t addr) const;
  // One line of counters, then one line per reported mismatch.
  void print_report(std::ostream& os) const;

 private:
  // Committed contents; `unknown` marks bytes two warps wrote in one kernel (no defined value).
  struct ImagePage {
    std::array<uint8_t, kPageBytes> bytes;
    std::bitset<kPageBytes> unknown;
    bool has_unknown = false;  // unknown.any(), kept so the common path does not scan the bitset
  };
  // This kernel's stores: each written byte's writer (warp uid + 1) and last value; `conflict` = a second
  // warp wrote it. What a load issued before that store must see is in the undo log.
  // Writers are 32-bit (a warp uid is its CTA's index in the kernel times warps per CTA plus its own) and
  // kept per 4-byte word: a word's written bytes nearly always share one writer. A word whose bytes have
  // different writers is `mixed` and its per-byte writers live in mixed_writers_. A page takes 9 KiB
  // (37 KiB with a 64-bit writer per byte): the pages are the checker's memory, touched during the run.
  using Writer = uint32_t;
  static constexpr unsigned kWordBytes = 4, kPageWords = kPageBytes / kWordBytes;
  struct WritePage {
    std::array<uint8_t, kPageBytes> value;
    std::array<Writer, kPageWords> word;                 // the writer of a word's written bytes, unless mixed
    std::array<uint64_t, kPageBytes / 64> written_bits;  // plain words: a word's four bits in one test
    std::bitset<kPageBytes> conflict;
    std::bitset<kPageWords> mixed;
    bool written(unsigned o) const { return written_bits[o / 64] >> (o % 64) & 1; }
    unsigned written_nibble(unsigned o) const {  // the four bits of the word at o (o % 4 == 0)
      return unsigned(written_bits[o / 64] >> (o % 64)) & 0xf;
    }
    void set_written(unsigned o) { written_bits[o / 64] |= uint64_t(1) << (o % 64); }
    void set_word_written(unsigned o) { written_bits[o / 64] |= uint64_t(0xf) << (o % 64); }
  };
  // The writer of byte o of page `page` (0: not written this kernel), and setting it.
  Writer writer_at(const WritePage& p, uint64_t page, unsigned o) const;
  void set_writer(WritePage& p, uint64_t page, unsigned o, Writer w);
  // What up to kUndoBytes bytes held before a store of the warp that was issued while older loads of the
  // warp were in flight: bit i of `own` says byte i held an earlier store of the warp (then old[i]), else
  // the byte held no store of the warp (the image, or another warp's racy bytes).
  static constexpr unsigned kUndoBytes = 16;
  struct Undo {
    uint64_t store_seq = 0;
    uint64_t addr = 0;
    unsigned bytes = 0;
    uint32_t own = 0;
    std::array<uint8_t, kUndoBytes> old;
  };
  // A warp with loads in flight: their sequence numbers (issue order) and spans, and the undo log (store
  // order) still needed by them. Slots are recycled; a warp has one only while it has loads in flight.
  struct InFlightLoad {
    uint64_t seq, first, last;  // bytes [first, last] it may read
  };
  struct WarpOrder {
    // Inline for the usual few loads: one host cache line less to miss per load on large presets.
    boost::container::small_vector<InFlightLoad, 3> loads;
    uint64_t first = UINT64_MAX, last = 0;  // the loads' spans together (a quick no for most stores)
    std::vector<Undo> undo;
    size_t undo_head = 0;  // records before it were dropped
  };

  explicit GoldenMemory(std::unique_ptr<StatGroup> stats);
  void check_image(uint64_t addr, const uint8_t* got, unsigned n, const ImagePage* ip, Mismatch& m);
  // A byte whose value the load's warp does not order (another warp wrote it this kernel, or two warps
  // did in an earlier one): it must be one that some writer produced. `last`: the latest value stored this
  // kernel (when w wrote it); `start`: the kernel-start value, unless the image marks it unknown.
  void check_racy(uint64_t addr, uint8_t got, const uint8_t* last, const ImagePage* ip, unsigned o,
                  Mismatch& m);
  void check_bytes(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* got, unsigned n,
                   const WritePage* w, const ImagePage* ip, Mismatch& m);
  // For load `seq` of a warp, per byte of one kBlockBytes block: the first undo record (in store order) of a
  // store of the warp issued after the load that covers the byte (what the load must see there), or null.
  // Built once per block and load, since the SM reports a returned line lane by lane.
  static constexpr unsigned kBlockBytes = 128;
  struct LaterStores {
    uint64_t uid = UINT64_MAX, seq = 0, block = 0, version = UINT64_MAX;
    std::array<const Undo*, kBlockBytes> first;
  };
  const std::array<const Undo*, kBlockBytes>& later_stores(const WarpOrder& wo, uint64_t warp_uid,
                                                           uint64_t seq, uint64_t block);
  // The warp's order if a store of the warp was issued after load `seq` (still in flight), else nullptr.
  const WarpOrder* order_with_later_stores(uint64_t warp_uid, uint64_t seq);
  WarpOrder* order_of(uint64_t warp_uid);  // nullptr: no loads in flight
  static bool read_by_a_load(const WarpOrder& wo, uint64_t addr, unsigned n);
  // warp_uid + 1; throws a clear error for a uid that does not fit (never a silent truncation). Inline:
  // the load check calls it for every lane.
  static Writer writer_id(uint64_t warp_uid) {
    if (__builtin_expect(warp_uid >= uint64_t(UINT32_MAX), 0)) throw_writer_range(warp_uid);
    return Writer(warp_uid + 1);
  }
  [[noreturn]] static void throw_writer_range(uint64_t warp_uid);
  void record_undo(WarpOrder& wo, Writer writer, uint64_t seq, uint64_t addr, unsigned n, const WritePage& p);
  // What its allocations cost on the heap, as charged to the budget.
  static constexpr uint64_t kImagePageCost = sizeof(ImagePage) + 16 + hash_entry_bytes<uint64_t, void*>();
  static constexpr uint64_t kWritePageCost = sizeof(WritePage) + 16 + 8;  // + its spare_pages_ slot
  static constexpr uint64_t kWriteEntryCost = hash_entry_bytes<uint64_t, void*>();
  static constexpr uint64_t kMixedCost = hash_entry_bytes<uint64_t, std::array<Writer, kWordBytes>>();
  static constexpr uint64_t kValueSetCost = hash_entry_bytes<uint64_t, std::bitset<256>>();
  void charge(uint64_t bytes) {
    if (budget_) budget_->charge(bytes, "golden memory");
  }
  ImagePage& image_page(uint64_t page);
  WritePage& write_page(uint64_t page);
  // The SM reports loads lane by lane, so consecutive calls mostly hit the same page: remember it.
  struct PageView {
    uint64_t page = UINT64_MAX;
    WritePage* write = nullptr;
    const ImagePage* image = nullptr;
  };
  const PageView& view(uint64_t page);

  // This kernel's atomics: per element (address), its width and the operands' sum; per page, which bytes
  // they touch (a load checks that bitmap only while the kernel has atomics).
  struct AtomicSum {
    uint64_t sum = 0;
    uint8_t width = 0;
    bool mixed = false;  // two widths overlapped: no defined result
  };
  using AtomicBytes = std::bitset<kPageBytes>;
  static constexpr uint64_t kAtomicCost = hash_entry_bytes<uint64_t, AtomicSum>();
  static constexpr uint64_t kAtomicPageCost = sizeof(AtomicBytes) + 16 + hash_entry_bytes<uint64_t, void*>();
  // The bytes of a page that atomics of this kernel touch, or null.
  const AtomicBytes* atomic_page(uint64_t page) const;
  void commit_atomics();
  void mark_unknown(uint64_t addr, unsigned n);  // any value (a store and atomics mixed)
  void check_around_atomics(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* got, unsigned n,
                            const AtomicBytes& atomic, Mismatch& m);

  std::unique_ptr<StatGroup> stats_;
  DataBudget* budget_ = nullptr;
  std::unordered_map<uint64_t, AtomicSum> atomic_sums_;
  std::unordered_map<uint64_t, std::unique_ptr<AtomicBytes>> atomic_pages_;
  std::vector<std::pair<uint64_t, unsigned>> atomic_unknown_;  // commit_atomics' elements also stored to
  uint64_t write_pages_made_ = 0;                              // spare or in writes_
  Counter& loads_checked_;
  Counter& bytes_checked_;
  Counter& mismatches_;
  Counter& racy_bytes_;
  Counter& racy_loads_;
  Counter& write_conflicts_;
  Counter& kernels_;
  Counter& atomics_seen_;
  std::unordered_map<uint64_t, std::unique_ptr<ImagePage>> image_;
  std::unordered_map<uint64_t, std::unique_ptr<WritePage>> writes_;
  std::vector<std::unique_ptr<WritePage>> spare_pages_;  // reused by later kernels
  // Per-byte writers of the mixed words of this kernel's pages, by word (address / kWordBytes).
  std::unordered_map<uint64_t, std::array<Writer, kWordBytes>> mixed_writers_;
  std::vector<Mismatch> reported_;
  // Values a byte held before a later store of this kernel overwrote it (only bytes stored more than once;
  // another warp may have read any of them), and for bytes the image marks unknown (two warps wrote them in
  // an earlier kernel) every value they were given then: what a racy load may see.
  using ValueSet = std::bitset<256>;
  std::unordered_map<uint64_t, ValueSet> overwritten_;
  std::unordered_map<uint64_t, ValueSet> unknown_values_;
  bool racy_in_load_ = false;
  U64SlotMap in_flight_;  // warp uid -> orders_ slot, for the warps with loads in flight
  std::vector<WarpOrder> orders_;
  std::vector<uint32_t> free_orders_;
  uint64_t cached_uid_ = UINT64_MAX;  // order_of()'s last answer (lanes of one warp come in a row)
  WarpOrder* cached_order_ = nullptr;
  uint64_t undo_version_ = 0;  // changes whenever an undo log changes (LaterStores must be rebuilt)
  LaterStores later_;
  PageView last_;                            // reset whenever a page is created or the kernel ends
  std::array<uint8_t, kPageBytes> scratch_;  // initial contents of a never-written range
};

}  // namespace gms
