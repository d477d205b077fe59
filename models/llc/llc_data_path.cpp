#include "models/llc/llc_data_path.h"

#include <cstring>

#include "models/common/payload_pool.h"

namespace gms {

namespace {

unsigned ctz128(ByteMask m) {
  uint64_t lo = uint64_t(m);
  return lo ? unsigned(__builtin_ctzll(lo)) : 64 + unsigned(__builtin_ctzll(uint64_t(m >> 64)));
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
      a.bytes = 0;
      for (unsigned j = 0; j < a.length; ++j)
        if (be[j % be_len] == TLM_BYTE_ENABLED) a.bytes |= ByteMask(1) << (a.offset + j);
    }
    a.sectors = touched_sectors(a.bytes);
  } else {
    uint8_t sectors = touched_sectors(range);
    if (const MemReq* r = find_req(t))
      if (r->chunk_mask & sectors) sectors &= r->chunk_mask;
    a.sectors = sectors;
    a.bytes = sector_bytes(sectors) & range;
  }
  a.ok = true;
  return a;
}

void copy_masked(uint8_t* dst, unsigned dst_offset, const uint8_t* src, unsigned src_offset, ByteMask m) {
  while (m) {
    const unsigned a = ctz128(m);
    const ByteMask rest = ~(m >> a);
    const unsigned len = rest ? ctz128(rest) : kLineBytes - a;
    std::memcpy(dst + (a - dst_offset), src + (a - src_offset), len);
    m &= ~range_bytes(a, len);
  }
}

void make_writeback(tlm::tlm_generic_payload& t, uint64_t line, const uint8_t* data, ByteMask dirty) {
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(line);
  t.set_data_length(kLineBytes);
  t.set_streaming_width(kLineBytes);
  std::memcpy(t.get_data_ptr(), data, kLineBytes);
  unsigned char* be = PayloadPool::enable_bytes(t);
  for (unsigned i = 0; i < kLineBytes; ++i)
    if ((dirty >> i) & 1) be[i] = TLM_BYTE_ENABLED;
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
