// vp_example CONFIG.yaml [KEY=VALUE...]: the GPU memory system of CONFIG (with --set style overrides) behind
// a CPU-like host, through a TLM base-protocol checker. Exit status 0 when every check of the host passed
// and the host link kept the protocol, 1 otherwise, 2 for bad input.
#include <tlm.h>

#include <systemc>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "host_cpu.h"
#include "models/protocol/protocol_checker.h"
#include "models/system/gpu_mem_sys.h"

int sc_main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CONFIG.yaml [KEY=VALUE...]\n", argv[0]);
    return 2;
  }
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  try {
    const std::vector<std::string> overrides(argv + 2, argv + argc);
    const gms::SystemConfig cfg = gms::load_system_config_file(argv[1], overrides);
    // The host may run up to 1 us ahead of simulated time between synchronisations.
    tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_US));

    gms::GpuMemSys gpu("gpu", cfg);
    gms::ProtocolChecker host_link("check_host", gpu.env());  // statistics under the GPU's group
    HostCpu cpu("cpu", gpu, 0x10000000, 0x10100000, 64);
    cpu.sock.bind(host_link.tsock);
    host_link.isock.bind(gpu.host);

    sc_core::sc_start();  // runs until nothing is left to do: the host's script and every launch

    const gms::StatGroup& stats = gpu.stats();  // one group per block: llc0, dram0, ...
    std::printf(
        "vp_example: simulated %s; %g LLC write-backs, %g DRAM bytes written; host link: %llu "
        "protocol violations\n",
        sc_core::sc_time_stamp().to_string().c_str(), stats.sum_over_children("writebacks"),
        stats.sum_over_children("bytes_written"), (unsigned long long)host_link.violations());
    for (const std::string& m : host_link.messages()) std::printf("  %s\n", m.c_str());
    return cpu.passed() && host_link.violations() == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vp_example: %s\n", e.what());
    return 2;
  }
}
