// The compressed container of the binary native trace: a 12-byte file header (magic, version, compression)
// and blocks of up to 1 MiB of record bytes, each compressed on its own with zlib or xz (or stored), ended
// by an empty block. The reader holds one decompressed block at a time: memory is independent of file size.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tb/traces/native_format.h"

namespace gms {

constexpr size_t kBlockBytes = size_t(1) << 20;
constexpr size_t kFileHeaderBytes = 12;  // magic[8], version, compression, 2 reserved

class BlockWriter {
 public:
  BlockWriter(const std::string& path, TraceCompression compression);
  ~BlockWriter();
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;

  std::vector<uint8_t>& buffer() { return raw_; }  // append record bytes here, then call maybe_flush()
  void maybe_flush() {
    if (raw_.size() >= kBlockBytes) flush_full_blocks();
  }
  void finish();  // last block, end block, close; ConfigError on a write failure

 private:
  void flush_full_blocks();  // every whole 1 MiB block of raw_, the rest stays
  void write_block(const uint8_t* raw, size_t raw_size);
  void write(const void* p, size_t n);
  std::string path_;
  TraceCompression comp_;
  std::FILE* f_ = nullptr;
  std::vector<uint8_t> raw_, packed_;
};

class BlockReader {
 public:
  // Reads and checks the file header of an input already open (its peeked bytes included). `fail` reports
  // an error at the current position (never returns).
  BlockReader(std::unique_ptr<InputFile> in, std::function<void(const std::string&)> fail);
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  uint8_t byte() {
    if (pos_ == raw_.size()) refill();
    ++offset_;
    return raw_[pos_++];
  }
  // True when every block has been read (reads ahead one block if needed).
  bool at_end();
  uint64_t offset() const { return offset_; }  // bytes of the decoded record stream consumed so far
  TraceCompression compression() const { return comp_; }

 private:
  void refill();       // next non-empty block, or fail("truncated ...")
  void read_header();  // checks the file header; ConfigError naming the byte
  bool load_block();   // false at the end block
  [[noreturn]] void fail(const std::string& msg) const;
  std::string path_;
  std::function<void(const std::string&)> fail_;
  std::unique_ptr<InputFile> in_;
  TraceCompression comp_ = TraceCompression::None;
  std::vector<uint8_t> raw_, packed_;
  size_t pos_ = 0;
  uint64_t offset_ = 0, file_offset_ = kFileHeaderBytes;
  size_t max_stored_ = kBlockBytes;  // stored size limit of a block (by compression)
  bool ended_ = false;
};

}  // namespace gms
