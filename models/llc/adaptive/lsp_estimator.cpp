#include "models/llc/adaptive/lsp_estimator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/llc/slice_selector.h"

namespace gms {

LspEstimator::LspEstimator(unsigned slices, PrivateSliceFn private_slice, unsigned counter_bits)
    : private_slice_(std::move(private_slice)),
      max_(counter_bits >= 32 ? UINT32_MAX : (uint32_t(1) << counter_bits) - 1),
      shared_(slices, 0),
      private_(slices, 0) {
  if (slices == 0) throw std::invalid_argument("LSP estimator: no slices");
  if (counter_bits == 0 || counter_bits > 32)
    throw std::invalid_argument("LSP estimator: counter_bits must be in [1, 32]");
  if (!private_slice_) throw std::invalid_argument("LSP estimator: no private slice function");
}

LspEstimator::PrivateSliceFn LspEstimator::private_slice_of(const SliceSelector& sel) {
  // SliceSelector::slice_for's private branch, fed with the shared slice instead of the address: the
  // selector's own private result is (slice_of(addr) / spc) * spc + cluster(sm), the same value.
  return [&sel](unsigned shared_slice, unsigned sm) {
    const unsigned spc = sel.clusters();
    return (shared_slice / spc) * spc + sel.cluster_of(sm);
  };
}

void LspEstimator::bump(std::vector<uint32_t>& c, unsigned slice) {
  if (c[slice] == max_) {
    for (uint32_t& v : c) v >>= 1;
    ++halvings_;
  }
  ++c[slice];
}

void LspEstimator::record_pair(unsigned shared_slice, unsigned private_slice) {
  if (shared_slice >= shared_.size() || private_slice >= private_.size())
    throw std::out_of_range("LSP estimator: slice " + std::to_string(std::max(shared_slice, private_slice)) +
                            " of " + std::to_string(shared_.size()));
  bump(shared_, shared_slice);
  bump(private_, private_slice);
  ++requests_;
}

double LspEstimator::lsp(const std::vector<uint32_t>& counts) {
  uint64_t sum = 0;
  uint32_t mx = 0;
  for (uint32_t v : counts) {
    sum += v;
    mx = std::max(mx, v);
  }
  return mx ? double(sum) / double(mx) : 0.0;
}

void LspEstimator::reset() {
  std::fill(shared_.begin(), shared_.end(), 0);
  std::fill(private_.begin(), private_.end(), 0);
  requests_ = halvings_ = 0;
}

}  // namespace gms
