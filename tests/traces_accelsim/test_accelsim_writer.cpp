// The Accel-Sim trace writer (`trace record --format accelsim`): what it writes reads back through this
// project's importer as the same warp streams (kind, pc, mask, width, active lanes' addresses, gap,
// barriers) and, where the format can say it, the same register dependences.
#include <gtest/gtest.h>

#include <unistd.h>
#include <sstream>

#include "models/common/config.h"
#include "tb/kernels/port_loader.h"
#include "tb/traces/accelsim_workload.h"
#include "tb/traces/accelsim_writer.h"
#include "tests/cli/cli_runner.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

using namespace gms;

namespace {

const char* kHotspot = "rodinia/hotspot:grid=32,pyramid_height=2,sim_time=2";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string regs(const RegSet& r) {
  std::string s = "{";
  r.for_each([&](unsigned x) { s += " " + std::to_string(x); });
  return s + " }";
}

// What the importer can carry of an instruction: kind, pc, mask, width (0 for a barrier), the active
// lanes' addresses, gap.
std::string stream_fields(const WarpInst& in) {
  std::string s = std::string(to_string(in.kind)) + " pc=" + hex(in.pc) + " m=" + hex(in.active_mask) +
                  " w=" + std::to_string(in.kind == MemKind::Barrier ? 0 : in.width) +
                  " gap=" + std::to_string(in.gap);
  if (in.kind != MemKind::Barrier)
    for (unsigned l = 0; l < 32; ++l)
      if (in.active_mask >> l & 1) s += " " + hex(in.addr[l]);
  return s;
}

// The register dependences the importer makes (a barrier has none).
std::string dep_fields(const WarpInst& in) {
  if (in.kind == MemKind::Barrier) return "";
  return "waits" + regs(in.waits_on) + " gap " + std::to_string(in.waits_on.any() ? in.wait_gap : 0) +
         " writes" + regs(in.kind == MemKind::Load ? in.writes : RegSet{});
}

struct Compared {
  uint64_t instructions = 0, dep_differences = 0;
  uint64_t too_many_waits = 0;  // waits_on larger than its lines can list (4 registers a line)
};

// Records `port` as an Accel-Sim folder, reads it back and compares every warp's stream with a fresh run
// of the port: stream fields always exactly, kernel headers too; returns how many instructions' register
// dependences differ (EXPECTed equal to the writer's count) and, when `exact_deps`, EXPECTs none except
// where waits_on has more registers than the format can list (4 a line, on the wait_gap compute lines and
// the instruction's own): there the read-back registers are some of them, and the rest are exact.
Compared record_and_compare(const std::string& port, const std::string& dir, bool exact_deps) {
  auto src = kernels::load_port_reference(port);
  const AccelWriteCounts n = AccelSimWriter(dir).write(*src);
  auto want = kernels::load_port_reference(port);
  auto got = load_accelsim_workload(dir);
  Compared c;
  uint64_t kernels = 0;
  while (auto kw = want->next_kernel()) {
    auto kg = got->next_kernel();
    EXPECT_TRUE(kg) << "kernel " << kernels;
    if (!kg) break;
    ++kernels;
    const KernelInfo &a = kw->info(), &b = kg->info();
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.num_ctas, a.num_ctas);
    EXPECT_EQ(b.threads_per_cta, a.threads_per_cta);
    EXPECT_EQ(b.regs_per_thread, a.regs_per_thread);
    EXPECT_EQ(b.shmem_per_cta, a.shmem_per_cta);
    while (auto cw = kw->next_cta()) {
      auto cg = kg->next_cta();
      EXPECT_TRUE(cg);
      if (!cg) break;
      EXPECT_EQ(cg->cta_id, cw->cta_id);
      EXPECT_EQ(cg->warps.size(), cw->warps.size());
      for (size_t w = 0; w < cw->warps.size() && w < cg->warps.size(); ++w) {
        WarpInst x, y;
        for (uint64_t i = 0;; ++i) {
          const bool hx = cw->warps[w]->next(x), hy = cg->warps[w]->next(y);
          EXPECT_EQ(hx, hy) << a.name << " CTA " << cw->cta_id << " warp " << w << " inst " << i;
          if (!hx || !hy) break;
          ++c.instructions;
          EXPECT_EQ(stream_fields(y), stream_fields(x))
              << a.name << " CTA " << cw->cta_id << " warp " << w << " inst " << i;
          const bool differ =
              dep_fields(y) != dep_fields(x) || (x.kind == MemKind::Barrier && x.waits_on.any());
          c.dep_differences += differ;
          const bool too_many = x.waits_on.count() > 4 * (x.wait_gap + 1);
          c.too_many_waits += too_many;
          if (exact_deps && too_many) {
            EXPECT_EQ(y.waits_on.count(), 4 * (x.wait_gap + 1));
            EXPECT_TRUE((y.waits_on & x.waits_on) == y.waits_on);
            EXPECT_EQ(y.wait_gap, x.wait_gap);
            EXPECT_TRUE(y.writes == x.writes);
          } else if (exact_deps) {
            EXPECT_EQ(dep_fields(y), dep_fields(x))
                << a.name << " CTA " << cw->cta_id << " warp " << w << " inst " << i;
          }
        }
      }
    }
    EXPECT_FALSE(kg->next_cta());
  }
  EXPECT_FALSE(got->next_kernel());
  EXPECT_EQ(n.kernels, kernels);
  EXPECT_EQ(n.instructions, c.instructions);
  EXPECT_EQ(n.inexact_deps, c.dep_differences);
  return c;
}

}  // namespace

// rodinia/hotspot: shared memory, four barriers per warp and pyramid step, a 16 x 16 block in a 3 x 3 grid.
TEST(AccelWriter, HotspotReadsBackIdentically) {
  const std::string d = gms::test::temp_dir("writer_hotspot");
  const Compared c = record_and_compare(kHotspot, d, true);
  EXPECT_EQ(c.instructions, 456u);
  EXPECT_EQ(c.dep_differences, 0u);
  const std::string k = slurp(d + "/kernel-1.traceg");
  for (const char* line :
       {"-kernel name = calculate_temp\n", "-grid dim = (3,3,1)\n", "-block dim = (16,16,1)\n",
        "-shmem = 3072\n", "-nregs = 35\n", "-accelsim tracer version = 5\n", "\nthread block = 2,1,0\n",
        " BAR.SYNC 0 0 0\n", " EXIT 0 0 0\n"})
    EXPECT_NE(k.find(line), std::string::npos) << line;
  EXPECT_EQ(slurp(d + "/kernelslist.g"), "kernel-1.traceg\n");
}

// rodinia/bfs: 14 launches, loads whose addresses and branches depend on loaded values (waits_on,
// wait_gap), partial masks (mode 0 lists). A warp that loops over a long adjacency list carries the
// branches of every iteration: its waits_on outgrows what the lines before it can list (Accel-Sim's parser
// takes 4 source registers a line) on a few instructions, which keep 4 per line of them.
TEST(AccelWriter, BfsDependencesReadBackExactly) {
  const Compared c = record_and_compare("rodinia/bfs:nodes=2048", gms::test::temp_dir("writer_bfs"), true);
  EXPECT_EQ(c.instructions, 14524u);
  EXPECT_EQ(c.dep_differences, c.too_many_waits);
  EXPECT_LT(c.too_many_waits, 20u);
}

// Every line of the folder has at most 4 source and 1 destination registers (Accel-Sim's trace parser
// asserts it: MAX_SRC, MAX_DST), also for a port whose instructions wait on many loads (Barnes-Hut's
// force walk and summarization).
TEST(AccelWriter, LinesStayWithinTheParsersOperandLimits) {
  const std::string d = gms::test::temp_dir("writer_bh");
  record_and_compare("lonestar/bh:bodies=512,timesteps=1,sms=2,block_cap=512", d, false);
  uint64_t lines = 0, many = 0;
  for (int k = 1; k <= 9; ++k) {
    std::istringstream in(slurp(d + "/kernel-" + std::to_string(k) + ".traceg"));
    for (std::string line; std::getline(in, line);) {
      std::istringstream f(line);
      std::string pc, mask, opcode;
      unsigned dsts = 0, srcs = 0;
      if (line.empty() || line[0] == '-' || line[0] == '#' || line.find('=') != std::string::npos) continue;
      f >> pc >> mask >> dsts;
      for (unsigned i = 0; i < dsts; ++i) f >> opcode;
      f >> opcode >> srcs;
      ASSERT_TRUE(f) << line;
      ++lines;
      EXPECT_LE(dsts, 1u) << line;
      EXPECT_LE(srcs, 4u) << line;
      many += srcs == 4;
    }
  }
  EXPECT_GT(lines, 500000u);
  EXPECT_GT(many, 0u);  // the limit was reached, not avoided
}

// sdk/blackscholes loads float2 (8 bytes per lane): the importer widens a load's one destination register
// to two (as SASS does), the port names one; streams and gaps are still exact.
TEST(AccelWriter, WideLoadsDifferOnlyInRegisters) {
  const Compared c = record_and_compare("sdk/blackscholes:options=4096,iterations=1",
                                        gms::test::temp_dir("writer_bs"), false);
  EXPECT_EQ(c.instructions, 320u);
  EXPECT_GT(c.dep_differences, 0u);
}

TEST(AccelWriter, AddressModesAndRegisters) {
  AccelWarpWriter w;
  w.reset(0xffffffffu);
  WarpInst a;
  a.pc = 0x10;
  a.kind = MemKind::Load;
  a.width = 4;
  a.active_mask = 0x0000fff0;  // contiguous lanes 4..15 at stride 8: mode 1 from lane 4
  for (unsigned l = 4; l < 16; ++l) a.addr[l] = 0x1000 + 8 * (l - 4);
  a.writes.set(3);
  w.add(a);
  WarpInst b = a;  // lanes 0 and 2: not contiguous, mode 0
  b.pc = 0x20;
  b.kind = MemKind::Store;
  b.active_mask = 0x5;
  b.addr = {};
  b.addr[0] = 0x2000;
  b.addr[2] = 0x2004;
  b.gap = 2;
  b.waits_on.set(3);
  b.wait_gap = 1;
  b.writes = {};
  w.add(b);
  WarpInst c = a;  // stride beyond 32 bits: mode 0
  c.pc = 0x30;
  c.active_mask = 0x3;
  c.addr = {};
  c.addr[0] = 0x1000;
  c.addr[1] = 0x1000 + (uint64_t(1) << 33);
  c.width = 16;
  c.writes = {};
  c.writes.set(8);
  c.writes.set(9);
  c.writes.set(10);
  c.writes.set(11);
  w.add(c);
  std::string out;
  w.finish(out);
  EXPECT_EQ(out,
            "insts = 6\n"
            "0010 0000fff0 1 R3 LDG.E 0 4 1 0x0000000000001000 8 0\n"
            "0020 00000005 0 IMAD 0 0 0\n"
            "0020 00000005 0 IMAD 1 R3 0 0\n"
            "0020 00000005 0 STG.E 1 R3 4 0 0x0000000000002000 0x0000000000002004 0\n"
            "0030 00000003 1 R8 LDG.E.128 0 16 0 0x0000000000001000 0x0000000200001000 0\n"
            "0040 ffffffff 0 EXIT 0 0 0\n");
  EXPECT_EQ(w.inexact_deps(), 0u);
  // What the format cannot hold.
  WarpInst z = a;
  z.active_mask = 0;
  EXPECT_THROW(w.add(z), std::invalid_argument);
  z = a;
  z.kind = MemKind::Flush;
  EXPECT_THROW(w.add(z), std::invalid_argument);
  z = a;
  z.kind = MemKind::Atomic;  // an atomic is written as ATOMG (an add), but only of 4 or 8 bytes
  z.width = 2;
  EXPECT_THROW(w.add(z), std::invalid_argument);
  z = a;
  z.width = 3;
  EXPECT_THROW(w.add(z), std::invalid_argument);
}

// A load rewriting a register an earlier load wrote (a port's register numbers wrap after 255 loads):
// a compute line before it overwrites that register so that the importer does not make it wait; with no
// compute line before it there is no way, and the writer counts it.
TEST(AccelWriter, RegisterReuseBetweenLoads) {
  AccelWarpWriter w;
  w.reset(0x1);
  WarpInst a;
  a.kind = MemKind::Load;
  a.width = 4;
  a.active_mask = 0x1;
  a.addr[0] = 0x100;
  a.writes.set(7);
  w.add(a);
  a.gap = 1;
  w.add(a);
  EXPECT_EQ(w.inexact_deps(), 0u);
  a.gap = 0;
  w.add(a);
  EXPECT_EQ(w.inexact_deps(), 1u);
  std::string out;
  w.finish(out);
  EXPECT_NE(out.find("0000 00000001 1 R7 IMAD 0 0 0\n"), std::string::npos) << out;
}

TEST(AccelWriter, CliRecordsDeterministically) {
  const std::string d = gms::test::temp_dir("writer_cli");
  CliResult r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/a --format accelsim");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "recorded workload 'rodinia/hotspot': 1 kernels, 9 CTAs, 72 warps, 456 warp instructions -> " +
                d + "/a (Accel-Sim trace, 14064 instruction lines)\n");
  r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/b --format accelsim");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* f : {"/kernelslist.g", "/kernel-1.traceg"}) {
    EXPECT_FALSE(slurp(d + "/a" + f).empty()) << f;
    EXPECT_EQ(slurp(d + "/a" + f), slurp(d + "/b" + f)) << f;
  }
  // The folder is a workload: recorded again into a native trace it gives the port's native trace.
  r = run_cli("trace record -w " + d + "/a -o " + d + "/x.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/y.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string x = slurp(d + "/x.gmstrace"), y = slurp(d + "/y.gmstrace");
  EXPECT_EQ(x.substr(x.find("\nkernel ")), y.substr(y.find("\nkernel ")));
  // Wide loads: the summary says how many instructions' dependences read back differently.
  r = run_cli("trace record -w sdk/blackscholes:options=4096,iterations=1 -o " + d + "/bs --format accelsim");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("instruction lines; 192 instructions' register dependences read back differently, "
                       "docs/accelsim-import.md)\n"),
            std::string::npos)
      << r.out;
}

TEST(AccelWriter, CliErrorsExitWith2) {
  const std::string d = gms::test::temp_dir("writer_cli_bad");
  gms::test::write_text(d + "/file", "x");
  CliResult r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/file --format accelsim");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: " + d +
                       "/file: exists and is not a folder (--format accelsim writes a folder: kernelslist.g "
                       "and kernel-N.traceg)\n");
  EXPECT_EQ(slurp(d + "/file"), "x");
  r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/no/such/dir --format accelsim");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: " + d +
                       "/no/such/dir: cannot create the trace folder: No such file or directory\n");
  if (geteuid() != 0) {  // root writes anywhere
    std::system(("mkdir -p '" + d + "/ro' && chmod 555 '" + d + "/ro'").c_str());
    r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/ro --format accelsim");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("gpumemsys: error: " + d + "/ro/kernel-1.traceg: cannot open for writing"),
              std::string::npos)
        << r.out;
    std::system(("chmod 755 '" + d + "/ro'").c_str());
  }
  // Writing over the Accel-Sim trace being read.
  r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/t --format accelsim");
  ASSERT_EQ(r.status, 0) << r.out;
  r = run_cli("trace record -w " + d + "/t -o " + d + "/t --format accelsim");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("name the same file"), std::string::npos) << r.out;
  // A load with no active lane (a native trace may hold one).
  gms::test::write_text(d + "/m0.gmstrace",
                        "gmstrace 1\nworkload w\nkernel grid=1 block=32 regs=0 shmem=0 name=k\ncta 0\nwarp 0 "
                        "1\n10 00000000 ld 4 0 l\nend 1\n");
  r = run_cli("trace record -w " + d + "/m0.gmstrace -o " + d + "/m0 --format accelsim");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: " + d +
                       "/m0/kernel-1.traceg: CTA 0, warp 0, instruction 1: a load with no active lane cannot "
                       "be written (Accel-Sim reads it as predicated off)\n");
  r = run_cli(std::string("trace record -w ") + kHotspot + " -o " + d + "/z --format csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: command line: --format: 'csv' is not one of: accelsim, binary, text\n");
}
