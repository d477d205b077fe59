#include "models/cache/mshr_file.h"

#include <algorithm>
#include <stdexcept>

namespace gms {

MshrFile::MshrFile(uint32_t entries, uint32_t max_merge)
    : max_merge_(max_merge), reserved_(std::min(max_merge, kReservedWaiters)), slots_(entries) {
  if (entries == 0) throw std::invalid_argument("mshr: at least one entry");
  if (max_merge == 0) throw std::invalid_argument("mshr: max_merge must be at least 1");
  if (entries > 0xfffe) throw std::invalid_argument("mshr: at most 65534 entries");
  free_.reserve(entries);
  for (uint32_t i = entries; i-- > 0;) {
    free_.push_back(i);  // lowest index handed out first
    slots_[i].waiters.reserve(reserved_);
  }
  spare_lists_.reserve(entries);
  size_t n = 8;
  while (n < 2 * size_t(entries)) n <<= 1;
  index_.assign(n, Bucket{});
  index_mask_ = n - 1;
}

void MshrFile::index_insert(uint64_t line, uint32_t slot) {
  size_t h = home(line);
  while (index_[h].slot1) h = (h + 1) & index_mask_;
  index_[h] = Bucket{uint16_t(slot + 1), hint_of(line)};
}

// Backward-shift deletion keeps every probe chain unbroken without tombstones.
void MshrFile::index_erase(uint64_t line) {
  size_t h = home(line);
  const uint16_t want = hint_of(line);
  while (index_[h].hint != want || slots_[index_[h].slot1 - 1u].line != line) h = (h + 1) & index_mask_;
  size_t hole = h;
  for (size_t j = (hole + 1) & index_mask_; index_[j].slot1; j = (j + 1) & index_mask_) {
    size_t k = home(slots_[index_[j].slot1 - 1u].line);
    // Move j into the hole if its home does not lie cyclically in (hole, j].
    bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
    if (!stays) {
      index_[hole] = index_[j];
      hole = j;
    }
  }
  index_[hole] = Bucket{};
}

int32_t MshrFile::slot_of(uint64_t line) const {
  const uint16_t want = hint_of(line);
  for (size_t h = home(line); index_[h].slot1; h = (h + 1) & index_mask_)
    if (index_[h].hint == want && slots_[index_[h].slot1 - 1u].line == line)
      return int32_t(index_[h].slot1) - 1;
  return -1;
}

MshrFile::Entry* MshrFile::find(uint64_t line) {
  const int32_t i = slot_of(line);
  return i < 0 ? nullptr : &slots_[uint32_t(i)];
}

MshrFile::Entry& MshrFile::allocate(uint64_t line) {
  if (full()) throw std::logic_error("mshr: allocate on a full file");
  if (find(line)) throw std::logic_error("mshr: line already has an entry");
  uint32_t i = free_.back();
  free_.pop_back();
  ++used_;
  Entry& e = slots_[i];
  e.line = line;
  index_insert(line, i);
  e.issued_chunks = 0;
  e.no_fill = false;
  e.cookie = 0;
  e.waiters.clear();
  if (e.waiters.capacity() < reserved_ && !spare_lists_.empty()) {
    e.waiters.swap(spare_lists_.back());
    spare_lists_.pop_back();
  }
  return e;
}

std::vector<tlm::tlm_generic_payload*> MshrFile::release(uint64_t line) {
  const int32_t i = slot_of(line);
  if (i < 0) throw std::logic_error("mshr: release of a line without an entry");
  index_erase(line);
  --used_;
  free_.push_back(uint32_t(i));
  std::vector<tlm::tlm_generic_payload*> out;
  out.swap(slots_[uint32_t(i)].waiters);
  return out;
}

void MshrFile::recycle(std::vector<tlm::tlm_generic_payload*>&& list) {
  list.clear();
  if (list.capacity() >= reserved_ && spare_lists_.size() < slots_.size())
    spare_lists_.push_back(std::move(list));
}

}  // namespace gms
