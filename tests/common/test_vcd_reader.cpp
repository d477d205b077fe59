// The tests' VCD reader: nested scopes name signals, every value kind is read with its time, malformed
// input fails naming the line, and what our VcdWriter writes reads back as it was set.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "models/common/vcd_writer.h"
#include "tests/common/vcd_reader.h"

namespace {

using gms::test::VcdFile;

VcdFile parse(const std::string& text) {
  std::istringstream in(text);
  return VcdFile::parse(in);
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// A dump as other writers make it: comments, nested scopes, an alias, x values, a real, a bit range.
const char* kDump = R"($date today $end
$version other writer $end
$timescale 10ns $end
$scope module top $end
$var wire 1 ! clk $end
$scope module dram0 $end
$var wire 8 " command [7:0] $end
$var real 64 # temp $end
$upscope $end
$scope module alias $end
$var wire 1 ! clk_copy $end
$upscope $end
$upscope $end
$enddefinitions $end
$comment initial values $end
#0
$dumpvars
0!
bx "
r20.5 #
$end
#5
1!
b10 "
#7
b11 "
r-1e3 #
0!
)";

}  // namespace

TEST(VcdReader, NamesSignalsByTheirScopesAndKeepsEveryChangeWithItsTime) {
  const VcdFile f = parse(kDump);
  EXPECT_EQ(f.timescale(), "10ns");
  EXPECT_EQ(f.ps_per_unit(), 10000u);
  EXPECT_EQ(f.size(), 4u);
  EXPECT_EQ(f.names(), (std::vector<std::string>{"top.alias.clk_copy", "top.clk", "top.dram0.command",
                                                 "top.dram0.temp"}));
  EXPECT_EQ(f.names_under("top.dram0."), (std::vector<std::string>{"top.dram0.command", "top.dram0.temp"}));
  EXPECT_EQ(f.first_time(), 0u);
  EXPECT_EQ(f.last_time(), 7u);

  const auto& cmd = f.signal("top.dram0.command");
  EXPECT_EQ(cmd.width, 8u);
  ASSERT_EQ(cmd.changes.size(), 3u);
  EXPECT_FALSE(cmd.changes[0].known);  // bx
  EXPECT_EQ(cmd.changes[0].text, "x");
  EXPECT_EQ(cmd.changes[1].time, 5u);
  EXPECT_EQ(cmd.changes[1].value, 2u);
  EXPECT_EQ(cmd.changes[2].time, 7u);
  EXPECT_EQ(cmd.changes[2].value, 3u);
  EXPECT_EQ(cmd.value_at(6), 2u);
  EXPECT_EQ(cmd.value_at(100), 3u);
  EXPECT_EQ(cmd.first_time_of(3), 7u);
  EXPECT_EQ(cmd.first_time_of(9), UINT64_MAX);
  EXPECT_EQ(cmd.changes_between(5, 6).size(), 1u);

  const auto& temp = f.signal("top.dram0.temp");
  EXPECT_EQ(temp.kind, "real");
  ASSERT_EQ(temp.changes.size(), 2u);
  EXPECT_DOUBLE_EQ(temp.changes[0].real, 20.5);
  EXPECT_DOUBLE_EQ(temp.changes[1].real, -1000.0);

  // Two names for one code: both get the changes.
  for (const char* n : {"top.clk", "top.alias.clk_copy"}) {
    const auto& c = f.signal(n);
    ASSERT_EQ(c.changes.size(), 3u) << n;
    EXPECT_EQ(c.changes[1].time, 5u);
    EXPECT_EQ(c.changes[1].value, 1u);
    EXPECT_EQ(c.value_at(7), 0u);
  }
  try {
    f.signal("top.dram0.comand");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {  // names what the scope has
    EXPECT_STREQ(e.what(),
                 "VCD has no signal top.dram0.comand (4 signals; top.dram0.command, top.dram0.temp)");
  }
}

TEST(VcdReader, MalformedInputFailsNamingTheLine) {
  const std::string head =
      "$timescale 1 ps $end\n$scope module a $end\n$var wire 4 ! v $end\n$upscope $end\n"
      "$enddefinitions $end\n";
  EXPECT_EQ(error_of(head + "#0\nb1 ?\n"), "VCD line 7: value for undeclared code '?'");
  EXPECT_EQ(error_of(head + "#5\n#3\n"), "VCD line 7: time goes back from 5 to 3");
  EXPECT_EQ(error_of(head + "b1 !\n"), "VCD line 6: value change before the first #time");
  EXPECT_EQ(error_of(head + "#0\nb12 !\n"), "VCD line 7: bad bit '2' in b12");
  EXPECT_EQ(error_of(head + "#0\nb1" + std::string(64, '0') + " !\n"),
            "VCD line 7: vector value b1" + std::string(64, '0') + " wider than 64 bits");
  EXPECT_EQ(error_of(head + "#x\n"), "VCD line 6: bad time stamp #x");
  EXPECT_EQ(error_of("$scope module a $end\n$enddefinitions $end\n"), "VCD line 2: $scope a not closed");
  EXPECT_EQ(error_of("$upscope $end\n"), "VCD line 1: $upscope without $scope");
  EXPECT_EQ(error_of("$timescale 1 ps\n"), "VCD line 2: end of file where $end was expected");
  EXPECT_EQ(error_of("$scope module a $end\n$var wire 1 ! v $end\n$var wire 1 \" v $end\n"),
            "VCD line 3: signal a.v declared twice");
  EXPECT_THROW(VcdFile::load("/nonexistent/x.vcd"), std::runtime_error);
}

// Whatever our writer records reads back: dotted scopes nest, pulses fall back, the window's values.
TEST(VcdReader, ReadsBackWhatOurWriterWrote) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/test-tmp/vcd_reader_roundtrip.vcd";
  std::system(("mkdir -p '" + std::string(GMS_BINARY_DIR) + "/test-tmp'").c_str());
  {
    gms::VcdWriter w(path, "1 ps");
    const uint32_t q = w.declare("xbar.req", "in0_flits", 32);
    const uint32_t hit = w.declare("l1_0", "hit", 1);
    const uint32_t row = w.declare("dram0.bank3", "row", 32);
    w.set(q, 0, 0);
    w.set(q, 2, 100);
    w.pulse(hit, 150, 10);
    w.set(row, 77, 200);
    w.set(q, 0, 300);
    w.close(400);
  }
  const VcdFile f = VcdFile::load(path);
  EXPECT_EQ(f.ps_per_unit(), 1u);
  const auto& q = f.signal("SystemC.xbar.req.in0_flits");
  EXPECT_EQ(q.value_at(99), 0u);
  EXPECT_EQ(q.value_at(100), 2u);
  EXPECT_EQ(q.value_at(300), 0u);
  const auto& hit = f.signal("SystemC.l1_0.hit");
  EXPECT_EQ(hit.first_time_of(1), 150u);
  EXPECT_EQ(hit.first_time_of(0, 151), 160u);
  EXPECT_EQ(f.signal("SystemC.dram0.bank3.row").first_time_of(77), 200u);
  EXPECT_EQ(f.last_time(), 400u);
}
