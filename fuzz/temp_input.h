// The trace readers take paths, not buffers: a harness writes each input to a file in a private
// directory (mkdtemp under $TMPDIR, else /dev/shm, else /tmp) and hands the reader that path. The directory
// and its files are removed when the object is destroyed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gms::fuzz {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return dir_; }
  // Writes (replaces) `name` in the directory with the bytes given; returns its full path. Aborts when the
  // file cannot be written (the harness, not the reader, would be at fault).
  std::string write(const std::string& name, const uint8_t* data, size_t size) const;
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string dir_;
};

// The one directory of this process: LLVMFuzzerTestOneInput has no context to hold it.
const TempDir& process_temp_dir();

}  // namespace gms::fuzz
