#include "fuzz/temp_input.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace gms::fuzz {

TempDir::TempDir() {
  // Memory-backed /dev/shm by default: rewriting a file on a disk file system costs milliseconds per input
  // (ext4 with discard), on tmpfs microseconds.
  const char* tmp = std::getenv("TMPDIR");
  std::error_code ec;
  const std::string base = tmp && *tmp                                     ? tmp
                           : std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm"
                                                                           : "/tmp";
  std::string templ = base + "/gms-fuzz-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    std::perror("fuzz: mkdtemp");
    std::abort();
  }
  dir_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string TempDir::write(const std::string& name, const uint8_t* data, size_t size) const {
  const std::string path = dir_ + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || (size && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror(("fuzz: cannot write " + path).c_str());
    std::abort();
  }
  return path;
}

std::string TempDir::write(const std::string& name, const std::string& text) const {
  return write(name, reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

const TempDir& process_temp_dir() {
  static const TempDir dir;
  return dir;
}

}  // namespace gms::fuzz
