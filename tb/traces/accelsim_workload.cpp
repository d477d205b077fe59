#include "tb/traces/accelsim_workload.h"

#include <sys/stat.h>

#include <regex>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/text_excerpt.h"
#include "tb/traces/accelsim_kernel.h"
#include "tb/traces/compressed_input.h"

namespace gms {

namespace {

constexpr size_t kPathExcerpt = 200;  // paths are quoted longer than other text

bool is_dir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::string parent_dir(const std::string& p) {
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : p.substr(0, slash));
}

std::string base_name(const std::string& p) {
  std::string s = p;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  const size_t slash = s.rfind('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

// "MemcpyHtoD,0x00007fd165500000,400" (any Memcpy direction is skipped alike).
bool is_memcpy_line(const std::string& t) {
  static const std::regex re(R"(Memcpy[A-Za-z]*,\s*(0x)?[0-9A-Fa-f]+,\s*[0-9]+)");
  return std::regex_match(t, re);
}

// A kernel trace file: "kernel-3.traceg", "traces/kernel-3.traceg.xz", "/abs/path/app-k1.traceg": any path
// whose name ends in .traceg or .trace (optionally .xz or .gz).
bool is_kernel_line(const std::string& t) {
  static const std::regex re(R"((.*/)?[^/]+\.traceg?(\.xz|\.gz)?)");
  return std::regex_match(t, re);
}

// The first few non-empty lines of a (possibly compressed) file; empty when unreadable.
std::vector<std::string> first_lines(const std::string& path, size_t n) {
  std::vector<std::string> out;
  try {
    LineReader r(path);
    std::string line;
    while (out.size() < n && r.next(line)) {
      if (line.size() > 4096) break;
      if (!trim(line).empty()) out.push_back(trim(line));
    }
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

// The same from a plain file's first bytes (`whole`: all of the file): a line the prefix cuts is left out.
std::vector<std::string> head_lines(std::string_view head, bool whole, size_t n) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos < head.size() && out.size() < n;) {
    size_t end = head.find('\n', pos);
    if (end == std::string_view::npos) {
      if (!whole) break;
      end = head.size();
    }
    std::string line(head.substr(pos, end - pos));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.size() > 4096) break;
    if (!trim(line).empty()) out.push_back(trim(line));
    pos = end + 1;
  }
  return out;
}

bool is_kernel_trace_start(const std::vector<std::string>& l) {
  return !l.empty() && l[0].rfind("-kernel name", 0) == 0;
}

bool is_kernelslist(const std::vector<std::string>& lines) {
  if (lines.empty()) return false;
  for (const auto& t : lines)
    if (!is_memcpy_line(t) && !is_kernel_line(t)) return false;
  return true;
}

bool looks_like_kernel_trace(const std::string& path) {
  return is_kernel_trace_start(first_lines(path, 1));
}

std::unique_ptr<Workload> load_list(const std::string& list) {
  LineReader r(list);
  const std::string dir = parent_dir(list);
  std::vector<std::string> files, names;
  uint64_t memcpys = 0;
  std::string line;
  while (r.next(line)) {
    const std::string t = trim(line);
    if (t.empty()) continue;
    if (t.rfind("Memcpy", 0) == 0) {
      if (!is_memcpy_line(t))
        r.fail("malformed memcpy line " + quote_excerpt(t) + " (expected MemcpyHtoD,0x<address>,<bytes>)");
      ++memcpys;
      continue;
    }
    if (!is_kernel_line(t))
      r.fail("unknown line " + quote_excerpt(t) +
             " (expected MemcpyHtoD,... or a kernel trace like kernel-N.traceg)");
    // Absolute paths as they are, relative ones (subfolders too) from the list's folder.
    std::string path = t[0] == '/' ? t : dir + "/" + t;
    if (!is_file(path)) {
      // A post-processed list names kernel-N.traceg; accept the file compressed afterwards.
      if (is_file(path + ".xz"))
        path += ".xz";
      else if (is_file(path + ".gz"))
        path += ".gz";
      else
        r.fail(quote_excerpt(t, kPathExcerpt) + " not found (no file " + quote_excerpt(path, kPathExcerpt) +
               ", nor with .xz or .gz)");
    }
    files.push_back(path);
    names.push_back(t);
  }
  if (files.empty()) throw ConfigError(list + ": no kernel in the kernels list");
  return std::make_unique<AccelSimWorkload>("accelsim:" + base_name(dir), std::move(files), std::move(names),
                                            memcpys);
}

}  // namespace

AccelSimWorkload::AccelSimWorkload(std::string name, std::vector<std::string> kernel_files,
                                   std::vector<std::string> display_names, uint64_t memcpys)
    : name_(std::move(name)),
      files_(std::move(kernel_files)),
      display_(std::move(display_names)),
      stats_(std::make_shared<AccelImportStats>()) {
  for (uint64_t i = 0; i < memcpys; ++i) stats_->count_memcpy();
}

std::unique_ptr<KernelSource> AccelSimWorkload::next_kernel() {
  if (next_ == files_.size()) return nullptr;
  const size_t i = next_++;
  return std::make_unique<AccelSimKernel>(files_[i], display_[i], stats_);
}

std::unique_ptr<Workload> load_accelsim_workload(const std::string& path) {
  if (is_dir(path)) {
    const std::string list = path + "/kernelslist.g";
    if (!is_file(list)) throw ConfigError(path + ": folder without kernelslist.g");
    return load_list(list);
  }
  if (!is_file(path)) throw ConfigError(path + ": no such file or folder");
  if (looks_like_kernel_trace(path))
    return std::make_unique<AccelSimWorkload>("accelsim:" + base_name(path), std::vector<std::string>{path},
                                              std::vector<std::string>{base_name(path)}, 0);
  return load_list(path);
}

bool looks_like_accelsim(InputFile& in) {
  try {
    const std::string_view head = in.peek(kSniffBytes);
    if (detect_compression(head) != "none")  // a compressed kernel trace (a list is never compressed)
      return in.regular() && looks_like_kernel_trace(in.path());
    const auto lines = head_lines(head, head.size() < kSniffBytes, 16);
    return is_kernelslist(lines) || is_kernel_trace_start(lines);
  } catch (const std::exception&) {
    return false;
  }
}

bool looks_like_accelsim(const std::string& path) {
  try {
    if (is_dir(path)) return is_file(path + "/kernelslist.g");
    if (!is_file(path)) return false;
    InputFile in(path);
    return looks_like_accelsim(in);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace gms
