#include "models/noc/router/allocator.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "models/common/config.h"
#include "models/noc/active_set.h"
#include "models/noc/router/islip_allocator.h"
#include "models/noc/router/separable_allocator.h"

namespace gms {

namespace {
size_t words_for(unsigned ports) {
  return (size_t(ports) + 63) / 64;
}
}  // namespace

Allocator::Allocator(unsigned inputs, unsigned outputs)
    : inputs_(inputs),
      outputs_(outputs),
      in_words_(words_for(inputs)),
      out_words_(words_for(outputs)),
      active_in_(in_words_, 0),
      active_out_(out_words_, 0),
      matched_in_(in_words_, 0),
      matched_out_(out_words_, 0),
      req_in_(size_t(inputs) * out_words_, 0),
      req_out_(size_t(outputs) * in_words_, 0),
      grant_in_(inputs, -1),
      grant_out_(outputs, -1) {
  if (inputs == 0 || outputs == 0)
    throw std::invalid_argument("allocator: needs at least one input and output");
  grants_.reserve(std::min(inputs, outputs));
}

void Allocator::add_request(unsigned in, unsigned out) {
  assert(in < inputs_ && out < outputs_);
  const uint64_t ib = uint64_t(1) << (in & 63), ob = uint64_t(1) << (out & 63);
  req_in_[size_t(in) * out_words_ + (out >> 6)] |= ob;
  req_out_[size_t(out) * in_words_ + (in >> 6)] |= ib;
  active_in_[in >> 6] |= ib;
  active_out_[out >> 6] |= ob;
  pending_ = true;
}

void Allocator::grant(unsigned in, unsigned out) {
  grant_in_[in] = int(out);
  grant_out_[out] = int(in);
  matched_in_[in >> 6] |= uint64_t(1) << (in & 63);
  matched_out_[out >> 6] |= uint64_t(1) << (out & 63);
}

void Allocator::allocate() {
  // Forget the last round's matching: only the table entries it set.
  for (const auto& g : grants_) {
    grant_in_[g.first] = -1;
    grant_out_[g.second] = -1;
  }
  grants_.clear();
  if (!pending_) return;
  match();
  // Walking the matched outputs lists the grants in output order without sorting; the walk also resets the
  // matched sets for the next round.
  for_each_bit(
      out_words_,
      [this](size_t w) {
        const uint64_t bits = matched_out_[w];
        matched_out_[w] = 0;
        return bits;
      },
      [this](unsigned o) { grants_.emplace_back(uint32_t(grant_out_[o]), o); });
  for (const auto& g : grants_) matched_in_[g.first >> 6] = 0;
  // Clear the request rows of the ports that requested, not every row.
  for_each_bit(
      in_words_,
      [this](size_t w) {
        const uint64_t bits = active_in_[w];
        active_in_[w] = 0;
        return bits;
      },
      [this](unsigned i) { std::fill_n(&req_in_[size_t(i) * out_words_], out_words_, 0); });
  for_each_bit(
      out_words_,
      [this](size_t w) {
        const uint64_t bits = active_out_[w];
        active_out_[w] = 0;
        return bits;
      },
      [this](unsigned o) { std::fill_n(&req_out_[size_t(o) * in_words_], in_words_, 0); });
  pending_ = false;
}

std::unique_ptr<Allocator> make_allocator(const std::string& kind, unsigned inputs, unsigned outputs,
                                          unsigned iterations) {
  if (kind == "islip") return std::make_unique<IslipAllocator>(inputs, outputs, iterations);
  if (kind == "rr") return std::make_unique<SeparableRoundRobinAllocator>(inputs, outputs);
  throw ConfigError("noc.router.allocator: unknown allocator '" + kind + "' (known: islip, rr)");
}

uint64_t allocator_bytes(const std::string& kind, unsigned inputs, unsigned outputs) {
  const uint64_t in_w = words_for(inputs), out_w = words_for(outputs), w = sizeof(uint64_t);
  // Allocator: active and matched sets, request rows both ways, grants per port and the grant list.
  uint64_t b = 2 * (in_w + out_w) * w + (inputs * out_w + outputs * in_w) * w +
               (uint64_t(inputs) + outputs) * sizeof(int) +
               std::min(inputs, outputs) * sizeof(std::pair<uint32_t, uint32_t>);
  if (kind == "islip")  // pointers per port, offers per input, the offered set and an empty row
    b += (uint64_t(inputs) + outputs) * sizeof(uint32_t) + (inputs * out_w + in_w + out_w) * w;
  else  // pointers per port, picks per output, the picked set and an empty row
    b += (uint64_t(inputs) + outputs) * sizeof(uint32_t) +
         (outputs * in_w + out_w + std::max(in_w, out_w)) * w;
  return b;
}

}  // namespace gms
