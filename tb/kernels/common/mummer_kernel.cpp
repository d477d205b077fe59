// The MUMmerGPU ports' shared walk pieces (mummer_kernel.h).
#include "tb/kernels/common/mummer_kernel.h"

namespace gms::kernels::mummer {

void switch_base(Warp& w, const Int& c, const SwitchCosts& k) {
  w.compute(k.entry);
  w.if_(c <= int64_t('F'), [&] {
    w.compute(k.low);
    w.if_(c == int64_t('A'), [&] { w.compute(k.a); });
    w.if_(c != int64_t('A'), [&] {
      w.compute(k.c_test);
      w.if_(c == int64_t('C'), [&] { w.compute(k.c); });
      if (k.has_no_case) w.if_(c != int64_t('C'), [&] { w.compute(k.no_case); });
    });
  });
  w.if_(c > int64_t('F'), [&] {
    w.compute(k.high);
    w.if_(c == int64_t('G'), [&] { w.compute(k.g); });
    w.if_(c != int64_t('G'), [&] {
      w.compute(k.t_test);
      w.if_(c == int64_t('T'), [&] { w.compute(k.t); });
    });
  });
}

void match_edge(Warp& w, const EdgeMatch& k, const std::function<Int(const Int& refpos)>& ref_char,
                DeviceArray<char>& queries, const Int& qbase, const Int& end, Int& qml, Int& refpos, Int& c,
                Bool& mismatch) {
  w.compute(k.test);
  bool first_char = true;
  w.while_([&] { return refpos <= end && c != 0; },
           [&] {
             w.compute(first_char ? k.entry + k.per_char : k.per_char);
             first_char = false;
             const Int r = ref_char(refpos);
             w.compute(k.compare);
             assign(w, mismatch, r != c);
             w.break_if(mismatch);
             w.compute(k.advance);
             assign(w, qml, qml + 1);
             assign(w, refpos, refpos + 1);
             assign(w, c, w.load(k.pc_char, queries, qbase + qml).as<int64_t>());
             w.compute(k.loop);
           });
  w.if_(!mismatch, [&] { w.compute(k.exit); });
}

}  // namespace gms::kernels::mummer
