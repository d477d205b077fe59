// One instruction line of an Accel-Sim kernel trace (kernel-N.traceg), parsed and classified:
//   [tb x y z warp (version < 3)] [line_num (lineinfo)] PC mask ndst dst... opcode nsrc src... width
//   [mode addresses...] [imm (version >= 5)]
// Address modes: 0 list (one per active lane), 1 base + stride, 2 base + deltas (popcount - 1 of them, as
// the tracer writes them). docs/accelsim-import.md has the details and what each opcode becomes.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/workload.h"

namespace gms {

class LineReader;

// What an instruction becomes in the model.
enum class AccelOp : uint8_t {
  Load,         // LDG*: a warp-level global load
  Store,        // STG*: a warp-level global store
  Compute,      // everything else the model does not see as global memory traffic: one gap cycle
  Atomic,       // ATOMG / ATOM / RED / REDG of 4 or 8 bytes: a global atomic, performed at the LLC
  Unsupported,  // a global-memory instruction the model cannot replay (LDGSTS, other widths, ...): counted,
                // one gap
  Exit,         // EXIT
  Barrier,      // BAR.SYNC (__syncthreads): the warp waits for its CTA's other warps (BAR.ARV is compute)
};

// Tracer versions this importer reads (-accelsim tracer version): 1 and 2 with thread block and warp ids on
// every line, 3, 4 (optional line numbers), 5 (a trailing immediate). Others are rejected.
constexpr unsigned kAccelMinVersion = 1, kAccelMaxVersion = 5;

// How the lines of one kernel are laid out (from its header).
struct AccelInstFormat {
  unsigned version = 5;   // -accelsim tracer version
  bool lineinfo = false;  // -enable lineinfo
};

struct AccelInst {
  uint64_t pc = 0;
  uint32_t mask = 0;  // active AND predicate mask
  uint32_t width = 0;
  AccelOp op = AccelOp::Compute;
  std::string_view opcode;                 // the full opcode with modifiers (a view into the parsed line)
  std::string_view mnemonic;               // the opcode up to the first '.'
  std::array<uint64_t, kWarpSize> addr{};  // per lane; 0 for inactive lanes or without addresses
  RegSet dsts, srcs;                       // general registers written and read (as listed in the line)
};

// Classifies an opcode (with modifiers) given its memory width.
AccelOp classify_accelsim_opcode(std::string_view opcode, uint32_t width);

// Parses one instruction line; errors go through `where.fail(...)` (the reader's current line).
// `tokens` is scratch space reused between calls.
void parse_accelsim_inst(const std::string& line, const AccelInstFormat& fmt, const LineReader& where,
                         std::vector<std::string_view>& tokens, AccelInst& out);

// Strict number parsing for trace fields; false when the text is not entirely a number of that kind.
bool parse_hex_u64(std::string_view s, uint64_t& v);  // optional 0x prefix, at most 16 digits
bool parse_dec_u64(std::string_view s, uint64_t& v);
bool parse_dec_i64(std::string_view s, int64_t& v);

}  // namespace gms
