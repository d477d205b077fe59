#include "models/common/vcd_writer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace gms {

namespace {

// Identifier codes like SystemC's: "aaaaa", "aaaab", ... (base 26, at least five letters).
std::string code_for(uint32_t index) {
  std::string s;
  uint64_t i = index;
  do {
    s.insert(s.begin(), char('a' + i % 26));
    i /= 26;
  } while (i > 0);
  if (s.size() < 5) s.insert(0, 5 - s.size(), 'a');
  return s;
}

constexpr size_t kFlushBytes = size_t(1) << 16;

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == '.')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// Natural order: runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      if (na.size() != nb.size()) return na.size() < nb.size();  // no leading zeros in our names
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

struct PathLess {
  bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), natural_less);
  }
};

}  // namespace

VcdWriter::VcdWriter(const std::string& path, std::string timescale)
    : out_(path), timescale_(std::move(timescale)) {}

void VcdWriter::set_window(uint64_t from, uint64_t to) {
  if (started_) throw std::logic_error("VCD " + path() + ": window set after the first change");
  if (from > to) throw std::logic_error("VCD " + path() + ": window ends before it starts");
  from_ = from;
  to_ = to;
}

uint32_t VcdWriter::declare(const std::string& scope, const std::string& name, unsigned width) {
  if (first_closed_)
    throw std::logic_error("VCD " + path() + ": " + scope + "." + name + " declared after the first instant");
  if (width == 0 || width > 64)
    throw std::logic_error("VCD variable " + scope + "." + name + ": width 1..64");
  const uint32_t id = uint32_t(vars_.size());
  vars_.push_back({scope, name, code_for(id), width});
  return id;
}

void VcdWriter::write_value(const Var& v) {
  if (v.width == 1) {
    buf_ += v.value ? '1' : '0';
  } else {
    char bits[65];
    int n = 0;
    uint64_t x = v.value;
    if (v.width < 64) x &= (uint64_t(1) << v.width) - 1;
    do {
      bits[n++] = char('0' + (x & 1));
      x >>= 1;
    } while (x);
    buf_ += 'b';
    while (n > 0) buf_ += bits[--n];
    buf_ += ' ';
  }
  buf_ += v.code;
  buf_ += '\n';
}

void VcdWriter::write_header() {
  buf_ += "$version\n GPUMemSys VCD writer\n$end\n\n$timescale\n     " + timescale_ + "\n$end\n\n";
  buf_ += "$scope module SystemC $end\n";
  // A dotted name is a module path ("xbar.req.r0", "decisions" + "l1.tsc_plus.mode"): nested scopes, so a
  // viewer shows the hierarchy. Scopes in natural name order (l1_2 before l1_10), variables of a scope in
  // declaration order before its sub-scopes.
  std::map<std::vector<std::string>, std::vector<std::pair<std::string, const Var*>>, PathLess> scopes;
  for (const Var& v : vars_) {
    std::vector<std::string> path = split_dots(v.scope.empty() ? v.name : v.scope + "." + v.name);
    std::string leaf = path.back();
    path.pop_back();
    scopes[path].push_back({leaf, &v});
  }
  std::vector<std::string> open;
  for (const auto& [path, vars] : scopes) {
    size_t common = 0;
    while (common < open.size() && common < path.size() && open[common] == path[common]) ++common;
    for (; open.size() > common; open.pop_back()) buf_ += "$upscope $end\n";
    for (; open.size() < path.size(); open.push_back(path[open.size()]))
      buf_ += "$scope module " + path[open.size()] + " $end\n";
    for (const auto& [leaf, v] : vars) {
      char line[32];  // SystemC's layout: "$var wire   32  aaaaa  name [31:0]  $end"
      std::snprintf(line, sizeof line, "$var wire  % 3d  ", int(v->width));
      buf_ += line + v->code + "  " + leaf;
      buf_ += v->width == 1 ? "       $end\n" : " [" + std::to_string(v->width - 1) + ":0]  $end\n";
    }
  }
  for (; !open.empty(); open.pop_back()) buf_ += "$upscope $end\n";
  buf_ += "$upscope $end\n$enddefinitions  $end\n\n";
  header_written_ = true;
}

void VcdWriter::advance(uint64_t time) {
  if (!started_) {  // the initial instant is time 0 or the window's start, whenever the first change comes
    started_ = true;
    now_ = std::min(time, from_);
    if (time == now_) return;
  }
  if (time < now_)
    throw std::logic_error("VCD " + path() + ": time went back from " + std::to_string(now_) + " to " +
                           std::to_string(time));
  while (!resets_.empty() && resets_.top().time <= time) {
    const Reset r = resets_.top();
    resets_.pop();
    Var& v = vars_[r.id];
    if (r.time != v.pulse_until) continue;  // pulsed again since: a later reset ends it
    if (r.time > now_) move_to(r.time);
    v.value = 0;
    if (!v.dirty) {
      v.dirty = true;
      dirty_.push_back(r.id);
    }
  }
  if (time > now_) move_to(time);  // else the resets fell in the instant `time`, which stays open for sets
  if (buf_.size() >= kFlushBytes) flush_buffer();
}

void VcdWriter::move_to(uint64_t time) {
  write_instant();
  if (now_ < from_ && time > from_) {  // entering the window: the values as they stand, at `from`
    now_ = from_;
    write_instant();
  }
  now_ = time;
}

void VcdWriter::write_instant() {
  first_closed_ = true;
  if (now_ < from_) {  // before the window: the changes stay in the values, nothing is written
    for (uint32_t id : dirty_) vars_[id].dirty = false;
    dirty_.clear();
    return;
  }
  if (!header_written_) {
    write_header();
    buf_ += "#" + std::to_string(now_) + "\n$dumpvars\n";
    for (Var& v : vars_) {
      write_value(v);
      v.written = v.value;
      v.dirty = false;
    }
    buf_ += "$end\n";
    dirty_.clear();
    last_stamp_ = now_;
  } else if (!dirty_.empty()) {
    std::sort(dirty_.begin(), dirty_.end());  // declaration order, whatever order the blocks ran in
    bool stamped = false;
    for (uint32_t id : dirty_) {
      Var& v = vars_[id];
      v.dirty = false;
      if (v.value == v.written) continue;
      if (!stamped) {
        buf_ += "#" + std::to_string(now_) + "\n";
        stamped = true;
        last_stamp_ = now_;
      }
      write_value(v);
      v.written = v.value;
    }
    dirty_.clear();
  }
}

void VcdWriter::flush_buffer() {
  out_.write(buf_);
  buf_.clear();
}

void VcdWriter::close(uint64_t end_time) {
  if (closed_) return;
  if (!started_) {  // nothing was ever set: the initial values at time 0
    started_ = true;
    now_ = 0;
  }
  const uint64_t end = std::max(std::min(end_time, to_), now_);
  if (now_ < from_ && end >= from_) {  // the window began with no change: dump the values at `from`
    advance(from_);
  }
  advance(end);            // ends the pulses due by then and writes the instants before `end`
  write_instant();         // and the pending one (after the header and $dumpvars if it is the first)
  if (!header_written_) {  // the run ended before the window opened: the header and the final values
    const uint64_t from = from_;
    from_ = 0;
    write_instant();
    from_ = from;
  }
  if (end > last_stamp_) buf_ += "#" + std::to_string(end) + "\n";
  closed_ = true;
  flush_buffer();
  out_.close();
}

}  // namespace gms
