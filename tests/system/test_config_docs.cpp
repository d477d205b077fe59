// docs/config.md against the parser (issue 29): every key the configuration parser reads is documented,
// every documented key is read, and each documented default and numeric range is the one the parser
// applies. The parser's own table is ConfigNode::key_specs(), which every typed getter fills as it reads;
// the boundaries are checked by parsing them: min and max are accepted, min-1 and max+1 are refused
// naming the key. A failure lists every mismatch, one per line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include "models/common/config.h"
#include "models/system/system_config.h"
#include "tb/workloads/workload_loader.h"

using namespace gms;

namespace {

std::string src(const std::string& rel) {
  return std::string(GMS_SOURCE_DIR) + "/" + rel;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A documented number: 65535, 0.02, 10^9, 1e6, 2^30, 2^64-1, 1 MiB, 64 B. Exact for integers below 2^64
// (as long double: 2^64-1 needs 64 bits of mantissa, which x86's long double has).
bool eval_number(std::string t, long double& out) {
  static const std::regex num(R"(^\s*(\d+(?:\.\d+)?(?:e\d+)?)(?:\^(\d+))?(-1)?\s*(B|KiB|MiB|GiB)?\s*$)");
  std::smatch m;
  if (!std::regex_match(t, m, num)) return false;
  long double v = std::stold(m[1].str());
  if (m[2].matched) v = std::pow(v, std::stold(m[2].str()));
  if (m[3].matched) v -= 1;
  const std::string unit = m[4].str();
  if (unit == "KiB") v *= 1024;
  if (unit == "MiB") v *= 1024 * 1024;
  if (unit == "GiB") v *= 1024 * 1024 * 1024;
  out = v;
  return true;
}

struct DocRange {
  bool has_lo = false, has_hi = false;
  long double lo = 0, hi = 0;
};

// The numeric bounds a range cell states: "1 .. 4096", "power of two, 128 .. 2^30", "0-1000", "1..sets"
// (a lower bound only), ">= 0" or "0 = none" (no upper bound).
DocRange doc_range(std::string cell) {
  DocRange r;
  cell = std::regex_replace(cell, std::regex("`"), "");
  cell = std::regex_replace(cell, std::regex(R"(^power of two, )"), "");
  const std::string n = R"((\d+(?:\.\d+)?(?:e\d+)?(?:\^\d+)?(?:-1(?!\d))?(?:\s*(?:B|KiB|MiB|GiB)\b)?))";
  std::smatch m;
  if (std::regex_search(cell, m, std::regex("^" + n + R"(\s*(?:\.\.|-)\s*)" + n + R"((?![\w^]))")) &&
      eval_number(m[1].str(), r.lo) && eval_number(m[2].str(), r.hi)) {
    r.has_lo = r.has_hi = true;
  } else if (std::regex_search(cell, m, std::regex("^" + n + "((?:, " + n + ")+)(?:$|[^0-9])")) &&
             eval_number(m[1].str(), r.lo)) {
    // A list of the allowed values ("8, 16, 32, 64"): its first and last.
    const std::string rest = m[2].str();
    r.has_lo = r.has_hi = eval_number(rest.substr(rest.rfind(", ") + 2), r.hi);
  } else if (std::regex_search(cell, m, std::regex("^" + n + " only")) && eval_number(m[1].str(), r.lo)) {
    r.hi = r.lo;
    r.has_lo = r.has_hi = true;
  } else if (std::regex_search(cell, m, std::regex("^" + n + R"(\s*(?:\.\.|-))")) &&
             eval_number(m[1].str(), r.lo)) {
    r.has_lo = true;
  } else if (std::regex_search(cell, m, std::regex("^>= " + n + "$")) && eval_number(m[1].str(), r.lo)) {
    r.has_lo = true;
    r.hi = std::numeric_limits<long double>::infinity();
    r.has_hi = true;
  } else if (std::regex_search(cell, m, std::regex(R"(^0 = )"))) {
    r.has_lo = r.has_hi = true;
    r.hi = std::numeric_limits<long double>::infinity();
  }
  return r;
}

struct DocKey {
  std::string path, def, range, pattern;  // pattern: a workload pattern key's pattern, else ""
  int line = 0;
};

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream ss(row.substr(1));
  for (std::string c; std::getline(ss, c, '|');) {
    c = std::regex_replace(c, std::regex(R"(^\s+|\s+$)"), "");
    out.push_back(c);
  }
  return out;
}

const char* kKernel = "workload.kernels[0]";

// The key tables of docs/config.md (the system's sections, then the workload file's tables), each key with
// its full path: a table's keys are relative to the section its heading (or the line above it) names.
std::vector<DocKey> documented_keys() {
  static const std::vector<std::pair<std::string, std::string>> sections = {
      {"## `system:`", "system"},
      {"## `memory_map:`", "memory_map"},
      {"## sm (", "sm"},
      {"## l1 (", "l1"},
      {"## l1-bypass (", "l1.pdp"},
      {"## l1-decoupled (", "l1.decoupled"},
      {"## l1-dsc (", "l1.dsc"},
      {"## l1-gcache (", "l1.gcache"},
      {"## l1-tsc (", "l1"},
      {"## noc (", "noc"},
      {"## llc (", "llc"},
      {"### `llc.adaptive:`", "llc.adaptive"},
      {"## dram (", "dram"},
      {"Workload keys:", "workload"},
      {"Kernel keys (every pattern):", kKernel},
      {"Pattern keys:", kKernel}};
  std::vector<DocKey> out;
  std::istringstream in(read_text(src("docs/config.md")));
  std::string prefix, line;
  std::vector<std::string> header;
  for (int no = 1; std::getline(in, line); ++no) {
    if (line.rfind("### Several programs", 0) == 0) break;
    const bool label =
        line == "Workload keys:" || line == "Kernel keys (every pattern):" || line == "Pattern keys:";
    if (line.rfind("#", 0) == 0 || label) {
      prefix.clear();
      header.clear();
      for (const auto& [head, p] : sections)
        if (line.rfind(head, 0) == 0) prefix = p;
      continue;
    }
    if (prefix.empty() || line.rfind("|", 0) != 0) continue;
    const std::vector<std::string> c = cells(line);
    if (!c.empty() && c[0] == "key") {
      header = c;
      continue;
    }
    if (header.empty() || c[0].rfind("---", 0) == 0) continue;
    auto col = [&](const std::string& name) {
      for (size_t i = 0; i < header.size() && i < c.size(); ++i)
        if (header[i] == name) return c[i];
      return std::string();
    };
    static const std::regex key_re("`([a-zA-Z0-9_.]+)`");
    for (std::sregex_iterator it(c[0].begin(), c[0].end(), key_re), end; it != end; ++it) {
      const std::string k = (*it)[1].str();
      out.push_back({prefix + "." + k, col("default"), col("range"), col("pattern"), no});
    }
  }
  return out;
}

// A workload with one kernel of `pattern` (grid, block and the pattern's required keys set), `kernel_kv`
// ("key: value") added to or replacing the kernel's keys and `workload_kv` added to the workload.
std::string workload_text(const std::string& pattern, const std::string& kernel_kv = "",
                          const std::string& workload_kv = "") {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> required = {
      {"streaming", {{"insts_per_warp", "4"}}},
      {"strided", {{"insts_per_warp", "4"}, {"stride", "4"}}},
      {"random", {{"insts_per_warp", "4"}, {"footprint", "4096"}}},
      {"hotcold", {{"insts_per_warp", "4"}, {"hot_lines", "4"}, {"hot_fraction", "0.5"}}},
      {"kmeans", {{"nfeatures", "4"}}},
      {"spmv_csr", {{"nnz_per_row", "2"}}},
      {"bfs", {{"avg_degree", "2"}}},
      {"stencil2d", {{"nx", "8"}, {"ny", "8"}}},
      {"matmul", {{"m", "8"}, {"n", "8"}, {"k", "8"}}},
      {"sharing", {{"insts_per_warp", "4"}, {"table_bytes", "4096"}}},
      {"colmajor_copy", {}}};
  std::vector<std::pair<std::string, std::string>> kv = {
      {"pattern", pattern}, {"grid", "1"}, {"block", "32"}};
  for (const auto& r : required.at(pattern)) kv.push_back(r);
  if (!kernel_kv.empty()) {
    const size_t colon = kernel_kv.find(':');
    const std::string key = kernel_kv.substr(0, colon), value = kernel_kv.substr(colon + 2);
    bool replaced = false;
    for (auto& [k, v] : kv)
      if (k == key) v = value, replaced = true;
    if (!replaced) kv.push_back({key, value});
  }
  std::string text = "workload:\n" + (workload_kv.empty() ? "" : "  " + workload_kv + "\n") + "  kernels:\n";
  for (size_t i = 0; i < kv.size(); ++i)
    text += (i ? "      " : "    - ") + kv[i].first + ": " + kv[i].second + "\n";
  return text;
}

// What the parser reads, per key: every system key from a whole configuration (every section is read
// whatever the mode), every workload key from a kernel of each pattern.
std::map<std::string, KeySpec> parser_keys(const std::string& pattern = "") {
  if (pattern.empty()) {
    ConfigNode doc = ConfigNode::load_file(src("configs/fermi.yaml"));
    doc.apply_override("dram.mapping={}");  // read only when present: explicit DRAM address bits
    SystemConfig::from(doc);
    return doc.key_specs();
  }
  ConfigNode doc = ConfigNode::load_string(workload_text(pattern), "w.yaml");
  load_workload(doc);
  return doc.key_specs();
}

bool is_workload(const DocKey& d) {
  return d.path.rfind("workload.", 0) == 0;
}

// The parser's entry for a documented key: a pattern key from a kernel of its pattern (the first, when
// the row names several), the other workload keys from a streaming kernel.
const KeySpec* spec_of(const DocKey& d, std::map<std::string, std::map<std::string, KeySpec>>& cache,
                       std::string& pattern) {
  pattern = "";
  if (is_workload(d)) {
    pattern = "streaming";
    std::smatch m;
    if (std::regex_search(d.pattern, m, std::regex(R"([a-z0-9_]+)"))) pattern = m[0].str();
  }
  if (!cache.count(pattern)) cache[pattern] = parser_keys(pattern);
  auto it = cache[pattern].find(d.path);
  return it == cache[pattern].end() ? nullptr : &it->second;
}

bool numeric(const KeySpec& s) {
  return s.type == "integer" || s.type == "power of two" || s.type == "number";
}

long double bound(const std::string& text) {
  return text == "inf" ? std::numeric_limits<long double>::infinity() : std::stold(text);
}

// The error of the input with `path` set to `value` ("" when accepted): fermi.yaml with a --set for a
// system key, a kernel of `pattern` with the key added for a workload key.
std::string parse_error(const std::string& path, const std::string& value, const std::string& pattern) {
  try {
    if (pattern.empty()) {
      load_system_config_file(src("configs/fermi.yaml"), {path + "=" + value});
    } else if (path.rfind(kKernel, 0) == 0) {
      load_workload(ConfigNode::load_string(
          workload_text(pattern, path.substr(std::string(kKernel).size() + 1) + ": " + value), "w.yaml"));
    } else {
      load_workload(ConfigNode::load_string(
          workload_text(pattern, "", path.substr(std::string("workload.").size()) + ": " + value), "w.yaml"));
    }
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Whether `err` refuses the value of `path` itself (type or range), not a combination with other keys.
bool refuses_value(const std::string& err, const std::string& path) {
  if (err.find(path + ": ") == std::string::npos) return false;
  for (const char* why : {"out of range", "must not be negative", "must be a power of two",
                          "expected an integer", "expected a number"})
    if (err.find(why) != std::string::npos) return true;
  return false;
}

// A bound as YAML text: integers exactly (2^64-1 = 18446744073709551615), numbers exactly too.
std::string as_text(const KeySpec& s, long double v) {
  if (s.type == "number") return format_number(double(v));
  if (v < 0) return "-" + std::to_string(uint64_t(-v));
  if (v >= 18446744073709551615.0L)  // one past 2^64-1 is longer than any uint64_t
    return v == 18446744073709551615.0L ? "18446744073709551615" : "18446744073709551616";
  return std::to_string(uint64_t(v));
}

}  // namespace

TEST(ConfigDocs, EveryKeyTheParserReadsIsDocumentedAndViceVersa) {
  const auto docs = documented_keys();
  ASSERT_GT(docs.size(), 150u);
  std::map<std::string, std::map<std::string, KeySpec>> cache;
  std::set<std::string> documented;
  std::ostringstream bad;
  for (const DocKey& d : docs) {
    documented.insert(d.path);
    std::string pattern;
    if (!spec_of(d, cache, pattern))
      bad << "docs/config.md:" << d.line << ": " << d.path << " is not read by the parser"
          << (pattern.empty() ? "" : " (pattern " + pattern + ")") << "\n";
  }
  for (const char* p : {"", "streaming", "strided", "random", "hotcold", "kmeans", "spmv_csr", "bfs",
                        "stencil2d", "matmul", "sharing", "colmajor_copy"}) {
    if (!cache.count(p)) cache[p] = parser_keys(p);
    for (const auto& [path, spec] : cache[p])
      if (!documented.count(path) && path.find("[0]") == path.rfind('['))
        bad << path << " (" << spec.type << (*p ? std::string(", pattern ") + p : "")
            << ") is read by the parser but not documented\n";
  }
  EXPECT_EQ(bad.str(), "");
}

TEST(ConfigDocs, DocumentedDefaultsAreTheParsersDefaults) {
  std::map<std::string, std::map<std::string, KeySpec>> cache;
  std::ostringstream bad;
  for (const DocKey& d : documented_keys()) {
    std::string pattern;
    const KeySpec* sp = spec_of(d, cache, pattern);
    if (!sp) continue;
    const KeySpec& s = *sp;
    std::string def = std::regex_replace(d.def, std::regex("`"), "");
    long double doc_v;
    if (numeric(s)) {
      // "0 (not limiting)", "= tCCD": the leading number, if the cell starts with one.
      std::smatch m;
      if (!std::regex_search(def, m, std::regex(R"(^(\d+(?:\.\d+)?(?:e\d+)?(?:\^\d+)?)(\s|$))")) ||
          !eval_number(m[1].str(), doc_v) || s.def == "required")
        continue;
      if (doc_v != bound(s.def))
        bad << "docs/config.md:" << d.line << ": " << d.path << ": documented default " << d.def
            << ", parser default " << s.def << "\n";
    } else if ((s.type == "bool" || s.type == "choice") && !def.empty() && def != "required" &&
               def != s.def) {
      bad << "docs/config.md:" << d.line << ": " << d.path << ": documented default " << d.def
          << ", parser default " << s.def << "\n";
    }
  }
  EXPECT_EQ(bad.str(), "");
}

TEST(ConfigDocs, DocumentedRangesAreWhatTheParserAccepts) {
  std::map<std::string, std::map<std::string, KeySpec>> cache;
  std::ostringstream bad;
  size_t checked = 0;
  for (const DocKey& d : documented_keys()) {
    std::string pattern;
    const KeySpec* sp = spec_of(d, cache, pattern);
    if (!sp || !numeric(*sp)) continue;
    const KeySpec& s = *sp;
    const DocRange r = doc_range(d.range);
    const std::string at = "docs/config.md:" + std::to_string(d.line) + ": " + d.path + ": ";
    if (!r.has_lo) {
      // A limit that depends on other keys ("multiple of 128, ..."): stated in words, checked elsewhere.
      if (d.range.empty()) bad << at << "no range documented (parser: [" << s.lo << ", " << s.hi << "])\n";
      continue;
    }
    const long double lo = bound(s.lo), hi = bound(s.hi);
    const bool unbounded_hi =
        s.hi == "18446744073709551615" || s.hi == "inf" || (s.type == "number" && bound(s.hi) >= 1.7e308L);
    if (r.lo != lo) bad << at << "documented minimum '" << d.range << "', parser minimum " << s.lo << "\n";
    if (r.has_hi && !(r.hi == hi || (std::isinf(r.hi) && unbounded_hi)))
      bad << at << "documented maximum '" << d.range << "', parser maximum " << s.hi << "\n";
    ++checked;
    // The boundaries, parsed: min and max (as the parser states them) pass, one beyond each is refused.
    std::vector<long double> ok{lo}, refused;
    if (s.type == "number") {
      if (std::isfinite(double(hi))) ok.push_back(hi);
      refused.push_back(lo == 0 ? -1e-6 : std::nextafter(double(lo), -INFINITY));
      if (std::isfinite(double(hi)) && double(hi) < 1.7e308)
        refused.push_back(std::nextafter(double(hi), INFINITY));
    } else {
      ok.push_back(hi);
      if (lo > 0 || s.type == "integer") refused.push_back(lo - 1);
      refused.push_back(hi + 1);
    }
    for (long double v : ok) {
      const std::string text = as_text(s, v), err = parse_error(d.path, text, pattern);
      if (refuses_value(err, d.path)) bad << at << text << " (a bound) is refused: " << err << "\n";
    }
    for (long double v : refused) {
      const std::string text = as_text(s, v), err = parse_error(d.path, text, pattern);
      if (!refuses_value(err, d.path))
        bad << at << text << " (beyond a bound) is not refused: " << (err.empty() ? "accepted" : err) << "\n";
      else if (err.find(text) == std::string::npos)
        bad << at << "the error does not show the value " << text << " exactly: " << err << "\n";
    }
  }
  EXPECT_GT(checked, 120u);
  EXPECT_EQ(bad.str(), "");
}
