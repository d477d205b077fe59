#include "tests/common/vcd_reader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <stdexcept>

namespace gms::test {

namespace {

// Whitespace-separated tokens with the line each one is on, for error messages.
class Tokens {
 public:
  explicit Tokens(std::istream& in) : in_(in) {}
  bool next(std::string& tok) {
    tok.clear();
    int c;
    while ((c = in_.get()) != EOF && std::isspace(c))
      if (c == '\n') ++line_;
    if (c == EOF) return false;
    tok += char(c);
    while ((c = in_.peek()) != EOF && !std::isspace(c)) tok += char(in_.get());
    return true;
  }
  std::string need(const char* what) {
    std::string t;
    if (!next(t)) fail(std::string("end of file where ") + what + " was expected");
    return t;
  }
  // The tokens up to $end, joined by single spaces.
  std::string until_end() {
    std::string all, t;
    while ((t = need("$end")) != "$end") all += (all.empty() ? "" : " ") + t;
    return all;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("VCD line " + std::to_string(line_) + ": " + why);
  }

 private:
  std::istream& in_;
  unsigned line_ = 1;
};

bool is_value_char(char c) {
  return c == '0' || c == '1' || c == 'x' || c == 'X' || c == 'z' || c == 'Z';
}

VcdChange vector_change(const Tokens& tk, uint64_t time, const std::string& bits) {
  VcdChange ch;
  ch.time = time;
  ch.text = bits;
  if (bits.empty()) tk.fail("vector value without bits");
  for (char c : bits) {
    if (!is_value_char(c)) tk.fail("bad bit '" + std::string(1, c) + "' in b" + bits);
    if (c != '0' && c != '1') ch.known = false;
    if (ch.value >> 63) tk.fail("vector value b" + bits + " wider than 64 bits");
    ch.value = (ch.value << 1) | (c == '1');
  }
  if (!ch.known) ch.value = 0;
  return ch;
}

}  // namespace

uint64_t VcdSignal::value_at(uint64_t time) const {
  auto it = std::upper_bound(changes.begin(), changes.end(), time,
                             [](uint64_t t, const VcdChange& c) { return t < c.time; });
  return it == changes.begin() ? 0 : std::prev(it)->value;
}

std::vector<VcdChange> VcdSignal::changes_between(uint64_t from, uint64_t to) const {
  std::vector<VcdChange> out;
  for (const auto& c : changes)
    if (c.time >= from && c.time <= to) out.push_back(c);
  return out;
}

uint64_t VcdSignal::first_time_of(uint64_t value, uint64_t from) const {
  for (const auto& c : changes)
    if (c.time >= from && c.known && c.value == value) return c.time;
  return UINT64_MAX;
}

VcdFile VcdFile::parse(std::istream& in) {
  VcdFile f;
  Tokens tk(in);
  std::vector<std::string> scopes;
  std::map<std::string, std::vector<size_t>> by_code;  // one code may name several variables
  std::string tok;
  // Header: declarations up to $enddefinitions.
  for (;;) {
    tok = tk.need("$enddefinitions");
    if (tok == "$enddefinitions") {
      tk.until_end();
      break;
    }
    if (tok == "$timescale") {
      f.timescale_ = tk.until_end();
    } else if (tok == "$scope") {
      tk.need("scope kind");
      scopes.push_back(tk.need("scope name"));
      if (tk.need("$end") != "$end") tk.fail("$scope without $end");
    } else if (tok == "$upscope") {
      if (scopes.empty()) tk.fail("$upscope without $scope");
      scopes.pop_back();
      tk.until_end();
    } else if (tok == "$var") {
      VcdSignal s;
      s.kind = tk.need("var kind");
      const std::string width = tk.need("var width");
      if (width.empty() || !std::all_of(width.begin(), width.end(), ::isdigit)) tk.fail("bad width " + width);
      s.width = unsigned(std::stoul(width));
      const std::string code = tk.need("var code");
      const std::string ref = tk.need("var name");
      tk.until_end();  // an optional bit range
      for (const auto& sc : scopes) s.name += sc + ".";
      s.name += ref;
      if (f.by_name_.count(s.name)) tk.fail("signal " + s.name + " declared twice");
      f.by_name_[s.name] = f.signals_.size();
      by_code[code].push_back(f.signals_.size());
      f.signals_.push_back(std::move(s));
    } else if (tok[0] == '$') {  // $date, $version, $comment: nothing we use
      tk.until_end();
    } else {
      tk.fail("unexpected '" + tok + "' in the header");
    }
  }
  if (!scopes.empty()) tk.fail("$scope " + scopes.back() + " not closed");
  // Body: time stamps and value changes; $dumpvars ... $end brackets changes like any others.
  bool stamped = false;
  uint64_t now = 0;
  auto record = [&](const std::string& code, VcdChange ch) {
    auto it = by_code.find(code);
    if (it == by_code.end()) tk.fail("value for undeclared code '" + code + "'");
    if (!stamped) tk.fail("value change before the first #time");
    for (size_t i : it->second) f.signals_[i].changes.push_back(ch);
  };
  while (tk.next(tok)) {
    const char c = tok[0];
    if (c == '#') {
      const std::string digits = tok.substr(1);
      if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit))
        tk.fail("bad time stamp " + tok);
      const uint64_t t = std::stoull(digits);
      if (stamped && t < now) tk.fail("time goes back from " + std::to_string(now) + " to " + digits);
      if (!stamped) f.first_time_ = t;
      now = f.last_time_ = t;
      stamped = true;
    } else if (tok == "$dumpvars" || tok == "$dumpall" || tok == "$dumpon" || tok == "$dumpoff" ||
               tok == "$end") {
      continue;
    } else if (tok == "$comment") {
      tk.until_end();
    } else if (c == 'b' || c == 'B') {
      VcdChange ch = vector_change(tk, now, tok.substr(1));
      record(tk.need("vector code"), ch);
    } else if (c == 'r' || c == 'R') {
      VcdChange ch;
      ch.time = now;
      ch.text = tok.substr(1);
      try {
        size_t used = 0;
        ch.real = std::stod(ch.text, &used);
        if (used != ch.text.size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        tk.fail("bad real value " + tok);
      }
      record(tk.need("real code"), ch);
    } else if (is_value_char(c) && tok.size() > 1) {
      VcdChange ch;
      ch.time = now;
      ch.text = std::string(1, c);
      ch.known = c == '0' || c == '1';
      ch.value = c == '1';
      record(tok.substr(1), ch);
    } else {
      tk.fail("unexpected '" + tok + "'");
    }
  }
  return f;
}

VcdFile VcdFile::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  try {
    return parse(in);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

uint64_t VcdFile::ps_per_unit() const {
  size_t i = 0;
  while (i < timescale_.size() && std::isdigit(static_cast<unsigned char>(timescale_[i]))) ++i;
  if (i == 0) throw std::runtime_error("VCD timescale '" + timescale_ + "' has no number");
  const uint64_t n = std::stoull(timescale_.substr(0, i));
  std::string unit = timescale_.substr(i);
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  const std::map<std::string, uint64_t> ps = {{"fs", 0},       {"ps", 1},          {"ns", 1000},
                                              {"us", 1000000}, {"ms", 1000000000}, {"s", 1000000000000}};
  auto it = ps.find(unit);
  if (it == ps.end()) throw std::runtime_error("VCD timescale '" + timescale_ + "': unknown unit");
  return n * it->second;
}

const VcdSignal& VcdFile::signal(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) {
    // Name the scope's signals, or those of the nearest enclosing scope that has any: a typo shows at once.
    std::string scope = name, near;
    std::vector<std::string> there;
    while (there.empty() && !scope.empty()) {
      const auto dot = scope.rfind('.');
      scope = dot == std::string::npos ? "" : scope.substr(0, dot);
      there = names_under(scope.empty() ? "" : scope + ".");
    }
    for (size_t i = 0; i < there.size() && i < 8; ++i) near += (i ? ", " : "") + there[i];
    if (there.size() > 8) near += ", ...";
    throw std::runtime_error("VCD has no signal " + name + " (" + std::to_string(signals_.size()) +
                             " signals" + (near.empty() ? "" : "; " + near) + ")");
  }
  return signals_[it->second];
}

std::vector<std::string> VcdFile::names() const {
  return names_under("");
}

std::vector<std::string> VcdFile::names_under(const std::string& prefix) const {
  std::vector<std::string> out;
  for (auto it = by_name_.lower_bound(prefix); it != by_name_.end() && it->first.rfind(prefix, 0) == 0; ++it)
    out.push_back(it->first);
  return out;
}

}  // namespace gms::test
