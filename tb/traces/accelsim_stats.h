// What the Accel-Sim importer read: per kernel and in total, the trace's instructions and what they became
// (loads, stores, compute gap cycles, unsupported), the MemcpyHtoD lines skipped, and every unsupported
// opcode with its count. Printed by report() and, once attach()ed, part of the statistics tree as group
// `accelsim` (formulas; per kernel a child group `k<i>`).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "models/common/stats.h"

namespace gms {

struct AccelKernelCounts {
  std::string name;  // kernel name from the header
  std::string file;  // trace file as named in kernelslist.g
  uint64_t ctas = 0;
  uint64_t trace_insts = 0;     // instruction lines read
  uint64_t loads = 0;           // warp-level global loads (LDG*) replayed
  uint64_t stores = 0;          // warp-level global stores (STG*) replayed
  uint64_t atomics = 0;         // warp-level global atomics (ATOMG, ATOM, RED, REDG) replayed
  uint64_t compute = 0;         // instructions turned into gap cycles (incl. shared/local memory, EXIT)
  uint64_t unsupported = 0;     // global-memory instructions not replayed (also one gap cycle each)
  uint64_t predicated_off = 0;  // LDG/STG with an all-zero mask (one gap cycle each)
  uint64_t exits = 0;
  uint64_t mem_insts() const { return loads + stores + atomics; }
  void add(const AccelKernelCounts& o);
};

class AccelImportStats {
 public:
  AccelImportStats() = default;
  AccelImportStats(const AccelImportStats&) = delete;
  AccelImportStats& operator=(const AccelImportStats&) = delete;

  // A kernel begins; the reference stays valid for the life of this object.
  AccelKernelCounts& begin_kernel(const std::string& name, const std::string& file);
  void count_unsupported(std::string_view mnemonic);
  void count_memcpy() { ++memcpys_; }

  uint64_t memcpys() const { return memcpys_; }
  const std::deque<AccelKernelCounts>& kernels() const { return kernels_; }
  const std::map<std::string, uint64_t>& unsupported() const { return unsupported_; }
  AccelKernelCounts total() const;

  // Adds group `accelsim` below `parent` (kernels and opcodes seen later are added as they come).
  void attach(StatGroup& parent);
  // A few lines: per kernel and total counts, then the unsupported opcodes ("none" when there are none).
  void report(std::ostream& os) const;

 private:
  void add_kernel_group(size_t index);
  void add_opcode_formula(const std::string& mnemonic);

  uint64_t memcpys_ = 0;
  std::deque<AccelKernelCounts> kernels_;
  std::map<std::string, uint64_t> unsupported_;
  std::unique_ptr<StatGroup> group_;
  std::deque<StatGroup> kernel_groups_;
};

}  // namespace gms
