// SHOC (Scalable HeterOgeneous Computing benchmark suite) ports: each benchmark's register function, called
// in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_shoc_fft(PortRegistry& r);

void register_shoc_ports(PortRegistry& r) {
  register_shoc_fft(r);
}

}  // namespace gms::kernels
