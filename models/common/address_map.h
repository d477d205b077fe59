// Global physical address -> LLC slice -> DRAM channel, and the channel-local address the DRAM's own
// bank/row/column mapping works on. Consecutive interleave_bytes chunks rotate over the slices
// (optionally XOR-hashed with higher bits to spread power-of-two strides); slice s belongs to channel
// s / slices_per_channel. The map is a bijection: channel_addr() packs a channel's chunks densely.
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

struct AddressMapParams {
  uint32_t num_slices = 1;
  uint32_t num_channels = 1;
  uint64_t interleave_bytes = 256;  // power of two, >= 128
  bool xor_hash = false;  // slice = (chunk ^ higher chunk bits) mod slices (power-of-two slices only)
  static AddressMapParams from(const ConfigNode& n, uint32_t slices, uint32_t channels);
};

class AddressMap {
 public:
  explicit AddressMap(const AddressMapParams& p);
  uint32_t slice_of(uint64_t addr) const;
  uint32_t channel_of(uint64_t addr) const { return slice_of(addr) / slices_per_channel_; }
  uint32_t slices_per_channel() const { return slices_per_channel_; }
  // Dense address within the channel (what the DRAM's bank/row/column fields decode).
  uint64_t channel_addr(uint64_t addr) const;
  const AddressMapParams& params() const { return p_; }

 private:
  AddressMapParams p_;
  uint32_t slices_per_channel_;
  unsigned shift_;
};

}  // namespace gms
