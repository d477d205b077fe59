// One DRAM channel (single-channel address map: channel address == global address) driven by one
// FakeInitiator, for the timed tests.
#pragma once
#include <gtest/gtest.h>
#include <algorithm>

#include <memory>
#include <string>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/block_env.h"
#include "models/dram/dram_channel.h"
#include "tests/dram/fake_initiator.h"

namespace gms_test {

inline gms::AddressMapParams one_channel() {
  gms::AddressMapParams a;
  a.num_slices = 1;
  a.num_channels = 1;
  return a;
}

struct Rig {
  gms::AddressMap map{one_channel()};
  gms::BackingStore store;
  gms::StatGroup root{"root"};
  gms::PayloadPool pool;
  gms::BlockEnv env;
  std::unique_ptr<gms::DramChannel> dram;
  std::unique_ptr<FakeInitiator> ini;

  Rig(const gms::DramParams& p, std::vector<Scripted> script, const gms::TraceSelector* trace = nullptr) {
    env.stats = &root;
    env.trace = trace;
    env.pool = &pool;
    dram = std::make_unique<gms::DramChannel>("dram", p, 0, map, store, env);
    ini = std::make_unique<FakeInitiator>("ini", pool, std::move(script));
    ini->isock.bind(dram->tsock);
  }
  uint64_t period() const { return dram->clock().period_ps(); }
  // A cycle count from a time, insisting the time lies on a clock edge.
  uint64_t cycle_of(uint64_t ps) const {
    EXPECT_EQ(ps % period(), 0u) << "not on a DRAM clock edge: " << ps;
    return ps / period();
  }
  Scripted& req(size_t i) { return ini->script.at(i); }
  // The last response of requests 0..n-1, asserting each was answered OK.
  uint64_t last_ok_response_ps(unsigned n) {
    uint64_t end = 0;
    for (unsigned k = 0; k < n; ++k) {
      EXPECT_EQ(req(k).status, tlm::TLM_OK_RESPONSE) << "request " << k;
      end = std::max(end, req(k).response_ps);
    }
    return end;
  }
  double stat(const std::string& name) const { return root.value("dram." + name); }
  void run() { sc_core::sc_start(); }
};

// A read of `chunks` of the line at addr, sent at cycle `at` of a clock with period_ps.
inline Scripted read_at(uint64_t addr, uint64_t send_ps = 0, uint8_t chunks = 0xf) {
  Scripted s;
  s.addr = addr;
  s.send_ps = send_ps;
  s.chunk_mask = chunks;
  return s;
}

// A 64 B read (one burst): the line request of addr with the two chunks of addr's half line.
inline Scripted read64(uint64_t addr, uint64_t send_ps = 0) {
  return read_at(gms::line_of(addr), send_ps, (addr & 64) ? 0xc : 0x3);
}

}  // namespace gms_test
