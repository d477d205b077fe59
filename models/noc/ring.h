// A FIFO on a power-of-two ring that grows by doubling when full and never shrinks, so steady state
// allocates nothing (std::deque allocates and frees blocks as it moves).
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace gms {

template <class T>
class Ring {
 public:
  Ring() : Ring(8) {}
  explicit Ring(size_t capacity) {
    size_t c = 1;
    while (c < capacity) c <<= 1;
    buf_.resize(c);
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(buf_[(head_ + i) & (buf_.size() - 1)]);
    buf_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> buf_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace gms
