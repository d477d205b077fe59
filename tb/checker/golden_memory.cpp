#include "tb/checker/golden_memory.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "models/common/memory_image.h"
#include "models/common/text_excerpt.h"

namespace gms {

namespace {

// Appends a wrong byte to the load's mismatch record (the first one is kept in detail).
void note_byte(Mismatch& m, uint64_t addr, uint8_t expected, uint8_t got) {
  if (got == expected || m.wrong_bytes++ > 0) return;
  m.addr = addr;
  m.expected = expected;
  m.got = got;
}

constexpr const char* kGroupDesc = "golden-memory checker: every load against the model";

}  // namespace

std::string to_string(const Mismatch& m) {
  return "kernel " + std::to_string(m.kernel) + " warp " + std::to_string(m.warp_uid) + " load " +
         to_hex(m.load_addr) + "+" + std::to_string(m.load_bytes) + ": byte " + to_hex(m.addr) +
         " expected " + to_hex(m.expected) + " got " + to_hex(m.got) + " (" + std::to_string(m.wrong_bytes) +
         " wrong bytes)";
}

GoldenMemory::GoldenMemory() : GoldenMemory(std::make_unique<StatGroup>("golden_memory", kGroupDesc)) {}

GoldenMemory::GoldenMemory(StatGroup& parent, const std::string& name)
    : GoldenMemory(std::make_unique<StatGroup>(parent, name, kGroupDesc)) {}

GoldenMemory::GoldenMemory(std::unique_ptr<StatGroup> stats)
    : stats_(std::move(stats)),
      loads_checked_(stats_->counter("loads_checked", "loads seen and checked byte by byte", "loads")),
      bytes_checked_(
          stats_->counter("bytes_checked", "loaded bytes compared with the golden value", "bytes")),
      mismatches_(stats_->counter("mismatches", "loads with at least one wrong byte", "loads")),
      racy_bytes_(stats_->counter("racy_bytes",
                                  "loaded bytes another warp wrote (unordered): checked against every value "
                                  "a writer gave them",
                                  "bytes")),
      racy_loads_(stats_->counter("racy_loads", "loads with at least one racy byte", "loads")),
      write_conflicts_(
          stats_->counter("write_conflicts", "stored bytes a second warp wrote in the same kernel", "bytes")),
      kernels_(stats_->counter("kernels", "kernel ends committed", "kernels")),
      atomics_seen_(stats_->counter("atomics", "atomic lane updates summed into the image at kernel ends",
                                    "updates")) {}

GoldenMemory::ImagePage& GoldenMemory::image_page(uint64_t page) {
  auto it = image_.find(page);
  if (it == image_.end()) {
    charge(kImagePageCost);
    it = image_.emplace(page, nullptr).first;
  }
  auto& slot = it->second;
  if (!slot) {
    last_ = PageView();
    slot = std::make_unique<ImagePage>();
    fill_initial_bytes(page * kPageBytes, slot->bytes.data(), kPageBytes);
  }
  return *slot;
}

GoldenMemory::WritePage& GoldenMemory::write_page(uint64_t page) {
  if (WritePage* cached = view(page).write) return *cached;
  last_ = PageView();
  charge(spare_pages_.empty() ? kWriteEntryCost + kWritePageCost : kWriteEntryCost);
  auto& slot = writes_[page];  // new: view() found none
  if (!slot) {
    if (spare_pages_.empty()) {
      slot.reset(new WritePage);  // default-initialised: cleared below like a recycled page
      ++write_pages_made_;
    } else {
      slot = std::move(spare_pages_.back());
      spare_pages_.pop_back();
    }
    slot->written_bits.fill(0);
    slot->conflict.reset();
    slot->mixed.reset();
  }
  return *slot;
}

const GoldenMemory::PageView& GoldenMemory::view(uint64_t page) {
  if (last_.page != page) {
    auto w = writes_.find(page);
    auto i = image_.find(page);
    last_.page = page;
    last_.write = w == writes_.end() ? nullptr : w->second.get();
    last_.image = i == image_.end() ? nullptr : i->second.get();
  }
  return last_;
}

uint64_t GoldenMemory::data_bytes() const {
  return image_.size() * kImagePageCost + write_pages_made_ * kWritePageCost +
         writes_.size() * kWriteEntryCost + mixed_writers_.size() * kMixedCost +
         (overwritten_.size() + unknown_values_.size()) * kValueSetCost + atomic_sums_.size() * kAtomicCost +
         atomic_pages_.size() * kAtomicPageCost;
}

uint8_t GoldenMemory::image_byte(uint64_t addr) const {
  auto it = image_.find(addr / kPageBytes);
  return it == image_.end() ? initial_byte(addr) : it->second->bytes[addr % kPageBytes];
}

void GoldenMemory::throw_writer_range(uint64_t warp_uid) {
  throw std::runtime_error("golden memory: warp uid " + std::to_string(warp_uid) +
                           " is beyond the checker's 32-bit writer ids (a kernel of more than " +
                           std::to_string(UINT32_MAX - 1) + " warps); run with --no-check");
}

GoldenMemory::Writer GoldenMemory::writer_at(const WritePage& p, uint64_t page, unsigned o) const {
  if (!p.written(o)) return 0;
  const unsigned wi = o / kWordBytes;
  if (!p.mixed[wi]) return p.word[wi];
  return mixed_writers_.at(page * kPageWords + wi)[o % kWordBytes];
}

void GoldenMemory::set_writer(WritePage& p, uint64_t page, unsigned o, Writer w) {
  const unsigned wi = o / kWordBytes, first = wi * kWordBytes;
  if (p.mixed[wi]) {
    mixed_writers_[page * kPageWords + wi][o % kWordBytes] = w;
  } else if (!p.written_nibble(first)) {
    p.word[wi] = w;
  } else if (p.word[wi] != w) {  // a second writer in the word: per-byte writers from here on
    charge(kMixedCost);
    auto& bytes = mixed_writers_[page * kPageWords + wi];
    for (unsigned b = 0; b < kWordBytes; ++b) bytes[b] = p.written(first + b) ? p.word[wi] : 0;
    bytes[o % kWordBytes] = w;
    p.mixed.set(wi);
  }
  p.set_written(o);
}

void GoldenMemory::on_store(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                            unsigned bytes) {
  const Writer writer = writer_id(warp_uid);
  WarpOrder* wo = in_flight_.empty() ? nullptr : order_of(warp_uid);
  for (unsigned done = 0; done < bytes;) {
    const uint64_t a = addr + done;
    const unsigned offset = unsigned(a % kPageBytes);
    const unsigned n = std::min(bytes - done, kPageBytes - offset);
    const uint64_t page = a / kPageBytes;
    WritePage& p = write_page(page);
    if (wo && read_by_a_load(*wo, a, n)) record_undo(*wo, writer, seq, a, n, p);
    for (unsigned i = 0; i < n; ++i) {
      const unsigned o = offset + i;
      if (o % kWordBytes == 0 && n - i >= kWordBytes && !p.written_nibble(o)) {
        // A whole word nobody wrote this kernel (the common case): one writer, nothing overwritten.
        p.word[o / kWordBytes] = writer;
        p.set_word_written(o);
        std::memcpy(&p.value[o], data + done + i, kWordBytes);
        i += kWordBytes - 1;
        continue;
      }
      if (p.written(o)) {
        if (writer_at(p, page, o) != writer) {
          ++write_conflicts_;
          p.conflict.set(o);
        }
        // Another warp may still read the older value.
        auto [h, added] = overwritten_.try_emplace(a - offset + o);
        h->second.set(p.value[o]);
        if (added) charge(kValueSetCost);
      }
      set_writer(p, page, o, writer);
      p.value[o] = data[done + i];
    }
    done += n;
  }
}

// Whether a load of the warp in flight may read a byte of [addr, addr + n) (n >= 1, no wrap).
bool GoldenMemory::read_by_a_load(const WarpOrder& wo, uint64_t addr, unsigned n) {
  if (addr > wo.last || addr + (n - 1) < wo.first) return false;
  for (const InFlightLoad& l : wo.loads)
    if (addr <= l.last && addr + (n - 1) >= l.first) return true;
  return false;
}

// Older loads of the warp that may read the bytes are in flight: keep what the store is about to
// overwrite, for them.
void GoldenMemory::record_undo(WarpOrder& wo, Writer writer, uint64_t seq, uint64_t addr, unsigned n,
                               const WritePage& p) {
  ++undo_version_;
  for (unsigned d = 0; d < n; d += kUndoBytes) {
    Undo& u = wo.undo.emplace_back();
    u.store_seq = seq;
    u.addr = addr + d;
    u.bytes = std::min(kUndoBytes, n - d);
    u.own = 0;
    const unsigned offset = unsigned(u.addr % kPageBytes);
    const uint64_t page = u.addr / kPageBytes;
    for (unsigned i = 0; i < u.bytes; ++i) {
      const unsigned o = offset + i;
      if (p.conflict[o] || writer_at(p, page, o) != writer) continue;
      u.own |= 1u << i;
      u.old[i] = p.value[o];
    }
  }
}

GoldenMemory::WarpOrder* GoldenMemory::order_of(uint64_t warp_uid) {
  if (warp_uid != cached_uid_) {
    const uint32_t slot = in_flight_.find(warp_uid);
    cached_uid_ = warp_uid;
    cached_order_ = slot == U64SlotMap::kNone ? nullptr : &orders_[slot];
  }
  return cached_order_;
}

void GoldenMemory::on_load_issue(uint64_t warp_uid, uint64_t seq, uint64_t first, uint64_t last) {
  uint32_t slot = in_flight_.find(warp_uid);
  if (slot == U64SlotMap::kNone) {
    cached_uid_ = UINT64_MAX;  // orders_ may move, and the warp had no order
    if (free_orders_.empty()) {
      slot = uint32_t(orders_.size());
      orders_.emplace_back();
    } else {
      slot = free_orders_.back();
      free_orders_.pop_back();
    }
    in_flight_.insert(warp_uid, slot);
  }
  WarpOrder& wo = orders_[slot];
  wo.loads.push_back({seq, first, last});
  wo.first = std::min(wo.first, first);
  wo.last = std::max(wo.last, last);
}

void GoldenMemory::on_load_done(uint64_t warp_uid, uint64_t seq) {
  const uint32_t slot = in_flight_.find(warp_uid);
  WarpOrder* wo = slot == U64SlotMap::kNone ? nullptr : &orders_[slot];
  auto l = wo ? std::find_if(wo->loads.begin(), wo->loads.end(),
                             [&](const InFlightLoad& x) { return x.seq == seq; })
              : decltype(wo->loads)::iterator();
  if (!wo || l == wo->loads.end())
    throw std::logic_error("golden memory: load " + std::to_string(seq) + " of warp " +
                           std::to_string(warp_uid) + " ended but was not issued");
  wo->loads.erase(l);
  ++undo_version_;
  if (wo->loads.empty()) {  // nothing left that could need the log
    wo->undo.clear();
    wo->undo_head = 0;
    wo->first = UINT64_MAX;
    wo->last = 0;
    free_orders_.push_back(slot);
    in_flight_.erase(warp_uid);
    cached_uid_ = UINT64_MAX;
    return;
  }
  // Records of stores older than every load still in flight can serve no load.
  uint64_t oldest = UINT64_MAX;
  wo->first = UINT64_MAX;
  wo->last = 0;
  for (const InFlightLoad& x : wo->loads) {
    oldest = std::min(oldest, x.seq);
    wo->first = std::min(wo->first, x.first);
    wo->last = std::max(wo->last, x.last);
  }
  while (wo->undo_head < wo->undo.size() && wo->undo[wo->undo_head].store_seq < oldest) ++wo->undo_head;
  if (wo->undo_head == wo->undo.size()) {
    wo->undo.clear();
    wo->undo_head = 0;
  } else if (wo->undo_head >= 64 && 2 * wo->undo_head >= wo->undo.size()) {
    wo->undo.erase(wo->undo.begin(), wo->undo.begin() + ptrdiff_t(wo->undo_head));
    wo->undo_head = 0;
  }
}

size_t GoldenMemory::undo_entries() const {
  size_t n = 0;
  in_flight_.for_each(
      [&](uint64_t, uint32_t slot) { n += orders_[slot].undo.size() - orders_[slot].undo_head; });
  return n;
}

const GoldenMemory::WarpOrder* GoldenMemory::order_with_later_stores(uint64_t warp_uid, uint64_t seq) {
  const WarpOrder* wo = in_flight_.empty() ? nullptr : order_of(warp_uid);
  if (!wo || wo->undo.size() == wo->undo_head || wo->undo.back().store_seq < seq) return nullptr;
  return wo;
}

const std::array<const GoldenMemory::Undo*, GoldenMemory::kBlockBytes>& GoldenMemory::later_stores(
    const WarpOrder& wo, uint64_t warp_uid, uint64_t seq, uint64_t block) {
  LaterStores& c = later_;
  if (c.uid == warp_uid && c.seq == seq && c.block == block && c.version == undo_version_) return c.first;
  c.uid = warp_uid;
  c.seq = seq;
  c.block = block;
  c.version = undo_version_;
  c.first.fill(nullptr);
  // Records are in store order: skip those of stores before the load; the first to cover a byte wins.
  auto u = std::upper_bound(wo.undo.begin() + ptrdiff_t(wo.undo_head), wo.undo.end(), seq,
                            [](uint64_t s, const Undo& r) { return s < r.store_seq; });
  for (; u != wo.undo.end(); ++u) {
    if (u->addr / kBlockBytes != block && (u->addr + (u->bytes - 1)) / kBlockBytes != block) continue;
    for (unsigned i = 0; i < u->bytes; ++i) {
      const uint64_t a = u->addr + i;
      if (a / kBlockBytes == block && !c.first[a % kBlockBytes]) c.first[a % kBlockBytes] = &*u;
    }
  }
  return c.first;
}

void GoldenMemory::on_load(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                           unsigned bytes) {
  ++loads_checked_;
  racy_in_load_ = false;
  Mismatch m;
  for (unsigned done = 0; done < bytes;) {
    const uint64_t a = addr + done;
    const uint64_t page = a / kPageBytes;
    const unsigned offset = unsigned(a % kPageBytes);
    const unsigned n = std::min(bytes - done, kPageBytes - offset);
    const PageView& v = view(page);
    const WritePage* w = v.write;
    const ImagePage* ip = v.image;
    if (const AtomicBytes* at = atomic_sums_.empty() ? nullptr : atomic_page(page))
      check_around_atomics(warp_uid, seq, a, data + done, n, *at, m);
    else if (w || (ip && ip->has_unknown))
      check_bytes(warp_uid, seq, a, data + done, n, w, ip, m);
    else
      check_image(a, data + done, n, ip, m);
    done += n;
  }
  if (racy_in_load_) ++racy_loads_;
  if (m.wrong_bytes == 0) return;
  ++mismatches_;
  if (reported_.size() < kMaxReported) {
    m.warp_uid = warp_uid;
    m.load_addr = addr;
    m.load_bytes = bytes;
    m.kernel = kernels_.value;
    reported_.push_back(m);
  }
}

// The common case, nothing written or unknown in the page: one block compare with the image.
void GoldenMemory::check_image(uint64_t addr, const uint8_t* got, unsigned n, const ImagePage* ip,
                               Mismatch& m) {
  const uint8_t* expected;
  if (ip) {
    expected = ip->bytes.data() + addr % kPageBytes;
  } else {
    fill_initial_bytes(addr, scratch_.data(), n);
    expected = scratch_.data();
  }
  bytes_checked_ += n;
  if (std::memcmp(got, expected, n) == 0) return;
  for (unsigned i = 0; i < n; ++i) note_byte(m, addr + i, expected[i], got[i]);
}

// Byte by byte: this kernel's stores first (own warp's checked as of the load's issue, other warps' racy),
// then the image.
void GoldenMemory::check_bytes(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* got, unsigned n,
                               const WritePage* w, const ImagePage* ip, Mismatch& m) {
  const Writer writer = writer_id(warp_uid);
  const unsigned offset = unsigned(addr % kPageBytes);
  const uint64_t page = addr / kPageBytes;
  const WarpOrder* wo = w ? order_with_later_stores(warp_uid, seq) : nullptr;
  const std::array<const Undo*, kBlockBytes>* later = nullptr;  // of block later_block
  uint64_t later_block = 0;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned o = offset + i;
    if (w && w->written(o)) {
      if (w->conflict[o] || writer_at(*w, page, o) != writer) {
        check_racy(addr + i, got[i], &w->value[o], ip, o, m);
        continue;
      }
      // The warp's last store, unless a store of the warp issued after the load overwrote the byte: then
      // what it held before the first such store (an earlier store of the warp, or the image).
      const Undo* u = nullptr;
      if (wo) {
        const uint64_t a = addr + i;
        if (!later || a / kBlockBytes != later_block) {
          later_block = a / kBlockBytes;
          later = &later_stores(*wo, warp_uid, seq, later_block);
        }
        u = (*later)[a % kBlockBytes];
      }
      const unsigned k = u ? unsigned(addr + i - u->addr) : 0;
      if (!u || u->own >> k & 1) {
        ++bytes_checked_;
        note_byte(m, addr + i, u ? u->old[k] : w->value[o], got[i]);
        continue;
      }
    }
    uint8_t expected;
    if (ip) {
      if (ip->unknown[o]) {
        check_racy(addr + i, got[i], nullptr, ip, o, m);
        continue;
      }
      expected = ip->bytes[o];
    } else {
      expected = initial_byte(addr + i);
    }
    ++bytes_checked_;
    note_byte(m, addr + i, expected, got[i]);
  }
}

void GoldenMemory::check_racy(uint64_t addr, uint8_t got, const uint8_t* last, const ImagePage* ip,
                              unsigned o, Mismatch& m) {
  ++racy_bytes_;
  racy_in_load_ = true;
  if (last && got == *last) return;
  if (ip && ip->unknown[o]) {  // two warps wrote it in an earlier kernel: any of their values
    auto u = unknown_values_.find(addr);
    if (u != unknown_values_.end() && u->second[got]) return;
  } else if (got == (ip ? ip->bytes[o] : initial_byte(addr))) {
    return;  // the load ran before every store of this kernel to the byte
  }
  if (last) {
    auto h = overwritten_.find(addr);
    if (h != overwritten_.end() && h->second[got]) return;
  }
  note_byte(m, addr, last ? *last : ip->bytes[o], got);  // a value no writer produced
}

void GoldenMemory::on_kernel_end() {
  // Atomics first: they read the kernel-start image and which bytes stores wrote (elements with both end
  // unknown, marked after the stores' commit).
  if (!atomic_sums_.empty()) commit_atomics();
  for (auto& [page, w] : writes_) {
    ImagePage& img = image_page(page);
    for (unsigned o = 0; o < kPageBytes; ++o) {
      if (!w->written(o)) continue;
      img.bytes[o] = w->value[o];
      img.unknown[o] = w->conflict[o];
      const uint64_t a = page * kPageBytes + o;
      if (w->conflict[o]) {  // memory holds one of the values the warps stored; which one is unordered
        auto [u, added] = unknown_values_.try_emplace(a);
        if (added) charge(kValueSetCost);
        ValueSet& vs = u->second;
        vs.reset();
        vs.set(w->value[o]);
        auto h = overwritten_.find(a);
        if (h != overwritten_.end()) vs |= h->second;
      } else if (!unknown_values_.empty() && unknown_values_.erase(a)) {  // one writer: known again
        if (budget_) budget_->release(kValueSetCost);
      }
    }
    img.has_unknown = img.unknown.any();
    spare_pages_.push_back(std::move(w));
  }
  for (const auto& [addr, width] : atomic_unknown_) mark_unknown(addr, width);
  atomic_unknown_.clear();
  if (budget_)
    budget_->release((writes_.size() * kWriteEntryCost) + mixed_writers_.size() * kMixedCost +
                     overwritten_.size() * kValueSetCost);
  writes_.clear();
  mixed_writers_.clear();
  overwritten_.clear();
  last_ = PageView();
  // No load is in flight at a kernel end; drop the bookkeeping anyway.
  in_flight_.for_each([&](uint64_t, uint32_t slot) {
    orders_[slot] = WarpOrder();
    free_orders_.push_back(slot);
  });
  in_flight_.clear();
  cached_uid_ = UINT64_MAX;
  ++undo_version_;
  ++kernels_;
}

void GoldenMemory::print_report(std::ostream& os) const {
  os << "golden memory: " << (passed() ? "PASS" : "FAIL") << ", " << kernels() << " kernels, "
     << loads_checked() << " loads checked, " << bytes_checked() << " bytes checked, " << mismatches()
     << " mismatches, " << racy_loads() << " racy loads (" << racy_bytes() << " bytes), " << write_conflicts()
     << " write conflicts\n";
  for (const Mismatch& m : reported_) os << "  mismatch: " << to_string(m) << "\n";
  if (mismatches() > reported_.size())
    os << "  ... and " << mismatches() - reported_.size() << " more mismatching loads\n";
}

}  // namespace gms
