// Sources of the default coefficients (docs/blocks/noc.md "Energy" discusses them):
// - wire_pj_per_bit_mm 0.15: Keckler et al., "GPUs and the Future of Parallel Computing", IEEE Micro 31(5),
//   2011, give 1.2 nJ for a 256-bit bus over 20 mm at 40 nm (0.23 pJ/bit/mm); repeated global wires scale
//   slowly with the node, 0.15 at 22 nm is our assumption, the order DSENT's repeated-wire model gives.
// - buffer_*_pj_per_bit, allocator_pj, bypass_pj_per_bit: register-file FIFO and arbiter energies of the
//   order Orion 2.0 (Kahng et al., DATE 2009) and DSENT (Sun et al., NOCS 2012) report for 22-32 nm routers;
//   assumptions of that order, not a DSENT run.
// - crossbar_pj_per_bit_port 0.01: a 5-port 128-bit mesh router's switch then costs ~13 pJ per flit, the
//   order Orion 2.0 and DSENT give for matrix crossbars at 22-45 nm; it grows with the radix, as theirs do.
// - leakage per bit: 20 nW per flip-flop bit, 2 nW per crosspoint bit, the order of 22 nm standard cells.
// - long_link_mm 12.3: paper 004 section 5 (half the Pascal die); short_link_mm 1.0: our assumption.
#include "models/noc/router/noc_energy.h"

namespace gms {

EnergyParams EnergyParams::from(const ConfigNode& n) {
  EnergyParams p;
  p.wire_pj_per_bit_mm = n.get_double("wire_pj_per_bit_mm", p.wire_pj_per_bit_mm, 0.0, 1e6);
  p.buffer_write_pj_per_bit = n.get_double("buffer_write_pj_per_bit", p.buffer_write_pj_per_bit, 0.0, 1e6);
  p.buffer_read_pj_per_bit = n.get_double("buffer_read_pj_per_bit", p.buffer_read_pj_per_bit, 0.0, 1e6);
  p.crossbar_pj_per_bit_port = n.get_double("crossbar_pj_per_bit_port", p.crossbar_pj_per_bit_port, 0.0, 1e6);
  p.allocator_pj = n.get_double("allocator_pj", p.allocator_pj, 0.0, 1e6);
  p.bypass_pj_per_bit = n.get_double("bypass_pj_per_bit", p.bypass_pj_per_bit, 0.0, 1e6);
  p.buffer_leak_nw_per_bit = n.get_double("buffer_leak_nw_per_bit", p.buffer_leak_nw_per_bit, 0.0, 1e9);
  p.crossbar_leak_nw_per_bit = n.get_double("crossbar_leak_nw_per_bit", p.crossbar_leak_nw_per_bit, 0.0, 1e9);
  p.short_link_mm = n.get_double("short_link_mm", p.short_link_mm, 0.0, 1e4);
  p.long_link_mm = n.get_double("long_link_mm", p.long_link_mm, 0.0, 1e4);
  n.finish();
  return p;
}

}  // namespace gms
