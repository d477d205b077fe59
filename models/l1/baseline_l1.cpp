// BaselineL1: what a load does on a hit, hit-pending and miss, what a store changes, what a fill installs.
#include "models/l1/baseline_l1.h"

#include <cstring>
#include <stdexcept>

namespace gms {

namespace {
std::unique_ptr<ReplacementPolicy> policy_for(const L1Params& p, Rng& rng) {
  ReplacementOptions o;
  o.pdp_distance = p.pdp.distance;
  o.can_bypass = true;  // a load whose set is all protected is bypassed (access_load)
  return make_replacement(p.replacement, p.sets(), p.ways, rng, o);
}
}  // namespace

BaselineL1::BaselineL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : L1Pipeline(name, p, sm_id, env),
      tags_(p.sets(), p.ways, p.line_bytes, SetIndexer(p.set_index, p.sets(), p.line_bytes),
            policy_for(p, rng_)) {
  // Registered only with a bypassing policy: the other policies' statistics stay as they were.
  if (tags_.policy_may_bypass())
    protected_bypasses_ = &stats_.counter("protected_bypasses",
                                          "loads bypassed because every way of the set "
                                          "was protected (PDP)",
                                          "requests");
}

BaselineL1::~BaselineL1() = default;

void BaselineL1::invalidate_all() {
  ++st_.flushes;
  st_.flushed_lines += tags_.invalidate_all();
}

bool BaselineL1::on_miss_stall(Payload&, uint64_t, uint64_t, Counter& cause) {
  return reservation_fail(cause);
}

bool BaselineL1::bypass_and_note(Payload& t, uint64_t line, uint64_t c) {
  if (!bypass_load(t, line, c)) return false;
  tags_.note_access(tags_.set_of(line_key(line, req_of(t).chunk_mask)), -1);
  return true;
}

uint64_t BaselineL1::line_key(uint64_t line, uint8_t chunks) const {
  if (params_.line_bytes == kLineBytes) return line;
  return line + unsigned(__builtin_ctz(line_part(chunks))) * kChunkBytes;
}

uint8_t BaselineL1::key_chunks(uint64_t key) const {
  return line_part(uint8_t(1u << chunk_of(key)));
}

// Chunks of `mask` between a 128 B-framed buffer and the design's line `key` (its offset in the 128 B
// line is key % 128: 0 unless the L1 has small lines).
void BaselineL1::line_to_frame(unsigned char* frame, uint64_t key, const unsigned char* data, uint8_t mask) {
  const unsigned off = unsigned(key % kLineBytes);
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (mask >> c & 1u) std::memcpy(frame + c * kChunkBytes, data + c * kChunkBytes - off, kChunkBytes);
}

// Served accesses tell a bypassing policy (tags_.note_access) after their victim decision; reservation
// fails do not, so a retry never ages the set.
bool BaselineL1::access_load(Payload& t, uint64_t line, uint64_t c) {
  MemReq& r = req_of(t);
  const uint64_t key = line_key(line, r.chunk_mask);  // the 128 B line, or its small line
  uint32_t set = tags_.set_of(key);
  int way = tags_.find(key);
  if (way >= 0 && tags_.entry(set, uint32_t(way)).valid) {
    tags_.touch(set, uint32_t(way));
    line_to_frame(t.get_data_ptr(), key, tags_.data(set, uint32_t(way)), r.chunk_mask);
    tags_.note_access(set, way);
    answer_hit(t, r.chunk_mask, c + params_.hit_latency);
    return true;
  }
  if (way >= 0) {  // reserved: the line's fill is in flight
    MshrFile::Entry* e = mshr_.find(key);
    if (!e) throw std::logic_error("L1: reserved line without an MSHR entry");
    if (e->no_fill) return on_miss_stall(t, line, c, st_.rf_no_fill);
    if (!mshr_.can_merge(*e)) return on_miss_stall(t, line, c, st_.rf_merge);
    e->waiters.push_back(&t);
    tags_.note_access(set, way);  // a hit on the pending line renews it
    count_load(r, 0);
    ++st_.hit_pending;
    return true;
  }
  // A bypassing policy decides first: a load it bypasses needs no MSHR entry and no way. Any other
  // policy is asked only once the miss can allocate (SRRIP ages the set when asked).
  const bool may_bypass = tags_.policy_may_bypass();
  int victim = may_bypass ? tags_.choose_victim_or_bypass(key) : -1;
  if (victim == TagArray::kBypass) {
    if (!bypass_and_note(t, line, c)) return false;
    ++*protected_bypasses_;
    return true;
  }
  if (mshr_.full()) return on_miss_stall(t, line, c, st_.rf_mshr);
  if (miss_queue_full(c)) return on_miss_stall(t, line, c, st_.rf_miss_queue);
  if (!may_bypass) victim = tags_.choose_victim(key);
  if (victim < 0) return on_miss_stall(t, line, c, st_.rf_line);
  commit_miss(t, line, key, set, uint32_t(victim), c);
  tags_.note_access(set, victim);
  update_probes();
  return true;
}

void BaselineL1::commit_miss(Payload& t, uint64_t line, uint64_t key, uint32_t set, uint32_t victim,
                             uint64_t c) {
  if (tags_.entry(set, victim).valid) ++st_.evictions;
  tags_.install(set, victim, key, /*reserved=*/true);
  MshrFile::Entry& e = mshr_.allocate(key);
  e.cookie = uint64_t(victim);
  e.issued_chunks = key_chunks(key);
  e.waiters.push_back(&t);
  queue_downstream(new_downstream(&req_of(t), tlm::TLM_READ_COMMAND, line, key_chunks(key)), c + 1);
  count_load(req_of(t), kFullChunkMask);
  ++st_.misses;
}

void BaselineL1::on_store(uint64_t line, uint8_t chunks, bool functional) {
  if (params_.line_bytes == kLineBytes) return store_to(line, functional);
  for (unsigned off = 0; off < kLineBytes; off += params_.line_bytes)  // each small line written
    if (chunks & key_chunks(line + off)) store_to(line + off, functional);
}

void BaselineL1::store_to(uint64_t line, bool functional) {
  // A served store is an access to its set for PDP; it keeps no line (write-evict), so it renews none.
  // Its only effect on PDP state, an invalidate (RPD 0), commutes with the aging, so age first.
  if (!functional && tags_.policy_may_bypass()) tags_.note_access(tags_.set_of(line), -1);
  int way = tags_.find(line);
  if (way < 0) return;
  uint32_t set = tags_.set_of(line);
  if (tags_.entry(set, uint32_t(way)).valid) {
    tags_.invalidate(set, uint32_t(way));  // write-evict
    if (!functional) ++st_.write_evicts;
    return;
  }
  MshrFile::Entry* e = mshr_.find(line);
  if (!e) {
    if (functional) return;
    throw std::logic_error("L1: reserved line without an MSHR entry");
  }
  if (!e->no_fill && !functional) ++st_.no_fill_marks;
  e->no_fill = true;  // the fill would hold pre-store data
}

void BaselineL1::on_fill(Payload& down, uint64_t c) {
  MemReq& r = req_of(down);
  const uint64_t key = line_key(r.line_addr, r.chunk_mask);
  MshrFile::Entry* e = mshr_.find(key);
  if (!e) throw std::logic_error("L1: fill for a line without an MSHR entry");
  uint32_t set = tags_.set_of(key), way = uint32_t(e->cookie);
  const TagEntry& te = tags_.entry(set, way);
  if (!te.reserved || te.line != key)
    throw std::logic_error("L1: fill for a way that is not reserved for it");
  uint8_t got = down.is_response_ok() ? r.chunks_returned : 0;
  ++st_.fills;
  if (!e->no_fill && got == key_chunks(key)) {
    std::memcpy(tags_.data(set, way), down.get_data_ptr() + key % kLineBytes, params_.line_bytes);
    tags_.validate(set, way);
  } else {
    tags_.invalidate(set, way);  // frees the reserved way
    ++st_.fills_dropped;
  }
  answer_waiters(key, down, got, c);
  down.release();
  update_probes();
}

bool BaselineL1::functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) {
  // Offsets, not addresses: line + 128 is 0 for the last line of the address space.
  for (unsigned off = 0; off < kLineBytes; off += params_.line_bytes) {  // every line it needs
    const uint64_t key = line + off;
    if (!(chunks & key_chunks(key))) continue;
    const int way = tags_.find(key);
    if (way < 0 || !tags_.entry(tags_.set_of(key), uint32_t(way)).valid) return false;
  }
  for (unsigned off = 0; off < kLineBytes; off += params_.line_bytes) {
    const uint64_t key = line + off;
    const uint8_t part = uint8_t(chunks & key_chunks(key));
    if (!part) continue;
    const uint32_t set = tags_.set_of(key), way = uint32_t(tags_.find(key));
    tags_.touch(set, way);
    line_to_frame(dst, key, tags_.data(set, way), part);
  }
  return true;
}

void BaselineL1::functional_install(uint64_t line, const unsigned char* data) {
  for (unsigned off = 0; off < kLineBytes; off += params_.line_bytes) {
    const uint64_t key = line + off;
    if (tags_.find(key) >= 0) continue;          // a reserved way (timed fill in flight) is left to its fill
    int v = tags_.choose_victim_or_bypass(key);  // PDP keeps a protected set as it is
    if (v < 0) continue;
    uint32_t set = tags_.set_of(key);
    tags_.install(set, uint32_t(v), key, /*reserved=*/false);
    std::memcpy(tags_.data(set, uint32_t(v)), data + key % kLineBytes, params_.line_bytes);
  }
}

void BaselineL1::functional_write(uint64_t addr, unsigned char byte) {
  uint64_t line = tags_.line_of(addr);
  int way = tags_.find(line);
  uint32_t set = tags_.set_of(line);
  if (way >= 0 && tags_.entry(set, uint32_t(way)).valid) tags_.data(set, uint32_t(way))[addr - line] = byte;
}

}  // namespace gms
