// Streaming reader of the text form: line by line (each at most kMaxTraceLineBytes), one CTA section
// packed in memory at a time.
#include <string_view>

#include "models/coalescing/coalescer.h"
#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/text_excerpt.h"
#include "tb/traces/compressed_input.h"
#include "tb/traces/native_format.h"

namespace gms {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class TextSource : public NativeTraceSource {
 public:
  explicit TextSource(std::unique_ptr<InputFile> in) : path_(in->path()), in_(std::move(in), false) {
    if (!next_line()) fail("empty file: expected 'gmstrace 1'");
    if (toks_.size() != 2 || toks_[0] != kTextMagic)
      fail("not a native text trace: expected 'gmstrace " + std::to_string(kNativeVersion) + "'");
    if (parse_udec(toks_[1], "version", UINT32_MAX) != kNativeVersion)
      fail("unsupported version " + escape_excerpt(toks_[1]) + " (this reader knows " +
           std::to_string(kNativeVersion) + ")");
    if (!next_line()) truncated("'workload NAME'");
    if (toks_[0] != "workload") fail("expected 'workload NAME', found " + quote_excerpt(toks_[0]));
    name_ = rest_after(toks_[0]);
  }

  const std::string& workload_name() const override { return name_; }

  bool next_kernel(KernelInfo& out) override {
    if (ended_) return false;
    if (!next_line()) truncated("'kernel' or 'end'");
    if (toks_[0] == "end") {
      expect_fields(2, "end KERNELS");
      const uint64_t n = parse_udec(toks_[1], "kernel count", UINT64_MAX);
      if (kernels_ == 0) fail(kNoKernelError);
      if (n != kernels_)
        fail("end record says " + std::to_string(n) + " kernels, the file has " + std::to_string(kernels_));
      if (next_line()) fail("content after the end record");
      ended_ = true;
      return false;
    }
    if (toks_[0] != "kernel")
      fail("expected 'kernel' or 'end', found " + quote_excerpt(toks_[0]) +
           (toks_[0] == "cta" ? " (more CTA sections than the kernel's grid)" : ""));
    if (toks_.size() < 6)
      fail("kernel line needs 5 fields (grid= block= regs= shmem= name=), found " +
           std::to_string(toks_.size() - 1));
    out.num_ctas = uint32_t(parse_key(toks_[1], "grid", UINT32_MAX));
    out.threads_per_cta = uint32_t(parse_key(toks_[2], "block", UINT32_MAX));
    out.regs_per_thread = uint32_t(parse_key(toks_[3], "regs", UINT32_MAX));
    out.shmem_per_cta = uint32_t(parse_key(toks_[4], "shmem", UINT32_MAX));
    if (toks_[5].substr(0, 5) != "name=") fail("expected 'name=' as the fifth field of the kernel line");
    out.name = rest_after(toks_[5].substr(0, 5));
    if (out.num_ctas == 0) fail("grid=0: a kernel needs at least one CTA");
    if (out.threads_per_cta == 0) fail("block=0: a CTA needs at least one thread");
    if (out.threads_per_cta > kMaxTraceThreadsPerCta)
      fail("block=" + std::to_string(out.threads_per_cta) + ": more than " +
           std::to_string(kMaxTraceThreadsPerCta) + " threads per CTA");
    threads_ = out.threads_per_cta;
    ++kernels_;
    return true;
  }

  void read_cta(uint32_t expected_id, uint32_t warps, std::vector<PackedWarp>& out) override {
    if (!next_line()) truncated("'cta " + std::to_string(expected_id) + "'");
    if (toks_[0] != "cta")
      fail("expected 'cta " + std::to_string(expected_id) + "', found " + quote_excerpt(toks_[0]) +
           " (fewer CTA sections than the kernel's grid)");
    expect_fields(2, "cta ID");
    const uint64_t id = parse_udec(toks_[1], "CTA id", UINT32_MAX);
    if (id != expected_id)
      fail("CTA " + std::to_string(id) + " out of order: expected CTA " + std::to_string(expected_id));
    out.resize(warps);
    for (uint32_t w = 0; w < warps; ++w) {
      PackedWarp& pw = out[w];
      pw.clear();
      if (!next_line()) truncated("'warp " + std::to_string(w) + " COUNT'");
      if (toks_[0] != "warp")
        fail("expected 'warp " + std::to_string(w) + " COUNT', found " + quote_excerpt(toks_[0]) + " (CTA " +
             std::to_string(expected_id) + " has " + std::to_string(warps) + " warps)");
      expect_fields(3, "warp INDEX COUNT");
      const uint64_t idx = parse_udec(toks_[1], "warp index", UINT32_MAX);
      if (idx != w) fail("warp " + std::to_string(idx) + " out of order: expected warp " + std::to_string(w));
      const uint64_t n = parse_udec(toks_[2], "instruction count", UINT32_MAX);
      for (uint64_t i = 0; i < n; ++i) {
        if (!next_line())
          truncated("instruction " + std::to_string(i + 1) + " of " + std::to_string(n) + " of warp " +
                    std::to_string(w));
        parse_inst(t_);
        if (t_.inst.active_mask & ~cta_warp_lanes(threads_, w))
          fail(inactive_lane_error(t_.inst.active_mask, threads_, w));
        pw.add(t_);
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    throw ConfigError(path_ + ":" + std::to_string(line_no_) + ": " + msg);
  }
  [[noreturn]] void truncated(const std::string& expected) {
    ++line_no_;
    fail("truncated file: expected " + expected);
  }

  // Next line that is neither blank nor a comment, split into toks_; false at the end of the file.
  bool next_line() {
    while (in_.next(line_)) {
      line_no_ = in_.line_no();
      toks_.clear();
      const char* p = line_.data();
      const char* e = p + line_.size();
      while (p < e) {
        while (p < e && (*p == ' ' || *p == '\t')) ++p;
        const char* s = p;
        while (p < e && *p != ' ' && *p != '\t') ++p;
        if (p > s) toks_.emplace_back(s, size_t(p - s));
      }
      if (toks_.empty() || toks_[0][0] == '#') continue;
      return true;
    }
    return false;
  }

  // The rest of the line after the token `tok` (a view into line_), spaces kept.
  std::string rest_after(std::string_view tok) const {
    size_t pos = size_t(tok.data() - line_.data()) + tok.size();
    while (pos < line_.size() && (line_[pos] == ' ' || line_[pos] == '\t') && tok.back() != '=') ++pos;
    return line_.substr(pos);
  }

  void expect_fields(size_t n, const char* form) const {
    if (toks_.size() != n)
      fail("'" + std::string(form) + "' needs " + std::to_string(n) + " fields, found " +
           std::to_string(toks_.size()));
  }

  uint64_t parse_udec(std::string_view s, const char* what, uint64_t max) const {
    uint64_t v = 0;
    if (s.empty()) fail(std::string(what) + ": empty");
    for (char c : s) {
      if (c < '0' || c > '9') fail(std::string(what) + ": " + quote_excerpt(s) + " is not a decimal number");
      if (v > (max - uint64_t(c - '0')) / 10)
        fail(std::string(what) + ": " + escape_excerpt(s) + " is too large");
      v = v * 10 + uint64_t(c - '0');
    }
    return v;
  }

  int64_t parse_sdec(std::string_view s, const char* what) const {
    const bool neg = !s.empty() && s[0] == '-';
    const uint64_t mag = parse_udec(neg ? s.substr(1) : s, what, neg ? uint64_t(INT64_MAX) + 1 : INT64_MAX);
    return neg ? int64_t(uint64_t(0) - mag) : int64_t(mag);
  }

  uint64_t parse_hex(std::string_view s, const char* what) const {
    std::string_view d = s;
    if (d.size() >= 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d.remove_prefix(2);
    if (d.empty() || d.size() > 16)
      fail(std::string(what) + ": " + quote_excerpt(s) + " is not a hex " + what);
    uint64_t v = 0;
    for (char c : d) {
      const int h = hex_digit(c);
      if (h < 0) fail(std::string(what) + ": " + quote_excerpt(s) + " is not a hex " + what);
      v = v << 4 | uint64_t(h);
    }
    return v;
  }

  uint64_t parse_key(std::string_view tok, const char* key, uint64_t max) const {
    const std::string k = std::string(key) + "=";
    if (tok.substr(0, k.size()) != k) fail("expected '" + k + "', found " + quote_excerpt(tok));
    return parse_udec(tok.substr(k.size()), key, max);
  }

  void parse_pc_mask(WarpInst& in) const {
    in.pc = parse_hex(toks_[0], "pc");
    const uint64_t mask = parse_hex(toks_[1], "mask");
    if (mask > UINT32_MAX) fail("mask: " + quote_excerpt(toks_[1]) + " has more than 32 lanes");
    in.active_mask = uint32_t(mask);
  }

  void parse_inst(TraceInst& t) const {
    size_t n = toks_.size();
    t.has_time = false;
    t.time = 0;
    if (n > 0 && toks_[n - 1][0] == '@') {
      t.time = parse_udec(toks_[n - 1].substr(1), "timestamp", UINT64_MAX);
      t.has_time = true;
      --n;
    }
    WarpInst& in = t.inst;
    if (n >= 3 && toks_[2] == "bar") {  // a barrier: pc mask bar gap
      if (n != 4) fail("barrier needs 4 fields (pc mask bar gap), found " + std::to_string(n));
      parse_pc_mask(in);
      in.kind = MemKind::Barrier;
      in.width = 0;
      in.gap = uint32_t(parse_udec(toks_[3], "gap", UINT32_MAX));
      in.addr.fill(0);
      return;
    }
    if (n < 6)
      fail("instruction needs at least 6 fields (pc mask kind width gap encoding), found " +
           std::to_string(n));
    parse_pc_mask(in);
    if (toks_[2] == "ld")
      in.kind = MemKind::Load;
    else if (toks_[2] == "st")
      in.kind = MemKind::Store;
    else if (toks_[2] == "atom")
      in.kind = MemKind::Atomic;
    else
      fail("kind: " + quote_excerpt(toks_[2]) + " is not ld, st, atom or bar");
    const uint64_t width = parse_udec(toks_[3], "width", 16);
    if (in.kind == MemKind::Atomic && width != 4 && width != 8)
      fail("width: " + escape_excerpt(toks_[3]) + " is not 4 or 8 (an atomic)");
    if (width_code(unsigned(width)) < 0)
      fail("width: " + escape_excerpt(toks_[3]) + " is not 1, 2, 4, 8 or 16");
    in.width = uint8_t(width);
    in.gap = uint32_t(parse_udec(toks_[4], "gap", UINT32_MAX));
    const std::string_view enc = toks_[5];
    const unsigned lanes = unsigned(__builtin_popcount(in.active_mask));
    in.addr.fill(0);
    size_t need;  // address fields after the encoding
    if (enc == "s") {
      if (lanes == 0) fail("encoding 's' needs an active lane (mask 0: write 'l' with no addresses)");
      need = 2;
    } else if (enc == "d") {
      if (lanes == 0) fail("encoding 'd' needs an active lane (mask 0: write 'l' with no addresses)");
      need = lanes;
    } else if (enc == "l") {
      need = lanes;
    } else {
      fail("unknown address encoding " + quote_excerpt(enc) + " (expected s, d or l)");
    }
    const size_t have = n - 6;
    if (have < need)
      fail("address list shorter than the mask says: " + std::to_string(lanes) + " active lanes need " +
           std::to_string(need) + " address fields after " + quote_excerpt(enc) + ", found " +
           std::to_string(have));
    if (have > need)
      fail("wrong field count: " + std::to_string(lanes) + " active lanes need " + std::to_string(need) +
           " address fields after " + quote_excerpt(enc) + ", found " + std::to_string(have));
    if (lanes == 0) return;
    const uint64_t base = enc == "l" ? 0 : parse_hex(toks_[6], "address");
    const uint64_t stride = enc == "s" ? uint64_t(parse_sdec(toks_[7], "stride")) : 0;
    uint64_t a = base;
    size_t k = 0;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!(in.active_mask >> l & 1)) continue;
      if (enc == "l")
        a = parse_hex(toks_[6 + k], "address");
      else if (enc == "d" && k > 0)
        a += uint64_t(parse_sdec(toks_[6 + k], "delta"));
      else if (enc == "s" && k > 0)
        a += stride;
      in.addr[l] = a;
      ++k;
    }
    if (const std::string e = address_error(in); !e.empty()) fail(e);
  }

  std::string path_;
  LineReader in_;
  std::string line_;
  std::vector<std::string_view> toks_;
  uint64_t line_no_ = 0;
  std::string name_;
  uint64_t kernels_ = 0;
  uint32_t threads_ = 0;  // threads per CTA of the current kernel
  bool ended_ = false;
  TraceInst t_;
};

}  // namespace

std::unique_ptr<NativeTraceSource> open_text_trace(std::unique_ptr<InputFile> in) {
  return std::make_unique<TextSource>(std::move(in));
}

std::unique_ptr<NativeTraceSource> open_text_trace(const std::string& path) {
  return open_text_trace(std::make_unique<InputFile>(path));
}

}  // namespace gms
