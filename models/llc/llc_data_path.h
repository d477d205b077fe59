// The LLC data path: what a request asks for (decode), and moving bytes between request payloads, the
// line store and DRAM payloads under byte masks. Payload byte j is line byte (offset + j).
#pragma once
#include <tlm.h>

#include <cstdint>

#include "models/llc/byte_mask.h"

namespace gms {

struct LlcAccess {
  bool ok = false;  // false: answer with `error`, touch nothing
  tlm::tlm_response_status error = tlm::TLM_OK_RESPONSE;
  bool write = false;
  uint64_t line = 0;    // line address
  unsigned offset = 0;  // first byte within the line
  unsigned length = 0;  // bytes of the transfer
  uint8_t sectors = 0;  // read: sectors requested; write: sectors with written bytes
  ByteMask bytes = 0;   // read: bytes to return; write: bytes to write (byte enables applied)
  uint16_t words = 0;   // read with a MemReq::word_mask: the 8 B words returned (whole sectors still fetched)
};

// A READ or WRITE within one 128 B line. A READ returns the sectors of MemReq::chunk_mask (all touched
// sectors when the payload has no MemReq or an empty mask) restricted to the transfer's range; with a
// MemReq::word_mask only those 8 B words are returned, while the sectors holding them are what is read.
LlcAccess decode_access(tlm::tlm_generic_payload& t);

// Line-indexed copy: dst[i - dst_offset] = src[i - src_offset] for every bit i of m.
void copy_masked(uint8_t* dst, unsigned dst_offset, const uint8_t* src, unsigned src_offset, ByteMask m);

inline void line_to_payload(tlm::tlm_generic_payload& t, unsigned offset, const uint8_t* line, ByteMask m) {
  copy_masked(t.get_data_ptr(), offset, line, 0, m);
}
inline void payload_to_line(uint8_t* line, const tlm::tlm_generic_payload& t, unsigned offset, ByteMask m) {
  copy_masked(line, 0, t.get_data_ptr(), offset, m);
}

// Fills a pooled line payload (address = line, 128 B) as a DRAM write-back of the `dirty` bytes of
// `data`: byte enables exactly on those bytes, chunk_mask = the sectors holding them.
void make_writeback(tlm::tlm_generic_payload& t, uint64_t line, const uint8_t* data, ByteMask dirty);
// Fills a pooled line payload as a DRAM read of `sectors` of line.
void make_fetch(tlm::tlm_generic_payload& t, uint64_t line, uint8_t sectors);

}  // namespace gms
