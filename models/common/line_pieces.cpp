#include "models/common/line_pieces.h"

#include <algorithm>
#include <vector>

#include "models/common/mem_req.h"

namespace gms {

unsigned for_each_line_piece(tlm::tlm_generic_payload& t,
                             const std::function<unsigned(tlm::tlm_generic_payload& piece)>& serve) {
  const uint64_t addr = t.get_address();
  const unsigned len = t.get_data_length();
  unsigned char* data = t.get_data_ptr();
  const unsigned char* be = t.get_byte_enable_ptr();
  const unsigned be_len = be ? t.get_byte_enable_length() : 0;
  std::vector<unsigned char> piece_be;
  unsigned done = 0;
  for (unsigned first = 0; first < len;) {
    // One line's part of the access: from addr + first up to the next line boundary.
    const uint64_t a = addr + first;
    const unsigned n = unsigned(std::min<uint64_t>(len - first, kLineBytes - (a & (kLineBytes - 1))));
    tlm::tlm_generic_payload piece;
    piece.set_command(t.get_command());
    piece.set_address(a);
    piece.set_data_ptr(data + first);
    piece.set_data_length(n);
    piece.set_streaming_width(n);
    if (be_len) {
      piece_be.resize(n);
      for (unsigned i = 0; i < n; ++i) piece_be[i] = be[(first + i) % be_len];
      piece.set_byte_enable_ptr(piece_be.data());
      piece.set_byte_enable_length(n);
    }
    const unsigned got = serve(piece);
    done += got;
    if (got < n) break;
    first += n;
  }
  return done;
}

}  // namespace gms
