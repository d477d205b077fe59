// Per-lane values of a warp in a kernel port: what a CUDA thread holds in a register, for the 32 threads of
// a warp at once, with the loads the value was computed from (`deps`). A value loaded from memory depends
// on the load's register; arithmetic unites its operands' dependences; an address, stored value or branch
// condition that depends on loads makes its instruction wait for them (the SM's scoreboard). Arithmetic
// runs on every lane, active or not (inactive lanes hold whatever they held; loads and stores read and write
// only active lanes), so operations that could trap are defined for every input (division by zero gives 0).
#pragma once
#include <array>
#include <cstdint>
#include <type_traits>

#include "models/common/reg_set.h"
#include "models/common/workload.h"

namespace gms::kernels {

template <class T>
struct Lanes {
  std::array<T, kWarpSize> v;  // zero unless made with Uninit
  RegSet deps;

  Lanes() : v{} {}
  Lanes(T x) { v.fill(x); }  // NOLINT: a scalar is the same value in every lane (as in CUDA)
  // Lanes left uninitialised, for results about to be written lane by lane.
  struct Uninit {};
  explicit Lanes(Uninit) {}
  T& operator[](unsigned lane) { return v[lane]; }
  const T& operator[](unsigned lane) const { return v[lane]; }
  // The same lanes converted to U (static_cast), with the same dependences.
  template <class U>
  Lanes<U> as() const {
    Lanes<U> r;
    for (unsigned i = 0; i < kWarpSize; ++i) r.v[i] = static_cast<U>(v[i]);
    r.deps = deps;
    return r;
  }
};

using Int = Lanes<int64_t>;
using Float = Lanes<float>;
using Bool = Lanes<bool>;

namespace detail {
template <class T>
struct IsLanes : std::false_type {};
template <class T>
struct IsLanes<Lanes<T>> : std::true_type {};
template <class T>
constexpr bool is_lanes = IsLanes<std::decay_t<T>>::value;

template <class T>
const T& lane(const T& x, unsigned) {
  return x;
}
template <class T>
const T& lane(const Lanes<T>& x, unsigned i) {
  return x.v[i];
}
template <class T>
RegSet deps_of(const T&) {
  return {};
}
template <class T>
RegSet deps_of(const Lanes<T>& x) {
  return x.deps;
}
template <class T>
struct Elem {
  using type = T;
};
template <class T>
struct Elem<Lanes<T>> {
  using type = T;
};
template <class T>
using elem_t = typename Elem<std::decay_t<T>>::type;

// f applied lane by lane to two operands, at least one of them Lanes. Inlined and vectorised: ports do most
// of their work here.
template <class A, class B, class F>
__attribute__((always_inline, optimize("tree-vectorize"))) inline auto zip(const A& a, const B& b, F f) {
  using R = decltype(f(elem_t<A>{}, elem_t<B>{}));
  Lanes<R> r{typename Lanes<R>::Uninit{}};
  for (unsigned i = 0; i < kWarpSize; ++i) r.v[i] = f(lane(a, i), lane(b, i));
  r.deps = deps_of(a);
  r.deps |= deps_of(b);
  return r;
}
template <class A, class B>
using EnableLanes = std::enable_if_t<is_lanes<A> || is_lanes<B>, int>;
}  // namespace detail

#define GMS_LANES_BINARY(op)                                         \
  template <class A, class B, detail::EnableLanes<A, B> = 0>         \
  auto operator op(const A& a, const B& b) {                         \
    return detail::zip(a, b, [](auto x, auto y) { return x op y; }); \
  }
GMS_LANES_BINARY(+)
GMS_LANES_BINARY(-)
GMS_LANES_BINARY(*)
GMS_LANES_BINARY(<)
GMS_LANES_BINARY(<=)
GMS_LANES_BINARY(>)
GMS_LANES_BINARY(>=)
GMS_LANES_BINARY(==)
GMS_LANES_BINARY(!=)
GMS_LANES_BINARY(&&)
GMS_LANES_BINARY(||)
GMS_LANES_BINARY(&)
GMS_LANES_BINARY(|)
GMS_LANES_BINARY(^)
GMS_LANES_BINARY(<<)
GMS_LANES_BINARY(>>)
#undef GMS_LANES_BINARY

// Division and remainder: 0 where the divisor is 0 (an inactive lane may hold anything).
template <class A, class B, detail::EnableLanes<A, B> = 0>
auto operator/(const A& a, const B& b) {
  return detail::zip(a, b, [](auto x, auto y) { return y == decltype(y)(0) ? decltype(x / y)(0) : x / y; });
}
template <class A, class B, detail::EnableLanes<A, B> = 0>
auto operator%(const A& a, const B& b) {
  return detail::zip(a, b, [](auto x, auto y) { return y == decltype(y)(0) ? decltype(x % y)(0) : x % y; });
}
template <class T>
Lanes<T> operator-(const Lanes<T>& a) {
  Lanes<T> r = a;
  for (auto& x : r.v) x = -x;
  return r;
}
inline Bool operator!(const Bool& a) {
  Bool r = a;
  for (auto& x : r.v) x = !x;
  return r;
}
template <class A, class B, detail::EnableLanes<A, B> = 0>
auto min(const A& a, const B& b) {
  return detail::zip(a, b, [](auto x, auto y) { return y < x ? y : x; });
}
template <class A, class B, detail::EnableLanes<A, B> = 0>
auto max(const A& a, const B& b) {
  return detail::zip(a, b, [](auto x, auto y) { return x < y ? y : x; });
}
// c ? a : b, lane by lane (a predicated select, no branch).
template <class T, class A, class B>
Lanes<T> select(const Bool& c, const A& a, const B& b) {
  Lanes<T> r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.v[i] = c.v[i] ? T(detail::lane(a, i)) : T(detail::lane(b, i));
  r.deps = c.deps;
  r.deps |= detail::deps_of(a);
  r.deps |= detail::deps_of(b);
  return r;
}
// f(x) lane by lane (e.g. sqrtf, expf), keeping dependences.
template <class T, class F>
auto map(const Lanes<T>& a, F f) {
  Lanes<decltype(f(T{}))> r;
  for (unsigned i = 0; i < kWarpSize; ++i) r.v[i] = f(a.v[i]);
  r.deps = a.deps;
  return r;
}

}  // namespace gms::kernels
