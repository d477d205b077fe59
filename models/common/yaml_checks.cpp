#include "models/common/yaml_checks.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "models/common/config.h"
#include "models/common/text_excerpt.h"

namespace gms {

namespace {

std::string at_line(const std::string& name, int line) {
  return name + ":" + std::to_string(line) + ": ";
}

// A quote opens a quoted scalar only where a token may start (not inside a plain word like don't).
bool token_start(std::string_view text, size_t i) {
  if (i == 0) return true;
  const char p = text[i - 1];
  return p == ' ' || p == '\t' || p == '\n' || p == '\r' || p == '[' || p == '{' || p == ',' || p == ':' ||
         p == '-' || p == '?';
}

// A document marker (`---` or `...`) begins a line: without one the text cannot hold two documents.
bool has_document_marker(std::string_view text) {
  for (size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, 3, "---") == 0 || text.compare(pos, 3, "...") == 0) return true;
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return false;
}

// Parse events of a YAML stream, stopping at the start of a second document (its mark kept).
class SecondDocumentFinder : public YAML::EventHandler {
 public:
  struct Found {
    YAML::Mark mark;
  };
  bool first_done = false;
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (first_done) throw Found{mark};
  }
  void OnDocumentEnd() override { first_done = true; }
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}
};

const char* kind_of(const YAML::Node& n) {
  return n.IsMap() ? "a map" : n.IsSequence() ? "a list" : "nothing";
}

}  // namespace

void check_yaml_text(std::string_view text, const std::string& name, bool lines) {
  int line = 1, depth = 0;
  auto at = [&] { return lines ? at_line(name, line) : name + ": "; };
  bool comment = false, single = false, dbl = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
      throw ConfigError(at() + "not a text (YAML) file (byte " + quote_excerpt(text.substr(i, 1)) + ")");
    if (c == '\n') {
      ++line;
      comment = false;
      continue;
    }
    if (comment) continue;
    if (dbl) {
      if (c == '\\')
        ++i;  // an escaped character (an escaped newline never holds a control byte worth reporting)
      else if (c == '"')
        dbl = false;
      continue;
    }
    if (single) {
      single = c != '\'';
      continue;
    }
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      comment = true;
    } else if ((c == '"' || c == '\'') && token_start(text, i)) {
      (c == '"' ? dbl : single) = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxYamlDepth)
        throw ConfigError(at() + "YAML nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

void check_yaml_keys(const YAML::Node& root, const std::string& name, const std::string& path, bool lines) {
  auto where = [&](const YAML::Node& n, const std::string& p) {
    const YAML::Mark m = n.Mark();
    std::string loc = lines && !m.is_null() ? at_line(name, m.line + 1) : name + ": ";
    return loc + escape_excerpt(p.empty() ? "(top level)" : p, 120) + ": ";
  };
  // Iterative, each container once (aliases share their node, whose mark is its position in the text):
  // neither a deep tree nor an alias that refers back to its own map can recurse or loop.
  std::vector<std::pair<YAML::Node, std::string>> todo{{root, path}};
  std::set<std::pair<int, int>> seen;
  while (!todo.empty()) {
    const YAML::Node n = todo.back().first;
    const std::string p = std::move(todo.back().second);
    todo.pop_back();
    if (!n.IsMap() && !n.IsSequence()) continue;
    const YAML::Mark m = n.Mark();
    if (!m.is_null() && !seen.insert({m.pos, int(n.Type())}).second) continue;
    if (n.IsSequence()) {
      size_t i = 0;
      for (auto it = n.begin(); it != n.end(); ++it, ++i)
        todo.emplace_back(*it, p + "[" + std::to_string(i) + "]");
      continue;
    }
    std::map<std::string, YAML::Mark> first;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) throw ConfigError(where(key, p) + "a key must be a word, got " + kind_of(key));
      const std::string child = p.empty() ? key.Scalar() : p + "." + key.Scalar();
      auto [at, fresh] = first.emplace(key.Scalar(), key.Mark());
      if (!fresh)
        throw ConfigError(where(key, child) + "duplicate key" +
                          (lines && !at->second.is_null()
                               ? " (first at line " + std::to_string(at->second.line + 1) + ")"
                               : std::string()));
      todo.emplace_back(it->second, child);
    }
  }
}

void check_single_document(const std::string& text, const std::string& name, bool lines) {
  if (!has_document_marker(text)) return;
  std::istringstream in(text);
  YAML::Parser parser(in);
  SecondDocumentFinder finder;
  YAML::Mark second = YAML::Mark::null_mark();
  try {
    while (parser.HandleNextDocument(finder)) {
    }
    return;
  } catch (const SecondDocumentFinder::Found& f) {
    second = f.mark;
  } catch (const YAML::Exception& e) {
    if (!finder.first_done) throw;  // the first document's own error: the caller reports it
    second = e.mark;                // a broken second document is a second document all the same
  }
  if (!lines) throw ConfigError(name + ": a second YAML document in the value; one document per value");
  const std::string loc = second.is_null() ? name + ": " : at_line(name, second.line + 1);
  throw ConfigError(loc + "a second YAML document starts here; one document per file");
}

std::string yaml_error_message(const YAML::ParserException& e, const std::string& name, bool lines) {
  const std::string loc = lines && !e.mark.is_null() ? at_line(name, e.mark.line + 1) : name + ": ";
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&e))
    return loc + "YAML nesting deeper than " + std::to_string(deep->depth() - 1) + " levels";
  return loc + "YAML syntax error: " + escape_excerpt(e.msg, 80);
}

}  // namespace gms
