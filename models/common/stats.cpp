#include "models/common/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gms {

std::string format_double(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

namespace {
std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}
std::string csv_str(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}
}  // namespace

StatGroup::StatGroup(std::string name, std::string desc) : name_(std::move(name)), desc_(std::move(desc)) {}

StatGroup::StatGroup(StatGroup& parent, std::string name, std::string desc)
    : name_(std::move(name)), desc_(std::move(desc)), parent_(&parent) {
  parent.children_.push_back(this);
}

StatGroup::~StatGroup() {
  if (parent_) {
    auto& c = parent_->children_;
    c.erase(std::remove(c.begin(), c.end(), this), c.end());
  }
  for (StatGroup* ch : children_) ch->parent_ = nullptr;
}

Counter& StatGroup::counter(const std::string& name, const std::string& desc, const std::string& unit) {
  counters_.push_back(Counter{});
  counter_info_.push_back(StatInfo{name, desc, unit});
  order_.emplace_back('c', counters_.size() - 1);
  return counters_.back();
}

Histogram& StatGroup::histogram(const std::string& name, const std::string& desc, const std::string& unit,
                                uint64_t bucket_width, size_t buckets) {
  Histogram h;
  h.bucket_width = bucket_width ? bucket_width : 1;
  h.counts.assign(buckets ? buckets : 1, 0);
  histograms_.push_back(std::move(h));
  histogram_info_.push_back(StatInfo{name, desc, unit});
  order_.emplace_back('h', histograms_.size() - 1);
  return histograms_.back();
}

void StatGroup::formula(const std::string& name, const std::string& desc, const std::string& unit,
                        std::function<double()> fn) {
  formulas_.push_back(Formula{name, desc, unit, std::move(fn)});
  order_.emplace_back('f', formulas_.size() - 1);
}

std::string StatGroup::path() const {
  if (!parent_ || !parent_->parent_) return name_;  // the root's name is not part of paths
  return parent_->path() + "." + name_;
}

const StatGroup* StatGroup::find_group(const std::string& path) const {
  const StatGroup* g = this;
  size_t pos = 0;
  while (pos <= path.size() && !path.empty()) {
    size_t dot = path.find('.', pos);
    std::string part = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    const StatGroup* next = nullptr;
    for (const StatGroup* c : g->children_)
      if (c->name_ == part) next = c;
    if (!next) return nullptr;
    g = next;
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return g;
}

bool StatGroup::lookup(const std::string& path, double& out) const {
  size_t dot = path.rfind('.');
  const StatGroup* g = this;
  std::string leaf = path;
  if (dot != std::string::npos) {
    g = find_group(path.substr(0, dot));
    leaf = path.substr(dot + 1);
    if (!g) return false;
  }
  for (size_t i = 0; i < g->counters_.size(); ++i)
    if (g->counter_info_[i].name == leaf) return out = double(g->counters_[i].value), true;
  for (const auto& f : g->formulas_)
    if (f.name == leaf) return out = f.fn(), true;
  for (size_t i = 0; i < g->histograms_.size(); ++i)
    if (g->histogram_info_[i].name == leaf) return out = double(g->histograms_[i].samples), true;
  return false;
}

double StatGroup::value(const std::string& path) const {
  double v;
  if (!lookup(path, v)) throw std::out_of_range("no statistic '" + path + "' below '" + name_ + "'");
  return v;
}

double StatGroup::sum_over_children(const std::string& stat) const {
  double s = 0, v;
  for (const StatGroup* c : children_)
    if (c->lookup(stat, v)) s += v;
  return s;
}

void StatGroup::write_json(std::ostream& os, int indent) const {
  std::string pad(size_t(indent + 2), ' ');
  os << "{\n";
  bool first = true;
  auto sep = [&] {
    if (!first) os << ",\n";
    first = false;
  };
  for (auto [kind, idx] : order_) {
    sep();
    if (kind == 'c') {
      os << pad << json_str(counter_info_[idx].name) << ": " << counters_[idx].value;
    } else if (kind == 'f') {
      os << pad << json_str(formulas_[idx].name) << ": " << format_double(formulas_[idx].fn());
    } else {
      const Histogram& h = histograms_[idx];
      os << pad << json_str(histogram_info_[idx].name) << ": {\"bucket_width\": " << h.bucket_width
         << ", \"samples\": " << h.samples << ", \"mean\": " << format_double(h.mean())
         << ", \"max\": " << h.max << ", \"counts\": [";
      for (size_t i = 0; i < h.counts.size(); ++i) os << (i ? ", " : "") << h.counts[i];
      os << "]}";
    }
  }
  for (const StatGroup* c : children_) {
    sep();
    os << pad << json_str(c->name_) << ": ";
    c->write_json(os, indent + 2);
  }
  os << "\n" << std::string(size_t(indent), ' ') << "}";
  if (indent == 0) os << "\n";
}

void StatGroup::write_csv(std::ostream& os, bool header) const {
  if (header) os << "path,value,unit,description\n";
  std::string base = parent_ ? path() + "." : "";
  for (auto [kind, idx] : order_) {
    if (kind == 'c') {
      const StatInfo& c = counter_info_[idx];
      os << csv_str(base + c.name) << "," << counters_[idx].value << "," << csv_str(c.unit) << ","
         << csv_str(c.desc) << "\n";
    } else if (kind == 'f') {
      const Formula& f = formulas_[idx];
      os << csv_str(base + f.name) << "," << format_double(f.fn()) << "," << csv_str(f.unit) << ","
         << csv_str(f.desc) << "\n";
    } else {
      const Histogram& h = histograms_[idx];
      const StatInfo& i = histogram_info_[idx];
      os << csv_str(base + i.name + ".samples") << "," << h.samples << "," << csv_str(i.unit) << ","
         << csv_str(i.desc) << "\n";
      os << csv_str(base + i.name + ".mean") << "," << format_double(h.mean()) << "," << csv_str(i.unit)
         << "," << csv_str(i.desc) << "\n";
    }
  }
  for (const StatGroup* c : children_) c->write_csv(os, false);
}

}  // namespace gms
