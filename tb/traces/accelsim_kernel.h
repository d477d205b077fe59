// One Accel-Sim kernel trace (kernel-N.traceg, plain, .xz or .gz) as a KernelSource. The file is streamed
// thread block by thread block: next_cta() reads one "#BEGIN_TB ... #END_TB" section, keeps that CTA's
// warps' memory instructions (compactly, active lanes only) and nothing else. CTA ids follow file order.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/accelsim_header.h"
#include "tb/traces/accelsim_stats.h"
#include "tb/traces/load_dependences.h"

namespace gms {

class LineReader;

// The memory instructions of one thread block, all warps.
struct AccelCtaTrace {
  struct Inst {
    uint64_t pc = 0;
    uint32_t mask = 0;
    uint32_t gap = 0;
    uint32_t addr_begin = 0;  // index into addrs of the first active lane's address
    uint8_t width = 0;
    MemKind kind = MemKind::Load;
    // Every lane active at one stride (lane i at a + i * s, s possibly 0): addrs holds a and s only.
    // Resident thread blocks hold their decoded traces in host memory; with a thousand of them (132 SMs)
    // 32 addresses per instruction were most of the cold bytes written per block.
    bool strided = false;
    uint32_t wait_gap = 0;  // WarpInst's scoreboard fields (load_dependences.h)
    RegSet waits_on, writes;
  };
  std::vector<Inst> insts;
  std::vector<uint64_t> addrs;  // active lanes' addresses, in lane order (a strided instruction: a, s)
  std::vector<std::pair<uint32_t, uint32_t>> warp_range;  // per warp [begin, end) into insts
};

class AccelWarpStream : public WarpStream {
 public:
  AccelWarpStream(std::shared_ptr<const AccelCtaTrace> cta, uint32_t warp);
  bool next(WarpInst& out) override;

 private:
  std::shared_ptr<const AccelCtaTrace> cta_;
  uint32_t pos_, end_;
};

class AccelSimKernel : public KernelSource {
 public:
  // Opens `path` and reads its header; `display_name` names the file in the statistics.
  AccelSimKernel(const std::string& path, const std::string& display_name,
                 std::shared_ptr<AccelImportStats> stats);
  ~AccelSimKernel() override;
  const KernelInfo& info() const override { return info_; }
  std::unique_ptr<CtaWork> next_cta() override;
  const AccelKernelHeader& header() const { return header_; }

 private:
  void read_tb(AccelCtaTrace& cta);
  void read_warp(AccelCtaTrace& cta, uint32_t warp, uint64_t insts, uint64_t first_line);
  // Bad input for a replayed load or store whose lane would wrap past 2^64 (models/coalescing/coalescer.h).
  void check_fits(const AccelInst& in) const;
  void check_no_more_tbs();

  std::unique_ptr<LineReader> in_;  // released after the last thread block
  AccelKernelHeader header_;
  KernelInfo info_;
  std::shared_ptr<AccelImportStats> stats_;
  AccelKernelCounts* counts_;
  uint32_t next_id_ = 0;
  bool at_begin_ = true;  // the reader stands on a "#BEGIN_TB"
  // Scratch reused for every line.
  std::string line_;
  std::vector<std::string_view> tokens_;
  AccelInst inst_;
  LoadDependences deps_;
  AccelCtaTrace scratch_;  // the thread block being read
};

}  // namespace gms
