#include "tb/kernels/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define GMS_FIBER_ASAN 1
#endif

#if defined(__x86_64__)
// gms_fiber_switch(&save_sp, load_sp): pushes the System V callee-saved registers, saves the stack pointer,
// loads the other one and pops that stack's registers; `ret` continues where it last switched away (or at
// gms_fiber_trampoline for a fresh stack, with the Fiber* in r12).
extern "C" void gms_fiber_switch(void** save_sp, void* load_sp);
extern "C" void gms_fiber_trampoline();
asm(R"(
  .text
  .globl gms_fiber_switch
  .type gms_fiber_switch, @function
gms_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size gms_fiber_switch, .-gms_fiber_switch
  .globl gms_fiber_trampoline
  .type gms_fiber_trampoline, @function
gms_fiber_trampoline:
  movq %r12, %rdi
  call gms_fiber_start
  ud2
  .size gms_fiber_trampoline, .-gms_fiber_trampoline
)");
// Called only from the assembly above, which link-time optimisation cannot see: `used` keeps it.
extern "C" __attribute__((used)) void gms_fiber_start(void* fiber);
#endif

namespace gms::kernels {

StackPool::StackPool(size_t stack_bytes) : page_(size_t(sysconf(_SC_PAGESIZE))) {
  stack_bytes_ = (stack_bytes + page_ - 1) / page_ * page_;
}

StackPool::~StackPool() {
  for (void* m : maps_) munmap(m, stack_bytes_ + page_);
}

void* StackPool::take() {
  if (!free_.empty()) {
    void* s = free_.back();
    free_.pop_back();
#ifdef GMS_FIBER_ASAN
    // A fiber leaves its stack by switching away, not by returning: its frames' redzones stay poisoned.
    ASAN_UNPOISON_MEMORY_REGION(s, stack_bytes_);
#endif
    return s;
  }
  void* m = mmap(nullptr, stack_bytes_ + page_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  mprotect(m, page_, PROT_NONE);  // an overflow faults instead of corrupting the next stack
  maps_.push_back(m);
#ifdef GMS_FIBER_ASAN
  ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(m) + page_, stack_bytes_);  // stale shadow of an earlier map
#endif
  return static_cast<char*>(m) + page_;
}

void StackPool::give(void* stack) {
  free_.push_back(stack);
}

Fiber::Fiber(std::function<void()> body, StackPool& pool) : body_(std::move(body)), pool_(pool) {}

Fiber::~Fiber() {
  if (state_ == State::Suspended) {  // unwind the body: its yield() throws Cancel
    cancel_ = true;
    try {
      resume();
    } catch (...) {
    }
  }
  if (stack_) pool_.give(stack_);
}

void Fiber::entered() {
#ifdef GMS_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &caller_stack_, &caller_stack_bytes_);
#endif
}

void Fiber::start(Fiber* f) {
  try {
    f->body_();
  } catch (const Cancel&) {
  } catch (...) {
    f->error_ = std::current_exception();
  }
  f->state_ = State::Done;
  // Leaves this stack for good: nothing on it needs destroying any more.
#ifdef GMS_FIBER_ASAN
  __sanitizer_start_switch_fiber(nullptr, f->caller_stack_, f->caller_stack_bytes_);
#endif
#if defined(__x86_64__)
  void* dead = nullptr;
  gms_fiber_switch(&dead, f->caller_sp_);
#else
  setcontext(&f->caller_);
#endif
  __builtin_unreachable();
}

#if !defined(__x86_64__)
void Fiber::entry(unsigned lo, unsigned hi) {
  Fiber* f = reinterpret_cast<Fiber*>(uintptr_t(lo) | (uintptr_t(hi) << 32));
  f->entered();
  start(f);
}
#endif

void Fiber::resume() {
  if (state_ == State::Done) return;
  if (state_ == State::Running) throw std::logic_error("Fiber::resume from inside the fiber");
  if (state_ == State::Fresh) {
    stack_ = pool_.take();
    char* top = static_cast<char*>(stack_) + pool_.stack_bytes();
#if defined(__x86_64__)
    // The stack gms_fiber_switch pops: six registers (r12 = this), then the trampoline as return address,
    // placed so that the trampoline's call enters gms_fiber_start with the ABI's alignment.
    auto* sp = reinterpret_cast<uintptr_t*>((reinterpret_cast<uintptr_t>(top) & ~uintptr_t(15)) - 24 - 48);
    for (int i = 0; i < 6; ++i) sp[i] = 0;
    sp[3] = reinterpret_cast<uintptr_t>(this);  // r12 (popped fourth: r15, r14, r13, r12)
    sp[6] = reinterpret_cast<uintptr_t>(&gms_fiber_trampoline);
    self_sp_ = sp;
#else
    if (getcontext(&self_) != 0) throw std::runtime_error("getcontext failed");
    self_.uc_stack.ss_sp = stack_;
    self_.uc_stack.ss_size = pool_.stack_bytes();
    self_.uc_link = nullptr;
    const uintptr_t me = reinterpret_cast<uintptr_t>(this);
    makecontext(&self_, reinterpret_cast<void (*)()>(&Fiber::entry), 2, unsigned(me & 0xffffffffu),
                unsigned(uint64_t(me) >> 32));
#endif
  }
  state_ = State::Running;
  switch_to_fiber();
  if (state_ == State::Running) state_ = State::Suspended;
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void Fiber::yield() {
  switch_to_caller();
  if (cancel_) throw Cancel{};
}

void Fiber::switch_to_fiber() {
#ifdef GMS_FIBER_ASAN
  __sanitizer_start_switch_fiber(&fake_stack_, stack_, pool_.stack_bytes());
#endif
#if defined(__x86_64__)
  gms_fiber_switch(&caller_sp_, self_sp_);
#else
  swapcontext(&caller_, &self_);
#endif
#ifdef GMS_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake_stack_, nullptr, nullptr);
#endif
}

void Fiber::switch_to_caller() {
  state_ = State::Suspended;
#ifdef GMS_FIBER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, caller_stack_, caller_stack_bytes_);
#endif
#if defined(__x86_64__)
  gms_fiber_switch(&self_sp_, caller_sp_);
#else
  swapcontext(&self_, &caller_);
#endif
#ifdef GMS_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, &caller_stack_, &caller_stack_bytes_);
#endif
  state_ = State::Running;
}

}  // namespace gms::kernels

#if defined(__x86_64__)
extern "C" __attribute__((used)) void gms_fiber_start(void* fiber) {
  gms::kernels::Fiber::start_from_trampoline(static_cast<gms::kernels::Fiber*>(fiber));
}
#endif
