// ConfigNode for issue 29: the full uint64 range, exact numbers in range errors, cross-field errors blamed
// on the --set that caused them, a --set map merged into the section it names, and the key table that the
// getters fill as they read.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tests/config_error_of.h"

using gms::ConfigNode;
using gms::format_number;

TEST(ConfigChecks, UnsignedKeysTakeEveryValueUpTo2To64Minus1) {
  auto c = ConfigNode::load_string(
      "a: 18446744073709551615\nb: 9223372036854775808\nc: 0xffffffffffffffff\nd: 18446744073709551616\n"
      "e: [18446744073709551615]\n",
      "u.yaml");
  EXPECT_EQ(c.get_uint("a", 0), UINT64_MAX);
  EXPECT_EQ(c.get_uint("b", 0), uint64_t(1) << 63);
  EXPECT_EQ(c.get_uint("c", 0), UINT64_MAX);
  EXPECT_EQ(config_error_of([&] { c.get_uint("d", 0); }),
            "u.yaml:4: d: value 18446744073709551616 out of range [0, 18446744073709551615]");
  EXPECT_EQ(c.get_uint_list("e", {}), std::vector<uint64_t>{UINT64_MAX});
  EXPECT_EQ(config_error_of([&] { c.get_uint("a", 0, 0, 1000); }),
            "u.yaml:1: a: value 18446744073709551615 out of range [0, 1000]");
}

TEST(ConfigChecks, RangeErrorsShowExactNumbers) {
  EXPECT_EQ(format_number(1e6), "1000000");
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(1000000.0000000001), "1000000.0000000001");
  EXPECT_EQ(format_number(2.5e-7), "2.5e-07");
  auto c = ConfigNode::load_string("g: 1000000.0000000001\nh: 1e6\n", "n.yaml");
  EXPECT_EQ(config_error_of([&] { c.get_double("g", 0, 0, 1e6); }),
            "n.yaml:1: g: value 1000000.0000000001 out of range [0, 1000000]");
  EXPECT_DOUBLE_EQ(c.get_double("h", 0, 0, 1e6), 1e6);
}

TEST(ConfigChecks, CrossFieldErrorsBlameTheSetThatCausedThem) {
  auto c = ConfigNode::load_string("l1:\n  size_bytes: 4096\n  ways: 4\n", "t.yaml");
  auto l1 = c.child("l1");
  // Without a --set: the file and line of the key blamed.
  EXPECT_EQ(config_error_of([&] { l1.fail("size_bytes", "bad", {"l1.ways"}); }),
            "t.yaml:2: l1.size_bytes: bad");
  c.apply_override("l1.ways=3");
  EXPECT_EQ(config_error_of([&] { l1.fail("size_bytes", "bad", {"l1.ways"}); }),
            "--set l1.ways=3: l1.size_bytes: bad");
  // A related key of another section, set inside a map value.
  c.apply_override("sm={count: 1}");
  EXPECT_EQ(config_error_of([&] { l1.fail("size_bytes", "bad", {"sm.count"}); }),
            "--set sm={count: 1}: l1.size_bytes: bad");
}

TEST(ConfigChecks, SetMapMergesIntoTheSectionKeyByKey) {
  auto c = ConfigNode::load_string(
      "l1:\n  size_bytes: 4096\n  ways: 4\n  tsc:\n    chunk_bytes: 16\n"
      "    private_tag_bits: 4\n",
      "t.yaml");
  c.apply_override("l1={ways: 8, tsc: {chunk_bytes: 32}, mshr_entries: 2}");
  auto l1 = c.child("l1");
  EXPECT_EQ(l1.get_uint("size_bytes", 0), 4096u);  // kept from the file
  EXPECT_EQ(l1.get_uint("ways", 0), 8u);
  EXPECT_EQ(l1.get_uint("mshr_entries", 0), 2u);
  EXPECT_EQ(l1.child("tsc").get_uint("chunk_bytes", 0), 32u);
  EXPECT_EQ(l1.child("tsc").get_uint("private_tag_bits", 0), 4u);  // kept, one level down
  // What the --set named is the command line's; what it kept is still the file's.
  EXPECT_EQ(config_error_of([&] { l1.fail("ways", "x"); }),
            "--set l1={ways: 8, tsc: {chunk_bytes: 32}, mshr_entries: 2}: l1.ways: x");
  EXPECT_EQ(config_error_of([&] { l1.fail("size_bytes", "x"); }), "t.yaml:2: l1.size_bytes: x");
  // A scalar over a map (or a map over a scalar) still replaces it.
  c.apply_override("l1.tsc=5");
  EXPECT_EQ(config_error_of([&] { c.child("l1").child("tsc"); }),
            "--set l1.tsc=5: l1.tsc: expected a map of keys, got '5'");
}

TEST(ConfigChecks, GettersRecordTheKeyTable) {
  auto c = ConfigNode::load_string("s:\n  a: 3\n", "k.yaml");
  auto s = c.child("s");
  s.get_uint("a", 1, 1, 4096);
  s.get_pow2("b", 8, 4, 256);
  s.get_double("c", 0.5, 0, 1e6);
  s.get_choice("d", "x", {"x", "y"});
  s.get_bool("e", true);
  const auto& k = c.key_specs();
  ASSERT_EQ(k.size(), 5u);
  EXPECT_EQ(k.at("s.a").type, "integer");
  EXPECT_EQ(k.at("s.a").def, "1");
  EXPECT_EQ(k.at("s.a").hi, "4096");
  EXPECT_EQ(k.at("s.b").type, "power of two");
  EXPECT_EQ(k.at("s.b").lo, "4");
  EXPECT_EQ(k.at("s.c").hi, "1000000");
  EXPECT_EQ(k.at("s.c").def, "0.5");
  EXPECT_EQ(k.at("s.d").choices, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(k.at("s.e").def, "true");
}
