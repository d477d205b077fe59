// GCacheL1: construction, the access path (hit, hit-pending, allocate-on-fill miss), stores, the
// functional paths and the kernel-boundary flush. The fill-time policy is in gcache_l1_fill.cpp.
#include "models/l1/gcache_l1.h"

#include <cstring>
#include <memory>
#include <stdexcept>

namespace gms {

namespace {
std::unique_ptr<ReplacementPolicy> make_srrip(const L1Params& p, SrripPolicy*& out) {
  auto pol = std::make_unique<SrripPolicy>(p.sets(), p.ways, p.gcache.rrpv_bits);
  out = pol.get();
  return pol;
}
}  // namespace

GCacheL1::GCacheL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : L1Pipeline(name, p, sm_id, env),
      g_(params_.gcache),
      srrip_(nullptr),
      tags_(p.sets(), p.ways, p.line_bytes, SetIndexer(p.set_index, p.sets(), p.line_bytes),
            make_srrip(p, srrip_)),
      switch_(p.sets(), 0),
      next_reset_(p.gcache.switch_reset_cycles),
      fill_bypasses_(stats_.counter("fill_bypasses",
                                    "fills answered but not installed: bypass switch on and every "
                                    "line of the set hot (their loads count as misses)",
                                    "fills")),
      switch_opens_(stats_.counter("switch_opens",
                                   "bypass switches opened by a reply with the victim bit set", "switches")),
      switch_resets_(stats_.counter("switch_resets", "periodic resets that closed at least one bypass switch",
                                    "resets")),
      victim_bits_returned_(
          stats_.counter("victim_bits_returned", "fills whose LLC reply carried a set victim bit", "fills")) {
  if (auto* tf = env.trace_file(basename())) probe_switches_.attach(tf, basename(), "bypass_switches");
}

GCacheL1::~GCacheL1() = default;

void GCacheL1::invalidate_all() {
  ++st_.flushes;
  st_.flushed_lines += tags_.invalidate_all();  // no way is ever reserved: fills allocate on arrival
}

void GCacheL1::write_probes() {
  L1Pipeline::write_probes();
  probe_switches_.set(switches_on_);
}

bool GCacheL1::access_load(Payload& t, uint64_t line, uint64_t c) {
  maybe_reset_switches(c);
  MemReq& r = req_of(t);
  const uint32_t set = tags_.set_of(line);
  const int way = tags_.find(line);
  if (way >= 0) {  // only valid lines have tags here
    tags_.touch(set, uint32_t(way));
    copy_chunks(t.get_data_ptr(), tags_.data(set, uint32_t(way)), r.chunk_mask);
    answer_hit(t, r.chunk_mask, c + params_.hit_latency);
    return true;
  }
  if (MshrFile::Entry* e = mshr_.find(line)) {  // the line's fill is in flight
    if (e->no_fill) return reservation_fail(st_.rf_no_fill);
    if (!mshr_.can_merge(*e)) return reservation_fail(st_.rf_merge);
    e->waiters.push_back(&t);
    count_load(r, 0);
    ++st_.hit_pending;
    return true;
  }
  if (mshr_.full()) return reservation_fail(st_.rf_mshr);
  if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
  MshrFile::Entry& e = mshr_.allocate(line);  // no way yet: the fill decides (rf_line never happens)
  e.issued_chunks = kFullChunkMask;
  e.waiters.push_back(&t);
  queue_downstream(new_downstream(&r, tlm::TLM_READ_COMMAND, line, kFullChunkMask), c + 1);
  count_load(r, kFullChunkMask);
  ++st_.misses;
  update_probes();
  return true;
}

void GCacheL1::on_store(uint64_t line, uint8_t, bool functional) {
  const int way = tags_.find(line);
  if (way >= 0) {
    tags_.invalidate(tags_.set_of(line), uint32_t(way));  // write-evict
    if (!functional) ++st_.write_evicts;
  }
  if (MshrFile::Entry* e = mshr_.find(line)) {
    if (!e->no_fill && !functional) ++st_.no_fill_marks;
    e->no_fill = true;  // the fill holds pre-store data: answer its waiters, install nothing
  }
}

bool GCacheL1::functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) {
  const int way = tags_.find(line);
  if (way < 0) return false;
  const uint32_t set = tags_.set_of(line);
  tags_.touch(set, uint32_t(way));
  copy_chunks(dst, tags_.data(set, uint32_t(way)), chunks);
  return true;
}

void GCacheL1::functional_install(uint64_t line, const unsigned char* data) {
  // A line with a timed fill in flight is left to that fill; the switches are a timed-path heuristic.
  if (tags_.find(line) >= 0 || mshr_.find(line)) return;
  const int v = tags_.choose_victim(line);
  if (v < 0) return;
  const uint32_t set = tags_.set_of(line);
  tags_.install(set, uint32_t(v), line, /*reserved=*/false);
  std::memcpy(tags_.data(set, uint32_t(v)), data, params_.line_bytes);
}

void GCacheL1::functional_write(uint64_t addr, unsigned char byte) {
  const uint64_t line = tags_.line_of(addr);
  const int way = tags_.find(line);
  if (way >= 0) tags_.data(tags_.set_of(line), uint32_t(way))[addr - line] = byte;
}

}  // namespace gms
