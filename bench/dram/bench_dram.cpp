// One DRAM channel alone under a closed-loop initiator that keeps its request queue full: 1,000,000
// random and 1,000,000 sequential 64 B reads. Prints requests per wall-clock second, achieved
// bandwidth and row-hit rate for each. Usage: bench_dram [requests per pattern]
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "models/common/address_map.h"
#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/rng.h"
#include "models/dram/dram_channel.h"

namespace {

// Sends 64 B line-half reads as fast as the channel takes them; END_REQ triggers the next send.
class StreamInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<StreamInitiator> isock;

  StreamInitiator(sc_core::sc_module_name name, gms::PayloadPool& pool)
      : sc_module(name), isock("isock"), pool_(pool) {
    port_ = gms::AtInitiatorPort([this](gms::Payload& t, tlm::tlm_phase& ph,
                                        sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
                                 [this] { pump(); },
                                 [this](gms::Payload& t) {
                                   ++done_;
                                   t.release();
                                   return true;
                                 });
    isock.register_nb_transport_bw(this, &StreamInitiator::nb_transport_bw);
  }
  void start(bool random, uint64_t n, uint64_t span_bytes) {
    random_ = random;
    todo_ = n;
    sent_ = done_ = 0;
    span_ = span_bytes;
    next_addr_ = 0;
    pump();
  }
  uint64_t done() const { return done_; }

 private:
  tlm::tlm_sync_enum nb_transport_bw(gms::Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_bw(t, ph, d);
  }
  void pump() {
    while (sent_ < todo_ && port_.can_send()) {
      uint64_t addr = random_ ? (rng_.below(span_ / 64) * 64) : next_addr_;
      next_addr_ += 64;
      gms::Payload& t = pool_.allocate();
      t.set_command(tlm::TLM_READ_COMMAND);
      t.set_address(gms::line_of(addr));
      gms::MemReq& m = gms::req_of(t);
      m.line_addr = gms::line_of(addr);
      m.chunk_mask = (addr & 64) ? 0xc : 0x3;
      ++sent_;
      port_.send(t);
    }
  }
  gms::PayloadPool& pool_;
  gms::AtInitiatorPort port_;
  gms::Rng rng_{12345, "bench"};
  bool random_ = false;
  uint64_t todo_ = 0, sent_ = 0, done_ = 0, span_ = 0, next_addr_ = 0;
};

}  // namespace

int sc_main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  gms::AddressMapParams ap;
  gms::AddressMap map(ap);  // one slice, one channel: channel address == address
  gms::BackingStore store;
  gms::StatGroup root("root");
  gms::PayloadPool pool;
  gms::BlockEnv env;
  env.stats = &root;
  env.pool = &pool;
  gms::DramParams p;
  gms::DramChannel dram("dram", p, 0, map, store, env);
  StreamInitiator ini("ini", pool);
  ini.isock.bind(dram.tsock);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  std::printf("DRAM channel: %.0f MHz, %u banks, %u B rows, queue %u, FR-FCFS, peak %.2f GB/s\n", p.clock_mhz,
              p.banks, p.row_bytes, p.queue_size, p.peak_gbps());
  for (bool random : {true, false}) {
    double hits0 = root.value("dram.row_hits"), reqs0 = root.value("dram.reads"),
           bytes0 = root.value("dram.bytes_read");
    double t0 = sc_core::sc_time_stamp().to_seconds();
    auto w0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    ini.start(random, n, 64ull << 20);  // random reads over 64 MiB: ~2048 rows per bank
    sc_core::sc_start();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;  // robust against a shared, loaded machine
    double sim = sc_core::sc_time_stamp().to_seconds() - t0;
    double reqs = root.value("dram.reads") - reqs0;
    std::printf(
        "%-10s %8.0f reads  %9.0f req/s wall  %9.0f req/s cpu  %6.2f GB/s (%.1f%% of peak)  row-hit rate "
        "%.3f\n",
        random ? "random" : "sequential", reqs, reqs / wall, reqs / cpu,
        (root.value("dram.bytes_read") - bytes0) / sim / 1e9,
        100.0 * (root.value("dram.bytes_read") - bytes0) / sim / 1e9 / p.peak_gbps(),
        (root.value("dram.row_hits") - hits0) / reqs);
    if (ini.done() != n) {
      std::printf("error: %llu of %llu responses\n", (unsigned long long)ini.done(), (unsigned long long)n);
      return 1;
    }
  }
  return 0;
}
