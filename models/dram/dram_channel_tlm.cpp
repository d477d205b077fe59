// DramChannel: payload decoding, data movement, and the untimed interfaces (b_transport, transport_dbg,
// DMI). The timed controller lives in dram_channel.cpp.
#include <algorithm>

#include "models/common/atomic_add.h"
#include "models/common/mem_req.h"
#include "models/dram/dram_channel.h"

namespace gms {

bool DramChannel::describe(tlm::tlm_generic_payload& t, DramRequest& r) const {
  const tlm::tlm_command cmd = t.get_command();
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  const uint64_t addr = t.get_address();
  const unsigned len = t.get_data_length();
  const unsigned sw = t.get_streaming_width();
  // One request = a range inside one 128 B line (a GPU line request or a foreign access).
  if (len == 0 || line_of(addr) != line_of(addr + len - 1) || (sw != 0 && sw < len) || !t.get_data_ptr()) {
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (map_.channel_of(addr) != channel_id_) {
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  uint8_t range = 0;
  for (unsigned k = chunk_of(addr); k <= chunk_of(addr + len - 1); ++k) range |= uint8_t(1u << k);
  const MemReq* m = find_req(t);
  // A GPU request names its chunks; a zero mask (or a foreign payload) means the whole range.
  uint8_t chunks = (m && m->chunk_mask) ? uint8_t(m->chunk_mask & range) : range;
  if (!chunks) {
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  const unsigned per_burst = p_.burst_bytes() / kChunkBytes;
  const uint8_t group = uint8_t((1u << per_burst) - 1);
  unsigned bursts = 0;
  for (unsigned k = 0; k < kChunksPerLine; k += per_burst)
    if (chunks & (group << k)) ++bursts;
  const DramCoord co = decode(addr);
  r.t = &t;
  r.addr = addr;
  r.line = line_of(addr);
  r.row = co.row;
  r.bank = co.bank;
  r.len = len;
  r.chunks = chunks;
  r.bursts = uint8_t(bursts);
  r.write = (cmd == tlm::TLM_WRITE_COMMAND);
  return true;
}

// An atomic (a write whose enabled bytes are operands, docs/atomics.md): the channel adds them to memory
// and hands back the old bytes, in one step (no other request sees a half-done update).
void DramChannel::atomic_transfer(const DramRequest& r, unsigned width) {
  tlm::tlm_generic_payload& t = *r.t;
  uint8_t* data = t.get_data_ptr();
  const uint8_t* be = t.get_byte_enable_ptr();
  const unsigned be_len = be ? t.get_byte_enable_length() : 0;
  uint8_t mem[kLineBytes], enabled[kLineBytes];
  store_.read(r.addr, mem, r.len);
  for (unsigned i = 0; i < r.len; ++i) enabled[i] = be_len ? be[i % be_len] : TLM_BYTE_ENABLED;
  atomic_add_elements(
      mem, data, r.len, width, [&](unsigned i) { return enabled[i] != 0; }, data);
  store_.write(r.addr, mem, r.len, enabled);
  if (MemReq* m = find_req(t)) m->chunks_returned = r.chunks;
}

void DramChannel::transfer(const DramRequest& r) {
  tlm::tlm_generic_payload& t = *r.t;
  if (r.write)
    if (const MemReq* m = find_req(t); m && m->kind == MemKind::Atomic && r.len <= kLineBytes)
      return atomic_transfer(r, m->atomic_width == 8 ? 8 : 4);
  uint8_t* data = t.get_data_ptr();
  const uint8_t* be = t.get_byte_enable_ptr();
  const unsigned be_len = be ? t.get_byte_enable_length() : 0;
  // Offsets in the line (the request lies inside one line): r.addr + r.len is 0 for the last line.
  const unsigned first = unsigned(r.addr - r.line), end = first + r.len;
  // One store access per run of adjacent chunks (a whole line is one run).
  for (unsigned k = 0; k < kChunksPerLine;) {
    if (!(r.chunks & (1u << k))) {
      ++k;
      continue;
    }
    unsigned k_end = k + 1;
    while (k_end < kChunksPerLine && (r.chunks & (1u << k_end))) ++k_end;
    const unsigned lo_off = std::max(k * kChunkBytes, first), hi_off = std::min(k_end * kChunkBytes, end);
    k = k_end;
    const uint64_t lo = r.line + lo_off;
    unsigned off = lo_off - first, n = hi_off - lo_off;
    if (!r.write) {
      store_.read(lo, data + off, n);
    } else if (!be_len) {
      store_.write(lo, data + off, n, nullptr);
    } else if (be_len >= off + n) {
      store_.write(lo, data + off, n, be + off);
    } else {  // a short byte-enable pattern repeats over the data (TLM rule)
      uint8_t mask[kLineBytes];
      for (unsigned i = 0; i < n; ++i) mask[i] = be[(off + i) % be_len];
      store_.write(lo, data + off, n, mask);
    }
  }
}

void DramChannel::b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
  DramRequest r;
  if (!describe(t, r)) return;
  transfer(r);
  if (!r.write)
    if (MemReq* m = find_req(t)) m->chunks_returned = r.chunks;
  t.set_dmi_allowed(true);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  d += functional_latency();
}

unsigned DramChannel::transport_dbg(int, tlm::tlm_generic_payload& t) {
  const unsigned len = t.get_data_length();
  uint8_t* data = t.get_data_ptr();
  if (!data) return 0;
  if (t.get_command() == tlm::TLM_READ_COMMAND) {
    store_.read(t.get_address(), data, len);
  } else if (t.get_command() == tlm::TLM_WRITE_COMMAND) {
    const uint8_t* be = t.get_byte_enable_ptr();
    store_.write(t.get_address(), data, len, be && t.get_byte_enable_length() >= len ? be : nullptr);
  } else {
    return 0;
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  return len;
}

bool DramChannel::get_direct_mem_ptr(int, tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
  // Only over bytes this channel serves: the run of this channel's interleaving chunks around the address
  // inside its backing-store page (the whole page with one channel; one 256 B chunk with several), as
  // b_transport answers other channels' chunks with ADDRESS_ERROR.
  const uint64_t addr = t.get_address(), base = BackingStore::page_base(addr);
  const uint64_t chunk = std::min<uint64_t>(map_.params().interleave_bytes, BackingStore::kPageBytes);
  const uint64_t own = addr & ~(chunk - 1);
  if (map_.channel_of(addr) != channel_id_) {
    dmi.allow_none();
    dmi.set_start_address(own);
    dmi.set_end_address(own + chunk - 1);
    return false;
  }
  uint64_t lo = own, hi = own + chunk;
  while (lo > base && map_.channel_of(lo - chunk) == channel_id_) lo -= chunk;
  while (hi < base + BackingStore::kPageBytes && map_.channel_of(hi) == channel_id_) hi += chunk;
  dmi.set_dmi_ptr(store_.page(base) + (lo - base));
  dmi.set_start_address(lo);
  dmi.set_end_address(hi - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(functional_latency());
  dmi.set_write_latency(functional_latency());
  return true;
}

}  // namespace gms
