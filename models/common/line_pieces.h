// Debug (transport_dbg) accesses that span several 128 B lines go to whichever blocks serve each line: an
// interconnect routes each line to its slice, the memory system's host socket to the slices holding it.
// for_each_line_piece cuts such an access into one payload per line, with the byte-enable pattern carried
// on from each piece's offset (TLM: the pattern repeats over the data).
#pragma once
#include <tlm.h>

#include <functional>

namespace gms {

// Calls serve(piece) for each line's part of t, in address order; serve returns the bytes it transferred.
// Stops after a piece served short (a target that served less ends the access there). Returns the bytes
// transferred in all. t's command, data pointer and length are used as they are (the caller checks them).
unsigned for_each_line_piece(tlm::tlm_generic_payload& t,
                             const std::function<unsigned(tlm::tlm_generic_payload& piece)>& serve);

}  // namespace gms
