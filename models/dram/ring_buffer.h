// FIFO over a power-of-two array that only grows (never shrinks), so steady-state traffic allocates
// nothing. Used for in-flight responses and per-port queues.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace gms {

template <class T>
class RingBuffer {
 public:
  explicit RingBuffer(size_t capacity = 16) {
    size_t c = 1;
    while (c < capacity) c <<= 1;
    buf_.resize(c);
  }
  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  T& front() { return buf_[head_ & (buf_.size() - 1)]; }
  const T& front() const { return buf_[head_ & (buf_.size() - 1)]; }
  void push(const T& v) {
    if (size() == buf_.size()) grow();
    buf_[tail_++ & (buf_.size() - 1)] = v;
  }
  T pop() { return std::move(buf_[head_++ & (buf_.size() - 1)]); }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size(); ++i) bigger[i] = std::move(buf_[(head_ + i) & (buf_.size() - 1)]);
    tail_ = size();
    head_ = 0;
    buf_.swap(bigger);
  }
  std::vector<T> buf_;
  size_t head_ = 0, tail_ = 0;  // free-running indices
};

}  // namespace gms
