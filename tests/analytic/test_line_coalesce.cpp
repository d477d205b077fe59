// The model's line-only coalescing (models/analytic/line_coalesce.h) gives exactly the line addresses, in
// order, of the SM's coalescer (models/coalescing/coalescer.h), on random warps: every width, random lane
// masks, coalesced, strided, scattered and misaligned lanes (crossing 64 B words and 128 B lines), lanes in
// the last line of the address space, and lanes wrapping past its top (both reject the warp alike).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "models/analytic/line_coalesce.h"
#include "models/coalescing/coalescer.h"
#include "models/common/rng.h"

using namespace gms;

namespace {

WarpInst random_warp(Rng& rng) {
  static const uint8_t kWidths[] = {1, 2, 4, 8, 16};
  WarpInst in;
  in.width = kWidths[rng.below(5)];
  const uint64_t kind = rng.below(6);
  in.active_mask = kind == 0 ? ~0u : rng.chance(0.1) ? 0u : uint32_t(rng.next());
  const uint64_t base = rng.below(1 << 20) * 128 + (rng.chance(0.5) ? 0 : rng.below(128));
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    switch (kind) {
      case 0:
      case 1:  // coalesced, aligned to the width
        in.addr[l] = base / 128 * 128 + (l * in.width) % 128;
        break;
      case 2:  // strided, any alignment
        in.addr[l] = base + l * (1 + rng.below(3)) * in.width;
        break;
      case 3:  // scattered over a few lines, misaligned
        in.addr[l] = base + rng.below(8) * 128 + rng.below(128);
        break;
      case 4:  // scattered widely
        in.addr[l] = rng.next() & ~uint64_t(in.width - 1);
        break;
      default:  // wrapping past the top (the coalescer's aligned lanes there too)
        in.addr[l] = rng.chance(0.5) ? ~uint64_t(0) - rng.below(in.width)
                                     : ~uint64_t(0) - 127 + rng.below(128 / in.width) * in.width;
        break;
    }
  }
  return in;
}

// The coalescer's lines, or the message it rejects the warp with.
std::vector<uint64_t> reference(const WarpInst& in, std::string& error) {
  std::vector<LineRequest> reqs;
  error.clear();
  try {
    Coalescer::coalesce(in, reqs);
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  std::vector<uint64_t> lines;
  for (const auto& r : reqs) lines.push_back(r.line_addr);
  return lines;
}

TEST(LineCoalesce, SameLinesInSameOrderAsTheCoalescer) {
  Rng rng(42);
  std::vector<uint64_t> got;
  std::string want_error, got_error;
  int rejected = 0;
  for (int i = 0; i < 200000; ++i) {
    const WarpInst in = random_warp(rng);
    const std::vector<uint64_t> want = reference(in, want_error);
    got_error.clear();
    try {
      coalesce_lines(in, got);
    } catch (const std::invalid_argument& e) {
      got_error = e.what();
    }
    ASSERT_EQ(got_error, want_error) << "warp " << i;
    rejected += !want_error.empty();
    if (want_error.empty()) {
      ASSERT_EQ(got, want) << "warp " << i << " width " << unsigned(in.width) << " mask " << std::hex
                           << in.active_mask;
    }
  }
  EXPECT_GT(rejected, 1000);  // the wrapping case is exercised
}

TEST(LineCoalesce, RejectsBadWidthsLikeTheCoalescer) {
  WarpInst in;
  in.active_mask = 1;
  in.width = 3;
  std::vector<uint64_t> got;
  EXPECT_THROW(coalesce_lines(in, got), std::invalid_argument);
  std::vector<LineRequest> reqs;
  EXPECT_THROW(Coalescer::coalesce(in, reqs), std::invalid_argument);
}

}  // namespace
