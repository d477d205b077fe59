// The address mappings of memory_map.mapping (bitfield, pae, hynix) from the global address down to
// (channel, bank, row, column): hand-worked examples, the bijection (map and unmap, no collisions, every
// channel's addresses dense), the spread of power-of-two strides, and the configuration keys.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/rng.h"
#include "models/dram/dram_mapping.h"
#include "models/dram/dram_params.h"
#include "tests/config_error_of.h"

namespace {

using gms::AddressMapping;

struct Coord {
  uint32_t channel, bank;
  uint64_t row;
  uint32_t column;
};

// The whole chain as the system builds it: AddressMap, then the DRAM's bit fields (hynix's order for
// hynix, the geometry's default otherwise) with pae's bank XOR.
struct Chain {
  gms::AddressMap map;
  gms::DramParams dram;
  gms::DramMapping dm;
  Chain(AddressMapping m, uint32_t slices, uint32_t channels, gms::DramParams d = gms::DramParams())
      : map(params(m, slices, channels)), dram(bits(m, d)), dm(make(m, dram)) {}

  static gms::AddressMapParams params(AddressMapping m, uint32_t slices, uint32_t channels) {
    gms::AddressMapParams p;
    p.num_slices = slices;
    p.num_channels = channels;
    p.mapping = m;
    return p;
  }
  static gms::DramParams bits(AddressMapping m, gms::DramParams d) {
    if (m == AddressMapping::Hynix)
      d.hynix_mapping();
    else
      d.default_mapping();
    return d;
  }
  static gms::DramMapping make(AddressMapping m, const gms::DramParams& d) {
    return gms::DramMapping(d.column_bits, d.bank_bits, d.row_bits, m == AddressMapping::Pae);
  }
  Coord decode(uint64_t a) const {
    const gms::DramCoord c = dm.decode(map.channel_addr(a));
    return {map.channel_of(a), c.bank, c.row, c.column};
  }
  // Back from (channel, bank, row, column) and the byte within the burst.
  uint64_t encode(const Coord& c, uint64_t byte) const {
    gms::DramCoord d;
    d.bank = c.bank;
    d.row = c.row;
    d.column = c.column;
    return map.global_addr(c.channel, dm.encode(d) | byte);
  }
};

const AddressMapping kAll[] = {AddressMapping::Bitfield, AddressMapping::Pae, AddressMapping::Hynix};

// Fermi preset: 12 LLC slices on 6 GDDR5 channels, 256 B interleave, 64 B bursts, 2 KB rows, 16 banks.
// Address 0x01234580: chunk 0x12345 = 74565 = round q 6213 x 12 slices + r 9, offset 0x80.
//   bitfield: slice 9, channel 9 / 2 = 4; channel address (6213 * 2 + 1) << 8 | 0x80 = 0x308b80, whose
//     set bits are 7, 8, 9, 11, 15, 20, 21. Column = bits 6-10 = 0b01110 = 14, bank = bits 11-14 = 1,
//     row = bits 15+ = 1 + 32 + 64 = 97.
//   pae: fold(q) = XOR of 6213's 3-bit groups (5, 0, 1, 4, 1) = 1; 6 channels is not a power of two, so
//     channel = (4 + 1) mod 6 = 5, slice 5 * 2 + 1 = 11. Same channel address; bank = 1 XOR fold(row 97 =
//     0x61 in 4-bit groups: 1 ^ 6 = 7) = 6; row 97, column 14.
//   hynix: channel = 74565 mod 6 = 3, slice 3 * 2 + (74565 / 6 = 12427) mod 2 = 7; channel address
//     0x308b80 again (12427 << 8 | 0x80). Hynix bits: column = 6, 7, 9, 10, 11 (0, 1, 1, 0, 1) = 22,
//     bank = 8, 12, 13, 14 (1, 0, 0, 0) = 1, row = bits 15+ = 97.
TEST(AddressMappings, HandWorkedFermiExamples) {
  const uint64_t a = 0x01234580;
  Chain bf(AddressMapping::Bitfield, 12, 6), pae(AddressMapping::Pae, 12, 6),
      hy(AddressMapping::Hynix, 12, 6);
  EXPECT_EQ(bf.map.channel_addr(a), 0x308b80u);
  EXPECT_EQ(pae.map.channel_addr(a), 0x308b80u);
  EXPECT_EQ(hy.map.channel_addr(a), 0x308b80u);
  EXPECT_EQ(bf.map.slice_of(a), 9u);
  EXPECT_EQ(pae.map.slice_of(a), 11u);
  EXPECT_EQ(hy.map.slice_of(a), 7u);
  const Coord b = bf.decode(a), p = pae.decode(a), h = hy.decode(a);
  EXPECT_EQ(b.channel, 4u);
  EXPECT_EQ(b.bank, 1u);
  EXPECT_EQ(b.row, 97u);
  EXPECT_EQ(b.column, 14u);
  EXPECT_EQ(p.channel, 5u);
  EXPECT_EQ(p.bank, 6u);
  EXPECT_EQ(p.row, 97u);
  EXPECT_EQ(p.column, 14u);
  EXPECT_EQ(h.channel, 3u);
  EXPECT_EQ(h.bank, 1u);
  EXPECT_EQ(h.row, 97u);
  EXPECT_EQ(h.column, 22u);
  // The hynix bit order for this geometry, and the GPGPU-Sim GTX 480 one it follows (4 KB rows there).
  EXPECT_EQ(hy.dram.column_bits, (std::vector<unsigned>{6, 7, 9, 10, 11}));
  EXPECT_EQ(hy.dram.bank_bits, (std::vector<unsigned>{8, 12, 13, 14}));
  EXPECT_EQ(hy.dram.row_bits.front(), 15u);
  gms::DramParams gtx480;
  gtx480.row_bytes = 4096;
  gtx480.hynix_mapping();
  EXPECT_EQ(gtx480.column_bits, (std::vector<unsigned>{6, 7, 9, 10, 11, 12}));  // ...BBBCCCCB.CCSSSSSS
  EXPECT_EQ(gtx480.bank_bits, (std::vector<unsigned>{8, 13, 14, 15}));
  EXPECT_EQ(gtx480.row_bits.front(), 16u);
}

// Power-of-two channel count: pae XORs. 8 slices on 8 channels: chunk 74565 = q 9320 x 8 + r 5; fold(9320)
// = XOR of its 3-bit groups (0, 5, 1, 2, 2) = 4, channel = 5 XOR 4 = 1. Channel address = 9320 << 8 | 0x80
// = 0x246880 (bits 7, 11, 13, 14, 18, 21): column = bits 6-10 = 2, raw bank = bits 11-14 = 0b1101 = 13,
// row = bits 15+ = 8 + 64 = 72; pae bank = 13 XOR fold(72 = 0x48: 8 ^ 4 = 12) = 1.
// 256 KB further on is round q + 128 (9448: 3-bit groups 0, 5, 3, 2, 2 fold to 6, channel 5 ^ 6 = 3) and
// the next row of the same raw bank: row 73 (0x49: 9 ^ 4 = 13), bank 13 ^ 13 = 0.
TEST(AddressMappings, HandWorkedPowerOfTwoPae) {
  Chain pae(AddressMapping::Pae, 8, 8), bf(AddressMapping::Bitfield, 8, 8);
  const uint64_t a = 0x01234580, a2 = a + (uint64_t(1) << 18);
  EXPECT_EQ(pae.map.channel_addr(a), 0x246880u);
  const Coord c = pae.decode(a), d = pae.decode(a2);
  EXPECT_EQ(c.channel, 1u);
  EXPECT_EQ(c.bank, 1u);
  EXPECT_EQ(c.row, 72u);
  EXPECT_EQ(c.column, 2u);
  EXPECT_EQ(d.channel, 3u);
  EXPECT_EQ(d.bank, 0u);
  EXPECT_EQ(d.row, 73u);
  EXPECT_EQ(d.column, 2u);
  // bitfield: both on channel 5, bank 13 (a row conflict).
  EXPECT_EQ(bf.decode(a).channel, 5u);
  EXPECT_EQ(bf.decode(a2).channel, 5u);
  EXPECT_EQ(bf.decode(a).bank, 13u);
  EXPECT_EQ(bf.decode(a2).bank, 13u);
}

struct Geometry {
  const char* name;
  uint32_t slices, channels;
  gms::DramParams dram;
};

std::vector<Geometry> geometries() {
  gms::DramParams gddr5;  // 64 B bursts, 2 KB rows, 16 banks
  gms::DramParams hbm3 = gddr5;
  hbm3.bus_bytes = 16;
  hbm3.burst_length = 2;
  hbm3.data_rate = 2;
  hbm3.banks = 128;
  hbm3.bank_groups = 32;
  hbm3.row_bytes = 1024;
  gms::DramParams groups = gddr5;
  groups.bank_groups = 4;
  return {{"fermi_12x6", 12, 6, gddr5},
          {"pow2_16x8", 16, 8, gddr5},
          {"h100_80x40", 80, 40, hbm3},
          {"odd_9x3", 9, 3, groups},
          {"one_1x1", 1, 1, gddr5}};
}

// Every mapping on every geometry: 200,000 random addresses and 6 power-of-two strides x 20,000 map to
// (channel, bank, row, column) and back to the same address; over a bounded range (64 rounds of the
// rotation x 8) every burst has its own coordinates and each channel's channel addresses are exactly
// 0 .. range / channels (dense, as the backing store and golden check assume).
TEST(AddressMappings, EveryMappingIsABijection) {
  for (const Geometry& g : geometries())
    for (AddressMapping m : kAll) {
      SCOPED_TRACE(std::string(g.name) + " " + gms::to_string(m));
      Chain c(m, g.slices, g.channels, g.dram);
      const uint32_t burst = c.dram.burst_bytes();
      gms::Rng rng(42);
      std::vector<uint64_t> addrs;
      for (int i = 0; i < 200000; ++i) addrs.push_back(rng.next() & ((uint64_t(1) << 40) - 1));
      for (unsigned s = 7; s <= 22; s += 3)
        for (uint64_t i = 0; i < 20000; ++i) addrs.push_back(i << s);
      size_t bad = 0;
      for (uint64_t a : addrs) {
        const Coord co = c.decode(a);
        if (co.channel >= g.channels || co.bank >= c.dram.banks || co.column >= c.dram.row_bytes / burst ||
            c.map.slice_of(a) / c.map.slices_per_channel() != co.channel ||
            c.encode(co, a & (burst - 1)) != a)
          ++bad;
      }
      EXPECT_EQ(bad, 0u);

      const uint64_t range = uint64_t(g.slices) * 256 * 64 * 8, per_channel = range / g.channels;
      std::set<std::tuple<uint32_t, uint32_t, uint64_t, uint32_t>> seen;
      std::vector<std::set<uint64_t>> local(g.channels);
      for (uint64_t a = 0; a < range; a += burst) {
        const Coord co = c.decode(a);
        EXPECT_TRUE(seen.insert({co.channel, co.bank, co.row, co.column}).second) << a;
        local[co.channel].insert(c.map.channel_addr(a));
      }
      for (uint32_t ch = 0; ch < g.channels; ++ch) {
        EXPECT_EQ(local[ch].size(), per_channel / burst) << "channel " << ch;
        EXPECT_LT(*local[ch].rbegin(), per_channel) << "channel " << ch;
      }
    }
}

std::string counts(const std::vector<uint64_t>& v) {
  std::string s;
  for (uint64_t n : v) s += (s.empty() ? "" : " ") + std::to_string(n);
  return s;
}

struct Spread {
  std::vector<uint64_t> channels, banks;  // banks: summed over channels
  size_t used(const std::vector<uint64_t>& v) const {
    size_t n = 0;
    for (uint64_t x : v) n += x != 0;
    return n;
  }
};

Spread spread(const Chain& c, uint32_t channels, uint64_t stride, uint64_t n) {
  Spread s{std::vector<uint64_t>(channels), std::vector<uint64_t>(c.dram.banks)};
  for (uint64_t i = 0; i < n; ++i) {
    const Coord co = c.decode(i * stride);
    ++s.channels[co.channel];
    ++s.banks[co.bank];
  }
  return s;
}

// Prints the per-channel and per-bank counts of the three mappings (the tests' "[ spread ]" lines).
void print_spreads(const Spread& b, const Spread& p, const Spread& h) {
  for (const auto& [name, sp] :
       {std::pair<const char*, const Spread*>{"bitfield", &b}, {"pae     ", &p}, {"hynix   ", &h}})
    std::printf("[ spread ] %s channels: %s | banks: %s\n", name, counts(sp->channels).c_str(),
                counts(sp->banks).c_str());
}

// 8 channels, 16 slices: a 256 KB stride (8 channels x 16 banks x 2 KB rows) lands on channel 0, bank 0,
// a new row every time under bitfield (every access a row conflict) and under hynix (channel = chunk mod
// 8; the stride is 1024 chunks); pae spreads it evenly over the 8 channels and the 16 banks.
TEST(AddressMappings, PaeSpreadsAPowerOfTwoStrideOverChannelsAndBanks) {
  const uint64_t stride = uint64_t(1) << 18, n = 4096;
  Chain bf(AddressMapping::Bitfield, 16, 8), pae(AddressMapping::Pae, 16, 8),
      hy(AddressMapping::Hynix, 16, 8);
  const Spread b = spread(bf, 8, stride, n), p = spread(pae, 8, stride, n), h = spread(hy, 8, stride, n);
  std::printf("[ spread ] 8 channels, stride 256 KB, %llu accesses\n", (unsigned long long)n);
  print_spreads(b, p, h);
  EXPECT_EQ(b.channels[0], n);
  EXPECT_EQ(b.banks[0], n);
  EXPECT_EQ(h.channels[0], n);
  EXPECT_EQ(p.used(p.channels), 8u);
  EXPECT_EQ(p.used(p.banks), 16u);
  for (uint64_t x : p.channels) EXPECT_EQ(x, n / 8);
  for (uint64_t x : p.banks) EXPECT_EQ(x, n / 16);
}

// Fermi's 6 channels: a 4 KB stride (16 chunks; 16 mod 12 = 4) uses only the even channels under
// bitfield; pae reaches all 6.
TEST(AddressMappings, PaeSpreadsFermisFourKilobyteStrideOverAllSixChannels) {
  const uint64_t stride = 4096, n = 6144;
  Chain bf(AddressMapping::Bitfield, 12, 6), pae(AddressMapping::Pae, 12, 6),
      hy(AddressMapping::Hynix, 12, 6);
  const Spread b = spread(bf, 6, stride, n), p = spread(pae, 6, stride, n), h = spread(hy, 6, stride, n);
  std::printf("[ spread ] fermi 6 channels, stride 4 KB, %llu accesses\n", (unsigned long long)n);
  print_spreads(b, p, h);
  EXPECT_EQ(b.used(b.channels), 3u);
  EXPECT_EQ(b.channels[0] + b.channels[2] + b.channels[4], n);
  EXPECT_EQ(p.used(p.channels), 6u);
  EXPECT_EQ(p.used(p.banks), 16u);
}

gms::AddressMapParams load(const std::string& yaml, uint32_t slices = 16, uint32_t channels = 8) {
  return gms::AddressMapParams::from(gms::ConfigNode::load_string(yaml, "t.yaml").child("memory_map"), slices,
                                     channels);
}

TEST(AddressMappings, ConfigKeyAndErrors) {
  EXPECT_EQ(load("memory_map: {}\n").mapping, AddressMapping::Bitfield);
  EXPECT_EQ(load("memory_map: {mapping: bitfield}\n").mapping, AddressMapping::Bitfield);
  EXPECT_EQ(load("memory_map: {mapping: pae}\n").mapping, AddressMapping::Pae);
  EXPECT_EQ(load("memory_map: {mapping: hynix}\n").mapping, AddressMapping::Hynix);
  EXPECT_EQ(config_error_of([] { load("memory_map:\n  mapping: xor\n"); }),
            "t.yaml:2: memory_map.mapping: 'xor' is not one of: bitfield, pae, hynix");
  EXPECT_EQ(config_error_of([] { load("memory_map:\n  xor_hash: true\n  mapping: pae\n"); }),
            "t.yaml:3: memory_map.mapping: xor_hash belongs to the bitfield mapping; pae chooses the channel "
            "itself (set xor_hash: false)");
  // The default mapping with xor_hash keeps working as before.
  EXPECT_TRUE(load("memory_map: {xor_hash: true}\n").xor_hash);
}

}  // namespace
