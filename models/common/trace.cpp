#include "models/common/trace.h"

#include <fnmatch.h>

#include <sstream>

namespace gms {

TraceSelector::TraceSelector(const std::string& vcd_path, const std::vector<std::string>& globs)
    : globs_(globs) {
  std::string base = vcd_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);
}

TraceSelector::~TraceSelector() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

bool TraceSelector::matches(const std::string& block_name) const {
  for (const auto& g : globs_)
    if (fnmatch(g.c_str(), block_name.c_str(), 0) == 0) return true;
  return false;
}

sc_core::sc_trace_file* TraceSelector::file_for(const std::string& block_name) const {
  return (file_ && matches(block_name)) ? file_ : nullptr;
}

std::vector<std::string> TraceSelector::split_globs(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string g; std::getline(ss, g, ',');)
    if (!g.empty()) out.push_back(g);
  return out;
}

}  // namespace gms
