// Software prefetch helpers for Wakeup::set_prefetch hooks: hints only, they change no state.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gms {

// Every 64 B host cache line of [p, p + bytes).
inline void prefetch_lines(const void* p, size_t bytes) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t a = first; a < end; a += 64) __builtin_prefetch(reinterpret_cast<const void*>(a));
}

// The lines of one object.
template <class T>
inline void prefetch_object(const T& x) {
  prefetch_lines(&x, sizeof(T));
}

}  // namespace gms
