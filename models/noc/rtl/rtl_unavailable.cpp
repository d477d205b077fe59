// The build without Verilator (CMake printed "RTL co-simulation skipped"): noc.arbiter: rtl is refused.
#include "models/common/config.h"
#include "models/noc/rtl/rtl_cosim.h"

namespace gms {

bool rtl_cosim_available() {
  return false;
}

std::unique_ptr<Arbiter> make_rtl_arbiter(const ArbiterSite&) {
  throw ConfigError(
      "noc.arbiter: rtl: this build has no RTL co-simulation (Verilator was not found when CMake configured "
      "it; install verilator and reconfigure, docs/cosim.md)");
}

}  // namespace gms
