// `gpumemsys kernels [--count] [NAME...]`: the kernel ports (docs/kernels.md) with suite, kernels, default
// input, footprint and the papers that use them; --count runs each one's default input without a simulator
// and adds its launches and warp instructions (loads, stores, barriers).
#pragma once

namespace gms {

int run_kernels_command(int argc, char** argv);

}  // namespace gms
