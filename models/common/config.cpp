#include "models/common/config.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "models/common/bounded_input.h"
#include "models/common/text_excerpt.h"
#include "models/common/yaml_checks.h"

namespace gms {

namespace {

std::string scalar_text(const YAML::Node& n) {
  if (n.IsScalar()) return quote_excerpt(n.Scalar());
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  return "nothing";
}

// A quoted (or !!str) scalar is a string even when it spells a number.
bool is_quoted(const YAML::Node& n) {
  return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str";
}

bool parse_int(const std::string& s, int64_t& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  int base = (s.size() > 2 && (s[0] == '0') && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
  long long v = std::strtoll(s.c_str(), &end, base);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  out = v;
  return true;
}

// A non-negative integer up to 2^64-1 (decimal or 0x hex); no minus sign, no blanks.
bool parse_uint(const std::string& s, uint64_t& out) {
  const size_t first = (!s.empty() && s[0] == '+') ? 1 : 0;
  if (first >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[first]))) return false;
  errno = 0;
  char* end = nullptr;
  int base = (s.size() > 2 && (s[0] == '0') && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
  unsigned long long v = std::strtoull(s.c_str(), &end, base);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  out = v;
  return true;
}

// An integer too large for 64 bits (only digits): out of range rather than "not an integer".
bool is_big_integer(const std::string& s) {
  size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

std::string range_text(const std::string& lo, const std::string& hi) {
  return " out of range [" + lo + ", " + hi + "]";
}

// The YAML text as a checked tree: text only, bounded nesting, no duplicate keys.
YAML::Node parse_yaml(const std::string& text, const std::string& name, bool lines) {
  check_yaml_text(text, name, lines);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(yaml_error_message(e, name, lines));
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ": YAML error: " + escape_excerpt(e.msg, 80));
  }
  check_single_document(text, name, lines);
  return root;
}

}  // namespace

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e18) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

ConfigNode::ConfigNode(std::shared_ptr<ConfigDoc> doc, YAML::Node node, std::string path)
    : doc_(std::move(doc)), node_(node), path_(std::move(path)) {}

ConfigNode ConfigNode::load_file(const std::string& file, const std::string& what) {
  InputFile in(file);
  return load_input(in, what);
}

ConfigNode ConfigNode::load_input(InputFile& in, const std::string& what) {
  // The first bytes are checked before the rest is read: a binary file or a device fails at once.
  check_yaml_text(in.peek(kSniffBytes), in.path(), true);
  return load_string(in.read_all(kYamlInputLimit, what), in.path());
}

ConfigNode ConfigNode::load_string(const std::string& text, const std::string& name) {
  auto doc = std::make_shared<ConfigDoc>();
  doc->file = name;
  doc->root = parse_yaml(text, name, true);
  // An empty document is an empty map: the caller says what it should have held.
  if (doc->root.IsNull()) doc->root = YAML::Node(YAML::NodeType::Map);
  if (!doc->root.IsMap())
    throw ConfigError(name + ":1: the document must be a map of keys, got " + scalar_text(doc->root));
  check_yaml_keys(doc->root, name, "", true);
  return ConfigNode(doc, doc->root, "");
}

void ConfigNode::apply_override(const std::string& assignment) {
  const std::string label = "--set " + escape_excerpt(assignment, 80);
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError(label + ": expected key.path=value");
  std::string key = assignment.substr(0, eq);
  std::string text = assignment.substr(eq + 1);
  // Walk the path first (a malformed path is the first thing to fix).
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw ConfigError(label + ": empty path element");
    parts.push_back(p);
  }
  if (key.back() == '.') throw ConfigError(label + ": empty path element");
  const std::string target = full(key);
  const std::string where_label = label + ": " + escape_excerpt(target, 120);
  YAML::Node value = parse_yaml(text, label, false);
  if (value.IsNull()) throw ConfigError(where_label + ": empty value");
  check_yaml_keys(value, label, target, false);
  // Create the maps on the way: keys made here are the command line's, and so are errors about them.
  std::vector<YAML::Node> chain{node_};
  std::string at = path_;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    at = at.empty() ? parts[i] : at + "." + parts[i];
    YAML::Node cur = chain.back();
    YAML::Node next = cur[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = cur[parts[i]];
      doc_->overridden.emplace(at, label);
    } else if (!next.IsMap()) {
      throw ConfigError(label + ": " + escape_excerpt(at, 120) + ": not a map of keys (it holds " +
                        scalar_text(next) + ")");
    }
    chain.push_back(next);
  }
  YAML::Node parent = chain.back();
  YAML::Node old = parent[parts.back()];
  if (value.IsMap() && old.IsDefined() && old.IsMap()) {
    merge_override(old, value, target, label);
    return;
  }
  parent[parts.back()] = value;
  doc_->overridden[target] = label;
}

// A map given to --set for a key that holds a map: key by key, recursively; what it names is the
// command line's (and so are errors about it), the rest stays the file's.
void ConfigNode::merge_override(YAML::Node dst, const YAML::Node& src, const std::string& at,
                                const std::string& label) {
  for (auto it = src.begin(); it != src.end(); ++it) {
    const std::string k = it->first.Scalar();
    const std::string sub = at + "." + k;
    YAML::Node d = dst[k];
    if (it->second.IsMap() && d.IsDefined() && d.IsMap()) {
      merge_override(d, it->second, sub, label);
    } else {
      dst[k] = it->second;
      doc_->overridden[sub] = label;
    }
  }
}

int ConfigNode::line_of(const YAML::Node& n) const {
  if (!n.IsDefined()) return -1;
  YAML::Mark m = n.Mark();
  return m.is_null() ? -1 : m.line + 1;
}

const std::string* ConfigNode::set_by(const std::string& p) const {
  for (std::string q = p; !q.empty();) {
    auto it = doc_->overridden.find(q);
    if (it != doc_->overridden.end()) return &it->second;
    const size_t cut = q.find_last_of(".[");
    q = cut == std::string::npos ? std::string() : q.substr(0, cut);
  }
  return nullptr;
}

std::string ConfigNode::where(const std::string& key) const {
  std::string p = key.empty() ? path_ : full(key);
  // Set on the command line, or inside a value that was: the assignment, not a line of the file.
  if (const std::string* label = set_by(p)) return *label + ": " + escape_excerpt(p, 120);
  int line = -1;
  if (!key.empty() && node_.IsMap()) {
    for (auto it = node_.begin(); it != node_.end(); ++it)
      if (it->first.Scalar() == key) line = line_of(it->first);
  }
  if (line < 0) line = line_of(node_);
  std::string loc = doc_->file + (line > 0 ? ":" + std::to_string(line) : "");
  return loc + ": " + (p.empty() ? "(top level)" : escape_excerpt(p, 120));
}

void ConfigNode::fail(const std::string& key, const std::string& msg) const {
  throw ConfigError(where(key) + ": " + msg);
}

void ConfigNode::fail(const std::string& key, const std::string& msg,
                      const std::vector<std::string>& related) const {
  const std::string p = key.empty() ? path_ : full(key);
  if (!set_by(p))
    for (const std::string& r : related)
      if (const std::string* label = set_by(r))
        throw ConfigError(*label + ": " + escape_excerpt(p, 120) + ": " + msg);
  fail(key, msg);
}

void ConfigNode::record(const std::string& key, KeySpec spec) const {
  doc_->specs[full(key)] = std::move(spec);
}

bool ConfigNode::has(const std::string& key) const {
  if (!node_.IsMap()) return false;
  return node_[key].IsDefined();
}

std::vector<std::string> ConfigNode::keys() const {
  std::vector<std::string> k;
  if (node_.IsMap())
    for (auto it = node_.begin(); it != node_.end(); ++it) k.push_back(it->first.Scalar());
  return k;
}

YAML::Node ConfigNode::value(const std::string& key) const {
  if (valid() && !node_.IsMap())
    throw ConfigError(where("") + ": expected a map of keys, got " + scalar_text(node_));
  doc_->used[path_].insert(key);
  if (!valid()) return YAML::Node(YAML::NodeType::Undefined);
  YAML::Node n = node_[key];
  // A missing key of a loaded map is a "zombie" node that throws on most calls: make it plainly undefined.
  return n.IsDefined() ? n : YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node ConfigNode::scalar(const std::string& key, const char* what, bool plain_only) const {
  YAML::Node n = value(key);
  if (!n.IsDefined()) return n;
  if (n.IsNull()) fail(key, "empty value");
  if (!n.IsScalar() || (plain_only && is_quoted(n)))
    fail(key,
         std::string("expected ") + what + ", got " + (n.IsScalar() ? "a string " : "") + scalar_text(n));
  return n;
}

ConfigNode ConfigNode::child(const std::string& key) const {
  YAML::Node n = value(key);
  if (n.IsDefined() && n.IsNull())
    fail(key, "empty value (write '" + key + ": {}' for a section of defaults)");
  if (n.IsDefined() && !n.IsMap()) fail(key, "expected a map of keys, got " + scalar_text(n));
  return ConfigNode(doc_, n, full(key));
}

ConfigNode ConfigNode::require_child(const std::string& key) const {
  if (!has(key)) fail(key, "missing required section");
  return child(key);
}

std::vector<ConfigNode> ConfigNode::list(const std::string& key) const {
  record(key, {"list", "", "", "", {}});
  YAML::Node n = value(key);
  std::vector<ConfigNode> out;
  if (!n.IsDefined()) return out;
  if (n.IsNull()) fail(key, "empty value (write '" + key + ": []' for an empty list)");
  if (!n.IsSequence()) fail(key, "expected a list, got " + scalar_text(n));
  for (size_t i = 0; i < n.size(); ++i)
    out.emplace_back(doc_, n[i], full(key) + "[" + std::to_string(i) + "]");
  return out;
}

int64_t ConfigNode::get_int(const std::string& key, int64_t def, int64_t lo, int64_t hi) const {
  record(key, {"integer", std::to_string(def), std::to_string(lo), std::to_string(hi), {}});
  YAML::Node n = scalar(key, "an integer", true);
  if (!n.IsDefined()) return def;
  int64_t v;
  const std::string range = range_text(std::to_string(lo), std::to_string(hi));
  if (!parse_int(n.Scalar(), v)) {
    if (is_big_integer(n.Scalar())) fail(key, "value " + escape_excerpt(n.Scalar()) + range);
    fail(key, "expected an integer, got " + scalar_text(n));
  }
  if (v < lo || v > hi) fail(key, "value " + std::to_string(v) + range);
  return v;
}

uint64_t ConfigNode::get_uint(const std::string& key, uint64_t def, uint64_t lo, uint64_t hi) const {
  record(key, {"integer", std::to_string(def), std::to_string(lo), std::to_string(hi), {}});
  YAML::Node n = scalar(key, "an integer", true);
  if (!n.IsDefined()) return def;
  const std::string& s = n.Scalar();
  const std::string range = range_text(std::to_string(lo), std::to_string(hi));
  int64_t neg;
  if (!s.empty() && s[0] == '-' && parse_int(s, neg) && neg < 0)
    fail(key, "value " + std::to_string(neg) + " must not be negative");
  uint64_t u;
  if (!parse_uint(s[0] == '-' ? s.substr(1) : s, u) || (s[0] == '-' && u != 0)) {
    if (is_big_integer(s)) fail(key, "value " + escape_excerpt(s) + range);
    fail(key, "expected an integer, got " + scalar_text(n));
  }
  if (u < lo || u > hi) fail(key, "value " + std::to_string(u) + range);
  return u;
}

uint64_t ConfigNode::get_pow2(const std::string& key, uint64_t def, uint64_t lo, uint64_t hi) const {
  uint64_t v = get_uint(key, def, lo, hi);
  record(key, {"power of two", std::to_string(def), std::to_string(lo), std::to_string(hi), {}});
  if (v == 0 || (v & (v - 1))) fail(key, "value " + std::to_string(v) + " must be a power of two");
  return v;
}

double ConfigNode::get_double(const std::string& key, double def, double lo, double hi) const {
  record(key, {"number", format_number(def), format_number(lo), format_number(hi), {}});
  YAML::Node n = scalar(key, "a number", true);
  if (!n.IsDefined()) return def;
  double v;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    fail(key, "expected a number, got " + scalar_text(n));
  }
  if (!std::isfinite(v) || v < lo || v > hi)
    fail(key, "value " + format_number(v) + range_text(format_number(lo), format_number(hi)));
  return v;
}

bool ConfigNode::get_bool(const std::string& key, bool def) const {
  record(key, {"bool", def ? "true" : "false", "", "", {}});
  YAML::Node n = scalar(key, "true or false", true);
  if (!n.IsDefined()) return def;
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    fail(key, "expected true or false, got " + scalar_text(n));
  }
}

std::string ConfigNode::get_string(const std::string& key, const std::string& def) const {
  record(key, {"string", def, "", "", {}});
  YAML::Node n = scalar(key, "a string", false);
  if (!n.IsDefined()) return def;
  return n.Scalar();
}

std::string ConfigNode::get_choice(const std::string& key, const std::string& def,
                                   const std::vector<std::string>& choices) const {
  std::string v = get_string(key, def);
  record(key, {"choice", def, "", "", choices});
  for (const auto& c : choices)
    if (c == v) return v;
  std::string all;
  for (const auto& c : choices) all += (all.empty() ? "" : ", ") + c;
  fail(key, quote_excerpt(v) + " is not one of: " + all);
}

std::vector<uint64_t> ConfigNode::get_uint_list(const std::string& key,
                                                const std::vector<uint64_t>& def) const {
  record(key, {"list", "", "", "", {}});
  YAML::Node n = value(key);
  if (!n.IsDefined()) return def;
  if (n.IsNull()) fail(key, "empty value (write '" + key + ": []' for an empty list)");
  if (!n.IsSequence()) fail(key, "expected a list of integers, got " + scalar_text(n));
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n.size(); ++i) {
    uint64_t v;
    if (!n[i].IsScalar() || is_quoted(n[i]) || !parse_uint(n[i].Scalar(), v))
      fail(key, "element " + std::to_string(i) + " is not a non-negative integer: " + scalar_text(n[i]));
    out.push_back(v);
  }
  return out;
}

uint64_t ConfigNode::require_uint(const std::string& key, uint64_t lo, uint64_t hi) const {
  if (!has(key)) {
    record(key, {"integer", "required", std::to_string(lo), std::to_string(hi), {}});
    fail(key, "missing required key");
  }
  const uint64_t v = get_uint(key, 0, lo, hi);
  doc_->specs[full(key)].def = "required";
  return v;
}

std::string ConfigNode::require_string(const std::string& key) const {
  if (!has(key)) fail(key, "missing required key");
  return get_string(key, "");
}

void ConfigNode::finish() const {
  if (!node_.IsMap()) return;
  const auto& used = doc_->used[path_];
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string k = it->first.Scalar();
    if (!used.count(k)) fail(k, "unknown key");
  }
}

void ConfigNode::finish_all() const {
  finish();
  if (!node_.IsMap()) return;
  for (auto it = node_.begin(); it != node_.end(); ++it)
    if (it->second.IsMap()) ConfigNode(doc_, it->second, full(it->first.Scalar())).finish_all();
}

}  // namespace gms
