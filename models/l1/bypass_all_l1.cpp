// BypassAllL1: a cache that holds nothing. Each hook is what "no storage" means for it.
#include "models/l1/bypass_all_l1.h"

#include <stdexcept>

namespace gms {

BypassAllL1::BypassAllL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : L1Pipeline(name, p, sm_id, env) {}

BypassAllL1::~BypassAllL1() = default;

void BypassAllL1::invalidate_all() {
  ++st_.flushes;  // a flush still happens at the kernel boundary; it finds no line
}

bool BypassAllL1::access_load(Payload& t, uint64_t line, uint64_t c) {
  return bypass_load(t, line, c);
}

void BypassAllL1::on_store(uint64_t, uint8_t, bool) {}  // no copy to evict

void BypassAllL1::on_fill(Payload&, uint64_t) {
  throw std::logic_error("bypass_all L1: a fill without an MSHR entry (it never allocates one)");
}

bool BypassAllL1::functional_read(uint64_t, uint8_t, unsigned char*) {
  return false;
}

void BypassAllL1::functional_install(uint64_t, const unsigned char*) {}

void BypassAllL1::functional_write(uint64_t, unsigned char) {}

}  // namespace gms
