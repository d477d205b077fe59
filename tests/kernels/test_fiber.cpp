// Fiber: a body that stops and goes on keeps its locals; exceptions reach the resumer; an unfinished body is
// unwound when its fiber is destroyed; stacks are reused.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "tb/kernels/fiber.h"

namespace gms::kernels {
namespace {

TEST(Fiber, YieldsAndResumesKeepingItsLocals) {
  StackPool pool;
  std::vector<int> seen;
  Fiber* self = nullptr;
  Fiber f(
      [&] {
        int local = 10;
        for (int i = 0; i < 3; ++i) {
          seen.push_back(local + i);
          self->yield();
        }
      },
      pool);
  self = &f;
  EXPECT_TRUE(seen.empty());  // nothing runs before the first resume
  f.resume();
  EXPECT_EQ(seen, (std::vector<int>{10}));
  f.resume();
  f.resume();
  EXPECT_FALSE(f.done());
  f.resume();
  EXPECT_TRUE(f.done());
  EXPECT_EQ(seen, (std::vector<int>{10, 11, 12}));
  f.resume();  // a finished fiber stays finished
  EXPECT_TRUE(f.done());
}

TEST(Fiber, AnExceptionReachesTheResumer) {
  StackPool pool;
  Fiber f([] { throw std::runtime_error("port bug"); }, pool);
  EXPECT_THROW(f.resume(), std::runtime_error);
  EXPECT_TRUE(f.done());
}

TEST(Fiber, DestroyingAnUnfinishedFiberUnwindsItsBody) {
  StackPool pool;
  auto alive = std::make_shared<int>(1);
  {
    Fiber* self = nullptr;
    Fiber f(
        [&, held = alive] {
          std::shared_ptr<int> local = held;  // destroyed only if the body unwinds
          for (;;) self->yield();
        },
        pool);
    self = &f;
    f.resume();
    EXPECT_EQ(alive.use_count(), 3);  // alive, the lambda's copy, the body's local
  }
  EXPECT_EQ(alive.use_count(), 1);
}

TEST(Fiber, StacksAreReused) {
  StackPool pool;
  for (int i = 0; i < 100; ++i) {
    Fiber f([] {}, pool);
    f.resume();
  }
  EXPECT_EQ(pool.mapped(), 1u);
  // Deep frames fit: 64 KiB of locals on a 128 KiB stack.
  Fiber deep(
      [] {
        volatile char buf[64 * 1024];
        for (size_t i = 0; i < sizeof buf; i += 4096) buf[i] = char(i);
      },
      pool);
  deep.resume();
  EXPECT_TRUE(deep.done());
}

}  // namespace
}  // namespace gms::kernels
