// A native trace (text or binary, docs/trace-format.md) as a gms::Workload. Kernels and CTAs are read from
// the file when the SM pulls them; each CTA's warps are held packed (a few bytes per instruction) until the
// CTA is done, so memory depends on the CTAs in flight, not on the trace's length.
#pragma once
#include <memory>
#include <string>

#include "models/common/workload.h"
#include "tb/traces/native_format.h"

namespace gms {

// Decodes one warp's packed instructions in program order.
class PackedWarpStream : public WarpStream {
 public:
  explicit PackedWarpStream(PackedWarp warp) : warp_(std::move(warp)) {}
  bool next(WarpInst& out) override;
  // The same, with the timestamp when the trace has one.
  bool next(TraceInst& out);

 private:
  PackedWarp warp_;
  size_t pos_ = 0;
  uint32_t done_ = 0;
  CodecState st_;
  TraceInst t_;
};

class NativeTraceWorkload : public Workload {
 public:
  // Opens the trace and reads its header; errors are ConfigErrors naming the file.
  explicit NativeTraceWorkload(const std::string& path);
  // From an input already open (what sniffing peeked is read again: a pipe is read once).
  explicit NativeTraceWorkload(std::unique_ptr<InputFile> in);
  std::string name() const override;
  // The next kernel; CTAs the previous kernel's source did not hand out are read and skipped.
  std::unique_ptr<KernelSource> next_kernel() override;

  struct State;  // shared with the kernel sources

 private:
  std::shared_ptr<State> st_;
};

}  // namespace gms
