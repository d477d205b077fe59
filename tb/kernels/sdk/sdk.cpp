// CUDA SDK samples ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_sdk_binomialoptions(PortRegistry& r);
void register_sdk_blackscholes(PortRegistry& r);
void register_sdk_fastwalsh(PortRegistry& r);
void register_sdk_histogram(PortRegistry& r);
void register_sdk_matrixmul(PortRegistry& r);
void register_sdk_mergesort(PortRegistry& r);

void register_sdk_ports(PortRegistry& r) {
  register_sdk_binomialoptions(r);
  register_sdk_blackscholes(r);
  register_sdk_fastwalsh(r);
  register_sdk_histogram(r);
  register_sdk_matrixmul(r);
  register_sdk_mergesort(r);
}

}  // namespace gms::kernels
