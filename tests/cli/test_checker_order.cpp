// The data check follows program order within a warp: a warp that loads an address and then stores to it
// (read-modify-write, x[i] += 1) while the load is still in flight passes, a load issued after the store sees
// the store, and other warps' bytes stay racy. Native traces on configs/tiny.yaml, gaps 0 so the
// instructions overlap in flight.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

struct Inst {
  const char* kind;  // "ld" or "st"
  unsigned width;
  uint64_t base;
  int stride;
};

// One kernel of `ctas` CTAs of `warps` warps; warp `uid` runs `insts(uid)` with gap 0, all lanes active.
template <class F>
std::string trace(unsigned ctas, unsigned warps, F insts, unsigned kernels = 1) {
  std::string t = "gmstrace 1\nworkload order\n";
  for (unsigned k = 0; k < kernels; ++k) {
    t += "kernel grid=" + std::to_string(ctas) + " block=" + std::to_string(32 * warps) +
         " regs=32 shmem=0 name=k" + std::to_string(k) + "\n";
    for (unsigned c = 0; c < ctas; ++c) {
      t += "cta " + std::to_string(c) + "\n";
      for (unsigned w = 0; w < warps; ++w) {
        const std::vector<Inst> is = insts(k, c * warps + w);
        t += "warp " + std::to_string(w) + " " + std::to_string(is.size()) + "\n";
        unsigned pc = 0x100;
        for (const Inst& i : is) {
          char line[128];
          std::snprintf(line, sizeof line, "%x ffffffff %s %u 0 s 0x%llx %d\n", pc, i.kind, i.width,
                        (unsigned long long)i.base, i.stride);
          t += line;
          pc += 8;
        }
      }
    }
  }
  return t + "end " + std::to_string(kernels) + "\n";
}

struct Checked {
  int status = -1;
  long loads = -1, bytes = -1, mismatches = -1, racy = -1, racy_loads = -1, conflicts = -1;
  long no_fill_fails = -1;  // L1 accesses refused because a store overtook the line's fill (tiny: 2 L1s)
};

long stat(const std::string& json, const std::string& group, const std::string& name) {
  std::smatch m;
  const std::regex re("\"" + group + "\": \\{[^}]*\"" + name + "\": ([0-9]+)");
  return std::regex_search(json, m, re) ? std::stol(m[1].str()) : -1;
}

Checked run_trace(const std::string& name, const std::string& text) {
  const std::string dir = temp_dir("checker_order_" + name);
  write_file(dir + "/t.gmstrace", text);
  const CliResult r =
      run_cli("run -q -c " + gms_src("configs/tiny.yaml") + " -w " + dir + "/t.gmstrace -o " + dir + "/out");
  Checked c;
  c.status = r.status;
  const std::string json = read_file(dir + "/out/stats.json");
  c.loads = stat(json, "golden_memory", "loads_checked");
  c.bytes = stat(json, "golden_memory", "bytes_checked");
  c.mismatches = stat(json, "golden_memory", "mismatches");
  c.racy = stat(json, "golden_memory", "racy_bytes");
  c.racy_loads = stat(json, "golden_memory", "racy_loads");
  c.conflicts = stat(json, "golden_memory", "write_conflicts");
  c.no_fill_fails = stat(json, "l1_0", "rf_no_fill") + stat(json, "l1_1", "rf_no_fill");
  return c;
}

TEST(CheckerOrder, LoadThenStoreToTheSameAddressPasses) {
  const Checked c = run_trace("ld_st", trace(1, 1, [](unsigned, unsigned) {
                                return std::vector<Inst>{{"ld", 4, 0x1000, 4}, {"st", 4, 0x1000, 4}};
                              }));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.loads, 32);
  EXPECT_EQ(c.bytes, 128);  // every byte checked, against the value before the store
  EXPECT_EQ(c.mismatches, 0);
}

// Eight loads in flight (tiny's per-warp limit), more than the SM keeps unannounced (it tells the checker of
// the first seven when the eighth issues, and of the eighth at the store), then stores over the first and
// the last: each load still sees the bytes from before the stores.
TEST(CheckerOrder, StoresAfterManyLoadsInFlightPass) {
  const Checked c = run_trace("many_ld_st", trace(1, 1, [](unsigned, unsigned) {
                                std::vector<Inst> is;
                                for (uint64_t i = 0; i < 8; ++i) is.push_back({"ld", 4, 0x1000 * (i + 1), 4});
                                is.push_back({"st", 4, 0x1000, 4});
                                is.push_back({"st", 4, 0x8000, 4});
                                return is;
                              }));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.loads, 8 * 32);
  EXPECT_EQ(c.bytes, 8 * 128);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.racy, 0);
}

TEST(CheckerOrder, ALoadAfterTheStoreSeesTheStore) {
  const Checked c =
      run_trace("ld_st_ld", trace(1, 1, [](unsigned, unsigned) {
                  return std::vector<Inst>{{"ld", 4, 0x1000, 4}, {"st", 4, 0x1000, 4}, {"ld", 4, 0x1000, 4}};
                }));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.loads, 64);
  EXPECT_EQ(c.bytes, 256);
  EXPECT_EQ(c.mismatches, 0);
  // The third load did not merge into the first one's miss, whose fill holds pre-store data: the L1 made it
  // wait for that fill (a model that merged would fail the check: 32 mismatches).
  EXPECT_GT(c.no_fill_fails, 0);
}

// Stores and loads of different widths whose lanes overlap each other, each warp in its own memory.
std::vector<Inst> mixed(uint64_t b) {
  return {{"st", 4, b, 4},      {"ld", 8, b + 2, 4}, {"st", 2, b + 1, 6}, {"ld", 16, b, 5},
          {"st", 4, b + 3, 4},  {"ld", 4, b + 3, 4}, {"ld", 1, b + 7, 3}, {"st", 8, b + 5, 8},
          {"ld", 16, b + 1, 8}, {"st", 1, b, 1},     {"ld", 4, b, 2}};
}

TEST(CheckerOrder, OverlappingStoresAndLoadsOfSeveralWarpsPass) {
  const Checked c =
      run_trace("mixed_private",
                trace(2, 2, [](unsigned, unsigned uid) { return mixed(0x10000 + 0x1000 * uint64_t(uid)); }));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.racy, 0);
  EXPECT_EQ(c.conflicts, 0);
  // 4 warps x 32 lanes x (8 + 16 + 4 + 1 + 16 + 4) bytes, every one checked.
  EXPECT_EQ(c.bytes, 4 * 32 * 49);
}

// Other warps' bytes are unordered with a warp's loads: counted as racy and checked against the values their
// writers stored (or the kernel-start bytes), which the memory system must return.
TEST(CheckerOrder, BytesOtherWarpsWroteAreRacyAndHoldAWritersValue) {
  // Neighbouring warps 96 bytes apart: their ranges overlap, so some bytes have two writers.
  const Checked c =
      run_trace("mixed_shared",
                trace(2, 2, [](unsigned, unsigned uid) { return mixed(0x10000 + 0x60 * uint64_t(uid)); }));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_GT(c.racy, 0);
  EXPECT_GT(c.conflicts, 0);
  EXPECT_EQ(c.bytes + c.racy, 4 * 32 * 49);  // every loaded byte is either checked or racy
  EXPECT_GT(c.racy_loads, 0);
}

// A benign race as real traces have it (issue 14: graph traversal stores `mask[v] = false` from several
// warps): every warp stores to the same 128 bytes and loads them back, and the next kernel reads them. Every
// value is one some warp stored, so the run passes; the loads are racy, not mismatches.
TEST(CheckerOrder, MultiWriterBytesPassWithTheirWritersValuesAcrossKernels) {
  const Checked c =
      run_trace("multi_writer", trace(
                                    2, 2,
                                    [](unsigned k, unsigned) {
                                      if (k == 1) return std::vector<Inst>{{"ld", 4, 0x8000, 4}};
                                      return std::vector<Inst>{{"st", 4, 0x8000, 4}, {"ld", 4, 0x8000, 4}};
                                    },
                                    2));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.conflicts, 3 * 128);      // warps 2..4 each rewrote the 128 bytes warp 1 wrote
  EXPECT_EQ(c.racy_loads, 2 * 4 * 32);  // every lane load of both kernels
  EXPECT_EQ(c.bytes, 0);
}

TEST(CheckerOrder, ReadModifyWriteLoopAcrossKernels) {
  // x[i] += 1 over 48 lines per warp, then the next kernel reads it all back (committed image).
  const Checked c = run_trace("rmw_loop", trace(
                                              2, 2,
                                              [](unsigned k, unsigned uid) {
                                                std::vector<Inst> v;
                                                const uint64_t b = 0x40000 + 0x2000 * uint64_t(uid);
                                                for (unsigned i = 0; i < 48; ++i) {
                                                  if (k == 0) v.push_back({"ld", 4, b + 128 * i, 4});
                                                  v.push_back({k == 0 ? "st" : "ld", 4, b + 128 * i, 4});
                                                }
                                                return v;
                                              },
                                              2));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.racy, 0);
  EXPECT_EQ(c.loads, 2 * 4 * 48 * 32);
  EXPECT_EQ(c.bytes, 2 * 4 * 48 * 128);
}

}  // namespace
