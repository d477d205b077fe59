// A FIFO on a circular buffer that grows by doubling and never shrinks: after warm-up, push and pop
// allocate nothing (std::deque allocates a block every few hundred pushes). Shared by every block's
// request, response and pipeline queues.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace gms {

template <class T>
class RingQueue {
 public:
  RingQueue() : RingQueue(8) {}
  explicit RingQueue(size_t capacity) {
    size_t c = 1;
    while (c < capacity) c <<= 1;
    buf_.resize(c);
  }
  bool empty() const { return size_ == 0; }
  void clear() { head_ = size_ = 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  // Where front() is, without reading it (for software prefetch); valid while non-empty.
  const T* front_address() const { return buf_.data() + head_; }
  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  void push(const T& v) { push_back(v); }
  void pop_front() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  // Removes and returns the front element.
  T pop() {
    T v = std::move(buf_[head_]);
    pop_front();
    return v;
  }

 private:
  // Out of line so push_back stays small enough to inline (the crossbar pushes every packet twice).
  __attribute__((noinline)) void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(buf_[(head_ + i) & (buf_.size() - 1)]);
    buf_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> buf_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace gms
