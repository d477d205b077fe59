// ConfigNode against hostile YAML (issue 8): empty values, duplicate keys, quoted numbers, --set errors,
// deep nesting, binary bytes and aliases. Every failure is a one-line ConfigError naming where it is.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>

#include "models/common/config.h"
#include "tests/config_error_of.h"

using gms::ConfigError;
using gms::ConfigNode;

TEST(ConfigHardening, EmptyScalarValueIsAnErrorNotTheDefault) {
  auto c = ConfigNode::load_string("l1:\n  ways:\n  sets: ~\n  name: null\n", "e.yaml");
  auto l1 = c.child("l1");
  EXPECT_EQ(config_error_of([&] { l1.get_uint("ways", 4); }), "e.yaml:2: l1.ways: empty value");
  EXPECT_EQ(config_error_of([&] { l1.get_pow2("sets", 8); }), "e.yaml:3: l1.sets: empty value");
  EXPECT_EQ(config_error_of([&] { l1.get_string("name", "x"); }), "e.yaml:4: l1.name: empty value");
  EXPECT_EQ(config_error_of([&] { l1.require_uint("ways"); }), "e.yaml:2: l1.ways: empty value");
  // A key that is absent still takes its default.
  EXPECT_EQ(l1.get_uint("hit_latency", 3), 3u);
}

TEST(ConfigHardening, EmptySectionIsAnErrorBracesAreASectionOfDefaults) {
  auto c = ConfigNode::load_string("noc:\nllc: {}\nlist:\n", "s.yaml");
  EXPECT_EQ(config_error_of([&] { c.child("noc"); }),
            "s.yaml:1: noc: empty value (write 'noc: {}' for a section of defaults)");
  EXPECT_EQ(config_error_of([&] { c.list("list"); }),
            "s.yaml:3: list: empty value (write 'list: []' for an empty list)");
  auto llc = c.child("llc");
  EXPECT_EQ(llc.get_uint("slices", 2), 2u);
  EXPECT_NO_THROW(llc.finish());
}

TEST(ConfigHardening, MissingOptionalSectionGivesDefaultsNotAYamlCrash) {
  // A missing section used to be a yaml-cpp "zombie" node: finish() threw InvalidNode (exit 3).
  auto c = ConfigNode::load_string("sm: {}\n", "m.yaml");
  auto sys = c.child("system");
  EXPECT_EQ(sys.get_uint("seed", 7), 7u);
  EXPECT_FALSE(sys.has("seed"));
  EXPECT_NO_THROW(sys.finish());
  EXPECT_NO_THROW(sys.child("deeper").finish_all());
}

TEST(ConfigHardening, DuplicateKeysAreRejectedWithBothLines) {
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: 1\nl1:\n  ways: 4\n  ways: 8\n", "d.yaml"); }),
            "d.yaml:4: l1.ways: duplicate key (first at line 3)");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("k:\n  - x: 1\n  - x: 1\n    x: 2\n", "d.yaml"); }),
            "d.yaml:4: k[1].x: duplicate key (first at line 3)");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: {b: 1, b: 2}\n", "f.yaml"); }),
            "f.yaml:1: a.b: duplicate key (first at line 1)");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("top: 1\ntop: 2\n", "t.yaml"); }),
            "t.yaml:2: top: duplicate key (first at line 1)");
  EXPECT_NE(
      config_error_of([] { ConfigNode::load_string("? [a]\n: 1\n", "k.yaml"); }).find("a key must be a word"),
      std::string::npos);
}

TEST(ConfigHardening, QuotedNumbersAndBooleansAreStrings) {
  auto c = ConfigNode::load_string(
      "a: \"4\"\nb: '0x80'\nc: \"true\"\nd: \"1.5\"\ne: \"4\"\nf: 4\ng: [1, \"2\"]\n", "q.yaml");
  EXPECT_EQ(config_error_of([&] { c.get_uint("a", 0); }),
            "q.yaml:1: a: expected an integer, got a string '4'");
  EXPECT_EQ(config_error_of([&] { c.get_int("b", 0, 0, 1000); }),
            "q.yaml:2: b: expected an integer, got a string '0x80'");
  EXPECT_EQ(config_error_of([&] { c.get_bool("c", false); }),
            "q.yaml:3: c: expected true or false, got a string 'true'");
  EXPECT_EQ(config_error_of([&] { c.get_double("d", 0, 0, 10); }),
            "q.yaml:4: d: expected a number, got a string '1.5'");
  EXPECT_NE(config_error_of([&] { c.get_uint_list("g", {}); }).find("element 1"), std::string::npos);
  // Strings may be quoted or plain.
  EXPECT_EQ(c.get_string("e", ""), "4");
  EXPECT_EQ(c.get_string("f", ""), "4");
}

TEST(ConfigHardening, SetErrorsNameTheAssignmentNotALineOfTheFile) {
  auto unknown = ConfigNode::load_string("system:\n  seed: 1\n", "tiny.yaml");
  unknown.apply_override("foo.bar=1");
  unknown.child("system").get_uint("seed", 1);
  EXPECT_EQ(config_error_of([&] { unknown.finish(); }), "--set foo.bar=1: foo: unknown key");
  auto c = ConfigNode::load_string("system:\n  seed: 1\nl1:\n  ways: 4\n", "tiny.yaml");
  c.apply_override("l1.extra=2");
  c.apply_override("l1.ways=-1");
  c.apply_override("system={seed: x}");
  auto l1 = c.child("l1");
  EXPECT_EQ(config_error_of([&] { l1.get_uint("ways", 1); }),
            "--set l1.ways=-1: l1.ways: value -1 must not be negative");
  EXPECT_EQ(config_error_of([&] { c.child("l1").get_uint("extra", 0, 0, 1); }),
            "--set l1.extra=2: l1.extra: value 2 out of range [0, 1]");
  // A key inside a value given with --set is the command line's too.
  EXPECT_EQ(config_error_of([&] { c.child("system").get_uint("seed", 1); }),
            "--set system={seed: x}: system.seed: expected an integer, got 'x'");
  EXPECT_EQ(config_error_of([&] { c.apply_override("l1.ways="); }), "--set l1.ways=: l1.ways: empty value");
  EXPECT_EQ(config_error_of([&] { c.apply_override("l1.ways=~"); }), "--set l1.ways=~: l1.ways: empty value");
  EXPECT_EQ(config_error_of([&] { c.apply_override("system.seed.x=1"); }),
            "--set system.seed.x=1: system.seed: not a map of keys (it holds 'x')");
  EXPECT_EQ(config_error_of([&] { c.apply_override("l1={a: 1, a: 2}"); }),
            "--set l1={a: 1, a: 2}: l1.a: duplicate key");
  EXPECT_EQ(config_error_of([&] { c.apply_override("a..b=1"); }), "--set a..b=1: empty path element");
  EXPECT_EQ(config_error_of([&] {
              c.apply_override("l1.ways=[1");
            }).rfind("--set l1.ways=[1: YAML syntax error", 0),
            0u);
}

TEST(ConfigHardening, DeepNestingIsOneLineAtAnyDepth) {
  for (size_t depth : {300, 5000, 200000}) {
    std::string text = "a: " + std::string(depth, '[') + std::string(depth, ']') + "\n";
    EXPECT_EQ(config_error_of([&] { ConfigNode::load_string(text, "n.yaml"); }),
              "n.yaml:1: YAML nesting deeper than 256 levels");
  }
  // Brackets inside quotes and comments are text.
  std::string quoted = "a: '" + std::string(1000, '[') + "'  # " + std::string(1000, '{') + "\n";
  EXPECT_EQ(ConfigNode::load_string(quoted, "q.yaml").get_string("a", "").size(), 1000u);
  // Block nesting (no brackets) reaches yaml-cpp's own recursion limit: still one line, no crash.
  std::string block;
  for (int i = 0; i < 2500; ++i) block += "- ";
  block += "x\n";
  const std::string e = config_error_of([&] { ConfigNode::load_string(block, "b.yaml"); });
  EXPECT_NE(e.find("b.yaml:1: YAML nesting deeper than"), std::string::npos) << e;
}

TEST(ConfigHardening, BinaryBytesAndHugeTextAreNeverCopiedIntoMessages) {
  std::string bin("system:\n  name: a\0b\n", 20);
  EXPECT_EQ(config_error_of([&] { ConfigNode::load_string(bin, "b.yaml"); }),
            "b.yaml:2: not a text (YAML) file (byte '\\0')");
  EXPECT_EQ(config_error_of([&] {
              ConfigNode::load_string(
                  "a: 1\n\x7f"
                  "ELF\x01\x02",
                  "elf");
            }),
            "elf:2: not a text (YAML) file (byte '\\x7f')");
  // A NUL written as an escape in a quoted scalar reaches the value: it is escaped, not a cut message.
  auto c = ConfigNode::load_string("seed: \"x\\0yz\"\n", "n.yaml");
  EXPECT_EQ(config_error_of([&] { c.get_uint("seed", 0); }),
            "n.yaml:1: seed: expected an integer, got a string 'x\\0yz'");
  // A long key (yaml-cpp allows 1 kB) or a 100 kB value is quoted as a short excerpt.
  auto big =
      ConfigNode::load_string(std::string(1000, 'k') + ": " + std::string(100000, 'v') + "\n", "big.yaml");
  const std::string unknown = config_error_of([&] { big.finish(); });
  EXPECT_EQ(unknown.rfind("big.yaml:1: kkk", 0), 0u) << unknown.substr(0, 200);
  EXPECT_LT(unknown.size(), 200u);
  const std::string value = config_error_of([&] { big.get_uint(std::string(1000, 'k'), 0); });
  EXPECT_NE(value.find("vvv...'"), std::string::npos);
  EXPECT_LT(value.size(), 300u);
  EXPECT_LT(config_error_of([&] { ConfigNode::load_string(std::string(100000, 'x'), "s.yaml"); }).size(),
            200u);
}

TEST(ConfigHardening, AliasesAreCheckedOnceAndNeverLoop) {
  // "Billion laughs": 10^8 expanded leaves, checked in well under a second.
  std::string laughs = "l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n";
  for (int i = 1; i < 9; ++i) {
    laughs += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) laughs += std::string(k ? ", " : "") + "*l" + std::to_string(i - 1);
    laughs += "]\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto c = ConfigNode::load_string(laughs, "l.yaml");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  EXPECT_EQ(config_error_of([&] { c.finish(); }), "l.yaml:1: l0: unknown key");
  // An alias to the map that contains it loads, and its checks end.
  auto r = ConfigNode::load_string("system: &a\n  x: *a\n", "r.yaml");
  EXPECT_EQ(config_error_of([&] { r.finish_all(); }), "r.yaml:1: system: unknown key");
}

TEST(ConfigHardening, EmptyFileAndDirectory) {
  EXPECT_EQ(config_error_of([] { ConfigNode::load_file("/"); }), "/: is a directory");
  auto c = ConfigNode::load_file("/dev/null");
  EXPECT_TRUE(c.keys().empty());
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("- a\n- b\n", "l.yaml"); }),
            "l.yaml:1: the document must be a map of keys, got a list");
}
