// Typed configuration from YAML with validation. Every error names the file, the line and the key path
// ("configs/fermi.yaml:12: l1.ways: ..."), and values set with --set name the assignment instead of a line
// ("--set l1.ways=x: l1.ways: ..."). Documents are checked when loaded (models/common/yaml_checks.h): text
// only, bounded nesting, no duplicate keys. A key given with no value is an error (never the default), and
// a quoted scalar is a string: `ways: "4"` is not an integer (docs/conventions.md, Configuration).
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gms {

class InputFile;

// Bad input: the CLI prints what() and exits with status 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a typed getter accepts for one key, as the getter was called: the parser's own table of keys.
// docs/config.md is checked against it (tests/system/test_config_docs.cpp), so the documented ranges and
// defaults are the ones the parser applies.
struct KeySpec {
  std::string type;    // "integer", "power of two", "number", "bool", "string", "choice", "list"
  std::string def;     // the default, as text (format_number for numbers)
  std::string lo, hi;  // the bounds as exact text; "" for types without bounds
  std::vector<std::string> choices;  // "choice" only
};

// `v` as exact text: the shortest decimal that reads back as the same double, integers without exponent
// or fraction (1000000, not 1e+06), so a value just above a bound never prints as the bound.
std::string format_number(double v);

// One loaded YAML document and what has been read of it (for unknown-key detection).
struct ConfigDoc {
  std::string file;
  YAML::Node root;
  std::map<std::string, std::set<std::string>> used;  // map path -> keys read
  // Paths set or created on the command line -> the --set assignment that did it (as typed, escaped).
  std::map<std::string, std::string> overridden;
  std::map<std::string, KeySpec> specs;  // full key path (list indices as [i]) -> what its getter accepts
};

class ConfigNode {
 public:
  ConfigNode(std::shared_ptr<ConfigDoc> doc, YAML::Node node, std::string path);

  // A YAML file read in bounded memory (models/common/bounded_input.h): its first bytes checked, then at
  // most kYamlInputLimit bytes, whatever it is (file, device, FIFO, pipe). `what` names the kind of input
  // in the size error ("larger than the 16 MiB limit for a configuration file").
  static ConfigNode load_file(const std::string& file, const std::string& what = "configuration file");
  static ConfigNode load_input(InputFile& in, const std::string& what);
  static ConfigNode load_string(const std::string& text, const std::string& name);

  // Applies "a.b.c=value" (the value parsed as YAML) before anything is read. An empty value, a path
  // through a value that is not a map, or a bad YAML value is a ConfigError naming the assignment. A map
  // set on a key that holds a map merges into it key by key (`--set 'l1={ways: 8}'` changes l1.ways and
  // keeps the rest of l1); any other value replaces what was there.
  void apply_override(const std::string& assignment);

  const std::string& path() const { return path_; }
  // The full path of `key` in this map ("l1" + "ways" -> "l1.ways"), for fail(key, msg, related).
  std::string key_path(const std::string& key) const { return full(key); }
  const std::string& file() const { return doc_->file; }
  bool valid() const { return node_.IsDefined() && !node_.IsNull(); }
  bool is_map() const { return node_.IsMap(); }
  // The key is present in this map (even with an empty value, which every getter rejects).
  bool has(const std::string& key) const;
  std::vector<std::string> keys() const;
  const YAML::Node& yaml() const { return node_; }
  // Every key a typed getter has read so far in this document (read or defaulted), with its bounds.
  const std::map<std::string, KeySpec>& key_specs() const { return doc_->specs; }

  // A sub-map; a missing key gives an empty node whose getters return their defaults. A section written
  // with no value (`noc:`) is an error like any empty value: `noc: {}` is a section of defaults.
  ConfigNode child(const std::string& key) const;
  ConfigNode require_child(const std::string& key) const;
  // Elements of a sequence under key (each element a map node).
  std::vector<ConfigNode> list(const std::string& key) const;

  // Typed getters: the value must have the right type and lie in [lo, hi]; missing -> def; present but
  // empty -> error. Numbers and booleans must be plain scalars (a quoted "4" is a string, an error).
  int64_t get_int(const std::string& key, int64_t def, int64_t lo, int64_t hi) const;
  uint64_t get_uint(const std::string& key, uint64_t def, uint64_t lo = 0, uint64_t hi = UINT64_MAX) const;
  uint64_t get_pow2(const std::string& key, uint64_t def, uint64_t lo = 1, uint64_t hi = UINT64_MAX) const;
  double get_double(const std::string& key, double def, double lo, double hi) const;
  bool get_bool(const std::string& key, bool def) const;
  std::string get_string(const std::string& key, const std::string& def) const;
  // One of `choices`; anything else is an error listing them.
  std::string get_choice(const std::string& key, const std::string& def,
                         const std::vector<std::string>& choices) const;
  std::vector<uint64_t> get_uint_list(const std::string& key, const std::vector<uint64_t>& def) const;
  // Required variants: missing key is an error.
  uint64_t require_uint(const std::string& key, uint64_t lo = 0, uint64_t hi = UINT64_MAX) const;
  std::string require_string(const std::string& key) const;

  // Every key of this map must have been read; otherwise "unknown key" (typos never pass silently).
  void finish() const;
  // Recursively checks this node and every sub-map that was read.
  void finish_all() const;

  [[noreturn]] void fail(const std::string& key, const std::string& msg) const;
  // A cross-field error on `key` caused together with `related` (full key paths, e.g. "sm.count"): when
  // `key` or any of them was set with --set, the message names that assignment, since the value just
  // typed is what made the combination wrong; otherwise the file and line of `key`.
  [[noreturn]] void fail(const std::string& key, const std::string& msg,
                         const std::vector<std::string>& related) const;
  std::string where(const std::string& key) const;  // "file:line: path.key" or "--set a.b=1: path.key"

 private:
  YAML::Node value(const std::string& key) const;  // marks used, checks this is a map
  // value(key) for a typed getter: undefined when missing, an error when empty or not a scalar
  // (`what` names the expected type), `plain_only` rejects quoted scalars.
  YAML::Node scalar(const std::string& key, const char* what, bool plain_only) const;
  std::string full(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  int line_of(const YAML::Node& n) const;
  // The --set assignment that set or created the full path p (or a map above it); null if none did.
  const std::string* set_by(const std::string& p) const;
  void record(const std::string& key, KeySpec spec) const;  // into doc_->specs
  void merge_override(YAML::Node dst, const YAML::Node& src, const std::string& at, const std::string& label);

  std::shared_ptr<ConfigDoc> doc_;
  YAML::Node node_;
  std::string path_;
};

}  // namespace gms
