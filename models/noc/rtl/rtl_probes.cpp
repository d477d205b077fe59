#include "models/noc/rtl/rtl_probes.h"

#include <verilated.h>
#include <verilated_syms.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <systemc>

#include "models/common/vcd_writer.h"

namespace gms {

// Values are read by copying their bytes into a uint64_t: Verilator stores wide vectors as 32-bit words,
// least significant first, so 64 bits of one are two consecutive words on a little-endian host.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "RtlProbes reads Verilator's storage little-endian");

void RtlProbes::attach(VcdWriter* vcd, const std::string& vcd_scope, const std::string& verilated_scope) {
  if (!vcd) return;
  const VerilatedScope* scope = Verilated::threadContextp()->scopeFind(verilated_scope.c_str());
  if (!scope || !scope->varsp())
    throw std::logic_error("RTL probes: no public signals in Verilated scope " + verilated_scope);
  vcd_ = vcd;
  for (const auto& [name, var] : *scope->varsp()) {
    if (var.udims() > 1)
      throw std::logic_error(std::string("RTL probes: ") + name + ": one unpacked dimension at most");
    const unsigned width = unsigned(var.packed().elements());
    const unsigned elems = var.udims() ? unsigned(var.unpacked().elements()) : 1;
    const size_t stride = var.entSize();
    for (unsigned e = 0; e < elems; ++e) {
      // Verilator stores element low + e at position e, whichever way the Verilog declares the range.
      const int index = var.udims() ? var.unpacked().low() + int(e) : 0;
      const std::string elem = var.udims() ? std::string(name) + "(" + std::to_string(index) + ")" : name;
      const auto* base = static_cast<const unsigned char*>(var.datap()) + e * stride;
      for (unsigned lo = 0; lo < width; lo += 64) {  // 64-bit slices of a wider vector
        const unsigned w = std::min(64u, width - lo);
        const std::string n =
            width <= 64 ? elem : elem + "(" + std::to_string(lo + w - 1) + ":" + std::to_string(lo) + ")";
        const unsigned bytes = width <= 64 ? unsigned(stride) : w > 32 ? 8u : 4u;  // wide: whole words
        vars_.push_back({base + lo / 8, bytes, w, vcd->declare(vcd_scope, n, w)});
      }
    }
  }
}

void RtlProbes::sample() const {
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (const Var& v : vars_) {
    uint64_t x = 0;
    std::memcpy(&x, v.data, v.bytes);
    if (v.width < 64) x &= (uint64_t(1) << v.width) - 1;
    vcd_->set(v.id, x, now);
  }
}

}  // namespace gms
