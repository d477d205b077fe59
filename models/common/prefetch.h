// Software prefetch helpers for Wakeup::set_prefetch hooks: hints only, they change no state.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gms {

// Starts loading the host cache line holding p. Every prefetch goes through here: GCC treats
// __builtin_prefetch as free of side effects, so a function that only prefetches is deduced `const` and
// its calls are deleted (GCC 12 left the L1's hook an empty function under LTO). The empty volatile asm
// keeps such functions, and costs no instruction.
inline void prefetch_hint(const void* p) {
  __builtin_prefetch(p);
  asm volatile("");
}

// Every 64 B host cache line of [p, p + bytes).
inline void prefetch_lines(const void* p, size_t bytes) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t a = first; a < end; a += 64) prefetch_hint(reinterpret_cast<const void*>(a));
}

// The lines of one object.
template <class T>
inline void prefetch_object(const T& x) {
  prefetch_lines(&x, sizeof(T));
}

}  // namespace gms
