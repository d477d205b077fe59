// Global physical address -> LLC slice -> DRAM channel, and the channel-local address the DRAM's own
// bank/row/column mapping works on. The address is cut into interleave_bytes chunks; chunk = q * slices +
// r, where q is the round of the rotation over the slices. `mapping` picks the channel (and with it the
// slice: slice s belongs to channel s / slices_per_channel):
//   bitfield: slice = r (optionally XOR-hashed with higher chunk bits, xor_hash): today's default.
//   pae:      channel = (r / spc) XOR fold(q) (Page Address Entropy; + fold(q) mod channels when the
//             count is not a power of two), slice within the channel = r % spc.
//   hynix:    channel = chunk mod channels (GPGPU-Sim's dramid@8 rule), slice within = (chunk / channels)
//             mod spc.
// For a fixed q every choice is a permutation of the slices, so the map stays a bijection:
// channel_addr() packs a channel's chunks densely as (q * spc + slice within channel) and global_addr()
// inverts it.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"

namespace gms {

enum class AddressMapping : uint8_t { Bitfield, Pae, Hynix };
const char* to_string(AddressMapping m);

struct AddressMapParams {
  uint32_t num_slices = 1;
  uint32_t num_channels = 1;
  uint64_t interleave_bytes = 256;  // power of two, >= 128
  bool xor_hash =
      false;  // bitfield only: slice = (chunk ^ higher chunk bits) mod slices (power-of-two slices)
  AddressMapping mapping = AddressMapping::Bitfield;
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
  // The inverse: the global address whose channel and channel address these are.
  uint64_t global_addr(uint32_t channel, uint64_t channel_addr) const;
  const AddressMapParams& params() const { return p_; }

 private:
  // pae: the channel's offset for round q (XOR-fold of q to channel_bits_ wide groups).
  uint32_t pae_fold(uint64_t q) const;
  AddressMapParams p_;
  uint32_t slices_per_channel_;
  unsigned shift_;
  unsigned channel_bits_;  // ceil(log2(num_channels))
  bool channels_pow2_;
};

}  // namespace gms
