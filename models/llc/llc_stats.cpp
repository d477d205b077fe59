#include "models/llc/llc_stats.h"

namespace gms {

const char* to_string(LlcStall s) {
  switch (s) {
    case LlcStall::MshrFull:
      return "mshr_full";
    case LlcStall::MergeFull:
      return "merge_full";
    case LlcStall::WaysReserved:
      return "ways_reserved";
    case LlcStall::MissQueueFull:
      return "miss_queue_full";
    case LlcStall::ResponseQueueFull:
      return "response_queue_full";
    case LlcStall::WritebackPending:
      return "writeback_pending";
  }
  return "?";
}

LlcStats::LlcStats(StatGroup& g)
    : requests(g.counter("requests", "requests accepted from the NoC (timed) or b_transport", "requests")),
      responses(
          g.counter("responses", "responses returned (timed) or b_transport calls completed", "responses")),
      accesses(g.counter("accesses", "tag accesses (reads + writes; retries not counted)", "accesses")),
      reads(g.counter("reads", "read accesses", "accesses")),
      writes(g.counter("writes", "write accesses", "accesses")),
      hits(g.counter("hits", "reads with every requested sector valid, and writes to a present line",
                     "accesses")),
      read_hits(g.counter("read_hits", "reads with every requested sector valid", "accesses")),
      misses(g.counter("misses", "accesses that were not hits (line_misses + sector_misses)", "accesses")),
      line_misses(g.counter("line_misses", "accesses whose line had no tag (allocated here)", "accesses")),
      sector_misses(
          g.counter("sector_misses", "reads whose line had a tag but missed requested sectors", "accesses")),
      mshr_merges(
          g.counter("mshr_merges", "read misses merged into a line's MSHR entry in flight", "accesses")),
      writebacks(g.counter("writebacks", "dirty lines written to DRAM", "writes")),
      writeback_bytes(g.counter("writeback_bytes", "dirty bytes written to DRAM", "bytes")),
      write_combined(g.counter("write_combined",
                               "write-through writes merged into a queued DRAM write of the same line",
                               "writes")),
      dram_reads(g.counter("dram_reads", "DRAM read requests (one per fetch of a line's missing sectors)",
                           "requests")),
      dram_read_bytes(
          g.counter("dram_read_bytes", "bytes requested from DRAM (32 B per fetched sector)", "bytes")),
      fills(g.counter("fills", "DRAM read responses written into lines", "fills")),
      evictions(g.counter("evictions", "valid lines evicted to make room", "lines")),
      input_holds(g.counter("input_holds", "requests whose END_REQ was held because the input queue was full",
                            "requests")),
      bad_requests(g.counter("bad_requests", "requests answered with an error (command, burst, byte enables)",
                             "requests")),
      sectors(g.counter("sectors", "32 B sectors accessed (read and written)", "sectors")),
      sector_hits(
          g.counter("sector_hits",
                    "sectors written (write-allocate without fetch: Nsight counts them as hits) and read "
                    "sectors not fetched for this access",
                    "sectors")),
      read_sectors(g.counter("read_sectors", "32 B sectors requested by reads", "sectors")),
      read_sector_hits(g.counter("read_sector_hits",
                                 "read sectors valid or already being fetched (not fetched for this access)",
                                 "sectors")),
      atomics(g.counter("atomics",
                        "atomics performed (each also counted as a write on a hit, a read on a miss)",
                        "accesses")),
      atomic_hits(
          g.counter("atomic_hits", "atomics whose bytes were all valid: applied at once", "accesses")),
      atomics_forwarded(g.counter("atomics_forwarded",
                                  "atomics sent to the memory controller (write-through: a private LLC)",
                                  "accesses")) {
  for (unsigned i = 0; i < kLlcStallCauses; ++i)
    reservation_fails[i] = &g.counter(
        std::string("reservation_fails_") + to_string(LlcStall(i)),
        std::string("cycles the input head could not be accessed: ") + to_string(LlcStall(i)), "cycles");
  auto* self = this;
  g.formula("reservation_fails", "cycles the input head could not be accessed, all causes", "cycles", [self] {
    double s = 0;
    for (Counter* c : self->reservation_fails) s += double(c->value);
    return s;
  });
  g.formula("hit_rate", "hits / accesses", "ratio", [self] {
    return self->accesses.value ? double(self->hits.value) / double(self->accesses.value) : 0.0;
  });
  g.formula("sector_hit_rate", "sector_hits / sectors (Nsight's lts__t_sector_hit_rate)", "ratio", [self] {
    return self->sectors.value ? double(self->sector_hits.value) / double(self->sectors.value) : 0.0;
  });
  g.formula("read_sector_hit_rate",
            "read_sector_hits / read_sectors (Nsight's lts__t_sector_op_read_hit_rate)", "ratio", [self] {
              return self->read_sectors.value
                         ? double(self->read_sector_hits.value) / double(self->read_sectors.value)
                         : 0.0;
            });
  g.formula("read_hit_rate", "read_hits / reads", "ratio", [self] {
    return self->reads.value ? double(self->read_hits.value) / double(self->reads.value) : 0.0;
  });
}

}  // namespace gms
