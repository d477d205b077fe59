// GPGPU-Sim ISPASS-2009 benchmark ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_ispass_mum(PortRegistry& r);
void register_ispass_nn(PortRegistry& r);
void register_ispass_wp(PortRegistry& r);

void register_ispass_ports(PortRegistry& r) {
  register_ispass_mum(r);
  register_ispass_nn(r);
  register_ispass_wp(r);
}

}  // namespace gms::kernels
