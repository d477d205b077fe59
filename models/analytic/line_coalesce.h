// The model's own coalescing when its lines are the coalescer's 128 B lines: only the distinct line
// addresses a warp instruction touches, in order of first touch by lane (a lane crossing a line boundary
// touches its lines in ascending order), without byte or chunk masks. Gives exactly the line_addr sequence
// of gms::Coalescer (models/coalescing/coalescer.h); tests/analytic/test_line_coalesce.cpp checks this on
// random warps. Throws std::invalid_argument, as the coalescer does, for a width other than 1, 2, 4, 8 or 16.
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/workload.h"

namespace gms {

void coalesce_lines(const WarpInst& inst, std::vector<uint64_t>& out);

}  // namespace gms
