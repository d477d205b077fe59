#include "models/common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "models/common/config.h"

namespace gms {

namespace fs = std::filesystem;

PendingOutput::PendingOutput(std::string path) : path_(std::move(path)), target_(path_) {
  std::error_code ec;
  const fs::file_status st = fs::status(path_, ec);        // follows symbolic links
  if (fs::exists(st) && !fs::is_regular_file(st)) return;  // a device, FIFO or directory: written directly
  if (fs::is_symlink(fs::symlink_status(path_, ec))) {
    const fs::path resolved = fs::canonical(path_, ec);
    if (!ec) target_ = resolved.string();
  }
  const fs::path t(target_);
  if (!t.has_filename()) return;  // "" or "dir/": opened directly, which fails naming the path
  temp_ = (t.parent_path() / ("." + t.filename().string() + ".tmp." + std::to_string(::getpid()))).string();
  int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EEXIST) {  // left by a killed run that had this process id: ours to replace
    ::unlink(temp_.c_str());
    fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  }
  if (fd < 0) {
    const int err = errno;
    temp_.clear();
    throw ConfigError(path_ + ": cannot open for writing: " + std::strerror(err));
  }
  struct stat old {};
  if (fs::is_regular_file(st) && ::stat(target_.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
  ::close(fd);
}

PendingOutput::~PendingOutput() {
  discard();
}

void PendingOutput::discard() {
  if (temp_.empty()) return;
  ::unlink(temp_.c_str());
  temp_.clear();
}

void PendingOutput::commit() {
  if (temp_.empty()) return;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    discard();
    throw OutputError(path_ + ": write failed: " + std::strerror(err));
  }
  temp_.clear();
}

OutputFile::OutputFile(std::string path) : pending_(std::move(path)) {
  f_ = std::fopen(pending_.write_path().c_str(), "w");
  if (!f_) throw ConfigError(pending_.path() + ": cannot open for writing: " + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, size_t(1) << 16);
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);  // pending_ then removes the temporary unless it was committed
}

void OutputFile::fail(int err) {
  if (error_ == 0) error_ = err ? err : EIO;
}

void OutputFile::throw_failure() const {
  throw OutputError(path() + ": write failed: " + std::strerror(error_));
}

void OutputFile::write(std::string_view bytes) {
  if (!f_ || error_ || bytes.empty()) return;
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) fail(errno);
}

void OutputFile::finish() {
  if (!f_) {
    if (error_) throw_failure();
    return;
  }
  errno = 0;
  if (std::fflush(f_) != 0) fail(errno);
  if (std::ferror(f_)) fail(errno);
  errno = 0;
  if (std::fclose(f_) != 0) fail(errno);
  f_ = nullptr;
  if (error_) {
    pending_.discard();
    throw_failure();
  }
}

void OutputFile::commit() {
  finish();
  pending_.commit();
}

void OutputFile::close() {
  commit();
}

void write_output_file(const std::string& path, std::string_view bytes) {
  OutputFile f(path);
  f.write(bytes);
  f.close();
}

}  // namespace gms
