#include "tb/checker/golden_memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "models/common/memory_image.h"

namespace gms {

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

// Appends a wrong byte to the load's mismatch record (the first one is kept in detail).
void note_byte(Mismatch& m, uint64_t addr, uint8_t expected, uint8_t got) {
  if (got == expected || m.wrong_bytes++ > 0) return;
  m.addr = addr;
  m.expected = expected;
  m.got = got;
}

constexpr const char* kGroupDesc = "golden-memory checker: every load against the model";

}  // namespace

void fill_initial_bytes(uint64_t addr, uint8_t* out, unsigned n) {
  // Same function as initial_byte(): the 8 bytes of an aligned word are the bytes of one hash of addr >> 3
  // (a test compares the two byte for byte).
  for (unsigned i = 0; i < n;) {
    const uint64_t a = addr + i;
    uint64_t x = (a >> 3) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    for (unsigned k = unsigned(a & 7); k < 8 && i < n; ++k, ++i) out[i] = uint8_t(x >> (k * 8));
  }
}

std::string to_string(const Mismatch& m) {
  return "kernel " + std::to_string(m.kernel) + " warp " + std::to_string(m.warp_uid) + " load " +
         hex(m.load_addr) + "+" + std::to_string(m.load_bytes) + ": byte " + hex(m.addr) + " expected " +
         hex(m.expected) + " got " + hex(m.got) + " (" + std::to_string(m.wrong_bytes) + " wrong bytes)";
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
      racy_bytes_(stats_->counter(
          "racy_bytes", "loaded bytes another warp wrote in the kernel (unordered, not checked)", "bytes")),
      write_conflicts_(
          stats_->counter("write_conflicts", "stored bytes a second warp wrote in the same kernel", "bytes")),
      kernels_(stats_->counter("kernels", "kernel ends committed", "kernels")) {}

GoldenMemory::ImagePage& GoldenMemory::image_page(uint64_t page) {
  auto& slot = image_[page];
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
  auto& slot = writes_[page];
  if (!slot) {
    if (spare_pages_.empty()) {
      slot.reset(new WritePage);  // default-initialised: cleared below like a recycled page
    } else {
      slot = std::move(spare_pages_.back());
      spare_pages_.pop_back();
    }
    slot->writer.fill(0);
    slot->conflict.reset();
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

uint8_t GoldenMemory::image_byte(uint64_t addr) const {
  auto it = image_.find(addr / kPageBytes);
  return it == image_.end() ? initial_byte(addr) : it->second->bytes[addr % kPageBytes];
}

void GoldenMemory::on_store(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                            unsigned bytes) {
  const uint64_t writer = warp_uid + 1;
  WarpOrder* wo = in_flight_.empty() ? nullptr : order_of(warp_uid);
  for (unsigned done = 0; done < bytes;) {
    const uint64_t a = addr + done;
    const unsigned offset = unsigned(a % kPageBytes);
    const unsigned n = std::min(bytes - done, kPageBytes - offset);
    WritePage& p = write_page(a / kPageBytes);
    if (wo) record_undo(*wo, writer, seq, a, n, p);
    for (unsigned i = 0; i < n; ++i) {
      const unsigned o = offset + i;
      if (p.writer[o] != 0 && p.writer[o] != writer) {
        ++write_conflicts_;
        p.conflict.set(o);
      }
      p.writer[o] = writer;
      p.seq[o] = seq;
      p.value[o] = data[done + i];
    }
    done += n;
  }
}

// Older loads of the warp are in flight: keep what the store is about to overwrite, for them.
void GoldenMemory::record_undo(WarpOrder& wo, uint64_t writer, uint64_t seq, uint64_t addr, unsigned n,
                               const WritePage& p) {
  for (unsigned d = 0; d < n; d += kUndoBytes) {
    Undo& u = wo.undo.emplace_back();
    u.store_seq = seq;
    u.addr = addr + d;
    u.bytes = std::min(kUndoBytes, n - d);
    u.own = 0;
    const unsigned offset = unsigned(u.addr % kPageBytes);
    for (unsigned i = 0; i < u.bytes; ++i) {
      const unsigned o = offset + i;
      if (p.writer[o] != writer || p.conflict[o]) continue;
      u.own |= 1u << i;
      u.old[i] = p.value[o];
    }
  }
}

GoldenMemory::WarpOrder* GoldenMemory::order_of(uint64_t warp_uid) {
  auto it = in_flight_.find(warp_uid);
  return it == in_flight_.end() ? nullptr : &orders_[it->second];
}

void GoldenMemory::on_load_issue(uint64_t warp_uid, uint64_t seq) {
  auto [it, fresh] = in_flight_.try_emplace(warp_uid, 0);
  if (fresh) {
    if (free_orders_.empty()) {
      it->second = uint32_t(orders_.size());
      orders_.emplace_back();
    } else {
      it->second = free_orders_.back();
      free_orders_.pop_back();
    }
  }
  orders_[it->second].loads.push_back(seq);
}

void GoldenMemory::on_load_done(uint64_t warp_uid, uint64_t seq) {
  auto it = in_flight_.find(warp_uid);
  WarpOrder* wo = it == in_flight_.end() ? nullptr : &orders_[it->second];
  auto l = wo ? std::find(wo->loads.begin(), wo->loads.end(), seq) : std::vector<uint64_t>::iterator();
  if (!wo || l == wo->loads.end())
    throw std::logic_error("golden memory: load " + std::to_string(seq) + " of warp " +
                           std::to_string(warp_uid) + " ended but was not issued");
  wo->loads.erase(l);
  if (wo->loads.empty()) {  // nothing left that could need the log
    wo->undo.clear();
    wo->undo_head = 0;
    free_orders_.push_back(it->second);
    in_flight_.erase(it);
    return;
  }
  // Records of stores older than every load still in flight can serve no load.
  const uint64_t oldest = *std::min_element(wo->loads.begin(), wo->loads.end());
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
  for (const auto& [uid, slot] : in_flight_) n += orders_[slot].undo.size() - orders_[slot].undo_head;
  return n;
}

const GoldenMemory::Undo& GoldenMemory::undo_for(uint64_t warp_uid, uint64_t seq, uint64_t addr) const {
  auto it = in_flight_.find(warp_uid);
  if (it != in_flight_.end()) {
    const WarpOrder& wo = orders_[it->second];
    // Records are in store order: the first one after the load that covers addr.
    auto u = std::upper_bound(wo.undo.begin() + ptrdiff_t(wo.undo_head), wo.undo.end(), seq,
                              [](uint64_t s, const Undo& r) { return s < r.store_seq; });
    for (; u != wo.undo.end(); ++u)
      if (addr - u->addr < u->bytes) return *u;
  }
  throw std::logic_error("golden memory: load " + std::to_string(seq) + " of warp " +
                         std::to_string(warp_uid) + " is older than the warp's store to " + hex(addr) +
                         " but was not announced with on_load_issue");
}

void GoldenMemory::on_load(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                           unsigned bytes) {
  ++loads_checked_;
  Mismatch m;
  for (unsigned done = 0; done < bytes;) {
    const uint64_t a = addr + done;
    const uint64_t page = a / kPageBytes;
    const unsigned offset = unsigned(a % kPageBytes);
    const unsigned n = std::min(bytes - done, kPageBytes - offset);
    const PageView& v = view(page);
    const WritePage* w = v.write;
    const ImagePage* ip = v.image;
    if (w || (ip && ip->has_unknown))
      check_bytes(warp_uid, seq, a, data + done, n, w, ip, m);
    else
      check_image(a, data + done, n, ip, m);
    done += n;
  }
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
  const uint64_t writer = warp_uid + 1;
  const unsigned offset = unsigned(addr % kPageBytes);
  for (unsigned i = 0; i < n; ++i) {
    const unsigned o = offset + i;
    if (w && w->writer[o] != 0) {
      if (w->conflict[o] || w->writer[o] != writer) {
        ++racy_bytes_;
        continue;
      }
      if (w->seq[o] < seq) {  // the warp's last store to the byte came before the load
        ++bytes_checked_;
        note_byte(m, addr + i, w->value[o], got[i]);
        continue;
      }
      // A store of the warp issued after the load overwrote the byte: what it held then.
      const Undo& u = undo_for(warp_uid, seq, addr + i);
      const unsigned k = unsigned(addr + i - u.addr);
      if (u.own >> k & 1) {
        ++bytes_checked_;
        note_byte(m, addr + i, u.old[k], got[i]);
        continue;
      }
    }
    uint8_t expected;
    if (ip) {
      if (ip->unknown[o]) {
        ++racy_bytes_;
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

void GoldenMemory::on_kernel_end() {
  for (auto& [page, w] : writes_) {
    ImagePage& img = image_page(page);
    for (unsigned o = 0; o < kPageBytes; ++o) {
      if (w->writer[o] == 0) continue;
      img.bytes[o] = w->value[o];
      img.unknown[o] = w->conflict[o];
    }
    img.has_unknown = img.unknown.any();
    spare_pages_.push_back(std::move(w));
  }
  writes_.clear();
  last_ = PageView();
  // No load is in flight at a kernel end; drop the bookkeeping anyway.
  for (const auto& [uid, slot] : in_flight_) {
    orders_[slot] = WarpOrder();
    free_orders_.push_back(slot);
  }
  in_flight_.clear();
  ++kernels_;
}

void GoldenMemory::print_report(std::ostream& os) const {
  os << "golden memory: " << (passed() ? "PASS" : "FAIL") << ", " << kernels() << " kernels, "
     << loads_checked() << " loads checked, " << bytes_checked() << " bytes checked, " << mismatches()
     << " mismatches, " << racy_bytes() << " racy bytes, " << write_conflicts() << " write conflicts\n";
  for (const Mismatch& m : reported_) os << "  mismatch: " << to_string(m) << "\n";
  if (mismatches() > reported_.size())
    os << "  ... and " << mismatches() - reported_.size() << " more mismatching loads\n";
}

}  // namespace gms
