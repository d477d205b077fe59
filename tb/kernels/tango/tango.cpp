// Tango DNN benchmark suite ports (GPU CUDA versions): each benchmark's register function, called in name
// order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_tango_alexnet(PortRegistry& r);
void register_tango_resnet(PortRegistry& r);
void register_tango_squeezenet(PortRegistry& r);

void register_tango_ports(PortRegistry& r) {
  register_tango_alexnet(r);
  register_tango_resnet(r);
  register_tango_squeezenet(r);
}

}  // namespace gms::kernels
