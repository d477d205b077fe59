#include "models/dram/dram_probes.h"

namespace gms {

void DramProbes::attach(VcdWriter* vcd, const std::string& block, unsigned banks) {
  if (!vcd) return;
  queue_.attach(vcd, block, "queue");
  command_.attach(vcd, block, "command");
  command_bank_.attach(vcd, block, "command_bank");
  row_hits_.attach(vcd, block, "row_hits");
  row_misses_.attach(vcd, block, "row_misses");
  row_conflicts_.attach(vcd, block, "row_conflicts");
  banks_.resize(banks);
  for (unsigned b = 0; b < banks; ++b) {
    const std::string scope = block + ".bank" + std::to_string(b);
    banks_[b].state.attach(vcd, scope, "state");
    banks_[b].row.attach(vcd, scope, "row");
  }
}

void DramProbes::command(const IssueResult& r, const sc_core::sc_time& cycle) {
  command_.pulse(uint8_t(r.cmd), cycle);
  command_bank_.set(r.req.bank);
  Bank& b = banks_.at(r.req.bank);
  if (r.cmd == DramCommand::Act) {
    b.state.set(1);
    b.row.set(uint32_t(r.req.row));
  } else if (r.cmd == DramCommand::Pre) {
    b.state.set(0);
  }
}

}  // namespace gms
