#include "models/llc/slice_selector.h"

#include <stdexcept>
#include <string>

#include "models/common/sm_clusters.h"

namespace gms {

const char* to_string(LlcMode m) {
  return m == LlcMode::Private ? "private" : "shared";
}

SliceSelector::SliceSelector(const AddressMap& map, unsigned sms)
    : map_(map), spc_(map.slices_per_channel()), cluster_(sms), private_(sms, 0) {
  if (sms == 0) throw std::invalid_argument("slice selector: no SMs");
  for (unsigned i = 0; i < sms; ++i) cluster_[i] = sm_cluster(i, sms, spc_);
}

void SliceSelector::set_mode(unsigned first, unsigned last, LlcMode m) {
  if (first > last || last > private_.size())
    throw std::out_of_range("slice selector: SMs [" + std::to_string(first) + ", " + std::to_string(last) +
                            ") outside 0.." + std::to_string(private_.size()));
  for (unsigned i = first; i < last; ++i) private_[i] = m == LlcMode::Private;
}

}  // namespace gms
