// A value change dump (IEEE 1364 VCD) written while the simulation runs. Variables are declared first
// (scope = block, name = signal), then set(id, value, time) records changes with never-decreasing times:
// the last value set in one instant is the one written, unchanged values are not repeated. The dump opens
// at time 0 (or the window's start) with every variable's value there ($dumpvars), whenever the first
// change comes. close() writes the pending instant and a final time stamp, so the dump ends with the
// values the run ended with. Every write goes through OutputFile: a failed write fails close() naming the
// file, and a writer destroyed without close() (an error path) leaves the file as it was before the run.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "models/common/output_file.h"

namespace gms {

class VcdWriter {
 public:
  // Opens exactly `path` (ConfigError if it cannot); `timescale` is the unit of the times given to set(),
  // e.g. "1 ps".
  VcdWriter(const std::string& path, std::string timescale);
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  // Keeps only the window [from, to] (times as given to set()): changes before `from` fold silently into
  // the values dumped at `from` ($dumpvars), changes after `to` are dropped, and close() ends the file at
  // `to` at the latest. Only before the first set().
  void set_window(uint64_t from, uint64_t to);

  // Declares scope.name of `width` bits (1: a scalar 0/1, otherwise a b... vector); returns its id. Only
  // while the first instant is open: blocks set initial values at elaboration (time 0) while others, built
  // at end_of_elaboration, still declare theirs; once an instant is closed the header is due.
  uint32_t declare(const std::string& scope, const std::string& name, unsigned width);
  void set(uint32_t id, uint64_t value, uint64_t time) {
    if (closed_ || time > to_) return;
    if (time != now_ || !started_) advance(time);
    Var& v = vars_[id];
    v.value = value;
    if (!v.dirty) {
      v.dirty = true;
      dirty_.push_back(id);
    }
  }
  // An event marker: `id` shows `value` (a one-bit variable: 1) at `time` and falls back to 0 at
  // `time + width`, unless pulsed again by then (then it holds the last pulse's value until its end).
  void pulse(uint32_t id, uint64_t time, uint64_t width, uint64_t value = 1) {
    if (closed_ || time > to_) return;
    set(id, value, time);
    vars_[id].pulse_until = time + width;
    resets_.push({time + width, id});
  }
  // Writes what is pending, "#end_time" if later than the last instant written, closes the file and
  // renames it over the path (OutputFile::commit); OutputError if any write failed. Later set() calls are
  // ignored; a second close() does nothing.
  void close(uint64_t end_time);
  const std::string& path() const { return out_.path(); }

 private:
  struct Var {
    std::string scope, name, code;
    unsigned width = 0;
    uint64_t value = 0, written = 0;
    uint64_t pulse_until = 0;  // the end of the latest pulse
    bool dirty = false;
  };
  struct Reset {
    uint64_t time;
    uint32_t id;
    bool operator>(const Reset& o) const { return time > o.time || (time == o.time && id > o.id); }
  };
  // Ends the pulses due by `time` and writes the instants up to it; now_ = time.
  void advance(uint64_t time);
  // Writes the instant now_ and moves to `time` (> now_); entering the window on the way writes the
  // values at its start (a pulse's end, too, may be the first event past it).
  void move_to(uint64_t time);
  void write_instant();  // writes the changes of the instant now_ (the header and $dumpvars first)
  void write_header();
  void write_value(const Var& v);
  void flush_buffer();

  OutputFile out_;
  std::string timescale_;
  std::vector<Var> vars_;
  std::vector<uint32_t> dirty_;                                                 // ids set in the instant now_
  std::priority_queue<Reset, std::vector<Reset>, std::greater<Reset>> resets_;  // pulse ends, earliest first
  uint64_t now_ = 0, last_stamp_ = 0;
  uint64_t from_ = 0, to_ = UINT64_MAX;  // the window written (set_window)
  bool started_ = false;       // the first set() opened the initial instant (0 or the window's start)
  bool first_closed_ = false;  // the first instant is over: no more declarations
  bool header_written_ = false;
  bool closed_ = false;
  std::string buf_;
};

}  // namespace gms
