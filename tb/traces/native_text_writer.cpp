// The text form of the native trace (docs/trace-format.md): one line per kernel, CTA, warp and instruction.
#include <cerrno>
#include <cstring>
#include <fstream>

#include "models/common/config.h"
#include "models/common/output_file.h"
#include "tb/traces/native_format.h"

namespace gms {

namespace {

void append_hex(std::string& s, uint64_t v, unsigned min_digits = 1) {
  char buf[16];
  unsigned n = 0;
  do {
    buf[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (n < min_digits) buf[n++] = '0';
  while (n) s += buf[--n];
}

void append_dec(std::string& s, uint64_t v) {
  char buf[20];
  unsigned n = 0;
  do {
    buf[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) s += buf[--n];
}

void append_sdec(std::string& s, int64_t v) {
  if (v < 0) {
    s += '-';
    append_dec(s, uint64_t(0) - uint64_t(v));
  } else {
    append_dec(s, uint64_t(v));
  }
}

// Names end at the line's end: newlines become spaces.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

class TextSink : public NativeTraceSink {
 public:
  explicit TextSink(const std::string& path) : path_(path), out_(path, std::ios::binary) {
    if (!out_) throw ConfigError(path + ": cannot open for writing");
  }

  void begin(const std::string& workload_name) override {
    out_ << kTextMagic << ' ' << kNativeVersion << "\n"
         << "# GPUMemSys native trace, docs/trace-format.md\n"
         << "# instruction: pc mask kind width gap encoding addresses [@time];"
            " s = base stride, d = base deltas, l = list; barrier: pc mask bar gap [@time]\n"
         << "workload " << one_line(workload_name) << "\n";
  }

  void kernel(const KernelInfo& k) override {
    ++kernels_;
    out_ << "kernel grid=" << k.num_ctas << " block=" << k.threads_per_cta << " regs=" << k.regs_per_thread
         << " shmem=" << k.shmem_per_cta << " name=" << one_line(k.name) << "\n";
  }

  void cta(uint32_t cta_id) override { out_ << "cta " << cta_id << "\n"; }

  void warp(uint32_t index, const PackedWarp& insts) override {
    line_.clear();
    line_ += "warp ";
    append_dec(line_, index);
    line_ += ' ';
    append_dec(line_, insts.count);
    line_ += '\n';
    SpanSource src(insts.bytes.data(), insts.bytes.data() + insts.bytes.size());
    CodecState st;
    TraceInst t;
    for (uint32_t i = 0; i < insts.count; ++i) {
      decode_inst(src, st, t);
      append_inst(t);
      if (line_.size() > (1u << 16)) {
        out_.write(line_.data(), std::streamsize(line_.size()));
        line_.clear();
      }
    }
    out_.write(line_.data(), std::streamsize(line_.size()));
  }

  void finish() override {
    out_ << "end " << kernels_ << "\n";
    out_.flush();
    const int err = errno;
    const bool ok = bool(out_);
    out_.close();
    if (!ok || !out_) throw OutputError(path_ + ": write failed: " + std::strerror(ok ? errno : err));
  }

 private:
  void append_inst(const TraceInst& t) {
    const WarpInst& in = t.inst;
    append_hex(line_, in.pc);
    line_ += ' ';
    append_hex(line_, in.active_mask, 8);
    if (in.kind == MemKind::Barrier) {  // pc mask bar gap: no width, no addresses
      line_ += " bar ";
      append_dec(line_, in.gap);
      append_time(t);
      return;
    }
    line_ += in.kind == MemKind::Store ? " st " : in.kind == MemKind::Atomic ? " atom " : " ld ";
    append_dec(line_, in.width);
    line_ += ' ';
    append_dec(line_, in.gap);
    int64_t stride = 0;
    const AddrEncoding enc = choose_encoding(in, stride);
    line_ += enc == AddrEncoding::Stride ? " s" : enc == AddrEncoding::Delta ? " d" : " l";
    bool first = true;
    uint64_t prev = 0;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!(in.active_mask >> l & 1)) continue;
      const uint64_t a = in.addr[l];
      line_ += ' ';
      if (first || enc == AddrEncoding::List) {
        line_ += "0x";
        append_hex(line_, a);
        if (first && enc == AddrEncoding::Stride) {
          line_ += ' ';
          append_sdec(line_, stride);
          break;
        }
      } else {
        append_sdec(line_, int64_t(a - prev));
      }
      first = false;
      prev = a;
    }
    append_time(t);
  }

  // The optional timestamp and the line's end.
  void append_time(const TraceInst& t) {
    if (t.has_time) {
      line_ += " @";
      append_dec(line_, t.time);
    }
    line_ += '\n';
  }

  std::string path_;
  std::ofstream out_;
  std::string line_;
  uint64_t kernels_ = 0;
};

}  // namespace

std::unique_ptr<NativeTraceSink> open_text_sink(const std::string& path) {
  return std::make_unique<TextSink>(path);
}

}  // namespace gms
