// Mars MapReduce applications (the 2009 GPU release): each benchmark's register function, called in name
// order. The shared runtime (map, group, reduce phases) is mars_runtime.h.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_mars_iix(PortRegistry& r);
void register_mars_pvc(PortRegistry& r);
void register_mars_pvr(PortRegistry& r);
void register_mars_ssc(PortRegistry& r);

void register_mars_ports(PortRegistry& r) {
  register_mars_iix(r);
  register_mars_pvc(r);
  register_mars_pvr(r);
  register_mars_ssc(r);
}

}  // namespace gms::kernels
