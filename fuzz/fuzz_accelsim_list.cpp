// Fuzz harness: an Accel-Sim kernelslist.g, loaded as `-w FOLDER` loads it, next to two small valid kernel
// traces (kernel-1.traceg, kernel-2.traceg), then drained as the SM would pull it. Kernel names the list
// makes up resolve in the harness's private temporary folder.
#include <cstddef>
#include <cstdint>

#include "fuzz/drain.h"
#include "fuzz/temp_input.h"
#include "models/common/config.h"
#include "tb/traces/accelsim_workload.h"

namespace {

const char* const kKernel1 =
    "-kernel name = k1\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
    "-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n-shmem base_addr = 0x00007f6400000000\n"
    "-local mem base_addr = 0x00007f63a5000000\n-nvbit version = 1.7.1\n-accelsim tracer version = 5\n"
    "-enable lineinfo = 0\n\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
    "[adrrescompress?] [mem_addresses] immediate\n\n"
    "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
    "0030 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0 \n0060 ffffffff 0 EXIT 0 0 0 \n\n"
    "warp = 1\ninsts = 2\n0080 ffffffff 0 STG.E 2 R6 R4 4 1 0x7f0000200080 4 0 \n0090 ffffffff 0 EXIT 0 0 0 "
    "\n"
    "\n#END_TB\n\n#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 1\n"
    "0060 ffffffff 0 EXIT 0 0 0 \n\nwarp = 1\ninsts = 1\n0060 ffffffff 0 EXIT 0 0 0 \n\n#END_TB\n";

const char* const kKernel2 =
    "-kernel name = k2\n-kernel id = 2\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
    "-nregs = 8\n-binary version = 61\n-cuda stream id = 0\n-shmem base_addr = 0x00007f6400000000\n"
    "-local mem base_addr = 0x00007f63a5000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
    "-enable lineinfo = 1\n\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
    "[adrrescompress?] [mem_addresses]\n\n"
    "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
    "13 0030 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f0000200000 16\n15 0050 ffffffff 0 EXIT 0 0\n\n#END_TB\n";

const gms::fuzz::TempDir& folder_with_kernels() {
  const gms::fuzz::TempDir& dir = gms::fuzz::process_temp_dir();
  static const bool written =
      (dir.write("kernel-1.traceg", kKernel1), dir.write("kernel-2.traceg", kKernel2), true);
  (void)written;
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const gms::fuzz::TempDir& dir = folder_with_kernels();
  dir.write("kernelslist.g", data, size);
  try {
    const auto workload = gms::load_accelsim_workload(dir.path());
    gms::fuzz::drain_workload(*workload);
  } catch (const gms::ConfigError&) {
  }
  return 0;
}
