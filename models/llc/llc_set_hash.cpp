#include "models/llc/llc_set_hash.h"

#include <stdexcept>

#include "models/common/mem_req.h"

namespace gms {

LlcLineKey::LlcLineKey(LlcSetIndex fn, uint32_t sets) : fn_(fn), sets_(sets) {
  if (sets == 0 || (sets & (sets - 1)))
    throw std::invalid_argument("llc set index: sets must be a power of two");
  while ((1u << bits_) < sets) ++bits_;
}

SetIndexer LlcLineKey::indexer() const {
  return SetIndexer(fn_ == LlcSetIndex::FermiHash ? SetIndexFn::FermiHash : SetIndexFn::Linear, sets_,
                    kLineBytes);
}

}  // namespace gms
