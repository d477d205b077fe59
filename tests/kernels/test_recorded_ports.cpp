// The port machinery reproduces real hardware streams: the ports of the three kernels recorded on an H100
// (vector add, 5-point stencil, column copy; tests/data/accelsim/) emit exactly the recorded per-warp
// streams, CTA by CTA and warp by warp: kind, PC, width, active mask, every active lane's address, in
// program order. The arrays are placed at the recording's bases, so addresses compare as they are. Each port
// also computes the kernel's result through the same indices, checked against a sequential reference.
#include <gtest/gtest.h>

#include <sstream>

#include "models/common/config.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"
#include "tb/traces/accelsim_workload.h"

namespace gms::kernels {
namespace {

std::string describe(const WarpInst& w) {
  std::ostringstream os;
  os << to_string(w.kind) << " pc 0x" << std::hex << w.pc << " mask " << w.active_mask << std::dec
     << " width " << unsigned(w.width) << " lanes";
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (w.active_mask >> l & 1) os << " " << std::hex << w.addr[l];
  return os.str();
}

// Pulls both workloads' streams in the same order and compares every instruction; returns the count.
uint64_t expect_same_streams(Workload& recorded, Workload& port) {
  uint64_t insts = 0;
  for (;;) {
    auto rk = recorded.next_kernel();
    auto pk = port.next_kernel();
    EXPECT_EQ(bool(rk), bool(pk));
    if (!rk || !pk) break;
    EXPECT_EQ(rk->info().num_ctas, pk->info().num_ctas);
    EXPECT_EQ(rk->info().threads_per_cta, pk->info().threads_per_cta);
    EXPECT_EQ(rk->info().regs_per_thread, pk->info().regs_per_thread);
    for (;;) {
      auto rc = rk->next_cta();
      auto pc = pk->next_cta();
      EXPECT_EQ(bool(rc), bool(pc));
      if (!rc || !pc) break;
      EXPECT_EQ(rc->cta_id, pc->cta_id);
      EXPECT_EQ(rc->warps.size(), pc->warps.size());
      for (size_t w = 0; w < std::min(rc->warps.size(), pc->warps.size()); ++w) {
        WarpInst r, p;
        for (uint64_t n = 0;; ++n) {
          const bool hr = rc->warps[w]->next(r), hp = pc->warps[w]->next(p);
          EXPECT_EQ(hr, hp) << "CTA " << rc->cta_id << " warp " << w << " instruction " << n;
          if (!hr || !hp) break;
          bool same =
              r.kind == p.kind && r.pc == p.pc && r.width == p.width && r.active_mask == p.active_mask;
          for (unsigned l = 0; same && l < kWarpSize; ++l)
            if (r.active_mask >> l & 1) same = r.addr[l] == p.addr[l];
          if (!same) {
            ADD_FAILURE() << "CTA " << rc->cta_id << " warp " << w << " instruction " << n << "\n  recorded "
                          << describe(r) << "\n  port     " << describe(p);
            return insts;
          }
          ++insts;
        }
      }
    }
  }
  return insts;
}

std::unique_ptr<PortWorkload> make_port(const std::string& name, const std::vector<uint64_t>& bases) {
  const PortInfo* info = PortRegistry::builtin().find(name);
  EXPECT_NE(info, nullptr) << name;
  const ConfigNode size = ConfigNode::load_string("{}", "size");
  return std::make_unique<PortWorkload>(name, info->make(size), DeviceMemory::kDefaultBase, bases);
}

TEST(RecordedPorts, VectorAddEmitsTheRecordedStream) {
  auto recorded = load_accelsim_workload(GMS_SOURCE_DIR "/tests/data/accelsim/h100/kernel-2.traceg.xz");
  auto port = make_port("recorded/vecadd", {0x7f6378e00000, 0x7f6399600000, 0x7f6376000000});
  EXPECT_EQ(expect_same_streams(*recorded, *port), 245760u);  // the README's warp memory instructions
  EXPECT_EQ(port->check(), "");
}

TEST(RecordedPorts, StencilEmitsTheRecordedStream) {
  auto recorded = load_accelsim_workload(GMS_SOURCE_DIR "/tests/data/accelsim/h100/kernel-6.traceg.xz");
  auto port = make_port("recorded/stencil5", {0x7f6377a00000, 0x7f6379800000});
  EXPECT_EQ(expect_same_streams(*recorded, *port), 245760u);
  EXPECT_EQ(port->check(), "");
}

TEST(RecordedPorts, ColumnCopyEmitsTheRecordedStream) {
  auto recorded =
      load_accelsim_workload(GMS_SOURCE_DIR "/tests/data/accelsim/h100-colcopy/kernel-9.traceg.xz");
  auto port = make_port("recorded/colcopy", {0x7f6379e84000, 0x7f6379f04000});
  EXPECT_EQ(expect_same_streams(*recorded, *port), 8192u);
  EXPECT_EQ(port->check(), "");
}

// Without a simulator (no instruction kept) the host code and kernels run to the same result.
TEST(RecordedPorts, RunsFunctionallyToTheSameResult) {
  auto port = make_port("recorded/vecadd", {});
  port->run_functionally();
  EXPECT_EQ(port->check(), "");
  EXPECT_EQ(port->kernels_launched(), 1u);
}

}  // namespace
}  // namespace gms::kernels
