// Streaming reader of the binary form: one decompressed block and one packed CTA in memory at a time.
// Errors name the record (1-based, every tagged record and every instruction counts) and its byte offset
// in the decompressed record stream.
#include "models/coalescing/coalescer.h"
#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "tb/traces/native_block_io.h"
#include "tb/traces/native_format.h"

namespace gms {

namespace {

class BinarySource : public NativeTraceSource {
 public:
  explicit BinarySource(std::unique_ptr<InputFile> in)
      : path_(in->path()), in_(std::move(in), [this](const std::string& m) { fail(m); }) {
    begin_record();
    expect_tag('W', "the workload record");
    name_ = get_string();
  }

  const std::string& workload_name() const override { return name_; }

  // The byte source decode_inst() and get_varint() read from.
  uint8_t byte() {
    const uint8_t b = in_.byte();
    if (capture_) capture_->push_back(b);
    return b;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw ConfigError(path_ + ": record " + std::to_string(record_) + " (byte " + std::to_string(start_) +
                      "): " + msg);
  }

  bool next_kernel(KernelInfo& out) override {
    if (ended_) return false;
    begin_record();
    const uint8_t tag = in_.byte();
    if (tag == 'E') {
      const uint64_t n = get_varint(*this);
      if (kernels_ == 0) fail(kNoKernelError);
      if (n != kernels_)
        fail("end record says " + std::to_string(n) + " kernels, the file has " + std::to_string(kernels_));
      if (!in_.at_end()) fail("content after the end record");
      ended_ = true;
      return false;
    }
    if (tag != 'K')
      fail("expected a kernel ('K') or end ('E') record, found " + tag_name(tag) +
           (tag == 'C' ? " (more CTA sections than the kernel's grid)" : ""));
    out.num_ctas = get_varint32(*this, "grid");
    out.threads_per_cta = get_varint32(*this, "block");
    out.regs_per_thread = get_varint32(*this, "regs");
    out.shmem_per_cta = get_varint32(*this, "shmem");
    out.name = get_string();
    if (out.num_ctas == 0) fail("grid 0: a kernel needs at least one CTA");
    if (out.threads_per_cta == 0) fail("block 0: a CTA needs at least one thread");
    if (out.threads_per_cta > kMaxTraceThreadsPerCta)
      fail("block " + std::to_string(out.threads_per_cta) + ": more than " +
           std::to_string(kMaxTraceThreadsPerCta) + " threads per CTA");
    threads_ = out.threads_per_cta;
    ++kernels_;
    return true;
  }

  void read_cta(uint32_t expected_id, uint32_t warps, std::vector<PackedWarp>& out) override {
    begin_record();
    const uint8_t tag = in_.byte();
    if (tag != 'C')
      fail("expected CTA " + std::to_string(expected_id) + " ('C'), found " + tag_name(tag) +
           " (fewer CTA sections than the kernel's grid)");
    const uint32_t id = get_varint32(*this, "CTA id");
    if (id != expected_id)
      fail("CTA " + std::to_string(id) + " out of order: expected CTA " + std::to_string(expected_id));
    out.resize(warps);
    for (uint32_t w = 0; w < warps; ++w) {
      PackedWarp& pw = out[w];
      pw.clear();
      begin_record();
      expect_tag('P', ("warp " + std::to_string(w) + " of CTA " + std::to_string(id)).c_str());
      const uint32_t idx = get_varint32(*this, "warp index");
      if (idx != w) fail("warp " + std::to_string(idx) + " out of order: expected warp " + std::to_string(w));
      const uint32_t n = get_varint32(*this, "instruction count");
      // The file's instruction records are the packed form (state reset per warp): decode to check them
      // and keep their bytes as they are.
      CodecState st;
      capture_ = &pw.bytes;
      for (uint32_t i = 0; i < n; ++i) {
        begin_record();
        decode_inst(*this, st, t_);
        if (const std::string e = address_error(t_.inst); !e.empty()) fail(e);
        if (t_.inst.active_mask & ~cta_warp_lanes(threads_, w))
          fail(inactive_lane_error(t_.inst.active_mask, threads_, w));
        ++pw.count;
      }
      capture_ = nullptr;
    }
  }

 private:
  void begin_record() {
    ++record_;
    start_ = in_.offset();
  }
  void expect_tag(uint8_t want, const char* what) {
    const uint8_t tag = in_.byte();
    if (tag != want)
      fail(std::string("expected ") + what + " ('" + char(want) + "'), found " + tag_name(tag));
  }
  static std::string tag_name(uint8_t tag) {
    if (tag >= 0x21 && tag < 0x7f) return "'" + std::string(1, char(tag)) + "'";
    return "byte " + std::to_string(tag);
  }
  std::string get_string() {
    const uint64_t n = get_varint(*this);
    if (n > 65536) fail("string of " + std::to_string(n) + " bytes (corrupt record)");
    std::string s(size_t(n), '\0');
    for (char& c : s) c = char(in_.byte());
    return s;
  }

  std::string path_;
  uint64_t record_ = 0, start_ = 0;
  BlockReader in_;
  std::string name_;
  uint64_t kernels_ = 0;
  uint32_t threads_ = 0;  // threads per CTA of the current kernel
  bool ended_ = false;
  TraceInst t_;
  std::vector<uint8_t>* capture_ = nullptr;
};

}  // namespace

std::unique_ptr<NativeTraceSource> open_binary_trace(std::unique_ptr<InputFile> in) {
  return std::make_unique<BinarySource>(std::move(in));
}

std::unique_ptr<NativeTraceSource> open_binary_trace(const std::string& path) {
  return open_binary_trace(std::make_unique<InputFile>(path));
}

}  // namespace gms
