// DRAM standards (YAML `dram.standard`): each fills every timing and geometry default of DramParams, and
// the keys written in the YAML then override it (order-independent). gddr5 = DramParams' own defaults,
// the papers' Fermi channel; hbm3 = one H100 SXM5-class channel of four HBM3 pseudo-channels. The channel
// count, queue size and scheduler are the system's, not the standard's. Values and their sources:
// dram_standards.cpp and docs/blocks/dram.md ("Standards: gddr5, hbm3").
#pragma once
#include <string>
#include <vector>

#include "models/dram/dram_params.h"

namespace gms {

// The names `dram.standard` accepts, in DramStandard order.
const std::vector<std::string>& dram_standard_names();
// The standard of a name from dram_standard_names().
DramStandard dram_standard_of(const std::string& name);
// DramParams with the standard's defaults (mapping fields empty: derived from the geometry).
DramParams dram_standard(DramStandard s);

}  // namespace gms
