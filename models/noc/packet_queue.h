// The FIFO of an input buffer or an output pipeline: a circular buffer that grows by doubling. Like
// RingQueue, but push is small enough to inline (the growth path is out of line): the crossbar pushes
// every packet twice.
#pragma once
#include <cstddef>
#include <vector>

namespace gms {

template <class T>
class PacketQueue {
 public:
  PacketQueue() : PacketQueue(8) {}
  explicit PacketQueue(size_t capacity) {
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
  __attribute__((noinline)) void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = buf_[(head_ + i) & (buf_.size() - 1)];
    buf_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> buf_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace gms
