// LineReader: plain, xz and gzip input recognised by content, line numbers, damaged compressed files.
#include <gtest/gtest.h>

#include "tb/traces/compressed_input.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

using gms::LineReader;
using gms::test::error_of;

std::vector<std::string> all_lines(const std::string& path) {
  LineReader r(path);
  std::vector<std::string> out;
  std::string l;
  while (r.next(l)) {
    out.push_back(l);
    EXPECT_EQ(r.line_no(), out.size());
  }
  return out;
}

const std::string kText = "first\r\n\nthird line\nlast without newline";
const std::vector<std::string> kLines = {"first", "", "third line", "last without newline"};

}  // namespace

TEST(CompressedInput, PlainXzAndGzipGiveTheSameLines) {
  const std::string d = gms::test::temp_dir("ci_same");
  gms::test::write_text(d + "/a.txt", kText);
  ASSERT_EQ(
      std::system(("cd '" + d + "' && xz -k a.txt && gzip -k a.txt && cp a.txt.xz renamed.txt").c_str()), 0);
  EXPECT_EQ(all_lines(d + "/a.txt"), kLines);
  EXPECT_EQ(all_lines(d + "/a.txt.xz"), kLines);
  EXPECT_EQ(all_lines(d + "/a.txt.gz"), kLines);
  EXPECT_EQ(all_lines(d + "/renamed.txt"), kLines);  // by content, not by name
  EXPECT_STREQ(LineReader(d + "/renamed.txt").compression(), "xz");
  EXPECT_STREQ(LineReader(d + "/a.txt.gz").compression(), "gzip");
  EXPECT_STREQ(LineReader(d + "/a.txt").compression(), "none");
}

TEST(CompressedInput, LongLinesAcrossBufferBoundaries) {
  const std::string d = gms::test::temp_dir("ci_long");
  std::string text;
  std::vector<std::string> want;
  for (int i = 0; i < 2000; ++i) {
    want.push_back(std::string(size_t(i * 37 % 1500), char('a' + i % 26)) + std::to_string(i));
    text += want.back() + "\n";
  }
  gms::test::write_text(d + "/l.txt", text);
  ASSERT_EQ(std::system(("cd '" + d + "' && xz -k l.txt && gzip -k l.txt").c_str()), 0);
  EXPECT_EQ(all_lines(d + "/l.txt"), want);
  EXPECT_EQ(all_lines(d + "/l.txt.xz"), want);
  EXPECT_EQ(all_lines(d + "/l.txt.gz"), want);
}

TEST(CompressedInput, ConcatenatedGzipMembers) {
  const std::string d = gms::test::temp_dir("ci_cat");
  gms::test::write_text(d + "/a", "one\n");
  gms::test::write_text(d + "/b", "two\n");
  ASSERT_EQ(std::system(("cd '" + d + "' && gzip a b && cat a.gz b.gz > ab.gz").c_str()), 0);
  EXPECT_EQ(all_lines(d + "/ab.gz"), (std::vector<std::string>{"one", "two"}));
}

TEST(CompressedInput, MissingFileIsAnError) {
  EXPECT_EQ(error_of([] { LineReader r("/nonexistent/x.traceg"); }),
            "/nonexistent/x.traceg: cannot open (No such file or directory)");
}

TEST(CompressedInput, TruncatedXzAndGzipAreErrors) {
  const std::string d = gms::test::temp_dir("ci_trunc");
  std::string text;
  for (int i = 0; i < 100; ++i) text += "line " + std::to_string(i) + "\n";
  gms::test::write_text(d + "/t", text);
  ASSERT_EQ(std::system(("cd '" + d + "' && xz -k t && gzip -k t && head -c 60 t.xz > cut.xz && " +
                         "head -c 40 t.gz > cut.gz")
                            .c_str()),
            0);
  auto drain = [](const std::string& p) {
    LineReader r(p);
    std::string l;
    while (r.next(l)) {
    }
  };
  const std::string xz = error_of([&] { drain(d + "/cut.xz"); });
  const std::string gz = error_of([&] { drain(d + "/cut.gz"); });
  EXPECT_EQ(xz, d + "/cut.xz:10: xz data ends early (truncated file)");  // 9 lines decoded
  EXPECT_EQ(gz, d + "/cut.gz:1: gzip data ends early (truncated file)");
}
