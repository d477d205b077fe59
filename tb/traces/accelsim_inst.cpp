#include "tb/traces/accelsim_inst.h"
#include "models/common/text_excerpt.h"

#include <bitset>
#include <cstdio>

#include "tb/traces/compressed_input.h"

namespace gms {

namespace {

bool one_of(std::string_view s, std::initializer_list<std::string_view> set) {
  for (std::string_view x : set)
    if (s == x) return true;
  return false;
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool is_tma(std::string_view mnemonic) {
  return starts_with(mnemonic, "UTMA") || starts_with(mnemonic, "UBLK");
}

void split_fields(const std::string& line, std::vector<std::string_view>& out) {
  out.clear();
  const char* p = line.data();
  const char* e = p + line.size();
  while (p < e) {
    while (p < e && (*p == ' ' || *p == '\t')) ++p;
    const char* s = p;
    while (p < e && *p != ' ' && *p != '\t') ++p;
    if (p > s) out.emplace_back(s, size_t(p - s));
  }
}

std::string q(std::string_view s) {
  return quote_excerpt(s);
}

// Walks the fields of one line; running out of fields is a "wrong field count" error.
class Fields {
 public:
  Fields(const std::vector<std::string_view>& t, const LineReader& r) : t_(t), r_(r) {}
  size_t pos() const { return i_; }
  size_t left() const { return t_.size() - i_; }
  size_t size() const { return t_.size(); }
  std::string_view take(const char* what) {
    if (i_ >= t_.size())
      r_.fail("wrong field count: " + std::to_string(t_.size()) + " fields, the " + what + " is missing");
    return t_[i_++];
  }
  uint64_t hex(const char* what) {
    std::string_view s = take(what);
    uint64_t v;
    if (!parse_hex_u64(s, v)) r_.fail(std::string("non-hex ") + what + " " + q(s));
    return v;
  }
  uint64_t dec(const char* what, uint64_t max) {
    std::string_view s = take(what);
    uint64_t v;
    if (!parse_dec_u64(s, v) || v > max) r_.fail(std::string("bad ") + what + " " + q(s));
    return v;
  }
  int64_t sdec(const char* what) {
    std::string_view s = take(what);
    int64_t v;
    if (!parse_dec_i64(s, v)) r_.fail(std::string("bad ") + what + " " + q(s));
    return v;
  }
  void skip(size_t n, const char* what) {
    for (size_t k = 0; k < n; ++k) take(what);
  }
  // n register operands; general registers "R<n>" go into regs, the rest (RZ, predicates, uniform and
  // special registers) do not take part in the scoreboard and are skipped.
  void regs(size_t n, const char* what, RegSet& regs) {
    for (size_t k = 0; k < n; ++k) {
      std::string_view s = take(what);
      uint64_t r;
      if (s.size() > 1 && s[0] == 'R' && parse_dec_u64(s.substr(1), r) && r < RegSet::kRegs)
        regs.set(unsigned(r));
    }
  }

 private:
  const std::vector<std::string_view>& t_;
  const LineReader& r_;
  size_t i_ = 0;
};

// The addresses after the mode field; `tail` = fields expected after them (the immediate in version 5).
void parse_addresses(Fields& f, const LineReader& r, unsigned mode, size_t tail, AccelInst& out) {
  const unsigned active = unsigned(std::bitset<32>(out.mask).count());
  size_t expected = 0;  // address fields
  if (mode == 0)
    expected = active;
  else if (mode == 1)
    expected = 2;
  else if (mode == 2)
    expected = 1 + (active > 0 ? active - 1 : 0);
  else
    r.fail("unknown address compression mode " + std::to_string(mode) +
           " (0 list, 1 base+stride, 2 base+delta)");
  if (f.left() < expected + tail) {
    const size_t have = f.left() > tail ? f.left() - tail : 0;
    if (mode == 1) r.fail("wrong field count: base+stride needs a base and a stride");
    char m[16];
    std::snprintf(m, sizeof m, "%08x", out.mask);
    r.fail("address list shorter than the mask says: mask " + std::string(m) + " has " +
           std::to_string(active) + " active lanes, mode " + std::to_string(mode) + " needs " +
           std::to_string(expected) + " address fields, the line has " + std::to_string(have));
  }
  if (mode == 0) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((out.mask >> lane) & 1) out.addr[lane] = f.hex("address");
  } else if (mode == 1) {
    const uint64_t base = f.hex("address");
    const int64_t stride = f.sdec("stride");
    uint64_t k = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((out.mask >> lane) & 1) out.addr[lane] = base + uint64_t(int64_t(k++) * stride);
  } else {
    uint64_t a = f.hex("address");
    bool first = true;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!((out.mask >> lane) & 1)) continue;
      if (!first) a += uint64_t(f.sdec("address delta"));
      first = false;
      out.addr[lane] = a;
    }
  }
}

}  // namespace

bool parse_hex_u64(std::string_view s, uint64_t& v) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > 16) return false;
  v = 0;
  for (char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = unsigned(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = unsigned(c - 'A' + 10);
    else
      return false;
    v = (v << 4) | d;
  }
  return true;
}

bool parse_dec_u64(std::string_view s, uint64_t& v) {
  if (s.empty() || s.size() > 19) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
  }
  return true;
}

bool parse_dec_i64(std::string_view s, int64_t& v) {
  const bool neg = !s.empty() && s[0] == '-';
  if (neg || (!s.empty() && s[0] == '+')) s.remove_prefix(1);
  uint64_t u;
  if (!parse_dec_u64(s, u)) return false;
  v = neg ? -int64_t(u) : int64_t(u);
  return true;
}

AccelOp classify_accelsim_opcode(std::string_view opcode, uint32_t width) {
  const std::string_view m = opcode.substr(0, opcode.find('.'));
  const bool width_ok = width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
  if (m == "LDG") return width_ok ? AccelOp::Load : AccelOp::Unsupported;
  if (m == "STG") return width_ok ? AccelOp::Store : AccelOp::Unsupported;
  if (m == "EXIT") return AccelOp::Exit;
  if (m == "BAR") return opcode.find(".ARV") == std::string_view::npos ? AccelOp::Barrier : AccelOp::Compute;
  // Shared and local memory never reach the L1 data path modelled here.
  if (one_of(m, {"LDS", "STS", "LDL", "STL", "LDSM", "STSM", "ATOMS"})) return AccelOp::Compute;
  if (one_of(m, {"ATOMG", "ATOM", "RED", "REDG"}))
    return width == 4 || width == 8 ? AccelOp::Atomic : AccelOp::Unsupported;
  if (one_of(m, {"LDGSTS", "LD", "ST"}) || is_tma(m)) return AccelOp::Unsupported;
  return width > 0 ? AccelOp::Unsupported : AccelOp::Compute;
}

void parse_accelsim_inst(const std::string& line, const AccelInstFormat& fmt, const LineReader& r,
                         std::vector<std::string_view>& tokens, AccelInst& out) {
  split_fields(line, tokens);
  Fields f(tokens, r);
  if (fmt.version < 3) f.skip(4, "thread block / warp id");
  if (fmt.lineinfo) f.dec("line number", UINT32_MAX);
  out.pc = f.hex("PC");
  std::string_view mask_text = f.take("mask");
  uint64_t mask;
  if (!parse_hex_u64(mask_text, mask)) r.fail("non-hex mask " + q(mask_text));
  if (mask > UINT32_MAX) r.fail("mask " + q(mask_text) + " has more than 32 bits");
  out.mask = uint32_t(mask);
  out.dsts.clear();
  out.srcs.clear();
  f.regs(f.dec("destination register count", 64), "destination register", out.dsts);
  out.opcode = f.take("opcode");
  out.mnemonic = out.opcode.substr(0, out.opcode.find('.'));
  f.regs(f.dec("source register count", 64), "source register", out.srcs);
  out.width = uint32_t(f.dec("memory width", 1u << 20));
  out.addr.fill(0);
  out.op = classify_accelsim_opcode(out.opcode, out.width);
  if (is_tma(out.mnemonic)) return;  // a different address layout; counted as unsupported, never replayed
  const size_t tail = fmt.version >= 5 ? 1 : 0;
  if (out.width > 0) parse_addresses(f, r, unsigned(f.dec("address compression mode", 1000)), tail, out);
  if (tail) f.sdec("immediate");
  if (f.left() > 0)
    r.fail("wrong field count: " + std::to_string(f.size()) + " fields, expected " + std::to_string(f.pos()));
}

}  // namespace gms
