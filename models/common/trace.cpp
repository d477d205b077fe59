#include "models/common/trace.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "models/common/config.h"
#include "models/common/text_excerpt.h"

namespace gms {

namespace {

// The stem and number of a block name: "l1_12" -> ("l1_", 12), "xbar" -> ("xbar", -1).
std::pair<std::string, long long> split_number(const std::string& n) {
  size_t e = n.size();
  while (e > 0 && std::isdigit(static_cast<unsigned char>(n[e - 1]))) --e;
  if (e == n.size() || n.size() - e > 15) return {n, -1};
  return {n.substr(0, e), std::stoll(n.substr(e))};
}

// {sm1, l1_0, sm0, l1_1, xbar} -> "l1_0..l1_1, sm0..sm1, xbar": sorted, one range per stem.
std::string summarize_blocks(std::vector<std::string> names) {
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return split_number(a) < split_number(b); });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (size_t i = 0; i < names.size();) {
    const auto [stem, num] = split_number(names[i]);
    size_t j = i + 1;
    while (num >= 0 && j < names.size() && split_number(names[j]).first == stem) ++j;
    out += (out.empty() ? "" : ", ") + names[i] + (j - i > 1 ? ".." + names[j - 1] : "");
    i = j;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

TraceSelector::TraceSelector(const std::string& vcd_path, const std::vector<std::string>& globs)
    : vcd_(std::make_unique<VcdWriter>(vcd_path, sc_core::sc_get_time_resolution().to_string())),
      globs_(globs) {}

void TraceSelector::set_window_ps(uint64_t from_ps, uint64_t to_ps) {
  // VCD times are kernel ticks (the timescale is the time resolution).
  const uint64_t tick = sc_core::sc_time(1, sc_core::SC_PS).value();
  const auto ticks = [tick](uint64_t ps) {
    return ps > UINT64_MAX / (tick ? tick : 1) ? UINT64_MAX : ps * tick;
  };
  if (vcd_) vcd_->set_window(ticks(from_ps), ticks(to_ps));
}

// Without close() (an error on its way) the VCD is discarded: a file of the same name stays as it was.
TraceSelector::~TraceSelector() = default;

void TraceSelector::close() {
  close(sc_core::sc_time_stamp());
}

void TraceSelector::close(const sc_core::sc_time& end) {
  if (vcd_) vcd_->close(end.value());  // VCD times are kernel ticks
}

bool TraceSelector::matches(const std::string& block_name) const {
  for (const auto& g : globs_)
    if (fnmatch(g.c_str(), block_name.c_str(), 0) == 0) return true;
  return false;
}

VcdWriter* TraceSelector::file_for(const std::string& block_name) const {
  if (!vcd_) return nullptr;
  blocks_.push_back(block_name);  // duplicates removed when checked (a block may ask more than once)
  return matches(block_name) ? vcd_.get() : nullptr;
}

void TraceSelector::check_every_glob_matched() const {
  if (globs_.empty()) throw ConfigError("--trace: no block glob given");
  std::string all;
  for (const auto& g : globs_) all += (all.empty() ? "" : ",") + g;
  for (const auto& g : globs_) {
    const bool hit = std::any_of(blocks_.begin(), blocks_.end(),
                                 [&](const std::string& b) { return fnmatch(g.c_str(), b.c_str(), 0) == 0; });
    if (!hit)
      throw ConfigError("--trace " + quote_excerpt(all) + ": " +
                        (globs_.size() > 1 ? quote_excerpt(g) + " " : "") + "matches no block (blocks are " +
                        summarize_blocks(blocks_) + ")");
  }
}

std::vector<std::string> TraceSelector::split_globs(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string g; std::getline(ss, g, ',');)
    if (!g.empty()) out.push_back(g);
  return out;
}

}  // namespace gms
