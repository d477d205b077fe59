// The header of an Accel-Sim kernel trace: "-key = value" lines ("-kernel name", "-grid dim = (x,y,z)", ...)
// before the first thread block. Unknown keys and malformed values are ConfigErrors "FILE:LINE: ...".
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "tb/traces/accelsim_inst.h"

namespace gms {

struct AccelKernelHeader {
  std::string name;
  uint64_t kernel_id = 0;
  std::array<uint32_t, 3> grid{0, 0, 0};
  std::array<uint32_t, 3> block{0, 0, 0};
  uint32_t shmem = 0;
  uint32_t nregs = 0;
  uint32_t binary_version = 0;
  uint64_t cuda_stream = 0;
  uint64_t shmem_base = 0;
  uint64_t local_base = 0;
  std::string nvbit_version;
  AccelInstFormat format;  // tracer version and lineinfo

  uint64_t num_ctas() const { return uint64_t(grid[0]) * grid[1] * grid[2]; }
  uint64_t threads_per_cta() const { return uint64_t(block[0]) * block[1] * block[2]; }
};

// Reads the header lines up to the first "#BEGIN_TB" (consumed; the reader stands on it). Comment lines
// ("#traces format = ...") and empty lines are skipped. Requires kernel name, grid dim, block dim and the
// tracer version; a file that ends before any thread block is an error.
AccelKernelHeader read_accelsim_header(LineReader& r);

}  // namespace gms
