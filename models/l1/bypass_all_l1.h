// Bypass-all L1 (design `bypass_all`; paper 002 section 6.1's BALL): the L1 data cache is disabled.
// Every load goes to L2 around the cache (bypass_load: no tag, no line, no MSHR; the reply goes straight
// to the SM), stores are written through as in every design, nothing is ever allocated. Only the miss
// queue can stall a request (rf_miss_queue).
#pragma once
#include <cstdint>

#include "models/l1/l1_pipeline.h"

namespace gms {

class BypassAllL1 : public L1Pipeline {
 public:
  BypassAllL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~BypassAllL1() override;

  void invalidate_all() override;

 protected:
  bool access_load(Payload& t, uint64_t line, uint64_t c) override;
  void on_store(uint64_t line, uint8_t chunks, bool functional) override;
  void on_fill(Payload& down, uint64_t c) override;
  bool functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) override;
  void functional_install(uint64_t line, const unsigned char* data) override;
  void functional_write(uint64_t addr, unsigned char byte) override;
};

}  // namespace gms
