// Rodinia 3.1 (CUDA) ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_rodinia_backprop(PortRegistry& r);
void register_rodinia_bfs(PortRegistry& r);
void register_rodinia_btree(PortRegistry& r);
void register_rodinia_cfd(PortRegistry& r);
void register_rodinia_dwt2d(PortRegistry& r);
void register_rodinia_gaussian(PortRegistry& r);
void register_rodinia_heartwall(PortRegistry& r);
void register_rodinia_hotspot(PortRegistry& r);
void register_rodinia_kmeans(PortRegistry& r);
void register_rodinia_leukocyte(PortRegistry& r);
void register_rodinia_lud(PortRegistry& r);
void register_rodinia_mummergpu(PortRegistry& r);
void register_rodinia_myocyte(PortRegistry& r);
void register_rodinia_nw(PortRegistry& r);
void register_rodinia_particlefilter(PortRegistry& r);
void register_rodinia_pathfinder(PortRegistry& r);
void register_rodinia_srad_v1(PortRegistry& r);
void register_rodinia_srad_v2(PortRegistry& r);
void register_rodinia_streamcluster(PortRegistry& r);

void register_rodinia_ports(PortRegistry& r) {
  register_rodinia_backprop(r);
  register_rodinia_bfs(r);
  register_rodinia_btree(r);
  register_rodinia_cfd(r);
  register_rodinia_dwt2d(r);
  register_rodinia_gaussian(r);
  register_rodinia_heartwall(r);
  register_rodinia_hotspot(r);
  register_rodinia_kmeans(r);
  register_rodinia_leukocyte(r);
  register_rodinia_lud(r);
  register_rodinia_mummergpu(r);
  register_rodinia_myocyte(r);
  register_rodinia_nw(r);
  register_rodinia_particlefilter(r);
  register_rodinia_pathfinder(r);
  register_rodinia_srad_v1(r);
  register_rodinia_srad_v2(r);
  register_rodinia_streamcluster(r);
}

}  // namespace gms::kernels
