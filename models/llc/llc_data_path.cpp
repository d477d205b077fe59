#include "models/llc/llc_data_path.h"

#include <cstring>

#include "models/common/byte_enables.h"
#include "models/common/payload_pool.h"

namespace gms {

namespace {

// Line bytes [offset, offset + len) whose byte enable (be[j % be_len] for payload byte j) is set.
ByteMask enabled_bytes(const unsigned char* be, unsigned be_len, unsigned offset, unsigned len) {
  uint64_t w[2];
  enabled_bits(be, be_len, len, w);
  return (ByteMask(w[1]) << 64 | w[0]) << offset;
}

}  // namespace

LlcAccess decode_access(tlm::tlm_generic_payload& t) {
  LlcAccess a;
  const tlm::tlm_command cmd = t.get_command();
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) {
    a.error = tlm::TLM_COMMAND_ERROR_RESPONSE;
    return a;
  }
  a.write = cmd == tlm::TLM_WRITE_COMMAND;
  const uint64_t addr = t.get_address();
  a.line = line_of(addr);
  a.offset = unsigned(addr - a.line);
  a.length = t.get_data_length();
  if (a.length == 0 || a.offset + uint64_t(a.length) > kLineBytes || !t.get_data_ptr()) {
    a.error = tlm::TLM_BURST_ERROR_RESPONSE;  // the LLC serves one line per transaction
    return a;
  }
  if (t.get_streaming_width() != 0 && t.get_streaming_width() < a.length) {
    a.error = tlm::TLM_BURST_ERROR_RESPONSE;
    return a;
  }
  const ByteMask range = range_bytes(a.offset, a.length);
  if (a.write) {
    a.bytes = range;
    if (const unsigned char* be = t.get_byte_enable_ptr()) {
      const unsigned be_len = t.get_byte_enable_length();
      if (be_len == 0) {
        a.error = tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
        return a;
      }
      a.bytes = enabled_bytes(be, be_len, a.offset, a.length);
    }
    a.sectors = touched_sectors(a.bytes);
  } else {
    uint8_t sectors = touched_sectors(range);
    uint16_t words = 0;
    if (const MemReq* r = find_req(t)) {
      if (r->chunk_mask & sectors) sectors &= r->chunk_mask;
      if (r->word_mask) words = uint16_t(r->word_mask & words_of_chunks(sectors));
      if (words) sectors = chunks_of_words(words);
    }
    a.sectors = sectors;
    a.words = words;
    a.bytes = (words ? word_bytes_of(words) : sector_bytes(sectors)) & range;
  }
  a.ok = true;
  return a;
}

void copy_masked(uint8_t* dst, unsigned dst_offset, const uint8_t* src, unsigned src_offset, ByteMask m) {
  for_each_run(
      m, [&](unsigned a, unsigned len) { std::memcpy(dst + (a - dst_offset), src + (a - src_offset), len); });
}

void make_writeback(tlm::tlm_generic_payload& t, uint64_t line, const uint8_t* data, ByteMask dirty) {
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(line);
  t.set_data_length(kLineBytes);
  t.set_streaming_width(kLineBytes);
  std::memcpy(t.get_data_ptr(), data, kLineBytes);
  unsigned char* be = PayloadPool::enable_bytes(t);
  for_each_run(dirty, [be](unsigned a, unsigned len) { std::memset(be + a, TLM_BYTE_ENABLED, len); });
  MemReq& r = req_of(t);
  r.kind = MemKind::Writeback;
  r.line_addr = line;
  r.chunk_mask = touched_sectors(dirty);
}

void make_fetch(tlm::tlm_generic_payload& t, uint64_t line, uint8_t sectors) {
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(line);
  t.set_data_length(kLineBytes);
  t.set_streaming_width(kLineBytes);
  MemReq& r = req_of(t);
  r.kind = MemKind::Load;
  r.line_addr = line;
  r.chunk_mask = sectors;
}

}  // namespace gms
