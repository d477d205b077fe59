// Programs of a multi-program run must use disjoint memory: each has its own golden memory, so a store of
// one program to memory the other reads looks like wrong data (hundreds of "data mismatches"), which is
// the input's fault, not the model's. Overlap is bad input (exit 2) naming both programs and the range:
// found before the run where both workloads declare their footprint (Workload::footprint, first_overlap),
// otherwise (traces) at the first instruction of one program that touches a 128 B line another program
// touched (ProgramFootprints, fed by guard_footprint as the SM pulls each instruction).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/common/workload.h"

namespace gms {

// The first common part of two footprints, both widened to whole 128 B lines (the run-time check's unit).
std::optional<AddressRange> first_overlap(const std::vector<AddressRange>& a,
                                          const std::vector<AddressRange>& b);

// "[0x1000, 0x2000)"
std::string to_string(const AddressRange& r);

// Which program first touched each line (shared by all programs of a run).
class ProgramFootprints {
 public:
  // `names[i]` names program i in messages (e.g. "'streamer' (programs[0])"); `source`: the programs file.
  ProgramFootprints(std::string source, std::vector<std::string> names);
  // Program `program` accesses bytes [addr, addr + bytes): a ConfigError when one of their lines was
  // touched by another program.
  void touch(unsigned program, uint64_t addr, unsigned bytes);

 private:
  static constexpr unsigned kLinesPerPage = 32;  // 4 KiB pages: one small array per page touched
  std::string source_;
  std::vector<std::string> names_;
  std::unordered_map<uint64_t, std::array<uint16_t, kLinesPerPage>> owner_;  // page -> program + 1 per line
};

// `inner` with every active lane of every instruction passed to footprints->touch(program, ...).
std::unique_ptr<Workload> guard_footprint(std::unique_ptr<Workload> inner,
                                          std::shared_ptr<ProgramFootprints> footprints, unsigned program);

}  // namespace gms
