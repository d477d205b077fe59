// Line-by-line reading of text files that may be compressed: plain, xz (liblzma) or gzip (zlib), recognised
// by their magic bytes, not by the file name. Streaming: memory is one fixed buffer plus the longest line,
// whatever the file's length. Every error is a gms::ConfigError "FILE:LINE: what is wrong".
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gms {

class ByteSource;  // one decompressor (compressed_input.cpp)
class InputFile;   // models/common/bounded_input.h

class LineReader {
 public:
  // Opens `path`; ConfigError "PATH: cannot open ..." when it cannot be read.
  explicit LineReader(const std::string& path);
  // Reads an input already open (its peeked bytes included: a pipe is read once); `decompress` false
  // takes the bytes as they are.
  explicit LineReader(std::unique_ptr<InputFile> in, bool decompress = true);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its "\n" (or "\r\n"); false at the end of the file. A last line without a
  // newline is still a line. A line longer than kMaxTraceLineBytes (models/common/bounded_input.h) is a
  // ConfigError "PATH:LINE: line longer than the 1 MiB limit for a trace line ...": memory stays bounded.
  bool next(std::string& line);

  const std::string& path() const { return path_; }
  uint64_t line_no() const { return line_no_; }  // the line last returned by next(); 0 before the first
  const char* compression() const;               // "none", "xz" or "gzip"
  std::string where() const { return path_ + ":" + std::to_string(line_no_); }
  // Throws ConfigError(where() + ": " + what).
  [[noreturn]] void fail(const std::string& what) const;

 private:
  bool refill();  // false at the end of the data

  std::string path_;
  std::unique_ptr<ByteSource> src_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  uint64_t line_no_ = 0;
  bool eof_ = false;
};

// The kind of compression the file's first bytes announce: "none", "xz" or "gzip" ("" when unreadable).
std::string detect_compression(const std::string& path);
// The same from a file's first bytes (at least 6 of them, or the whole file).
std::string detect_compression(std::string_view head);

}  // namespace gms
