// A global-memory array of a kernel port: where it lies in the simulated address space and its contents on
// the host, which the port's loads read and stores write as the warps run. Data-dependent addresses (a
// graph's edges, a sparse matrix's columns) come from these contents, so a port computes the benchmark's
// real result through the very indices it emits.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gms::kernels {

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(std::string name, uint64_t base, size_t n, T fill = T{})
      : name_(std::move(name)), base_(base), data_(n, fill) {}

  const std::string& name() const { return name_; }
  uint64_t base() const { return base_; }
  size_t size() const { return data_.size(); }
  uint64_t bytes() const { return uint64_t(data_.size()) * sizeof(T); }
  uint64_t address(uint64_t i) const { return base_ + i * sizeof(T); }
  // Host access (input generation, results); the kernels' accesses go through Warp::load / store.
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  std::vector<T>& host() { return data_; }
  const std::vector<T>& host() const { return data_; }
  // Element i for a warp's access: a port bug (an index outside the array) stops with its name and index.
  T& at(int64_t i) {
    if (i < 0 || uint64_t(i) >= data_.size()) out_of_range(i);
    return data_[size_t(i)];
  }

 private:
  [[noreturn]] void out_of_range(int64_t i) const {
    throw std::out_of_range("kernel port: array '" + name_ + "': index " + std::to_string(i) +
                            " outside [0, " + std::to_string(data_.size()) + ")");
  }
  std::string name_;
  uint64_t base_ = 0;
  std::vector<T> data_;
};

}  // namespace gms::kernels
