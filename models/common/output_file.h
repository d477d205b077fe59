// A file the run writes for the user (statistics, VCD, reuse-distance tables) with every write, flush and
// close checked: a full disk or a vanished directory fails the run naming the file, never a silent
// truncation. Opening happens up front so a path that cannot be written is reported before the work.
#pragma once
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gms {

// An output file could not be written completely (exit status 3): "<path>: write failed: <reason>".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputFile {
 public:
  // Creates or truncates `path`; ConfigError "<path>: cannot open for writing: <reason>" if it cannot.
  explicit OutputFile(std::string path);
  ~OutputFile();  // closes without a report if close() was not called (an exception is already on its way)
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered; the first failure is kept and reported by close(), later writes are dropped.
  void write(std::string_view bytes);
  // Flushes and closes; OutputError naming the file and the reason if any write, the flush or the close
  // failed. Idempotent.
  void close();
  bool failed() const { return error_ != 0; }
  const std::string& path() const { return path_; }

 private:
  void fail(int err);
  std::string path_;
  std::FILE* f_ = nullptr;
  int error_ = 0;  // errno of the first failure
};

// Opens, writes and closes `path` in one go (ConfigError if it cannot be opened, OutputError if the write
// fails).
void write_output_file(const std::string& path, std::string_view bytes);

}  // namespace gms
