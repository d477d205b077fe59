#include "models/common/data_budget.h"

#include <cstdio>

namespace gms {

namespace {

std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

void DataBudget::refuse(uint64_t bytes, const char* holder) {
  error_ = "the workload's data outgrew the memory left for it: the " + std::string(holder) + " needed " +
           std::to_string(bytes) + " bytes more with " + mib(used_) + " held, over the " + mib(limit_) +
           " left (" + limit_text_ + ")";
  throw DataBudgetExceeded(error_);
}

}  // namespace gms
