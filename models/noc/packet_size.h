// Payload bytes a request or reply packet carries, shared by every topology (header bytes come on top,
// NocParams::ctrl_bytes). GPUMemSys payloads carry data for the 32 B chunks in MemReq's masks; foreign
// payloads (no MemReq) carry their data_length.
#pragma once
#include <tlm.h>

#include <cstdint>

namespace gms {

// Read request 0; write request 32 x popcount(chunk_mask).
uint32_t request_data_bytes(const tlm::tlm_generic_payload& t);
// Read reply 32 x popcount(chunks_returned), or 8 x popcount(words_returned) for a word read; write 0.
uint32_t reply_data_bytes(const tlm::tlm_generic_payload& t);

}  // namespace gms
