#include "models/l1/l1_stats.h"

namespace gms {

L1Stats::L1Stats(StatGroup& g)
    : requests(g.counter("requests", "requests received from the SM", "requests")),
      responses(g.counter("responses", "responses sent to the SM", "responses")),
      accesses(
          g.counter("accesses", "tag-array probes, retries after a reservation fail included", "accesses")),
      loads(g.counter("loads", "load requests served (hit, hit_pending or miss)", "requests")),
      stores(g.counter("stores", "store requests written through to L2", "requests")),
      atomics(g.counter("atomics", "atomic requests sent to L2 (performed there; the L1 copy dropped)",
                        "requests")),
      hits(g.counter("hits", "loads that found their line valid", "requests")),
      hit_pending(
          g.counter("hit_pending", "loads merged into the MSHR entry of a line being filled", "requests")),
      misses(g.counter("misses", "loads that allocated a line and an MSHR entry", "requests")),
      partial_hits(g.counter("partial_hits", "loads that found some of their chunks and fetched the rest",
                             "requests")),
      bypasses(g.counter("bypasses", "loads sent to L2 around the cache (nothing allocated)", "requests")),
      reservation_fails(
          g.counter("reservation_fails", "probes that could not reserve a resource (retried)", "accesses")),
      rf_mshr(g.counter("rf_mshr", "reservation fails: no free MSHR entry", "accesses")),
      rf_line(g.counter("rf_line", "reservation fails: every way of the set reserved", "accesses")),
      rf_miss_queue(g.counter("rf_miss_queue", "reservation fails: miss queue full", "accesses")),
      rf_merge(g.counter("rf_merge", "reservation fails: MSHR entry at its merge limit", "accesses")),
      rf_no_fill(g.counter("rf_no_fill",
                           "reservation fails: load to a line whose pending fill a store cancelled",
                           "accesses")),
      write_evicts(
          g.counter("write_evicts", "store hits that invalidated the line (write-evict)", "requests")),
      store_installs(g.counter("store_installs",
                               "sectors (granules) installed by stores written completely (write_allocate)",
                               "sectors")),
      no_fill_marks(g.counter("no_fill_marks", "stores to a line with a fill pending (fill not installed)",
                              "requests")),
      fills(g.counter("fills", "line fills received from L2", "fills")),
      fills_dropped(g.counter("fills_dropped",
                              "fills answered but not installed (store overtook, error, partial)", "fills")),
      evictions(g.counter("evictions", "valid lines replaced by a miss allocation", "lines")),
      flushes(g.counter("flushes", "invalidate_all calls (kernel boundaries)", "flushes")),
      flushed_lines(g.counter("flushed_lines", "valid lines dropped by invalidate_all", "lines")),
      to_l2_requests(g.counter("to_l2_requests", "requests sent to L2 (line reads and writes)", "requests")),
      to_l2_bytes(g.counter("to_l2_bytes", "store data bytes sent to L2 (written chunks x 32 B)", "bytes")),
      from_l2_bytes(
          g.counter("from_l2_bytes", "fill data bytes received from L2 (returned chunks x 32 B)", "bytes")),
      to_l2_packets(g.counter(
          "to_l2_packets", "32 B packets sent to L2: one per request plus one per written chunk", "packets")),
      from_l2_packets(g.counter(
          "from_l2_packets", "32 B packets received from L2: one per returned chunk, at least one per reply",
          "packets")),
      load_sectors(g.counter("load_sectors", "32 B sectors requested by loads", "sectors")),
      load_sector_hits(g.counter(
          "load_sector_hits", "load sectors found valid or already being fetched (not fetched for this load)",
          "sectors")),
      load_insts(
          g.counter("load_insts", "warp load instructions whose requests reached this L1", "instructions")),
      load_insts_missed(g.counter("load_insts_missed",
                                  "load instructions with at least one request that missed, partially hit "
                                  "or bypassed",
                                  "instructions")) {
  Counter* h = &hits;
  Counter* hp = &hit_pending;
  Counter* m = &misses;
  Counter* l = &loads;
  g.formula("miss_rate", "misses / loads", "ratio",
            [m, l] { return l->value ? double(m->value) / double(l->value) : 0.0; });
  Counter* li = &load_insts;
  Counter* lim = &load_insts_missed;
  g.formula("inst_miss_rate", "load_insts_missed / load_insts (paper 000's miss rate)", "ratio",
            [lim, li] { return li->value ? double(lim->value) / double(li->value) : 0.0; });
  Counter* ls = &load_sectors;
  Counter* lsh = &load_sector_hits;
  g.formula("load_sector_hit_rate",
            "load_sector_hits / load_sectors (Nsight's l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate)",
            "ratio", [lsh, ls] { return ls->value ? double(lsh->value) / double(ls->value) : 0.0; });
  g.formula("hit_rate", "(hits + hit_pending) / loads", "ratio",
            [h, hp, l] { return l->value ? double(h->value + hp->value) / double(l->value) : 0.0; });
}

}  // namespace gms
