// Kernels recorded on real hardware (../shared/traces/): their ports reproduce the recorded streams exactly.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_recorded_vecadd(PortRegistry& r);
void register_recorded_stencil5(PortRegistry& r);
void register_recorded_colcopy(PortRegistry& r);

void register_recorded_ports(PortRegistry& r) {
  register_recorded_vecadd(r);
  register_recorded_stencil5(r);
  register_recorded_colcopy(r);
}

}  // namespace gms::kernels
