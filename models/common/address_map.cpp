#include "models/common/address_map.h"

namespace gms {

AddressMapParams AddressMapParams::from(const ConfigNode& n, uint32_t slices, uint32_t channels) {
  AddressMapParams p;
  p.num_slices = slices;
  p.num_channels = channels;
  p.interleave_bytes = n.get_pow2("interleave_bytes", p.interleave_bytes, 128, 1ull << 30);
  p.xor_hash = n.get_bool("xor_hash", p.xor_hash);
  if (channels == 0 || slices % channels != 0)
    n.fail("", "LLC slices (" + std::to_string(slices) + ") must be a multiple of DRAM channels (" +
                   std::to_string(channels) + ")");
  if (p.xor_hash && (slices & (slices - 1)))
    n.fail("xor_hash", "needs a power-of-two number of slices, have " + std::to_string(slices));
  n.finish();
  return p;
}

AddressMap::AddressMap(const AddressMapParams& p)
    : p_(p), slices_per_channel_(p.num_slices / (p.num_channels ? p.num_channels : 1)), shift_(0) {
  while ((1ull << shift_) < p.interleave_bytes) ++shift_;
}

uint32_t AddressMap::slice_of(uint64_t addr) const {
  uint64_t chunk = addr >> shift_;
  if (p_.xor_hash) {
    uint64_t h = chunk;
    for (uint64_t hi = chunk / p_.num_slices; hi; hi /= p_.num_slices) h ^= hi;
    return uint32_t(h & (p_.num_slices - 1));
  }
  return uint32_t(chunk % p_.num_slices);
}

uint64_t AddressMap::channel_addr(uint64_t addr) const {
  uint64_t chunk = addr >> shift_;
  uint64_t row = chunk / p_.num_slices;  // which round of the rotation
  uint64_t within = slice_of(addr) % slices_per_channel_;
  uint64_t local_chunk = row * slices_per_channel_ + within;
  return (local_chunk << shift_) | (addr & (p_.interleave_bytes - 1));
}

}  // namespace gms
