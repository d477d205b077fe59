#include "models/common/address_map.h"

namespace gms {

const char* to_string(AddressMapping m) {
  switch (m) {
    case AddressMapping::Pae:
      return "pae";
    case AddressMapping::Hynix:
      return "hynix";
    default:
      return "bitfield";
  }
}

AddressMapParams AddressMapParams::from(const ConfigNode& n, uint32_t slices, uint32_t channels) {
  AddressMapParams p;
  p.num_slices = slices;
  p.num_channels = channels;
  p.interleave_bytes = n.get_pow2("interleave_bytes", p.interleave_bytes, 128, 1ull << 30);
  p.xor_hash = n.get_bool("xor_hash", p.xor_hash);
  const std::string m = n.get_choice("mapping", "bitfield", {"bitfield", "pae", "hynix"});
  p.mapping = m == "pae"     ? AddressMapping::Pae
              : m == "hynix" ? AddressMapping::Hynix
                             : AddressMapping::Bitfield;
  if (channels == 0 || slices % channels != 0)
    n.fail("",
           "LLC slices (" + std::to_string(slices) + ") must be a multiple of DRAM channels (" +
               std::to_string(channels) + ")",
           {"llc.slices", "dram.channels"});
  if (p.xor_hash && (slices & (slices - 1)))
    n.fail("xor_hash", "needs a power-of-two number of slices, have " + std::to_string(slices),
           {"llc.slices"});
  // pae and hynix choose the channel themselves; a second hash on top would be neither mapping.
  if (p.xor_hash && p.mapping != AddressMapping::Bitfield)
    n.fail(n.has("mapping") ? "mapping" : "xor_hash",
           std::string("xor_hash belongs to the bitfield mapping; ") + to_string(p.mapping) +
               " chooses the channel itself (set xor_hash: false)");
  n.finish();
  return p;
}

AddressMap::AddressMap(const AddressMapParams& p)
    : p_(p),
      slices_per_channel_(p.num_slices / (p.num_channels ? p.num_channels : 1)),
      shift_(0),
      channel_bits_(0),
      channels_pow2_((p.num_channels & (p.num_channels - 1)) == 0) {
  if (p_.num_channels == 0) p_.num_channels = 1;
  while ((1ull << shift_) < p.interleave_bytes) ++shift_;
  while ((1u << channel_bits_) < p_.num_channels) ++channel_bits_;
}

uint32_t AddressMap::pae_fold(uint64_t q) const {
  if (channel_bits_ == 0) return 0;
  const uint64_t mask = (uint64_t(1) << channel_bits_) - 1;
  uint64_t h = 0;
  for (; q; q >>= channel_bits_) h ^= q & mask;
  return uint32_t(h);
}

uint32_t AddressMap::slice_of(uint64_t addr) const {
  const uint64_t chunk = addr >> shift_;
  const uint32_t spc = slices_per_channel_, C = p_.num_channels;
  switch (p_.mapping) {
    case AddressMapping::Pae: {
      const uint64_t q = chunk / p_.num_slices;
      const uint32_t r = uint32_t(chunk % p_.num_slices), h = pae_fold(q);
      // XOR leaves [0, C) when C is not a power of two; adding modulo C is the same permutation idea.
      const uint32_t ch = channels_pow2_ ? (r / spc) ^ h : uint32_t((r / spc + h) % C);
      return ch * spc + r % spc;
    }
    case AddressMapping::Hynix:
      return uint32_t(chunk % C) * spc + uint32_t((chunk / C) % spc);
    default:
      break;
  }
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

uint64_t AddressMap::global_addr(uint32_t channel, uint64_t channel_addr) const {
  const uint64_t local = channel_addr >> shift_, off = channel_addr & (p_.interleave_bytes - 1);
  const uint32_t spc = slices_per_channel_, C = p_.num_channels, S = p_.num_slices;
  const uint64_t q = local / spc;
  const uint32_t w = uint32_t(local % spc);
  uint64_t r;  // the chunk's position in round q
  switch (p_.mapping) {
    case AddressMapping::Pae: {
      const uint32_t h = pae_fold(q);
      const uint32_t ch = channels_pow2_ ? channel ^ h : uint32_t((channel + C - h % C) % C);
      r = uint64_t(ch) * spc + w;
      break;
    }
    case AddressMapping::Hynix:
      r = channel + uint64_t(C) * w;  // chunk mod C = channel, (chunk / C) mod spc = w
      break;
    default:
      if (p_.xor_hash) {
        // slice = r ^ (q ^ q / S ^ ...) mod S, so r = slice ^ that fold.
        uint64_t f = 0;
        for (uint64_t hi = q; hi; hi /= S) f ^= hi;
        r = (uint64_t(channel) * spc + w) ^ (f & (S - 1));
      } else {
        r = uint64_t(channel) * spc + w;
      }
  }
  return ((q * S + r) << shift_) | off;
}

}  // namespace gms
