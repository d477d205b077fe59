#include "models/l1/tag_split_cache.h"

namespace gms {

TagSplitCache::TagSplitCache(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id,
                             const BlockEnv& env, bool plus)
    : SectoredL1(name, p, sm_id, env, p.tsc.chunk_bytes, p.tsc.extra_hit_latency),
      store_(p.sets(), p.ways, p.tsc.chunk_bytes, p.tsc.private_tag_bits,
             SetIndexer(p.set_index, p.sets(), kLineBytes), rng_),
      retagged_groups_(stats_.counter(
          "retagged_groups", "chunk groups whose shared tag a miss replaced (their valid chunks dropped)",
          "groups")),
      coarse_misses_(stats_.counter("coarse_misses",
                                    "misses that fetched in coarse storage mode (whole line)", "requests")) {
  if (p.line_bytes != kLineBytes)
    throw ConfigError("l1.line_bytes: the tag-split cache accesses 128 B lines");
  if (plus) {
    duel_ = std::make_unique<TscModeDuel>(p.tsc_plus, p.sets(), sm_id == p.tsc_plus.leader_sm, env.decisions);
    const TscModeDuel* d = duel_.get();
    stats_.formula("tsc_mode", "storage mode of the follower sets at the end (0 fine, 1 coarse)", "mode",
                   [d] { return double(d->follower_mode()); });
    if (d->leader()) {  // the duel's own counters live in the leader SM
      stats_.formula("mode_changes", "times the sampler sets changed the follower mode", "changes",
                     [d] { return double(d->mode_changes()); });
      stats_.formula("duel_fine_misses", "fine sampler misses (aged counter, paper 000 fig. 8)", "misses",
                     [d] { return double(d->misses(TscModeDuel::Fine)); });
      stats_.formula("duel_fine_traffic", "fine sampler traffic (aged counter)", "packets",
                     [d] { return double(d->traffic(TscModeDuel::Fine)); });
      stats_.formula("duel_coarse_misses", "coarse sampler misses (aged counter)", "misses",
                     [d] { return double(d->misses(TscModeDuel::Coarse)); });
      stats_.formula("duel_coarse_traffic", "coarse sampler traffic (aged counter)", "packets",
                     [d] { return double(d->traffic(TscModeDuel::Coarse)); });
    }
  }
  if (auto* tf = env.trace_file(basename())) probe_mode_.attach(tf, basename(), "tsc_mode");
}

TagSplitCache::~TagSplitCache() = default;

bool TagSplitCache::reserve(uint64_t line, Mask m) {
  uint32_t evicted = 0, retagged = 0;
  if (!store_.reserve(line, m, evicted, retagged)) return false;
  count_evictions(evicted);
  retagged_groups_ += retagged;
  return true;
}

SectoredL1::Mask TagSplitCache::access_mask(uint64_t line, Mask wanted) {
  if (!duel_) return wanted;
  const TscModeDuel::Mode mode = duel_->mode_of(store_.set_of(line));
  probe_mode_.set(duel_->follower_mode());
  return mode == TscModeDuel::Fine ? wanted : full_mask();
}

// Data packets of the reply: the fetched bytes in 32 B packets (paper 000 sec. 3.5: n = chunks for 32 B).
void TagSplitCache::on_fetch(uint64_t line, Mask fetched) {
  if (!duel_) return;
  const uint32_t set = store_.set_of(line);
  if (duel_->mode_of(set) == TscModeDuel::Coarse) ++coarse_misses_;
  const uint32_t bytes = uint32_t(__builtin_popcount(fetched)) * granule_bytes();
  duel_->count_miss(set, (bytes + kChunkBytes - 1) / kChunkBytes);
}

}  // namespace gms
