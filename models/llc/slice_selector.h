// Which LLC slice serves a request (paper 004 sections 2 and 4.1), kept apart from which DRAM channel holds
// the address (AddressMap::channel_of, fixed): shared LLC, the slice the address map interleaves the line
// onto; private LLC, slice `cluster(SM)` of the memory controller that holds the address, so each cluster
// of SMs caches the whole partition of every controller in its own slice. The organisation can change at
// run time (the adaptive controller switches it after draining) and per SM, so that two programs on
// disjoint SM sets see different organisations at once. The clusters are the H-Xbar's (sm_clusters.h),
// one per slice of a memory controller (the co-design rule).
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/address_map.h"

namespace gms {

enum class LlcMode : uint8_t { Shared, Private };
const char* to_string(LlcMode m);

class SliceSelector {
 public:
  // `sms`: SMs (interconnect up ports, SM i on port i); clusters = the map's slices per channel.
  SliceSelector(const AddressMap& map, unsigned sms);

  unsigned slice_for(uint64_t addr, unsigned sm) const {
    const unsigned c = map_.slice_of(addr);
    if (!private_[sm]) return c;
    return (c / spc_) * spc_ + cluster_[sm];
  }
  // The organisation of every SM, or of SMs [first, last).
  void set_mode(LlcMode m) { set_mode(0, unsigned(private_.size()), m); }
  void set_mode(unsigned first, unsigned last, LlcMode m);
  LlcMode mode(unsigned sm) const { return private_.at(sm) ? LlcMode::Private : LlcMode::Shared; }
  unsigned cluster_of(unsigned sm) const { return cluster_.at(sm); }
  // Some SM uses a private LLC: a line may have copies in several slices of its channel.
  bool any_private() const {
    for (uint8_t p : private_)
      if (p) return true;
    return false;
  }
  // The slices that may hold a copy of `addr`: its home slice, or, with any SM private, every slice of
  // its channel.
  void holders(uint64_t addr, std::vector<unsigned>& out) const {
    const unsigned home = map_.slice_of(addr);
    if (!any_private()) {
      out.push_back(home);
      return;
    }
    for (unsigned k = 0; k < spc_; ++k) out.push_back((home / spc_) * spc_ + k);
  }
  unsigned clusters() const { return spc_; }
  unsigned sms() const { return unsigned(private_.size()); }

 private:
  const AddressMap& map_;
  unsigned spc_;
  std::vector<unsigned> cluster_;
  std::vector<uint8_t> private_;
};

}  // namespace gms
