#include "models/common/data_budget.h"

#include "models/common/format_bytes.h"

namespace gms {

void DataBudget::refuse(uint64_t bytes, const char* holder) {
  error_ = "the workload's data outgrew the memory left for it: the " + std::string(holder) + " needed " +
           std::to_string(bytes) + " bytes more with " + format_bytes(used_) + " held, over the " +
           format_bytes(limit_) + " left (" + limit_text_ + ")";
  throw DataBudgetExceeded(error_);
}

}  // namespace gms
