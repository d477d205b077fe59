// The binary form of the native trace: tagged varint records in compressed blocks (docs/trace-format.md).
#include "models/common/config.h"
#include "tb/traces/native_block_io.h"
#include "tb/traces/native_format.h"

namespace gms {

namespace {

void put_string(std::vector<uint8_t>& b, const std::string& s) {
  put_varint(b, s.size());
  b.insert(b.end(), s.begin(), s.end());
}

class BinarySink : public NativeTraceSink {
 public:
  BinarySink(const std::string& path, TraceCompression compression) : out_(path, compression) {}

  void begin(const std::string& workload_name) override {
    auto& b = out_.buffer();
    b.push_back('W');
    put_string(b, workload_name);
  }

  void kernel(const KernelInfo& k) override {
    ++kernels_;
    auto& b = out_.buffer();
    b.push_back('K');
    put_varint(b, k.num_ctas);
    put_varint(b, k.threads_per_cta);
    put_varint(b, k.regs_per_thread);
    put_varint(b, k.shmem_per_cta);
    put_string(b, k.name);
    out_.maybe_flush();
  }

  void cta(uint32_t cta_id) override {
    auto& b = out_.buffer();
    b.push_back('C');
    put_varint(b, cta_id);
  }

  void warp(uint32_t index, const PackedWarp& insts) override {
    auto& b = out_.buffer();
    b.push_back('P');
    put_varint(b, index);
    put_varint(b, insts.count);
    b.insert(b.end(), insts.bytes.begin(), insts.bytes.end());
    out_.maybe_flush();
  }

  void finish() override {
    auto& b = out_.buffer();
    b.push_back('E');
    put_varint(b, kernels_);
    out_.finish();
  }

 private:
  BlockWriter out_;
  uint64_t kernels_ = 0;
};

}  // namespace

std::unique_ptr<NativeTraceSink> open_binary_sink(const std::string& path, TraceCompression compression) {
  return std::make_unique<BinarySink>(path, compression);
}

}  // namespace gms
