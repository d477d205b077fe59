// Reading user input in bounded memory (issue 29). Every reader opens its input once through an InputFile,
// looks at a bounded prefix first (kind detection, content checks on the first bytes) and then either loads
// the rest under a size limit (YAML documents) or streams it (traces, in bounded lines or blocks). Regular
// files, devices, FIFOs and pipes are read alike: incrementally, never past limit + 1 byte, so `-c
// /dev/zero` or a 200 MB file of zeros fails on its first bytes. A pipe cannot be reopened: what the
// sniffing read is kept and handed on to the reader that takes the input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gms {

constexpr size_t kMiB = size_t(1) << 20;
// The largest YAML document read: a configuration, a synthetic workload, a programs file (real ones are a
// few KiB).
constexpr size_t kYamlInputLimit = 16 * kMiB;
// What kind detection (`-w`) and the first-bytes content checks read of an input.
constexpr size_t kSniffBytes = 64 * 1024;
// The longest line a text trace (native or Accel-Sim) or a kernels list may have (real lines: < 1 KiB).
constexpr size_t kMaxTraceLineBytes = 1 * kMiB;

class InputFile {
 public:
  // Opens `path` for reading. ConfigError "PATH: is a directory", "PATH: cannot read file".
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  // A regular file (a reader may open it again by path); false for a device, FIFO, pipe or socket.
  bool regular() const { return regular_; }

  // The first min(n, size) bytes, read once and kept (n is clamped to kSniffBytes): read() still starts
  // at byte 0. Only before the first read().
  std::string_view peek(size_t n = kSniffBytes);
  // Up to n bytes from the current position (the peeked ones first); fewer only at the end. ConfigError
  // "PATH: read error (reason)".
  size_t read(char* dst, size_t n);
  // Everything from the current position when it is at most `limit` bytes; else ConfigError "PATH: larger
  // than the 16 MiB limit for a <what>" after reading at most limit + 1 bytes (a regular file larger than
  // the limit is refused by its size, unread).
  std::string read_all(size_t limit, const std::string& what);

 private:
  size_t read_fd(char* dst, size_t n);  // read(2) until n bytes or the end, retrying EINTR

  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
  uint64_t size_ = 0;  // st_size of a regular file
  std::string head_;   // the peeked bytes
  size_t head_pos_ = 0;
  bool read_started_ = false;
};

// "16 MiB" for a byte count that is whole MiB, else "N bytes".
std::string describe_limit(size_t bytes);

}  // namespace gms
