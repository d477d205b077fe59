// A file the run writes for the user (statistics, VCD, reuse-distance tables) with every write, flush and
// close checked: a full disk or a vanished directory fails the run naming the file, never a silent
// truncation. Opening happens up front so a path that cannot be written is reported before the work.
// Results are never lost: the bytes go to a temporary file next to the path (".<name>.tmp.<pid>" in the
// same folder), renamed over the path only by commit(); until then the previous file stays as it was, and
// an error path (the destructor without commit()) removes the temporary.
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

// The temporary file next to an output path that replaces it on commit(), for writers that open the file
// themselves (OutputFile, the trace of `trace record`). The constructor creates the temporary
// (ConfigError "<path>: cannot open for writing: <reason>" if it cannot: a missing or unwritable folder);
// the destructor removes it unless commit() renamed it over the path. A path that exists and is not a
// regular file (/dev/null, /dev/full, a FIFO, a directory) has no temporary: it is written directly. A
// symbolic link to a file has the file it names replaced, the link kept; a replaced file keeps its mode.
class PendingOutput {
 public:
  explicit PendingOutput(std::string path);
  ~PendingOutput();
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  const std::string& path() const { return path_; }
  // Where to write: the temporary, or the path itself when written directly.
  const std::string& write_path() const { return temp_.empty() ? path_ : temp_; }
  // Renames the temporary over the path; OutputError "<path>: write failed: <reason>" if that fails (the
  // temporary is then removed). Idempotent.
  void commit();
  // Removes the temporary now (an error path). Idempotent.
  void discard();

 private:
  std::string path_;    // as the user gave it (messages)
  std::string target_;  // the file replaced: path_, or the file a symbolic link names
  std::string temp_;    // empty when written directly, committed or discarded
};

class OutputFile {
 public:
  // Opens a PendingOutput for `path`; ConfigError "<path>: cannot open for writing: <reason>" if it
  // cannot.
  explicit OutputFile(std::string path);
  ~OutputFile();  // discards: closes and removes the temporary if commit() was not reached
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Buffered; the first failure is kept and reported by finish(), later writes are dropped.
  void write(std::string_view bytes);
  // Flushes and closes the temporary; OutputError naming the file and the reason if any write, the flush
  // or the close failed (the temporary is then removed). Idempotent.
  void finish();
  // finish(), then renames the temporary over the path (OutputError if that fails). Idempotent.
  void commit();
  void close();  // the same as commit()
  bool failed() const { return error_ != 0; }
  const std::string& path() const { return pending_.path(); }

 private:
  void fail(int err);
  [[noreturn]] void throw_failure() const;
  PendingOutput pending_;
  std::FILE* f_ = nullptr;
  int error_ = 0;  // errno of the first failure
};

// Opens, writes and commits `path` in one go (ConfigError if it cannot be opened, OutputError if the write
// fails).
void write_output_file(const std::string& path, std::string_view bytes);

}  // namespace gms
