#include "models/dram/dram_params.h"

#include <algorithm>
#include <initializer_list>
#include <set>

#include "models/common/mem_req.h"
#include "models/dram/dram_standards.h"

namespace gms {

unsigned log2_exact(uint64_t pow2) {
  unsigned s = 0;
  while ((uint64_t(1) << s) < pow2) ++s;
  return s;
}

void DramParams::default_mapping() {
  unsigned b = log2_exact(burst_bytes());
  const unsigned columns = log2_exact(row_bytes / burst_bytes());
  // A request is one line in one bank, so the group bits start above the line's own columns.
  const unsigned line_columns = std::min(columns, log2_exact(kLineBytes / burst_bytes()));
  const unsigned bank_total = log2_exact(banks), group = std::min(bank_total, log2_exact(bank_groups));
  column_bits.clear();
  bank_bits.clear();
  row_bits.clear();
  for (unsigned i = 0; i < line_columns; ++i) column_bits.push_back(b++);
  for (unsigned i = 0; i < group; ++i) bank_bits.push_back(b++);
  for (unsigned i = line_columns; i < columns; ++i) column_bits.push_back(b++);
  for (unsigned i = group; i < bank_total; ++i) bank_bits.push_back(b++);
  for (unsigned i = 0; i < 16; ++i) row_bits.push_back(b++);
}

void DramParams::hynix_mapping() {
  unsigned b = log2_exact(burst_bytes());
  const unsigned columns = log2_exact(row_bytes / burst_bytes()), bank_total = log2_exact(banks);
  // GPGPU-Sim's string has its first bank bit at address bit 8 (bursts of 64 B: two column bits below).
  // row_bytes >= 128 keeps that bank bit above the 128 B line.
  const unsigned low_columns = std::min(columns, log2_exact(256) - b);
  column_bits.clear();
  bank_bits.clear();
  row_bits.clear();
  for (unsigned i = 0; i < low_columns; ++i) column_bits.push_back(b++);
  if (bank_total) bank_bits.push_back(b++);
  for (unsigned i = low_columns; i < columns; ++i) column_bits.push_back(b++);
  for (unsigned i = 1; i < bank_total; ++i) bank_bits.push_back(b++);
  for (unsigned i = 0; i < 16; ++i) row_bits.push_back(b++);
}

void DramParams::resolve_mapping() {
  if (column_bits.empty() && bank_bits.empty() && row_bits.empty()) default_mapping();
}

namespace {

std::vector<unsigned> as_bits(const std::vector<uint64_t>& v) {
  return std::vector<unsigned>(v.begin(), v.end());
}

// Every field has the width the geometry needs, no bit is listed twice, the bits of a 128 B line's
// bursts never select bank or row (a request stays in one row), and no bit between the burst offset and
// the highest listed bit is left out (the decoding must be a bijection).
void check_mapping(const ConfigNode& m, const DramParams& p) {
  unsigned burst_shift = log2_exact(p.burst_bytes()), line_shift = log2_exact(kLineBytes);
  struct Field {
    const char* key;
    const std::vector<unsigned>* bits;
    unsigned width;  // 0 = any width >= 1
  } fields[] = {{"column_bits", &p.column_bits, log2_exact(p.row_bytes / p.burst_bytes())},
                {"bank_bits", &p.bank_bits, log2_exact(p.banks)},
                {"row_bits", &p.row_bits, 0}};
  std::set<unsigned> seen;
  unsigned top = 0;
  for (const Field& f : fields) {
    if (f.width && f.bits->size() != f.width)
      m.fail(f.key, "needs " + std::to_string(f.width) + " bits for the geometry, has " +
                        std::to_string(f.bits->size()));
    if (!f.width && f.bits->empty()) m.fail(f.key, "needs at least one bit");
    for (unsigned b : *f.bits) {
      if (b < burst_shift || b > 63)
        m.fail(f.key, "bit " + std::to_string(b) + " outside [" + std::to_string(burst_shift) +
                          ", 63] (bits below are the byte within a " + std::to_string(p.burst_bytes()) +
                          " B burst)");
      if (!seen.insert(b).second) m.fail(f.key, "bit " + std::to_string(b) + " is listed in two fields");
      if (f.bits != &p.column_bits && b < line_shift)
        m.fail(f.key, "bit " + std::to_string(b) + " lies inside a 128 B line; only column bits may");
      if (b + 1 > top) top = b + 1;
    }
  }
  for (unsigned b = burst_shift; b < top; ++b)
    if (!seen.count(b)) m.fail("", "address bit " + std::to_string(b) + " belongs to no field");
}

}  // namespace

DramParams DramParams::from(const ConfigNode& n) {
  const std::string standard = n.get_choice("standard", "gddr5", dram_standard_names());
  DramParams p = dram_standard(dram_standard_of(standard));
  p.channels = uint32_t(n.get_uint("channels", p.channels, 1, 64));
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 20000.0);
  p.banks = uint32_t(n.get_pow2("banks", p.banks, 1, 1024));
  p.bank_groups = uint32_t(n.get_pow2("bank_groups", p.bank_groups, 1, 1024));
  p.row_bytes = uint32_t(n.get_pow2("row_bytes", p.row_bytes, 64, 1u << 20));
  p.bus_bytes = uint32_t(n.get_pow2("bus_bytes", p.bus_bytes, 1, 128));
  p.burst_length = uint32_t(n.get_pow2("burst_length", p.burst_length, 1, 64));
  p.data_rate = uint32_t(n.get_pow2("data_rate", p.data_rate, 1, 16));
  auto t = [&](const char* key, uint32_t& v, uint32_t lo) { v = uint32_t(n.get_uint(key, v, lo, 1000)); };
  t("tCL", p.tCL, 1);
  t("tCWL", p.tCWL, 0);
  t("tRP", p.tRP, 1);
  t("tRC", p.tRC, 1);
  t("tRAS", p.tRAS, 1);
  t("tRCD", p.tRCD, 1);
  t("tRRD", p.tRRD, 1);
  t("tCCD", p.tCCD, 1);
  t("tWR", p.tWR, 0);
  t("tWTR", p.tWTR, 0);
  t("tRTW", p.tRTW, 0);
  t("tCCDL", p.tCCDL, 1);
  t("tRRDL", p.tRRDL, 1);
  p.controller_latency = uint32_t(n.get_uint("controller_latency", p.controller_latency, 0, 100000));
  p.queue_size = uint32_t(n.get_uint("queue_size", p.queue_size, 1, 1024));
  p.scheduler = n.get_choice("scheduler", "frfcfs", {"frfcfs", "fcfs"}) == "fcfs" ? SchedulerPolicy::Fcfs
                                                                                  : SchedulerPolicy::FrFcfs;

  if (p.burst_length % p.data_rate)
    n.fail("data_rate", "burst_length (" + std::to_string(p.burst_length) +
                            ") must be a multiple of data_rate (" + std::to_string(p.data_rate) +
                            ") so a burst takes whole cycles");
  if (p.burst_bytes() < kChunkBytes || p.burst_bytes() > kLineBytes)
    n.fail("burst_length", "a burst (bus_bytes * burst_length = " + std::to_string(p.burst_bytes()) +
                               " B) must lie in [32, 128] B");
  if (p.row_bytes < p.burst_bytes() || p.row_bytes < kLineBytes)
    n.fail("row_bytes", "a row must hold at least one 128 B line and one burst");
  // A cross-field error names the first of its keys the YAML gives (the others may be the standard's
  // defaults), and a value that came from a standard other than gddr5 says so.
  auto named = [&](std::initializer_list<const char*> keys) {
    for (const char* k : keys)
      if (n.has(k)) return k;
    return *keys.begin();
  };
  auto val = [&](const char* key, uint64_t v) {
    return std::to_string(v) +
           (n.has(key) || p.standard == DramStandard::Gddr5 ? "" : ", " + standard + "'s");
  };
  if (p.tRC < p.tRAS + p.tRP)
    n.fail(named({"tRC", "tRAS", "tRP"}),
           "tRC (" + val("tRC", p.tRC) + ") < tRAS + tRP (" + std::to_string(p.tRAS + p.tRP) + ")");
  if (p.tRAS < p.tRCD)
    n.fail(named({"tRAS", "tRCD"}),
           "tRAS (" + val("tRAS", p.tRAS) + ") < tRCD (" + val("tRCD", p.tRCD) + ")");
  if (p.bank_groups > p.banks)
    n.fail(named({"bank_groups", "banks"}), "bank_groups (" + val("bank_groups", p.bank_groups) +
                                                ") > banks (" + val("banks", p.banks) +
                                                "): each group needs a bank");
  // The long (same-group) spacings only apply with groups; without them they are ignored.
  if (p.bank_groups > 1 && p.tCCDL && p.tCCDL < p.tCCD)
    n.fail(named({"tCCDL", "tCCD"}),
           "tCCDL (" + val("tCCDL", p.tCCDL) + ") < tCCD (" + val("tCCD", p.tCCD) + ")");
  if (p.bank_groups > 1 && p.tRRDL && p.tRRDL < p.tRRD)
    n.fail(named({"tRRDL", "tRRD"}),
           "tRRDL (" + val("tRRDL", p.tRRDL) + ") < tRRD (" + val("tRRD", p.tRRD) + ")");

  p.default_mapping();
  ConfigNode m = n.child("mapping");
  if (m.valid()) {
    if (!m.is_map()) n.fail("mapping", "expected a map with column_bits, bank_bits, row_bits");
    auto to64 = [](const std::vector<unsigned>& v) { return std::vector<uint64_t>(v.begin(), v.end()); };
    p.column_bits = as_bits(m.get_uint_list("column_bits", to64(p.column_bits)));
    p.bank_bits = as_bits(m.get_uint_list("bank_bits", to64(p.bank_bits)));
    p.row_bits = as_bits(m.get_uint_list("row_bits", to64(p.row_bits)));
    check_mapping(m, p);
    m.finish();
  }
  n.finish();
  return p;
}

}  // namespace gms
