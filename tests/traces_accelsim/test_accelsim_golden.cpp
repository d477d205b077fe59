// The golden check on recorded traces (issue 14): a warp that loads an address and then stores to it reads
// the old value whatever the SM's timing; bytes several warps store within a kernel are checked against the
// set of values their writers stored (counted as racy loads, never mismatches); a value no writer produced
// (a corrupted backing store) is still a mismatch.
#include <gtest/gtest.h>

#include <string>

#include "models/common/memory_image.h"
#include "models/dram/backing_store.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

const char* kHeader =
    "-kernel name = racy\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
    "-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n-shmem base_addr = 0x00007f6400000000\n"
    "-local mem base_addr = 0x00007f63a5000000\n-nvbit version = none\n-accelsim tracer version = 5\n"
    "-enable lineinfo = 0\n\n";

// One warp's lines: "insts = n" and the instructions.
std::string warp(unsigned w, const std::vector<std::string>& insts) {
  std::string s = "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(insts.size() + 1) + "\n";
  for (const std::string& i : insts) s += i + "\n";
  return s + "0f00 ffffffff 0 EXIT 0 0 0\n\n";
}

// Every CTA: warp 0 loads X (32 lanes, 4 B each) and then stores 32 lanes to X: the load-then-store of one
// warp. Warp 1 of both CTAs stores to Y (two writers of the same bytes in the kernel), then loads Y.
std::string trace() {
  const std::string X = "0x7f0000000000", Y = "0x7f0000100000";
  std::string s = kHeader;
  for (unsigned c = 0; c < 2; ++c) {
    s += "#BEGIN_TB\n\nthread block = " + std::to_string(c) + ",0,0\n\n";
    s += warp(0, {"0010 ffffffff 1 R4 LDG.E 1 R2 4 1 " + X + " 4 0",
                  "0020 ffffffff 0 STG.E 2 R2 R5 4 1 " + X + " 4 0"});
    s += warp(1, {"0010 ffffffff 0 STG.E 2 R2 R5 4 1 " + Y + " 4 0",
                  "0030 ffffffff 1 R6 LDG.E 1 R2 4 1 " + Y + " 4 0"});
    s += "#END_TB\n\n";
  }
  return s;
}

struct Replay {
  uint64_t mismatches, racy_loads;
  bool finished;
};

Replay replay(const std::string& name, bool corrupt) {
  const std::string dir = gms::test::temp_dir(name);
  gms::test::write_text(dir + "/kernel-1.traceg", trace());
  gms::test::write_text(dir + "/kernelslist.g", "kernel-1.traceg\n");
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/tiny.yaml");
  auto cfg = gms::SystemConfig::from(doc);
  auto w = gms::load_accelsim_workload(dir);
  gms::RunOptions opt;
  opt.progress = false;
  opt.check_data = true;
  gms::GpuSystem sys(cfg, *w, opt);
  if (corrupt)  // X's bytes changed behind the checker's back: the loads read values nobody wrote
    for (uint64_t a = 0x7f0000000000; a < 0x7f0000000000 + 128; ++a) {
      uint8_t b = uint8_t(gms::initial_byte(a) ^ 0x5a);
      sys.memory().write(a, &b, 1, nullptr);
    }
  gms::RunResult r = sys.run();
  return Replay{sys.checker()->mismatches(), sys.checker()->racy_loads(), r.finished};
}

}  // namespace

TEST(AccelSimGolden, LoadThenStoreAndMultiWriterStoresPass) {
  Replay r = replay("golden_racy", false);
  ASSERT_TRUE(r.finished);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_GE(r.racy_loads, 1u);  // Y's loads: two CTAs' warps stored there in this kernel
}

TEST(AccelSimGolden, CorruptedDataIsStillAMismatch) {
  Replay r = replay("golden_corrupt", true);
  ASSERT_TRUE(r.finished);
  EXPECT_GT(r.mismatches, 0u);
}
