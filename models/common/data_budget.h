// The memory left for a workload's data: the pages the backing store and the golden memory create as a
// workload writes, which no configuration bounds. The run owns one budget (what the memory limit leaves
// after the system's estimated structures) and the data holders charge every allocation to it, so a
// workload that writes more than fits stops with one clear error instead of std::bad_alloc or swapping.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gms {

// Thrown by DataBudget::charge. The holder's state is unchanged by the failed charge; the run ends.
class DataBudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DataBudget {
 public:
  // `limit` bytes for data; `limit_text` says where it comes from, for the error message (e.g. "the 64.0 MiB
  // limit (system.memory_limit_mb) less 12.3 MiB estimated for the system's structures").
  DataBudget(uint64_t limit, std::string limit_text) : limit_(limit), limit_text_(std::move(limit_text)) {}
  DataBudget(const DataBudget&) = delete;
  DataBudget& operator=(const DataBudget&) = delete;

  // Counts `bytes` more for `holder` (e.g. "backing store"); throws DataBudgetExceeded, and remembers its
  // message, when that would pass the limit.
  void charge(uint64_t bytes, const char* holder) {
    if (__builtin_expect(bytes > limit_ - used_, 0)) refuse(bytes, holder);
    used_ += bytes;
    if (used_ > peak_) peak_ = used_;
  }
  // Gives back what a holder freed (a golden memory's per-kernel tables at kernel end).
  void release(uint64_t bytes) { used_ -= bytes < used_ ? bytes : used_; }

  uint64_t limit() const { return limit_; }
  uint64_t used() const { return used_; }
  uint64_t peak() const { return peak_; }
  bool exceeded() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  [[noreturn]] void refuse(uint64_t bytes, const char* holder);

  uint64_t limit_;
  std::string limit_text_;
  uint64_t used_ = 0, peak_ = 0;
  std::string error_;
};

// What an unordered_map entry costs on the heap: the node (next pointer, key, value, padded to malloc's
// 16-byte granules plus its 8-byte header) and a bucket pointer.
template <class Key, class Value>
constexpr uint64_t hash_entry_bytes() {
  return (8 + sizeof(Key) + sizeof(Value) + 8 + 15) / 16 * 16 + 8;
}

}  // namespace gms
