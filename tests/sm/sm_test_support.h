// Test fixtures for the SM front end: a workload built from vectors of WarpInst, a fake L1 target that
// answers after a fixed latency and can hold END_REQ, and a recording MemObserver.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/clock.h"
#include "models/common/workload.h"

namespace gms::test {

// One load/store of `lanes` active lanes (mask of the low lanes), lane i at base + i * stride.
WarpInst make_inst(uint64_t pc, MemKind kind, uint64_t base, uint64_t stride, unsigned lanes = 32,
                   uint8_t width = 4, uint32_t gap = 0);

struct TestKernel {
  KernelInfo info;
  std::vector<std::vector<std::vector<WarpInst>>> ctas;  // ctas[c][w] = program of warp w of CTA c
};

// Life of the CTAs of a VectorWorkload: a CTA is resident from its first pull until its streams are
// destroyed (the SM drops a CTA's work when it retires it).
struct CtaLife {
  int live = 0, max_live = 0;
  std::vector<std::pair<uint32_t, uint64_t>> launched;  // (cta_id, ps) in launch order
};

class VectorWorkload : public Workload {
 public:
  explicit VectorWorkload(std::vector<TestKernel> kernels, std::string name = "vectors")
      : kernels_(std::move(kernels)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::unique_ptr<KernelSource> next_kernel() override;
  CtaLife life;

 private:
  std::vector<TestKernel> kernels_;
  size_t next_ = 0;
  std::string name_;
};

// Byte-addressed memory shared by fake L1s: stores apply their byte enables, loads read it (initial image
// where never written).
struct FakeMemory {
  std::map<uint64_t, uint8_t> bytes;
  uint8_t read(uint64_t a) const;
};

struct SeenRequest {
  uint64_t ps = 0;  // arrival time
  uint32_t sm = 0, warp = 0, cta = 0;
  uint64_t pc = 0, line = 0;
  uint8_t chunks = 0;
  bool write = false;
};

class FakeL1 : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<FakeL1> tsock;

  FakeL1(sc_core::sc_module_name name, FakeMemory& mem, uint64_t latency_cycles, double mhz = 1400.0);
  // hold(n) = cycles END_REQ of the n-th request (0-based) is held; 0 = accepted at once.
  std::function<uint64_t(uint64_t)> hold;
  bool keep_data = true;  // false: no memory contents (speed measurements)

  std::vector<SeenRequest> seen;
  uint64_t responses = 0;
  int in_flight = 0, max_in_flight = 0;
  std::map<uint32_t, int> warp_in_flight, warp_max_in_flight;  // by warp slot
  const Clock& clock() const { return clock_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_fw(t, ph, d);
  }
  bool on_request(Payload& t);
  void take(Payload& t);
  void run();

  FakeMemory& mem_;
  uint64_t latency_;
  Clock clock_;
  AtTargetPort port_;
  sc_core::sc_event ev_;
  Payload* held_ = nullptr;
  uint64_t release_cycle_ = 0;
  std::deque<std::pair<uint64_t, Payload*>> due_;  // (cycle, payload), in order
};

struct SeenAccess {
  uint64_t warp_uid, addr;
  std::vector<uint8_t> bytes;
};

class RecordingObserver : public MemObserver {
 public:
  void on_store(uint64_t warp_uid, uint64_t /*seq*/, uint64_t addr, const uint8_t* data,
                unsigned bytes) override {
    stores.push_back({warp_uid, addr, std::vector<uint8_t>(data, data + bytes)});
  }
  void on_load(uint64_t warp_uid, uint64_t /*seq*/, uint64_t addr, const uint8_t* data,
               unsigned bytes) override {
    loads.push_back({warp_uid, addr, std::vector<uint8_t>(data, data + bytes)});
  }
  void on_kernel_end() override {
    ++kernel_ends;
    if (on_end) on_end();
  }
  std::vector<SeenAccess> stores, loads;
  int kernel_ends = 0;
  std::function<void()> on_end;
};

}  // namespace gms::test
