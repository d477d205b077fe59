// PolyBench-ACC (CUDA) ports: each benchmark's register function, called in name order.
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

void register_polybench_2dconv(PortRegistry& r);
void register_polybench_2mm(PortRegistry& r);
void register_polybench_3dconv(PortRegistry& r);
void register_polybench_3mm(PortRegistry& r);
void register_polybench_atax(PortRegistry& r);
void register_polybench_bicg(PortRegistry& r);
void register_polybench_correlation(PortRegistry& r);
void register_polybench_covariance(PortRegistry& r);
void register_polybench_fdtd2d(PortRegistry& r);
void register_polybench_gemm(PortRegistry& r);
void register_polybench_gesummv(PortRegistry& r);
void register_polybench_gramschmidt(PortRegistry& r);
void register_polybench_mvt(PortRegistry& r);
void register_polybench_syr2k(PortRegistry& r);
void register_polybench_syrk(PortRegistry& r);

void register_polybench_ports(PortRegistry& r) {
  register_polybench_2dconv(r);
  register_polybench_2mm(r);
  register_polybench_3dconv(r);
  register_polybench_3mm(r);
  register_polybench_atax(r);
  register_polybench_bicg(r);
  register_polybench_correlation(r);
  register_polybench_covariance(r);
  register_polybench_fdtd2d(r);
  register_polybench_gemm(r);
  register_polybench_gesummv(r);
  register_polybench_gramschmidt(r);
  register_polybench_mvt(r);
  register_polybench_syr2k(r);
  register_polybench_syrk(r);
}

}  // namespace gms::kernels
