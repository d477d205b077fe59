// Checks of a YAML input before and after yaml-cpp parses it, so that every document that reaches the
// typed getters is one the user meant: text only (a binary file fails at once, never dumps its bytes),
// nesting bounded (no deep recursion, whatever the input), and no key given twice in one map (yaml-cpp
// keeps the first silently). Used by ConfigNode for configurations, workloads and programs files alike.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace gms {

// Deepest nesting of flow collections ([...] and {...}) a document may have; real inputs need < 10.
constexpr int kMaxYamlDepth = 256;

// A control byte (other than tab, CR, LF) -> "name:line: not a text (YAML) file (byte \x00)"; flow nesting
// deeper than kMaxYamlDepth -> "name:line: YAML nesting deeper than 256 levels". ConfigError. With
// `lines` false (a --set value) no line number is given.
void check_yaml_text(std::string_view text, const std::string& name, bool lines = true);

// Every map of the tree under `root` (aliases followed once, never in a loop) has distinct plain keys:
// "name:line: path.key: duplicate key (first at line N)". `path` is the root's key path ("" for a
// document); with `lines` false (a --set value) no line numbers are given. ConfigError.
void check_yaml_keys(const YAML::Node& root, const std::string& name, const std::string& path, bool lines);

// The text holds one YAML document: a second one (`---` after the first document, or content after its
// `...`) -> "name:line: a second YAML document starts here; one document per file" (the line of its `---`
// or first token), ConfigError; yaml-cpp would silently read the first only. With `lines` false (a --set
// value): "name: a second YAML document in the value; one document per value". Call it on text whose
// first document parsed.
void check_single_document(const std::string& text, const std::string& name, bool lines);

// yaml-cpp's parse error as one line: "name:line: YAML syntax error: <escaped message>" (its recursion
// limit as "YAML nesting deeper than N levels").
std::string yaml_error_message(const YAML::ParserException& e, const std::string& name, bool lines);

}  // namespace gms
