// The configuration presets compiled into the testbench (configs/*.yaml at build time), so that
// `gpumemsys` runs with no arguments.
#pragma once

namespace gms {

// The fermi preset (configs/fermi.yaml).
const char* embedded_fermi_yaml();

}  // namespace gms
