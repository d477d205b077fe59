#include "models/common/output_file.h"

#include <cerrno>
#include <cstring>

#include "models/common/config.h"

namespace gms {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  f_ = std::fopen(path_.c_str(), "w");
  if (!f_) throw ConfigError(path_ + ": cannot open for writing: " + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, size_t(1) << 16);
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);
}

void OutputFile::fail(int err) {
  if (error_ == 0) error_ = err ? err : EIO;
}

void OutputFile::write(std::string_view bytes) {
  if (!f_ || error_ || bytes.empty()) return;
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) fail(errno);
}

void OutputFile::close() {
  if (!f_) {
    if (error_) throw OutputError(path_ + ": write failed: " + std::strerror(error_));
    return;
  }
  errno = 0;
  if (std::fflush(f_) != 0) fail(errno);
  if (std::ferror(f_)) fail(errno);
  errno = 0;
  if (std::fclose(f_) != 0) fail(errno);
  f_ = nullptr;
  if (error_) throw OutputError(path_ + ": write failed: " + std::strerror(error_));
}

void write_output_file(const std::string& path, std::string_view bytes) {
  OutputFile f(path);
  f.write(bytes);
  f.close();
}

}  // namespace gms
