// The MUMmerGPU ports' shared input (mummer_input.h).
#include "tb/kernels/common/mummer_input.h"

#include <algorithm>

#include "tb/kernels/common/suffix_tree.h"

namespace gms::kernels::mummer {

Input make_input(uint32_t bases, uint32_t queries, uint32_t read_length, uint32_t mismatches, uint64_t seed) {
  Input in;
  uint64_t s = seed;
  in.reference.resize(bases);
  for (char& b : in.reference) b = "ACGT"[splitmix(s) & 3];
  in.reads.resize(queries);
  for (std::string& r : in.reads) {
    r = in.reference.substr(size_t(splitmix(s) % (uint64_t(bases) - read_length + 1)), read_length);
    if (mismatches > 0)
      for (char& b : r)
        if (splitmix(s) % 100 < mismatches) b = "CGTA"[base_index(b)];
  }
  return in;
}

Queries pack_queries(const std::vector<std::string>& reads) {
  Queries q;
  for (const std::string& r : reads) {
    q.addrs.push_back(int32_t(q.text.size()));
    q.lengths.push_back(int32_t(r.size()));
    q.text += 'q' + r + '\0';
  }
  return q;
}

std::string reference_page(const std::string& reference) {
  const size_t bases = reference.size();
  const size_t page_end = 1 + bases + (kMaxQueryLen + 1 + 1) / 2 + 1;  // pages[0].end
  std::string page(page_end + 2, '\0');
  page[0] = 's';
  std::copy(reference.begin(), reference.end(), page.begin() + 1);
  page[bases + 1] = '$';
  page[page.size() - 2] = '$';
  return page;
}

size_t common_prefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

}  // namespace gms::kernels::mummer
