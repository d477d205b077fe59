#include "models/analytic/line_table.h"

namespace gms {

LineTable::LineTable() {
  table_.assign(1024, Bucket());
  mask_ = 1023;
  shift_ = 64 - 10;
}

uint32_t LineTable::add(uint64_t line, uint32_t i) {
  if (2 * (size_t(size_) + 1) > table_.size()) {
    grow();
    i = probe(line);
  }
  const uint32_t s = size_++;
  if ((s >> kPageBits) == pages_.size()) pages_.push_back(std::make_unique<LineState[]>(kPageMask + 1));
  LineState& st = (*this)[s];
  st = LineState();
  st.line = line;
  table_[i] = {tag_of(line), s + 1};
  return s;
}

void LineTable::grow() {
  std::vector<Bucket> old = std::move(table_);
  table_.assign(old.size() * 2, Bucket());
  mask_ = table_.size() - 1;
  --shift_;
  for (const Bucket& b : old)
    if (b.slot) table_[probe((*this)[b.slot - 1].line)] = b;
}

void LineTable::clear() {
  size_ = 0;  // the pages stay for the next kernel
  std::fill(table_.begin(), table_.end(), Bucket());
}

size_t LineTable::bytes() const {
  return pages_.size() * (kPageMask + 1) * sizeof(LineState) + table_.capacity() * sizeof(Bucket);
}

}  // namespace gms
