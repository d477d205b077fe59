// Warp's templates (simt_warp.h).
#pragma once
#include <cstring>
#include <type_traits>

namespace gms::kernels {

template <class T>
Lanes<T> Warp::load(uint32_t pc, DeviceArray<T>& a, const Int& idx) {
  int64_t step = 0;
  if (progression(idx, a.size(), a.base(), sizeof(T), step)) {  // every lane, a constant step: the ends
    Lanes<T> r{typename Lanes<T>::Uninit{}};                    // are the bounds, the addresses two numbers
    begin(pc, MemKind::Load, sizeof(T), idx.deps);
    const T* p = a.host().data() + idx.v[0];
    if (step == 1)
      std::memcpy(r.v.data(), p, sizeof r.v);
    else
      for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = p[int64_t(l) * step];
    loaded(r.deps);
    return r;
  }
  if (mask_ == ~0u && vec::all_below(idx.v.data(), a.size())) {  // every lane, one bounds check
    Lanes<T> r{typename Lanes<T>::Uninit{}};
    begin(pc, MemKind::Load, sizeof(T), idx.deps);
    const T* data = a.host().data();
    for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = data[idx.v[l]];
    addresses(a.base(), sizeof(T), idx);
    loaded(r.deps);
    return r;
  }
  Lanes<T> r;
  if (!begin(pc, MemKind::Load, sizeof(T), idx.deps)) return r;
  for (uint32_t b = mask_; b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    r.v[l] = a.at(idx.v[l]);
    inst_.addr[l] = a.address(uint64_t(idx.v[l]));
  }
  loaded(r.deps);
  return r;
}

template <class T, class V>
void Warp::store(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value) {
  RegSet deps = idx.deps;
  deps |= detail::deps_of(value);
  if (!begin(pc, MemKind::Store, sizeof(T), deps)) return;
  // Lane order: the highest lane wins a conflict, as on hardware.
  int64_t step = 0;
  if (progression(idx, a.size(), a.base(), sizeof(T), step)) {
    T* p = a.host().data() + idx.v[0];
    if constexpr (std::is_same_v<std::decay_t<V>, Lanes<T>>) {
      if (step == 1) {
        std::memcpy(p, value.v.data(), sizeof value.v);
        finish();
        return;
      }
    }
    for (unsigned l = 0; l < kWarpSize; ++l) p[int64_t(l) * step] = T(detail::lane(value, l));
  } else if (mask_ == ~0u && vec::all_below(idx.v.data(), a.size())) {  // every lane, one bounds check
    T* data = a.host().data();
    for (unsigned l = 0; l < kWarpSize; ++l) data[idx.v[l]] = T(detail::lane(value, l));
    addresses(a.base(), sizeof(T), idx);
  } else {
    for (uint32_t b = mask_; b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      a.at(idx.v[l]) = T(detail::lane(value, l));
      inst_.addr[l] = a.address(uint64_t(idx.v[l]));
    }
  }
  finish();
}

template <class T, class F>
Lanes<T> Warp::atomic(uint32_t pc, DeviceArray<T>& a, const Int& idx, const RegSet& value_deps, F op) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "global atomics are of 4- or 8-byte elements");
  Lanes<T> r;
  RegSet deps = idx.deps;
  deps |= value_deps;
  if (!begin(pc, MemKind::Atomic, sizeof(T), deps)) return r;
  for (uint32_t b = mask_; b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    T& e = a.at(idx.v[l]);
    r.v[l] = e;
    e = op(e, l);
    inst_.addr[l] = a.address(uint64_t(idx.v[l]));
  }
  loaded(r.deps);
  return r;
}

template <class T>
Lanes<T> Warp::shared_load(std::vector<T>& s, const Int& idx) {
  Lanes<T> r;
  r.deps = idx.deps;
  for (uint32_t b = mask_; b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    if (idx.v[l] < 0 || uint64_t(idx.v[l]) >= s.size()) shared_out_of_range(idx.v[l], s.size());
    r.v[l] = s[size_t(idx.v[l])];
  }
  gap_ += mask_ ? 1 : 0;
  return r;
}

template <class T, class V>
void Warp::shared_store(std::vector<T>& s, const Int& idx, const V& value) {
  for (uint32_t b = mask_; b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    if (idx.v[l] < 0 || uint64_t(idx.v[l]) >= s.size()) shared_out_of_range(idx.v[l], s.size());
    s[size_t(idx.v[l])] = T(detail::lane(value, l));
  }
  gap_ += mask_ ? 1 : 0;
}

template <class F>
void Warp::if_(const Bool& c, F&& then) {
  const uint32_t saved = mask_;
  depend(c.deps);
  mask_ &= lanes_of(c);
  if (mask_) then();
  mask_ = saved & ~off();
}

template <class F, class G>
void Warp::if_else(const Bool& c, F&& then, G&& otherwise) {
  const uint32_t saved = mask_, taken = lanes_of(c);
  depend(c.deps);
  mask_ = saved & taken;
  if (mask_) then();
  mask_ = saved & ~taken & ~off();
  if (mask_) otherwise();
  mask_ = saved & ~off();
}

template <class C, class B>
void Warp::while_(C&& cond, B&& body) {
  const uint32_t saved = mask_, saved_brk = brk_, saved_cont = cont_;
  brk_ = 0;
  for (;;) {
    cont_ = 0;
    mask_ = saved & ~off();
    if (!mask_) break;
    const Bool c = cond();
    depend(c.deps);
    mask_ &= lanes_of(c);
    if (!mask_) break;
    body();
  }
  brk_ = saved_brk;
  cont_ = saved_cont;
  mask_ = saved & ~off();
}

template <class B>
void Warp::for_(const Int& from, const Int& to, const Int& step, B&& body) {
  Int i = from;
  while_([&] { return i < to; },
         [&] {
           body(static_cast<const Int&>(i));
           const uint32_t in_loop = mask_ | cont_;  // lanes that continued still step
           for (uint32_t b = in_loop; b; b &= b - 1) {
             const unsigned l = unsigned(__builtin_ctz(b));
             i.v[l] += step.v[l];
           }
           i.deps |= step.deps;
         });
}

}  // namespace gms::kernels
