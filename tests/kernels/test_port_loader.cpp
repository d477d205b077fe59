// Kernel ports as workloads: a workload file naming a port (with sizes and a base), and the port's name on
// the command line with sizes after a colon; bad names and sizes are ConfigErrors naming file, line, key.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tb/kernels/port_loader.h"
#include "tb/workloads/workload_loader.h"

namespace gms::kernels {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no error>";
}

uint64_t first_address(Workload& w) {
  auto k = w.next_kernel();
  auto c = k->next_cta();
  WarpInst i;
  EXPECT_TRUE(c->warps[0]->next(i));
  return i.addr[0];
}

TEST(PortLoader, AWorkloadFileNamesThePortItsSizesAndBase) {
  auto w = load_workload(ConfigNode::load_string(
      "workload:\n  port: recorded/colcopy\n  name: cc\n  base: 0x10000000\n  size: {rows: 64, cols: 16}\n",
      "w.yaml"));
  EXPECT_EQ(w->name(), "cc");
  std::vector<AddressRange> f;
  ASSERT_TRUE(w->footprint(f));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].begin, 0x10000000u);
  EXPECT_EQ(f[0].end - f[0].begin, 64u * 16 * 4);
  EXPECT_EQ(first_address(*w), 0x10000000u);
}

TEST(PortLoader, BadNamesAndSizesNameTheKey) {
  EXPECT_EQ(error_of([] {
              load_workload(ConfigNode::load_string("workload:\n  port: rodinia/zzz\n", "w.yaml"));
            }).substr(0, 52),
            "w.yaml:2: workload.port: 'rodinia/zzz' is not one of");
  EXPECT_EQ(error_of([] {
              load_workload(ConfigNode::load_string(
                  "workload:\n  port: recorded/colcopy\n  size:\n    rows: 0\n", "w.yaml"));
            }),
            "w.yaml:4: workload.size.rows: value 0 out of range [1, 16777216]");
  EXPECT_EQ(error_of([] {
              load_workload(ConfigNode::load_string(
                  "workload:\n  port: recorded/colcopy\n  size:\n    rowz: 4\n", "w.yaml"));
            }),
            "w.yaml:4: workload.size.rowz: unknown key");
  EXPECT_EQ(error_of([] {
              load_workload(
                  ConfigNode::load_string("workload:\n  port: recorded/colcopy\n  base: 100\n", "w.yaml"));
            }),
            "w.yaml:3: workload.base: value must be a multiple of 256 (cudaMalloc's alignment)");
}

TEST(PortLoader, ANameOnTheCommandLineTakesSizesAfterAColon) {
  EXPECT_TRUE(is_port_reference("recorded/vecadd"));
  EXPECT_TRUE(is_port_reference("recorded/vecadd:n=64"));
  EXPECT_FALSE(is_port_reference("recorded/nothing"));
  auto w = load_port_reference("recorded/vecadd:n=64,block=32");
  auto k = w->next_kernel();
  EXPECT_EQ(k->info().num_ctas, 2u);
  EXPECT_EQ(k->info().threads_per_cta, 32u);
  EXPECT_EQ(error_of([] { load_port_reference("recorded/vecadd:n"); }),
            "-w recorded/vecadd:n: 'n' is not key=value");
  EXPECT_EQ(error_of([] { load_port_reference("recorded/vecadd:n=-1"); }).substr(0, 36),
            "-w recorded/vecadd:n=-1:1: n: value ");
}

}  // namespace
}  // namespace gms::kernels
