// Pieces of mummergpuKernel's walk that MUMmerGPU 1.0 (ispass/mum) and 2.0 (rodinia/mummergpu) run alike,
// over their own arrays and with their own PTX counts and PCs: the switch on the read's base and the
// character-by-character match along an edge.
#pragma once
#include <cstdint>
#include <functional>

#include "tb/kernels/port_kernel.h"

namespace gms::kernels::mummer {

// dst = src in the active lanes; dst keeps src's dependences (its latest assignment).
template <class T>
void assign(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps = src.deps;
}

// switch (c) over 'A', 'C', 'G', 'T' as nvcc lowers it (c <= 'F', then an equality test a case), its cases as
// the warp's lanes take them: PTX instructions of the switch, each test and each case. no_case: the block
// 2.0's PTX runs when c is neither A nor C (1.0's has none).
struct SwitchCosts {
  uint32_t entry, low, a, c_test, c, high, g, t_test, t;
  bool has_no_case;
  uint32_t no_case;
};
void switch_base(Warp& w, const Int& c, const SwitchCosts& k);

// The match along an edge: while refpos <= end and the read goes on, compare the reference's character
// (ref_char, a load) with c; on a match advance qml and refpos and load the read's next character
// (queries[qbase + qml]). Costs: the loop's test, the first iteration's entry, each iteration's work before
// the reference load, after it, the advance, the loop back and the exit without a mismatch.
struct EdgeMatch {
  uint32_t test, entry, per_char, compare, advance, loop, exit;
  uint32_t pc_char;  // the read's character load
};
void match_edge(Warp& w, const EdgeMatch& k, const std::function<Int(const Int& refpos)>& ref_char,
                DeviceArray<char>& queries, const Int& qbase, const Int& end, Int& qml, Int& refpos, Int& c,
                Bool& mismatch);

}  // namespace gms::kernels::mummer
