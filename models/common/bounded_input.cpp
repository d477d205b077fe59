#include "models/common/bounded_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "models/common/config.h"

namespace gms {

namespace {

constexpr size_t kChunk = 64 * 1024;

}  // namespace

std::string describe_limit(size_t bytes) {
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

InputFile::InputFile(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw ConfigError(path + ": is a directory");
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw ConfigError(path + ": cannot read file");
  if (::fstat(fd_, &st) == 0) {
    regular_ = S_ISREG(st.st_mode);
    size_ = regular_ ? uint64_t(st.st_size) : 0;
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

size_t InputFile::read_fd(char* dst, size_t n) {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd_, dst + got, n - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ConfigError(path_ + ": read error (" + std::strerror(errno) + ")");
    }
    got += size_t(r);
  }
  return got;
}

std::string_view InputFile::peek(size_t n) {
  n = std::min(n, kSniffBytes);
  if (!read_started_ && head_.size() < n) {
    const size_t had = head_.size();
    head_.resize(n);
    head_.resize(had + read_fd(&head_[had], n - had));
  }
  return std::string_view(head_).substr(0, std::min(n, head_.size()));
}

size_t InputFile::read(char* dst, size_t n) {
  read_started_ = true;
  size_t got = 0;
  if (head_pos_ < head_.size()) {
    got = std::min(n, head_.size() - head_pos_);
    std::memcpy(dst, head_.data() + head_pos_, got);
    head_pos_ += got;
    if (head_pos_ == head_.size()) {  // all handed on: free it
      head_ = std::string();
      head_pos_ = 0;
    }
  }
  return got + read_fd(dst + got, n - got);
}

std::string InputFile::read_all(size_t limit, const std::string& what) {
  const std::string too_large = path_ + ": larger than the " + describe_limit(limit) + " limit for a " + what;
  if (regular_ && size_ > limit) throw ConfigError(too_large);
  std::string out;
  if (regular_) out.reserve(size_t(size_) + 1);
  // Incrementally, one chunk at a time: a device or a pipe has no size, and never stops on its own.
  for (;;) {
    const size_t want = std::min(kChunk, limit + 1 - out.size());
    const size_t had = out.size();
    out.resize(had + want);
    const size_t got = read(&out[had], want);
    out.resize(had + got);
    if (out.size() > limit) throw ConfigError(too_large);
    if (got < want) break;
  }
  return out;
}

}  // namespace gms
