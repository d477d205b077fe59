// Output of the reuse-distance model: JSON (parameters, totals and per-kernel miss classes, histogram), the
// histogram as CSV (for scripts/plot_rd.py) and a short text summary.
#pragma once
#include <ostream>

#include "models/analytic/rd_model.h"

namespace gms {

void write_rd_json(std::ostream& os, const RdResult& r, const RdParams& p);
void write_rd_histogram_csv(std::ostream& os, const RdCounts& c);  // distance,count (last row: inf)
void print_rd_summary(std::ostream& os, const RdResult& r);

}  // namespace gms
