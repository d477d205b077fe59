// InputFile (models/common/bounded_input.h) and the YAML loading built on it (issue 29): inputs are read
// once, the peeked bytes handed on, a stream read only up to limit + 1 byte; a second YAML document is an
// error naming its line, in a file, a string and a --set value.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/yaml_checks.h"
#include "tests/config_error_of.h"

using gms::ConfigNode;
using gms::InputFile;

namespace {

std::string scratch(const std::string& name) {
  const std::string d = std::string(GMS_BINARY_DIR) + "/test-tmp/bounded_input";
  std::system(("mkdir -p '" + d + "'").c_str());
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return d + "/" + info->name() + "_" + name;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST(BoundedInput, PeekedBytesAreReadAgain) {
  const std::string p = scratch("a.txt");
  write(p, "hello, world\n");
  InputFile in(p);
  EXPECT_TRUE(in.regular());
  EXPECT_EQ(in.peek(5), "hello");
  EXPECT_EQ(in.peek(), "hello, world\n");
  char buf[4];
  ASSERT_EQ(in.read(buf, 4), 4u);
  EXPECT_EQ(std::string(buf, 4), "hell");
  EXPECT_EQ(in.read_all(100, "test file"), "o, world\n");
}

TEST(BoundedInput, ReadAllStopsAtTheLimit) {
  const std::string p = scratch("b.txt");
  write(p, std::string(1000, 'x'));
  EXPECT_EQ(InputFile(p).read_all(1000, "t").size(), 1000u);
  EXPECT_EQ(config_error_of([&] { InputFile(p).read_all(999, "test file"); }),
            p + ": larger than the 999 bytes limit for a test file");
  // A device never ends: read up to limit + 1 byte, then refused.
  InputFile zero("/dev/zero");
  EXPECT_FALSE(zero.regular());
  EXPECT_EQ(zero.peek(8), std::string(8, '\0'));
  EXPECT_EQ(config_error_of([&] { zero.read_all(2 * gms::kMiB, "configuration file"); }),
            "/dev/zero: larger than the 2 MiB limit for a configuration file");
}

TEST(BoundedInput, FifoIsReadOnce) {
  const std::string f = scratch("fifo");
  ::unlink(f.c_str());
  ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  std::thread writer([&] { write(f, "workload:\n  name: x\n"); });
  InputFile in(f);
  EXPECT_FALSE(in.regular());
  EXPECT_EQ(in.peek(9), "workload:");
  EXPECT_EQ(in.read_all(gms::kYamlInputLimit, "t"), "workload:\n  name: x\n");
  writer.join();
}

TEST(BoundedInput, MissingFileAndDirectory) {
  EXPECT_EQ(config_error_of([] { InputFile("/nonexistent/x"); }), "/nonexistent/x: cannot read file");
  EXPECT_EQ(config_error_of([] { InputFile("/"); }), "/: is a directory");
}

TEST(BoundedInput, ConfigFromADeviceFailsOnItsFirstBytes) {
  EXPECT_EQ(config_error_of([] { ConfigNode::load_file("/dev/zero"); }),
            "/dev/zero:1: not a text (YAML) file (byte '\\0')");
  const std::string p = scratch("big.yaml");
  write(p, std::string(gms::kYamlInputLimit + 1, '\n'));
  EXPECT_EQ(config_error_of([&] { ConfigNode::load_file(p, "programs file"); }),
            p + ": larger than the 16 MiB limit for a programs file");
}

TEST(SingleDocument, SecondDocumentNamesItsLine) {
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: 1\nb: 2\n---\nc: 3\n", "c.yaml"); }),
            "c.yaml:3: a second YAML document starts here; one document per file");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: 1\n...\n\nc: 3\n", "c.yaml"); }),
            "c.yaml:4: a second YAML document starts here; one document per file");
  // An empty second document and a broken one are second documents too.
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: 1\n---\n", "c.yaml"); }),
            "c.yaml:2: a second YAML document starts here; one document per file");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: 1\n---\n[: : :\n", "c.yaml"); }),
            "c.yaml:2: a second YAML document starts here; one document per file");
  const std::string p = scratch("two.yaml");
  write(p, "# a comment\na: 1\n--- # more\nb: 2\n");
  EXPECT_EQ(config_error_of([&] { ConfigNode::load_file(p); }),
            p + ":3: a second YAML document starts here; one document per file");
}

TEST(SingleDocument, OneDocumentWithMarkersIsFine) {
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("---\na: 1\n...\n# end\n", "c.yaml"); }), "");
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("%YAML 1.2\n---\na: 1\n", "c.yaml"); }), "");
  // Dashes inside a value are text, not markers.
  EXPECT_EQ(config_error_of([] { ConfigNode::load_string("a: |\n  ---\n  x\nb: '---'\n", "c.yaml"); }), "");
}

TEST(SingleDocument, SetValueWithASecondDocument) {
  auto c = ConfigNode::load_string("l1:\n  ways: 4\n", "c.yaml");
  EXPECT_EQ(config_error_of([&] { c.apply_override("l1.ways=8\n---\n3"); }),
            "--set l1.ways=8\\n---\\n3: a second YAML document in the value; one document per value");
  EXPECT_EQ(config_error_of([&] { c.apply_override("l1.ways=8"); }), "");
}
