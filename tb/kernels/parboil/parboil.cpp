// Parboil 2.5 (CUDA) ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_parboil_bfs(PortRegistry& r);
void register_parboil_cutcp(PortRegistry& r);
void register_parboil_lbm(PortRegistry& r);
void register_parboil_histo(PortRegistry& r);
void register_parboil_mri_gridding(PortRegistry& r);
void register_parboil_mri_q(PortRegistry& r);
void register_parboil_sad(PortRegistry& r);
void register_parboil_sgemm(PortRegistry& r);
void register_parboil_spmv(PortRegistry& r);
void register_parboil_stencil(PortRegistry& r);
void register_parboil_tpacf(PortRegistry& r);

void register_parboil_ports(PortRegistry& r) {
  register_parboil_bfs(r);
  register_parboil_cutcp(r);
  register_parboil_lbm(r);
  register_parboil_histo(r);
  register_parboil_mri_gridding(r);
  register_parboil_mri_q(r);
  register_parboil_sad(r);
  register_parboil_sgemm(r);
  register_parboil_spmv(r);
  register_parboil_stencil(r);
  register_parboil_tpacf(r);
}

}  // namespace gms::kernels
