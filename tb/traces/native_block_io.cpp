#include "tb/traces/native_block_io.h"

#include <lzma.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/output_file.h"

namespace gms {

namespace {

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
uint32_t get_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

BlockWriter::BlockWriter(const std::string& path, TraceCompression compression)
    : path_(path), comp_(compression) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw ConfigError(path + ": cannot open for writing");
  uint8_t h[kFileHeaderBytes] = {};
  std::memcpy(h, kBinaryMagic, sizeof kBinaryMagic);
  h[8] = uint8_t(kNativeVersion);
  h[9] = uint8_t(comp_);
  try {
    write(h, sizeof h);
  } catch (...) {  // the destructor does not run for a constructor that throws: close here
    std::fclose(f_);
    f_ = nullptr;
    throw;
  }
  raw_.reserve(kBlockBytes + 4096);
}

BlockWriter::~BlockWriter() {
  if (f_) std::fclose(f_);
}

void BlockWriter::write(const void* p, size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n)
    throw OutputError(path_ + ": write failed: " + std::strerror(errno));
}

void BlockWriter::flush_full_blocks() {
  // A warp's records can be much longer than a block: cut the stream into 1 MiB blocks anywhere (the
  // reader concatenates them) and keep the rest for the next call.
  size_t done = 0;
  for (; raw_.size() - done >= kBlockBytes; done += kBlockBytes) write_block(raw_.data() + done, kBlockBytes);
  raw_.erase(raw_.begin(), raw_.begin() + std::ptrdiff_t(done));
}

void BlockWriter::write_block(const uint8_t* raw, size_t raw_size) {
  const uint8_t* data = raw;
  size_t size = raw_size;
  if (comp_ == TraceCompression::Zlib) {
    uLongf n = compressBound(uLong(raw_size));
    packed_.resize(n);
    if (compress2(packed_.data(), &n, raw, uLong(raw_size), 6) != Z_OK)
      throw ConfigError(path_ + ": zlib compression failed");
    data = packed_.data();
    size = n;
  } else if (comp_ == TraceCompression::Xz) {
    lzma_options_lzma opt;
    lzma_lzma_preset(&opt, 6);
    opt.dict_size = uint32_t(kBlockBytes);
    lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
    packed_.resize(lzma_stream_buffer_bound(raw_size));
    size_t n = 0;
    if (lzma_stream_buffer_encode(filters, LZMA_CHECK_CRC32, nullptr, raw, raw_size, packed_.data(), &n,
                                  packed_.size()) != LZMA_OK)
      throw ConfigError(path_ + ": xz compression failed");
    data = packed_.data();
    size = n;
  }
  uint8_t h[8];
  put_u32(h, uint32_t(raw_size));
  put_u32(h + 4, uint32_t(size));
  write(h, sizeof h);
  write(data, size);
}

void BlockWriter::finish() {
  flush_full_blocks();
  if (!raw_.empty()) write_block(raw_.data(), raw_.size());
  raw_.clear();
  const uint8_t end[8] = {};
  write(end, sizeof end);
  const bool ok = std::fflush(f_) == 0 && !std::ferror(f_);
  const int err = errno;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!ok || !closed) throw OutputError(path_ + ": write failed: " + std::strerror(ok ? errno : err));
}

BlockReader::BlockReader(std::unique_ptr<InputFile> in, std::function<void(const std::string&)> fail)
    : path_(in->path()), fail_(std::move(fail)), in_(std::move(in)) {
  read_header();  // a throw closes the input (a fuzzer once ran out of file descriptors on bad headers)
}

void BlockReader::read_header() {
  const std::string& path = path_;
  uint8_t h[kFileHeaderBytes];
  const size_t n = in_->read(reinterpret_cast<char*>(h), sizeof h);
  if (n < sizeof kBinaryMagic || std::memcmp(h, kBinaryMagic, sizeof kBinaryMagic) != 0)
    throw ConfigError(path + ": byte 0: not a binary native trace (bad magic)");
  if (n < sizeof h) throw ConfigError(path + ": byte " + std::to_string(n) + ": truncated file header");
  if (h[8] != kNativeVersion)
    throw ConfigError(path + ": byte 8: unsupported version " + std::to_string(h[8]) +
                      " (this reader knows " + std::to_string(kNativeVersion) + ")");
  if (h[9] > uint8_t(TraceCompression::Xz))
    throw ConfigError(path + ": byte 9: unknown compression mode " + std::to_string(h[9]) +
                      " (expected 0 none, 1 zlib, 2 xz)");
  for (size_t i = 10; i < kFileHeaderBytes; ++i)
    if (h[i] != 0)
      throw ConfigError(path + ": byte " + std::to_string(i) + ": reserved header byte is " +
                        std::to_string(h[i]) + " (must be 0)");
  comp_ = TraceCompression(h[9]);
  // The largest a compressed 1 MiB block can be (incompressible data grows a little).
  max_stored_ = kBlockBytes;
  if (comp_ == TraceCompression::Zlib) max_stored_ = compressBound(uLong(kBlockBytes));
  if (comp_ == TraceCompression::Xz) max_stored_ = lzma_stream_buffer_bound(kBlockBytes);
}

BlockReader::~BlockReader() = default;

void BlockReader::fail(const std::string& msg) const {
  fail_(msg);
  throw ConfigError(path_ + ": " + msg);  // in case the callback returned
}

bool BlockReader::load_block() {
  uint8_t h[8];
  const size_t n = in_->read(reinterpret_cast<char*>(h), sizeof h);
  if (n < sizeof h)
    fail("truncated file: block header at file offset " + std::to_string(file_offset_) + " is missing" +
         (n ? " its last bytes" : ""));
  const uint32_t raw_size = get_u32(h), size = get_u32(h + 4);
  if (raw_size == 0) {
    if (size != 0) fail("corrupt end block at file offset " + std::to_string(file_offset_));
    ended_ = true;
    // The end block ends the file: anything after it is corruption or a second file glued on.
    char after;
    if (in_->read(&after, 1) != 0)
      fail("bytes after the end block: the file must end at file offset " + std::to_string(file_offset_ + 8));
    return false;
  }
  if (raw_size > kBlockBytes)
    fail("block at file offset " + std::to_string(file_offset_) + " holds " + std::to_string(raw_size) +
         " bytes, more than the 1 MiB (" + std::to_string(kBlockBytes) + " bytes) limit");
  if (size > max_stored_ || (comp_ == TraceCompression::None && size != raw_size))
    fail("corrupt block header at file offset " + std::to_string(file_offset_) + " (stored size " +
         std::to_string(size) + " for " + std::to_string(raw_size) + " bytes)");
  packed_.resize(size);
  if (in_->read(reinterpret_cast<char*>(packed_.data()), size) != size)
    fail("truncated file: block at file offset " + std::to_string(file_offset_) + " is cut short");
  raw_.resize(raw_size);
  bool ok = true;
  if (comp_ == TraceCompression::None) {
    ok = size == raw_size;
    if (ok) raw_.swap(packed_);
  } else if (comp_ == TraceCompression::Zlib) {
    uLongf out = raw_size;
    ok = uncompress(raw_.data(), &out, packed_.data(), uLong(size)) == Z_OK && out == raw_size;
  } else {
    uint64_t memlimit = 64u << 20;
    size_t in_pos = 0, out_pos = 0;
    ok = lzma_stream_buffer_decode(&memlimit, 0, nullptr, packed_.data(), &in_pos, size, raw_.data(),
                                   &out_pos, raw_size) == LZMA_OK &&
         out_pos == raw_size;
  }
  if (!ok) fail("block at file offset " + std::to_string(file_offset_) + " does not decompress");
  file_offset_ += 8 + size;
  pos_ = 0;
  return true;
}

void BlockReader::refill() {
  if (ended_ || !load_block()) fail("truncated file: the record stream ends early");
}

bool BlockReader::at_end() {
  if (pos_ < raw_.size()) return false;
  return ended_ || !load_block();
}

}  // namespace gms
