// Output files are written completely or fail naming the file; the VCD writer records the values of each
// instant (the last set wins), writes exactly the path given and ends with the values the run ended with.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "models/common/config.h"
#include "models/common/decision_board.h"
#include "models/common/output_file.h"
#include "models/common/trace.h"
#include "models/common/vcd_writer.h"

namespace {

std::string tmp(const std::string& name) {
  const std::string d = std::string(GMS_BINARY_DIR) + "/test-tmp/trace_output";
  std::system(("mkdir -p '" + d + "'").c_str());
  return d + "/" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// The part after $enddefinitions: the time stamps and value changes.
std::string body(const std::string& vcd) {
  const std::string tag = "$enddefinitions  $end\n\n";
  const auto p = vcd.find(tag);
  return p == std::string::npos ? "" : vcd.substr(p + tag.size());
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace

TEST(OutputFile, WritesEveryByte) {
  const std::string path = tmp("every_byte.txt");
  std::string text(3 << 20, 'x');  // past any buffer
  for (size_t i = 0; i < text.size(); i += 97) text[i] = '\n';
  gms::write_output_file(path, text);
  EXPECT_EQ(slurp(path), text);
}

TEST(OutputFile, FullDiskFailsAtCloseNamingFileAndReason) {
  gms::OutputFile f("/dev/full");
  f.write("small enough to sit in the buffer until close\n");
  EXPECT_FALSE(f.failed());
  EXPECT_THROW(f.close(), gms::OutputError);
  EXPECT_EQ(error_of([&] { f.close(); }), "/dev/full: write failed: No space left on device");
  EXPECT_EQ(error_of([] { gms::write_output_file("/dev/full", std::string(1 << 20, 'x')); }),
            "/dev/full: write failed: No space left on device");
}

TEST(OutputFile, PathThatCannotBeOpenedIsBadInputNamingIt) {
  const std::string path = tmp("no/such/dir/stats.json");
  EXPECT_THROW(gms::OutputFile{path}, gms::ConfigError);
  EXPECT_EQ(error_of([&] { gms::OutputFile f(path); }),
            path + ": cannot open for writing: No such file or directory");
}

// Results are never lost: the bytes go to a temporary in the same folder, renamed over the file only by
// commit(); an error path (destroyed without it) removes the temporary and leaves the old file as it was.
TEST(OutputFile, ReplacesTheOldFileOnlyWhenCommitted) {
  const std::string path = tmp("replaced.txt");
  gms::write_output_file(path, "old\n");
  {
    gms::OutputFile f(path);
    f.write("new\n");
    f.finish();
    EXPECT_EQ(slurp(path), "old\n");  // finished, not yet committed
  }                                   // an error on its way: discarded
  EXPECT_EQ(slurp(path), "old\n");
  EXPECT_FALSE(exists(tmp(".replaced.txt.tmp.") + std::to_string(::getpid())));
  gms::OutputFile f(path);
  EXPECT_TRUE(exists(tmp(".replaced.txt.tmp.") + std::to_string(::getpid())));
  f.write("new\n");
  f.close();
  EXPECT_EQ(slurp(path), "new\n");
  EXPECT_FALSE(exists(tmp(".replaced.txt.tmp.") + std::to_string(::getpid())));
}

TEST(OutputFile, ASymbolicLinkKeepsPointingAtTheReplacedFile) {
  const std::string file = tmp("link_target.txt"), link = tmp("link.txt");
  gms::write_output_file(file, "old\n");
  std::remove(link.c_str());
  ASSERT_EQ(::symlink("link_target.txt", link.c_str()), 0);
  gms::write_output_file(link, "new\n");
  struct stat st;
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(slurp(file), "new\n");
}

TEST(VcdWriter, AWriterDestroyedWithoutCloseLeavesTheOldFile) {
  const std::string path = tmp("kept.vcd");
  gms::write_output_file(path, "an older dump\n");
  {
    gms::VcdWriter w(path, "1 ps");
    w.set(w.declare("sm0", "in_flight", 32), 1, 10);
  }
  EXPECT_EQ(slurp(path), "an older dump\n");
}

TEST(VcdWriter, HeaderHasScopesVarsAndWidths) {
  const std::string path = tmp("header.vcd");
  gms::VcdWriter w(path, "1 ps");
  w.declare("sm1", "in_flight", 32);
  w.declare("l1_0", "busy", 1);
  w.declare("sm1", "hits", 64);
  w.close(0);
  const std::string vcd = slurp(path);
  EXPECT_NE(vcd.find("$timescale\n     1 ps\n$end\n"), std::string::npos) << vcd;
  // Blocks as scopes in name order inside the top scope, variables in declaration order.
  EXPECT_NE(vcd.find("$scope module SystemC $end\n"
                     "$scope module l1_0 $end\n$var wire    1  aaaab  busy       $end\n$upscope $end\n"
                     "$scope module sm1 $end\n$var wire   32  aaaaa  in_flight [31:0]  $end\n"
                     "$var wire   64  aaaac  hits [63:0]  $end\n$upscope $end\n$upscope $end\n"
                     "$enddefinitions  $end\n"),
            std::string::npos)
      << vcd;
  EXPECT_EQ(body(vcd), "#0\n$dumpvars\nb0 aaaaa\n0aaaab\nb0 aaaac\n$end\n");
}

TEST(VcdWriter, LastSetInAnInstantWinsAndUnchangedValuesAreNotRepeated) {
  const std::string path = tmp("instants.vcd");
  gms::VcdWriter w(path, "1 ps");
  const uint32_t x = w.declare("b", "x", 32), flag = w.declare("b", "flag", 1);
  w.set(x, 1, 0);
  w.set(x, 2, 10);
  w.set(x, 3, 10);     // same instant: only 3 is written
  w.set(flag, 1, 20);  // listed in declaration order below
  w.set(x, 3, 20);     // unchanged: not repeated
  w.set(x, 4, 25);
  w.set(x, 3, 25);  // back to the written value within the instant: no change at 25
  w.close(40);
  EXPECT_EQ(body(slurp(path)), "#0\n$dumpvars\nb1 aaaaa\n0aaaab\n$end\n#10\nb11 aaaaa\n#20\n1aaaab\n#40\n");
}

TEST(VcdWriter, CloseWritesTheValuesOfTheLastInstant) {
  const std::string path = tmp("last_instant.vcd");
  gms::VcdWriter w(path, "1 ps");
  const uint32_t n = w.declare("sm0", "in_flight", 32);
  w.set(n, 2, 5);  // the dump still opens at 0 with the initial values (GTKWave shows none before)
  w.set(n, 1, 30);
  w.set(n, 0, 50);  // the run ends in this instant: still written
  w.close(50);
  w.set(n, 7, 60);  // after close: ignored
  w.close(60);
  EXPECT_EQ(body(slurp(path)),
            "#0\n$dumpvars\nb0 aaaaa\n$end\n#5\nb10 aaaaa\n#30\nb1 aaaaa\n#50\nb0 aaaaa\n");
}

// A window keeps [from, to]: changes before `from` fold into the values dumped at `from`, changes after `to`
// are dropped, and the file ends at `to`.
TEST(VcdWriter, AWindowKeepsOnlyItsTimesWithTheValuesAtItsStart) {
  const std::string path = tmp("window.vcd");
  gms::VcdWriter w(path, "1 ps");
  w.set_window(100, 200);
  const uint32_t n = w.declare("sm0", "in_flight", 32);
  w.set(n, 1, 10);
  w.set(n, 3, 50);   // before the window: becomes the value at 100
  w.set(n, 4, 150);  // inside
  w.set(n, 5, 250);  // after: dropped
  w.close(300);      // ends at 200
  EXPECT_EQ(body(slurp(path)), "#100\n$dumpvars\nb11 aaaaa\n$end\n#150\nb100 aaaaa\n#200\n");
  // A run that ends before the window opens still leaves a valid file (header and final values).
  const std::string early = tmp("window_early.vcd");
  gms::VcdWriter e(early, "1 ps");
  e.set_window(1000, 2000);
  const uint32_t m = e.declare("sm0", "in_flight", 32);
  e.set(m, 2, 10);
  e.close(50);
  EXPECT_EQ(body(slurp(early)), "#50\n$dumpvars\nb10 aaaaa\n$end\n");
  EXPECT_THROW(gms::VcdWriter(tmp("bad.vcd"), "1 ps").set_window(5, 4), std::logic_error);
}

// A pulse that ends past the window's start is the first event inside it: the file still opens at the
// start with the values there (it opened at the pulse's end).
TEST(VcdWriter, AWindowOpensAtItsStartWhenAPulseEndsPastIt) {
  const std::string path = tmp("window_pulse.vcd");
  gms::VcdWriter w(path, "1 ps");
  w.set_window(100, 200);
  const uint32_t hit = w.declare("l1", "hit", 1);
  w.pulse(hit, 10, 95);  // 1 from 10, 0 at 105
  w.set(hit, 1, 150);
  w.close(300);
  EXPECT_EQ(body(slurp(path)), "#100\n$dumpvars\n1aaaaa\n$end\n#105\n0aaaaa\n#150\n1aaaaa\n#200\n");
}

// Event pulses (the L1's hit/miss/bypass): 1 at the event, 0 one width later; a pulse again before the end
// keeps the signal high until the later pulse's end; a reset in the instant of new changes is written with
// them, once.
TEST(VcdWriter, PulsesFallBackAfterTheirWidthAndOverlappingPulsesMerge) {
  const std::string path = tmp("pulses.vcd");
  gms::VcdWriter w(path, "1 ps");
  const uint32_t n = w.declare("l1", "occupancy", 32);
  const uint32_t hit = w.declare("l1", "hit", 1);
  w.set(n, 0, 0);
  w.pulse(hit, 10, 5);  // 1 at 10, 0 at 15
  w.set(n, 1, 20);
  w.pulse(hit, 30, 5);
  w.pulse(hit, 33, 5);  // still high: the first pulse's end at 35 is superseded, 0 at 38
  w.set(n, 2, 40);
  w.pulse(hit, 50, 5);
  w.set(n, 3, 55);  // the reset falls in this instant
  w.close(60);
  EXPECT_EQ(body(slurp(path)),
            "#0\n$dumpvars\nb0 aaaaa\n0aaaab\n$end\n#10\n1aaaab\n#15\n0aaaab\n#20\nb1 aaaaa\n#30\n1aaaab\n"
            "#38\n0aaaab\n#40\nb10 aaaaa\n#50\n1aaaab\n#55\nb11 aaaaa\n0aaaab\n#60\n");
}

TEST(VcdWriter, FullDiskFailsAtCloseNamingTheFile) {
  gms::VcdWriter w("/dev/full", "1 ps");
  const uint32_t n = w.declare("dram0", "queue", 32);
  for (uint64_t t = 0; t < 100000; ++t) w.set(n, t & 7, t);  // more than one buffer
  EXPECT_EQ(error_of([&] { w.close(100000); }), "/dev/full: write failed: No space left on device");
}

TEST(TraceSelector, WritesExactlyThePathGivenWithProbeValuesInPicoseconds) {
  const std::string path = tmp("x.VCD");
  std::remove(path.c_str());
  std::remove((path + ".vcd").c_str());
  gms::TraceSelector sel(path, {"sm*"});
  gms::Probe<uint32_t> in_flight;
  gms::Probe<bool> busy;
  in_flight.attach(sel.file_for("sm0"), "sm0", "in_flight");
  busy.attach(sel.file_for("sm0"), "sm0", "busy");
  gms::Probe<uint64_t> untraced;
  untraced.attach(sel.file_for("l1_0"), "l1_0", "hits");
  EXPECT_TRUE(in_flight.on());
  EXPECT_FALSE(untraced.on());
  in_flight.set(3);
  untraced.set(9);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
  in_flight.set(5);
  in_flight.set(4);
  busy.set(true);
  sel.close();  // at 10 ns: the pending changes are written
  EXPECT_FALSE(exists(path + ".vcd"));
  const std::string vcd = slurp(path);
  EXPECT_EQ(vcd.find("l1_0"), std::string::npos);
  EXPECT_EQ(body(vcd), "#0\n$dumpvars\nb11 aaaaa\n0aaaab\n$end\n#10000\nb100 aaaaa\n1aaaab\n");
}

TEST(TraceSelector, GlobThatSelectsNoBlockIsBadInputListingTheBlocks) {
  gms::TraceSelector sel(tmp("globs.vcd"), {"sm*", "l2*"});
  for (const char* b : {"sm0", "l1_0", "sm1", "l1_1", "sm10", "xbar", "xbar", "dram0"}) sel.file_for(b);
  EXPECT_EQ(error_of([&] { sel.check_every_glob_matched(); }),
            "--trace 'sm*,l2*': 'l2*' matches no block (blocks are dram0, l1_0..l1_1, sm0..sm10, xbar)");
  gms::TraceSelector one(tmp("glob.vcd"), {"foo*"});
  one.file_for("sm0");
  EXPECT_EQ(error_of([&] { one.check_every_glob_matched(); }),
            "--trace 'foo*': matches no block (blocks are sm0)");
  gms::TraceSelector fine(tmp("fine.vcd"), {"sm*", "xbar"});
  fine.file_for("sm0");
  fine.file_for("xbar");
  EXPECT_NO_THROW(fine.check_every_glob_matched());
}

TEST(TraceSelector, UnwritablePathIsBadInputNamingIt) {
  const std::string path = tmp("missing/dir/wave.vcd");
  EXPECT_EQ(error_of([&] { gms::TraceSelector sel(path, {"*"}); }),
            path + ": cannot open for writing: No such file or directory");
}

TEST(DecisionBoard, OneValuePerNameSharedByEveryAskerAndCountedChanges) {
  gms::DecisionBoard board;
  gms::SharedDecision& a = board.decision("l1.tsc_plus.mode", 0);
  gms::SharedDecision& b = board.decision("l1.tsc_plus.mode", 7);  // the first asker's initial value wins
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(b.get(), 0u);
  a.set(1);
  a.set(1);  // no change
  EXPECT_EQ(b.get(), 1u);
  EXPECT_EQ(b.changes(), 1u);
  EXPECT_EQ(board.decision("l1.decoupled.duel", 1).get(), 1u);
  EXPECT_EQ(board.size(), 2u);
}

TEST(DecisionBoard, TracedUnderTheDecisionsScope) {
  const std::string path = tmp("decisions.vcd");
  gms::VcdWriter w(path, "1 ps");
  gms::DecisionBoard board(&w);
  board.decision("duel", 1);
  w.close(0);
  const std::string vcd = slurp(path);
  EXPECT_NE(vcd.find("$scope module decisions $end\n$var wire   32  aaaaa  duel [31:0]  $end\n"),
            std::string::npos)
      << vcd;
  EXPECT_EQ(body(vcd), "#0\n$dumpvars\nb1 aaaaa\n$end\n");
}

// Blocks set initial values at elaboration while router networks, built at end_of_elaboration, declare
// theirs in the same instant: declaring stays open until the first instant is over.
TEST(VcdWriter, DeclaringStaysOpenDuringTheFirstInstant) {
  const std::string path = tmp("late_declare.vcd");
  gms::VcdWriter w(path, "1 ps");
  const uint32_t a = w.declare("b", "a", 8);
  w.set(a, 3, 0);
  const uint32_t late = w.declare("b", "late", 8);  // same instant: fine
  w.set(late, 5, 0);
  w.set(a, 4, 10);  // closes the first instant
  EXPECT_EQ(error_of([&] { w.declare("b", "too_late", 8); }),
            "VCD " + path + ": b.too_late declared after the first instant");
  w.close(10);
  EXPECT_EQ(body(slurp(path)), "#0\n$dumpvars\nb11 aaaaa\nb101 aaaab\n$end\n#10\nb100 aaaaa\n");
}

// A dotted block or signal name is a module path: nested scopes, in natural order (l1_2 before l1_10),
// a scope's variables before its sub-scopes.
TEST(VcdWriter, DottedNamesNestScopesInNaturalOrder) {
  const std::string path = tmp("nested.vcd");
  gms::VcdWriter w(path, "1 ps");
  w.declare("xbar.req.r10", "grants", 8);
  w.declare("l1_10", "hits", 8);
  w.declare("xbar.req.r2", "grants", 8);
  w.declare("xbar", "req_delivered", 8);
  w.declare("l1_2", "hits", 8);
  w.declare("decisions", "l1.tsc_plus.mode", 8);
  w.close(0);
  const std::string vcd = slurp(path);
  const auto var = [](const char* code, const char* name) {
    return std::string("$var wire    8  ") + code + "  " + name + " [7:0]  $end\n";
  };
  EXPECT_NE(vcd.find("$scope module SystemC $end\n"
                     "$scope module decisions $end\n$scope module l1 $end\n$scope module tsc_plus $end\n" +
                     var("aaaaf", "mode") +
                     "$upscope $end\n$upscope $end\n$upscope $end\n"
                     "$scope module l1_2 $end\n" +
                     var("aaaae", "hits") +
                     "$upscope $end\n"
                     "$scope module l1_10 $end\n" +
                     var("aaaab", "hits") +
                     "$upscope $end\n"
                     "$scope module xbar $end\n" +
                     var("aaaad", "req_delivered") +
                     "$scope module req $end\n"
                     "$scope module r2 $end\n" +
                     var("aaaac", "grants") +
                     "$upscope $end\n"
                     "$scope module r10 $end\n" +
                     var("aaaaa", "grants") +
                     "$upscope $end\n$upscope $end\n$upscope $end\n$upscope $end\n$enddefinitions  $end\n"),
            std::string::npos)
      << vcd;
}

// A value pulse (the DRAM command bus): the value for one width, then 0; the next pulse at the end of
// the last one follows without a gap.
TEST(VcdWriter, ValuePulsesShowTheirValueThenFallToZero) {
  const std::string path = tmp("value_pulses.vcd");
  gms::VcdWriter w(path, "1 ps");
  const uint32_t cmd = w.declare("dram0", "command", 8);
  w.set(cmd, 0, 0);
  w.pulse(cmd, 10, 5, 2);  // ACT at 10
  w.pulse(cmd, 40, 5, 3);  // RD at 40
  w.pulse(cmd, 45, 5, 3);  // RD again right after: stays 3 until 50
  w.close(60);
  EXPECT_EQ(body(slurp(path)),
            "#0\n$dumpvars\nb0 aaaaa\n$end\n#10\nb10 aaaaa\n#15\nb0 aaaaa\n#40\nb11 aaaaa\n"
            "#50\nb0 aaaaa\n#60\n");
}
