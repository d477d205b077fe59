// Parameters of the adaptive LLC controller's decision logic (YAML section `llc.adaptive:`; paper 004
// sections 4.3-4.4, docs/blocks/llc.md "Adaptive controller (decision)"). Cycles are those of the clock
// the controller runs on (the paper counts SM cycles). Bandwidths only enter the model as a ratio, so any
// unit works as long as both use it; GB/s here.
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

struct LlcParams;

struct AdaptiveParams {
  uint64_t epoch_cycles = 1000000;  // Rule 3: back to shared, and a new profiling window, every epoch
  uint64_t profile_cycles = 50000;  // length of a profiling window (under shared mode)
  // Cycles between an epoch's start (a kernel launch, an epoch boundary, the end of a P -> S switch, which
  // invalidated the LLC) and its profiling window, so the window does not measure a cold LLC; 0 = the
  // paper (the window opens with the epoch).
  uint64_t warmup_cycles = 0;
  double rule1_miss_rate_delta = 0.02;  // Rule 1: predicted private miss rate <= shared + delta
  uint32_t sampled_sets = 8;            // ATD sets (dynamic set sampling of one slice)
  uint32_t sampled_slice = 0;           // the slice the ATD shadows
  uint32_t lsp_counter_bits = 16;       // width of the LSP request counters (halved together when full)
  // Raw bandwidth of one LLC slice and of the whole main memory (the model's LLC_BW and MEM_BW);
  // 0 = derived by the system builder (resolve_bandwidth): slice clock x 32 B, DRAM channels x peak.
  double llc_slice_gbps = 0.0;
  double mem_gbps = 0.0;

  // `llc`, when given, lets the keys that depend on the slice geometry be checked with file and line
  // (sampled_sets <= sets per slice, sampled_slice < slices). Reading `llc.adaptive` needs the caller to
  // have taken `llc.child("adaptive")` before LlcParams::from(llc) finishes the `llc` map.
  static AdaptiveParams from(const ConfigNode& n, const LlcParams* llc = nullptr);
  // Fills llc_slice_gbps / mem_gbps that are still 0 with the given values.
  void resolve_bandwidth(double llc_slice_gbps_default, double mem_gbps_default);
  // Throws ConfigError (without a file position) when fields set in code are inconsistent, or when a
  // bandwidth is still unresolved.
  void check() const;
};

}  // namespace gms
