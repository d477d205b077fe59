// The one payload extension every GPUMemSys block understands (ARCHITECTURE.md "How blocks talk").
#pragma once
#include <tlm.h>

#include <cstdint>

namespace gms {

constexpr unsigned kLineBytes = 128;  // access granularity of L1/LLC requests
constexpr unsigned kChunkBytes = 32;  // sector/chunk granularity (chunk mask bits)
constexpr unsigned kChunksPerLine = kLineBytes / kChunkBytes;
constexpr uint8_t kFullChunkMask = (1u << kChunksPerLine) - 1;

// Barrier: a warp instruction only (__syncthreads, Accel-Sim BAR): no memory access; the warp waits until
// every unfinished warp of its CTA has reached it.
enum class MemKind : uint8_t { Load, Store, Atomic, Flush, Writeback, Barrier };
const char* to_string(MemKind k);

// Request attributes beyond the generic payload. Address, data, byte enables and command stay in the
// tlm_generic_payload; this carries what a GPU memory system needs to know about who asked and why.
struct MemReq : tlm::tlm_extension<MemReq> {
  // Identity of the requester.
  uint32_t sm = 0;
  uint32_t warp = 0;  // warp slot on the SM
  uint32_t cta = 0;   // global CTA id within the kernel
  MemKind kind = MemKind::Load;
  // Atomic (a TLM write whose enabled bytes are operands): the width of each lane's add, 4 or 8. The LLC
  // slice adds the operands to the line and answers with the old bytes (docs/atomics.md).
  uint8_t atomic_width = 0;
  uint64_t pc = 0;
  uint64_t line_addr = 0;  // 128 B aligned
  uint8_t chunk_mask = 0;  // which 32 B chunks of the line are requested / carried
  // Finer than chunks (TSC with 8 or 16 B chunks): which 8 B words of the line a read asks for; 0 = all
  // the words of chunk_mask. A reply to such a read carries only those words (words_returned).
  uint16_t word_mask = 0;
  uint16_t src_cluster = 0;
  uint64_t id = 0;        // unique per originating block
  uint64_t issue_ps = 0;  // simulation time (ps) the originator issued it
  uint64_t inst = 0;      // the SM's warp-instruction number (all its lines share it); 0: not from an SM
  // Reply-side fields.
  bool victim_bit = false;      // G-Cache: the LLC had this L1's victim bit set
  uint8_t chunks_returned = 0;  // chunks whose data the reply carries
  uint16_t words_returned = 0;  // 8 B words the reply carries when the read had a word_mask (else 0)
  bool llc_hit = false;         // the LLC served it without DRAM
  // Routing scratch for interconnects: each hop pushes its input port on the way in and pops it on the
  // way back, so nested networks (two-stage crossbars) need no lookup tables.
  static constexpr int kMaxHops = 6;
  uint16_t route[kMaxHops] = {};
  uint8_t hops = 0;
  // L1 scratch for a load waiting on several fills (sectored designs): the chunks it still lacks.
  uint16_t wait_mask = 0;
  // Free-form link for blocks that fan one request into another (L1 MSHR fill -> waiting requests).
  void* owner_cookie = nullptr;
  // The originator's own records of this request (the SM: its line slot, instruction record and the two
  // host cache lines of its warp; an
  // LLC slice's DRAM fetch: the line's state, miss slot and waiters), for whoever handles the response to
  // prefetch before it runs into them. Hints, never read through; null where the originator gives none.
  static constexpr int kOriginHints = 4;
  const void* origin_state[kOriginHints] = {};

  void push_route(uint16_t port) { route[hops++] = port; }
  uint16_t pop_route() { return route[--hops]; }

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
  void reset() { *this = MemReq(); }
};

// The extension of a payload that must carry one (all GPUMemSys-originated payloads do).
MemReq& req_of(tlm::tlm_generic_payload& t);
// nullptr for payloads from foreign initiators (a VP CPU, an RTL transactor).
MemReq* find_req(tlm::tlm_generic_payload& t);
const MemReq* find_req(const tlm::tlm_generic_payload& t);

inline uint64_t line_of(uint64_t addr) {
  return addr & ~uint64_t(kLineBytes - 1);
}
inline unsigned chunk_of(uint64_t addr) {
  return unsigned(addr % kLineBytes) / kChunkBytes;
}
inline int popcount8(uint8_t m) {
  return __builtin_popcount(m);
}

constexpr unsigned kWordBytes = 8;  // granule of MemReq::word_mask
// The 8 B words of the 32 B chunks in `chunks`.
inline uint16_t words_of_chunks(uint8_t chunks) {
  uint16_t w = 0;
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (chunks >> c & 1u) w = uint16_t(w | 0xFu << (4 * c));
  return w;
}
// The 32 B chunks that hold any of `words`.
inline uint8_t chunks_of_words(uint16_t words) {
  uint8_t c = 0;
  for (unsigned i = 0; i < kChunksPerLine; ++i)
    if (words >> (4 * i) & 0xFu) c = uint8_t(c | 1u << i);
  return c;
}
// Data bytes a read reply carries: its words when the read named words, else its 32 B chunks.
inline uint32_t reply_bytes(const MemReq& r) {
  return r.words_returned ? kWordBytes * uint32_t(__builtin_popcount(r.words_returned))
                          : kChunkBytes * uint32_t(popcount8(r.chunks_returned));
}
// 32 B packets of such a reply (the interconnect's unit, paper 000 sec. 3.5): at least one.
inline uint32_t reply_packets(const MemReq& r) {
  const uint32_t b = reply_bytes(r);
  return b ? (b + kChunkBytes - 1) / kChunkBytes : 1;
}

}  // namespace gms
