// PolyBench-ACC (CUDA) ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_polybench_gemm(PortRegistry& r);

void register_polybench_ports(PortRegistry& r) {
  register_polybench_gemm(r);
}

}  // namespace gms::kernels
