#include "tb/traces/compressed_input.h"

#include <lzma.h>
#include <zlib.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "models/common/bounded_input.h"
#include "models/common/config.h"

namespace gms {

// A stream of bytes; read() returns 0 at the end and throws std::runtime_error on corrupt data.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual size_t read(char* dst, size_t n) = 0;
  virtual const char* kind() const = 0;
};

namespace {

constexpr size_t kChunk = 1 << 16;
constexpr uint64_t kXzMemLimit = 256 * kMiB;

// The input the decompressors read: ConfigError on a read error (LineReader adds nothing to it).
class FileHandle {
 public:
  explicit FileHandle(std::unique_ptr<InputFile> f) : f_(std::move(f)) {}
  size_t read(void* dst, size_t n) { return f_->read(static_cast<char*>(dst), n); }

 private:
  std::unique_ptr<InputFile> f_;
};

class PlainSource : public ByteSource {
 public:
  explicit PlainSource(std::unique_ptr<InputFile> f) : file_(std::move(f)) {}
  size_t read(char* dst, size_t n) override { return file_.read(dst, n); }
  const char* kind() const override { return "none"; }

 private:
  FileHandle file_;
};

class XzSource : public ByteSource {
 public:
  explicit XzSource(std::unique_ptr<InputFile> f) : file_(std::move(f)), in_(kChunk) {
    // A dictionary as large as the header asks would be unbounded memory: xz -9 needs 65 MiB.
    if (lzma_stream_decoder(&strm_, kXzMemLimit, LZMA_CONCATENATED) != LZMA_OK)
      throw std::runtime_error("cannot start the xz decoder");
  }
  ~XzSource() override { lzma_end(&strm_); }
  const char* kind() const override { return "xz"; }
  size_t read(char* dst, size_t n) override {
    if (done_) return 0;
    strm_.next_out = reinterpret_cast<uint8_t*>(dst);
    strm_.avail_out = n;
    while (strm_.avail_out == n) {
      lzma_action action = LZMA_RUN;
      if (strm_.avail_in == 0 && !in_eof_) {
        strm_.next_in = in_.data();
        strm_.avail_in = file_.read(in_.data(), in_.size());
        if (strm_.avail_in == 0) in_eof_ = true;
      }
      if (in_eof_) action = LZMA_FINISH;
      lzma_ret r = lzma_code(&strm_, action);
      if (r == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (r == LZMA_BUF_ERROR && in_eof_) throw std::runtime_error("xz data ends early (truncated file)");
      if (r == LZMA_MEMLIMIT_ERROR)
        throw std::runtime_error("xz data needs more than " + describe_limit(kXzMemLimit) +
                                 " to decompress (its dictionary)");
      if (r != LZMA_OK) throw std::runtime_error("corrupt xz data (liblzma error " + std::to_string(r) + ")");
    }
    return n - strm_.avail_out;
  }

 private:
  FileHandle file_;
  std::vector<uint8_t> in_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  bool in_eof_ = false, done_ = false;
};

class GzSource : public ByteSource {
 public:
  explicit GzSource(std::unique_ptr<InputFile> f) : file_(std::move(f)), in_(kChunk) {
    std::memset(&strm_, 0, sizeof strm_);
    if (inflateInit2(&strm_, 15 + 16) != Z_OK) throw std::runtime_error("cannot start the gzip decoder");
  }
  ~GzSource() override { inflateEnd(&strm_); }
  const char* kind() const override { return "gzip"; }
  size_t read(char* dst, size_t n) override {
    strm_.next_out = reinterpret_cast<Bytef*>(dst);
    strm_.avail_out = uInt(n);
    while (strm_.avail_out == n) {
      if (strm_.avail_in == 0) {
        strm_.next_in = in_.data();
        strm_.avail_in = uInt(file_.read(in_.data(), in_.size()));
        if (strm_.avail_in == 0) {
          if (member_done_) return 0;  // clean end after a complete member
          throw std::runtime_error("gzip data ends early (truncated file)");
        }
      }
      member_done_ = false;
      int r = inflate(&strm_, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {
        member_done_ = true;  // another member may follow (concatenated gzip files)
        inflateReset(&strm_);
        continue;
      }
      if (r != Z_OK && r != Z_BUF_ERROR)
        throw std::runtime_error(std::string("corrupt gzip data (") + (strm_.msg ? strm_.msg : "zlib error") +
                                 ")");
    }
    return n - strm_.avail_out;
  }

 private:
  FileHandle file_;
  std::vector<Bytef> in_;
  z_stream strm_;
  bool member_done_ = false;
};

std::string magic_kind(const unsigned char* b, size_t n) {
  static const unsigned char xz[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  if (n >= 6 && std::memcmp(b, xz, 6) == 0) return "xz";
  if (n >= 2 && b[0] == 0x1F && b[1] == 0x8B) return "gzip";
  return "none";
}

}  // namespace

std::string detect_compression(std::string_view head) {
  return magic_kind(reinterpret_cast<const unsigned char*>(head.data()), head.size());
}

std::string detect_compression(const std::string& path) {
  try {
    InputFile in(path);
    return detect_compression(in.peek(6));
  } catch (const ConfigError&) {
    return "";
  }
}

namespace {

std::unique_ptr<InputFile> open_for_lines(const std::string& path) {
  if (::access(path.c_str(), R_OK) != 0)
    throw ConfigError(path + ": cannot open (" + std::strerror(errno) + ")");
  return std::make_unique<InputFile>(path);
}

}  // namespace

LineReader::LineReader(const std::string& path) : LineReader(open_for_lines(path)) {}

LineReader::LineReader(std::unique_ptr<InputFile> in, bool decompress) : path_(in->path()), buf_(kChunk) {
  const std::string kind = decompress ? detect_compression(in->peek(6)) : "none";
  try {
    if (kind == "xz")
      src_ = std::make_unique<XzSource>(std::move(in));
    else if (kind == "gzip")
      src_ = std::make_unique<GzSource>(std::move(in));
    else
      src_ = std::make_unique<PlainSource>(std::move(in));
  } catch (const std::runtime_error& e) {
    throw ConfigError(path_ + ": " + e.what());
  }
}

LineReader::~LineReader() = default;

const char* LineReader::compression() const {
  return src_->kind();
}

void LineReader::fail(const std::string& what) const {
  throw ConfigError(where() + ": " + what);
}

bool LineReader::refill() {
  if (eof_) return false;
  try {
    end_ = src_->read(buf_.data(), buf_.size());
  } catch (const ConfigError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw ConfigError(path_ + ":" + std::to_string(line_no_ + 1) + ": " + e.what());
  }
  pos_ = 0;
  if (end_ == 0) eof_ = true;
  return end_ > 0;
}

bool LineReader::next(std::string& line) {
  line.clear();
  bool any = false;
  for (;;) {
    if (pos_ == end_ && !refill()) {
      if (!any) return false;
      break;  // last line without a newline
    }
    any = true;
    const char* start = buf_.data() + pos_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
    if (nl) {
      line.append(start, size_t(nl - start));
      pos_ += size_t(nl - start) + 1;
      break;
    }
    line.append(start, end_ - pos_);
    pos_ = end_;
    // A line is held whole: one without an end (a binary or endless input) stops at the bound.
    if (line.size() > kMaxTraceLineBytes)
      throw ConfigError(path_ + ":" + std::to_string(line_no_ + 1) + ": line longer than the " +
                        describe_limit(kMaxTraceLineBytes) + " limit for a trace line (not a text file?)");
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++line_no_;
  return true;
}

}  // namespace gms
