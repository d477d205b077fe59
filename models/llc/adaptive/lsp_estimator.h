// LLC slice parallelism (paper 004 section 4.4): LSP = sum_i LLC_i / max_i LLC_i over the N slices, where
// LLC_i counts the requests slice i received in the profiling window. LSP = N when requests spread evenly,
// 1 when they all go to one slice. Measured for the shared organisation (each request counted at the slice
// that served it) and predicted for the private one (counted at the slice it would go to in private mode:
// slice = channel x slices_per_channel + cluster(SM), SliceSelector's private rule), both from the same
// request stream, so one window under shared mode yields both.
//
// Counter width. The paper keeps 8 16-bit counters (at the first SM-router only, to save hardware). This
// model keeps N counters per organisation (it counts every request; the simulator pays nothing for the
// counters and needs no assumption that clusters behave alike) and models their width: when a counter
// would pass 2^bits - 1, every counter of that organisation is halved first. Halving keeps the ratios that
// LSP is made of (sum / max is scale-free), so a long window still measures the distribution; a saturating
// counter would instead freeze the busiest slice at the ceiling while the others catch up, driving LSP
// towards N exactly when one slice is hot, the case the model must see. Halving loses at most one request
// per counter per halving (the floor), a relative error of about 2^-(bits-1) per halving.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace gms {

class SliceSelector;

class LspEstimator {
 public:
  // The slice a request from `sm` would use in private mode, given the slice it used in shared mode.
  using PrivateSliceFn = std::function<unsigned(unsigned shared_slice, unsigned sm)>;

  // `slices`: N; `counter_bits` in [1, 32]; `private_slice` must return a slice below N.
  LspEstimator(unsigned slices, PrivateSliceFn private_slice, unsigned counter_bits = 16);

  // SliceSelector's private rule for `sel` (kept alive by the caller): the channel's first slice
  // (shared_slice rounded down to slices_per_channel, since a channel's slices are consecutive) plus
  // cluster(sm). Valid while requests use the shared organisation (their slice is the address map's).
  static PrivateSliceFn private_slice_of(const SliceSelector& sel);

  // One request served by `shared_slice` (shared mode) for SM `sm`.
  void record(unsigned shared_slice, unsigned sm) {
    record_pair(shared_slice, private_slice_(shared_slice, sm));
  }
  // The same with the private slice already known.
  void record_pair(unsigned shared_slice, unsigned private_slice);

  // sum / max of the counters; 0 when nothing was counted.
  double lsp_shared() const { return lsp(shared_); }
  double lsp_private() const { return lsp(private_); }
  static double lsp(const std::vector<uint32_t>& counts);

  const std::vector<uint32_t>& shared_counts() const { return shared_; }
  const std::vector<uint32_t>& private_counts() const { return private_; }
  uint64_t requests() const { return requests_; }
  uint64_t halvings() const { return halvings_; }  // of either organisation's counters
  unsigned slices() const { return unsigned(shared_.size()); }
  uint32_t counter_max() const { return max_; }

  // A new profiling window.
  void reset();

 private:
  void bump(std::vector<uint32_t>& c, unsigned slice);

  PrivateSliceFn private_slice_;
  uint32_t max_;
  std::vector<uint32_t> shared_, private_;
  uint64_t requests_ = 0, halvings_ = 0;
};

}  // namespace gms
