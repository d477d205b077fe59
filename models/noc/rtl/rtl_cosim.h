// RTL co-simulation of the NoC (docs/cosim.md): whether this build has it, and the factory of the Verilated
// round-robin arbiter (noc.arbiter: rtl). Defined by rtl_arbiter.cpp when CMake found Verilator, else by
// rtl_unavailable.cpp, so the rest of the NoC builds the same either way.
#pragma once
#include <memory>

#include "models/noc/arbiter.h"

namespace gms {

bool rtl_cosim_available();
// The transactor around the Verilated rr_arbiter.sv; elaboration only (it is a SystemC module).
std::unique_ptr<Arbiter> make_rtl_arbiter(const ArbiterSite& site);

}  // namespace gms
