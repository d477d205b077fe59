// A body of code that runs on a stack of its own and can stop in the middle (yield) and go on later
// (resume): how a kernel port's warp program, written as straight-line CUDA-like code, hands the simulator
// its instructions a batch at a time without materialising the warp's whole stream. On x86-64 a switch
// saves the callee-saved registers and swaps stack pointers (nanoseconds: a warp of three instructions must
// not cost a microsecond); elsewhere POSIX ucontext, whose switches make a system call each (about 0.35 us
// here). AddressSanitizer is told about every switch.
#pragma once
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

namespace gms::kernels {

// Fiber stacks kept for reuse (mapping and unmapping one per warp would cost more than many warps' work).
class StackPool {
 public:
  explicit StackPool(size_t stack_bytes = kDefaultStack);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  void* take();  // the lowest usable address of a stack of stack_bytes() (a guard page lies below it)
  void give(void* stack);
  size_t stack_bytes() const { return stack_bytes_; }
  size_t mapped() const { return maps_.size(); }

#if defined(__SANITIZE_ADDRESS__)
  static constexpr size_t kDefaultStack = 512 * 1024;  // AddressSanitizer's frames are much larger
#else
  static constexpr size_t kDefaultStack = 128 * 1024;
#endif

 private:
  size_t stack_bytes_, page_;
  std::vector<void*> free_, maps_;
};

class Fiber {
 public:
  // Runs `body` on a stack from `pool` (which must outlive the fiber), from the first resume().
  Fiber(std::function<void()> body, StackPool& pool);
  // An unfinished body is unwound first (its yield() throws Fiber::Cancel), so its locals are destroyed.
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Runs the body until it yields or returns; an exception that escaped the body is rethrown here.
  void resume();
  bool done() const { return state_ == State::Done; }
  // Inside the body only: back to resume()'s caller.
  void yield();

  // Thrown by yield() in a fiber being destroyed; the body must let it pass (catch (...) must rethrow).
  struct Cancel {};

  // The x86-64 switch's entry (fiber.cpp): tells AddressSanitizer which stack it is on before anything else.
  static void start_from_trampoline(Fiber* f) {
    f->entered();
    start(f);
  }

 private:
  enum class State { Fresh, Suspended, Running, Done };
  // The first frame on the fiber's stack (after entered()); it never returns.
  static void start(Fiber* f);
  void entered();  // the first thing on the fiber's stack: AddressSanitizer learns the stack it left
  void switch_to_fiber();
  void switch_to_caller();

  std::function<void()> body_;
  StackPool& pool_;
  State state_ = State::Fresh;
  bool cancel_ = false;
  std::exception_ptr error_;
  void* stack_ = nullptr;
#if defined(__x86_64__)
  void* caller_sp_ = nullptr;
  void* self_sp_ = nullptr;
#else
  static void entry(unsigned lo, unsigned hi);
  ucontext_t caller_{}, self_{};
#endif
  // AddressSanitizer bookkeeping: the stack of whoever resumed the fiber.
  void* fake_stack_ = nullptr;
  const void* caller_stack_ = nullptr;
  size_t caller_stack_bytes_ = 0;
};

}  // namespace gms::kernels
