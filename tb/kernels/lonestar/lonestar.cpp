// LonestarGPU ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_lonestar_bh(PortRegistry& r);
void register_lonestar_sp(PortRegistry& r);
void register_lonestar_sssp(PortRegistry& r);

void register_lonestar_ports(PortRegistry& r) {
  register_lonestar_bh(r);
  register_lonestar_sp(r);
  register_lonestar_sssp(r);
}

}  // namespace gms::kernels
