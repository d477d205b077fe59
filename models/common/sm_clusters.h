// SM clusters: the H-Xbar's SM-routers each serve a cluster of SMs (paper 004 section 3.3), and a private
// LLC gives each cluster its own slice per memory controller (section 4.1). Both sides must agree on the
// clusters, so the rule lives here once: balanced contiguous clusters, SM i in cluster i x clusters / SMs.
#pragma once
#include <cstdint>

namespace gms {

inline unsigned sm_cluster(unsigned sm, unsigned sms, unsigned clusters) {
  return unsigned(uint64_t(sm) * clusters / sms);
}

}  // namespace gms
