#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tests/config_error_of.h"

using gms::ConfigError;
using gms::ConfigNode;

TEST(Config, ReadsTypedValuesAndDefaults) {
  auto c = ConfigNode::load_string("l1:\n  ways: 4\n  hash: fermi\n  clock_mhz: 1400.5\n", "x.yaml");
  auto l1 = c.child("l1");
  EXPECT_EQ(l1.get_uint("ways", 1), 4u);
  EXPECT_EQ(l1.get_uint("sets", 32), 32u);
  EXPECT_EQ(l1.get_choice("hash", "linear", {"linear", "fermi"}), "fermi");
  EXPECT_DOUBLE_EQ(l1.get_double("clock_mhz", 1, 1, 1e5), 1400.5);
  EXPECT_NO_THROW(l1.finish());
  EXPECT_NO_THROW(c.finish_all());
}

TEST(Config, UnknownKeyNamesFileLineAndPath) {
  auto c = ConfigNode::load_string("l1:\n  ways: 4\n  wayz: 8\n", "cfg/a.yaml");
  auto l1 = c.child("l1");
  l1.get_uint("ways", 1);
  EXPECT_EQ(config_error_of([&] { l1.finish(); }), "cfg/a.yaml:3: l1.wayz: unknown key");
}

TEST(Config, WrongTypeNegativeAndRange) {
  auto c = ConfigNode::load_string("a: four\nb: -3\nc: 7\nd: [1]\n", "f.yaml");
  EXPECT_EQ(config_error_of([&] { c.get_uint("a", 0); }), "f.yaml:1: a: expected an integer, got 'four'");
  EXPECT_EQ(config_error_of([&] { c.get_uint("b", 0); }), "f.yaml:2: b: value -3 must not be negative");
  EXPECT_EQ(config_error_of([&] { c.get_pow2("c", 1); }), "f.yaml:3: c: value 7 must be a power of two");
  EXPECT_EQ(config_error_of([&] { c.get_uint("c", 0, 0, 4); }), "f.yaml:3: c: value 7 out of range [0, 4]");
  EXPECT_EQ(config_error_of([&] { c.get_string("d", ""); }), "f.yaml:4: d: expected a string, got a list");
}

TEST(Config, MissingRequiredAndSyntaxAndUnreadable) {
  auto c = ConfigNode::load_string("x: 1\n", "m.yaml");
  EXPECT_NE(config_error_of([&] { c.require_uint("sms"); }).find("m.yaml:1: sms: missing required key"),
            std::string::npos);
  EXPECT_NE(config_error_of([] { ConfigNode::load_string("a: [1, 2\n", "s.yaml"); }).find("s.yaml:"),
            std::string::npos);
  EXPECT_EQ(config_error_of([] { ConfigNode::load_file("/nonexistent/q.yaml"); }),
            "/nonexistent/q.yaml: cannot read file");
}

TEST(Config, OverridesReplaceAndAreNamed) {
  auto c = ConfigNode::load_string("l1:\n  ways: 4\n", "o.yaml");
  c.apply_override("l1.ways=8");
  c.apply_override("l1.sets=x");
  auto l1 = c.child("l1");
  EXPECT_EQ(l1.get_uint("ways", 1), 8u);
  EXPECT_EQ(config_error_of([&] { l1.get_uint("sets", 1); }),
            "--set l1.sets=x: l1.sets: expected an integer, got 'x'");
  EXPECT_NE(config_error_of([&] { c.apply_override("noequals"); }).find("expected key.path=value"),
            std::string::npos);
}
