#include "models/common/config.h"

#include <cerrno>
#include <cmath>
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
  chain.back()[parts.back()] = value;
  doc_->overridden[target] = label;
}

int ConfigNode::line_of(const YAML::Node& n) const {
  if (!n.IsDefined()) return -1;
  YAML::Mark m = n.Mark();
  return m.is_null() ? -1 : m.line + 1;
}

std::string ConfigNode::where(const std::string& key) const {
  std::string p = key.empty() ? path_ : full(key);
  // Set on the command line, or inside a value that was: the assignment, not a line of the file.
  for (std::string q = p; !q.empty();) {
    auto it = doc_->overridden.find(q);
    if (it != doc_->overridden.end()) return it->second + ": " + escape_excerpt(p, 120);
    const size_t cut = q.find_last_of(".[");
    q = cut == std::string::npos ? std::string() : q.substr(0, cut);
  }
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
  YAML::Node n = scalar(key, "an integer", true);
  if (!n.IsDefined()) return def;
  int64_t v;
  if (!parse_int(n.Scalar(), v)) fail(key, "expected an integer, got " + scalar_text(n));
  if (v < lo || v > hi)
    fail(key, "value " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
  return v;
}

uint64_t ConfigNode::get_uint(const std::string& key, uint64_t def, uint64_t lo, uint64_t hi) const {
  YAML::Node n = scalar(key, "an integer", true);
  if (!n.IsDefined()) return def;
  int64_t v;
  if (!parse_int(n.Scalar(), v)) fail(key, "expected an integer, got " + scalar_text(n));
  if (v < 0) fail(key, "value " + std::to_string(v) + " must not be negative");
  uint64_t u = uint64_t(v);
  if (u < lo || u > hi)
    fail(key, "value " + std::to_string(u) + " out of range [" + std::to_string(lo) + ", " +
                  (hi == UINT64_MAX ? std::string("inf") : std::to_string(hi)) + "]");
  return u;
}

uint64_t ConfigNode::get_pow2(const std::string& key, uint64_t def, uint64_t lo, uint64_t hi) const {
  uint64_t v = get_uint(key, def, lo, hi);
  if (v == 0 || (v & (v - 1))) fail(key, "value " + std::to_string(v) + " must be a power of two");
  return v;
}

double ConfigNode::get_double(const std::string& key, double def, double lo, double hi) const {
  YAML::Node n = scalar(key, "a number", true);
  if (!n.IsDefined()) return def;
  double v;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    fail(key, "expected a number, got " + scalar_text(n));
  }
  if (!std::isfinite(v) || v < lo || v > hi) {
    std::ostringstream m;
    m << "value " << v << " out of range [" << lo << ", " << hi << "]";
    fail(key, m.str());
  }
  return v;
}

bool ConfigNode::get_bool(const std::string& key, bool def) const {
  YAML::Node n = scalar(key, "true or false", true);
  if (!n.IsDefined()) return def;
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    fail(key, "expected true or false, got " + scalar_text(n));
  }
}

std::string ConfigNode::get_string(const std::string& key, const std::string& def) const {
  YAML::Node n = scalar(key, "a string", false);
  if (!n.IsDefined()) return def;
  return n.Scalar();
}

std::string ConfigNode::get_choice(const std::string& key, const std::string& def,
                                   const std::vector<std::string>& choices) const {
  std::string v = get_string(key, def);
  for (const auto& c : choices)
    if (c == v) return v;
  std::string all;
  for (const auto& c : choices) all += (all.empty() ? "" : ", ") + c;
  fail(key, quote_excerpt(v) + " is not one of: " + all);
}

std::vector<uint64_t> ConfigNode::get_uint_list(const std::string& key,
                                                const std::vector<uint64_t>& def) const {
  YAML::Node n = value(key);
  if (!n.IsDefined()) return def;
  if (n.IsNull()) fail(key, "empty value (write '" + key + ": []' for an empty list)");
  if (!n.IsSequence()) fail(key, "expected a list of integers, got " + scalar_text(n));
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n.size(); ++i) {
    int64_t v;
    if (!n[i].IsScalar() || is_quoted(n[i]) || !parse_int(n[i].Scalar(), v) || v < 0)
      fail(key, "element " + std::to_string(i) + " is not a non-negative integer: " + scalar_text(n[i]));
    out.push_back(uint64_t(v));
  }
  return out;
}

uint64_t ConfigNode::require_uint(const std::string& key, uint64_t lo, uint64_t hi) const {
  if (!has(key)) fail(key, "missing required key");
  return get_uint(key, 0, lo, hi);
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
