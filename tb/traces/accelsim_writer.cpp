#include "tb/traces/accelsim_writer.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "models/common/config.h"
#include "models/common/output_file.h"
#include "tb/kernels/port_kernel.h"
#include "tb/traces/native_format.h"

namespace gms {

namespace {

void append_hex(std::string& s, uint64_t v, unsigned digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%0*llx", int(digits), static_cast<unsigned long long>(v));
  s += buf;
}

// Accel-Sim's trace parser (gpu-simulator/trace-parser/trace_parser.h, MAX_SRC and MAX_DST) asserts at most
// 4 source and 1 destination registers a line.
constexpr unsigned kMaxSrcs = 4;

// r's registers in order, at most n a set.
std::vector<RegSet> chunks_of(const RegSet& r, unsigned n) {
  std::vector<RegSet> v;
  unsigned k = n;
  r.for_each([&](unsigned reg) {
    if (k == n) v.emplace_back(), k = 0;
    v.back().set(reg);
    ++k;
  });
  return v;
}

// r's lowest register alone (r non-empty).
RegSet lowest_of(const RegSet& r) {
  RegSet one;
  bool done = false;
  r.for_each([&](unsigned reg) {
    if (!done) one.set(reg), done = true;
  });
  return one;
}

void append_regs(std::string& s, const RegSet& r) {
  s += std::to_string(r.count());
  r.for_each([&](unsigned reg) {
    s += " R";
    s += std::to_string(reg);
  });
}

const char* mem_opcode(const WarpInst& in) {
  if (in.kind == MemKind::Atomic) {  // the model's atomics are adds (docs/atomics.md)
    if (in.width == 4) return "ATOMG.E.ADD.STRONG.GPU";
    if (in.width == 8) return "ATOMG.E.ADD.64.STRONG.GPU";
    throw std::invalid_argument("atomic width " + std::to_string(in.width) + " is not 4 or 8");
  }
  const bool st = in.kind == MemKind::Store;
  switch (in.width) {
    case 1:
      return st ? "STG.E.U8" : "LDG.E.U8";
    case 2:
      return st ? "STG.E.U16" : "LDG.E.U16";
    case 4:
      return st ? "STG.E" : "LDG.E";
    case 8:
      return st ? "STG.E.64" : "LDG.E.64";
    case 16:
      return st ? "STG.E.128" : "LDG.E.128";
    default:
      throw std::invalid_argument("width " + std::to_string(in.width) + " is not 1, 2, 4, 8 or 16");
  }
}

// Mode 1 (base + stride) when the active lanes are contiguous and evenly spaced with a stride that fits 32
// bits (Accel-Sim's parser fills lanes only up to the first inactive one and reads the stride as an int),
// else mode 0 (one address per active lane).
void append_addresses(std::string& s, const WarpInst& in) {
  const uint32_t m = in.active_mask;
  const unsigned first = unsigned(__builtin_ctz(m));
  const unsigned n = unsigned(__builtin_popcount(m));
  const bool contiguous = (m >> first) == (n == 32 ? ~0u : (1u << n) - 1);
  bool strided = contiguous;
  int64_t stride = 0;
  if (n > 1 && strided) {
    stride = int64_t(in.addr[first + 1] - in.addr[first]);
    strided = stride >= INT32_MIN && stride <= INT32_MAX;
    for (unsigned l = first + 1; strided && l < first + n; ++l)
      strided = in.addr[l] - in.addr[l - 1] == uint64_t(stride);
  }
  if (strided) {
    s += " 1 0x";
    append_hex(s, in.addr[first], 16);
    s += ' ';
    s += std::to_string(stride);
    return;
  }
  s += " 0";
  for (uint32_t b = m; b; b &= b - 1) {
    s += " 0x";
    append_hex(s, in.addr[unsigned(__builtin_ctz(b))], 16);
  }
}

}  // namespace

void AccelWarpWriter::reset(uint32_t exit_mask) {
  body_.clear();
  lines_ = 0;
  pending_.clear();
  compute_.clear();
  deps_.reset();
  exit_mask_ = exit_mask;
  last_pc_ = 0;
  inexact_ = 0;
}

// `in.gap` compute lines before `in`, with its PC and mask.
void AccelWarpWriter::add_compute(const WarpInst& in) {
  for (uint32_t i = 0; i < in.gap; ++i) {
    compute_.push_back(pending_.size());
    Line l;
    l.pc = in.pc;
    l.mask = in.active_mask;
    l.opcode = "IMAD";
    pending_.push_back(l);
  }
}

void AccelWarpWriter::put_line(const Line& l) {
  append_hex(body_, l.pc, 4);
  body_ += ' ';
  append_hex(body_, l.mask, 8);
  body_ += ' ';
  append_regs(body_, l.dsts);
  body_ += ' ';
  body_ += l.opcode;
  body_ += ' ';
  append_regs(body_, l.srcs);
  body_ += " 0 0\n";  // no memory width; the immediate
  ++lines_;
}

void AccelWarpWriter::flush_pending() {
  for (const Line& l : pending_) put_line(l);
  pending_.clear();
  compute_.clear();
}

void AccelWarpWriter::add(const WarpInst& in) {
  last_pc_ = in.pc;
  if (in.kind == MemKind::Barrier) {
    // The importer keeps no dependences on a barrier: its waits_on (a branch on loaded data before it)
    // cannot be written.
    if (in.waits_on.any()) ++inexact_;
    add_compute(in);
    Line b;
    b.pc = in.pc;
    b.mask = in.active_mask;
    b.opcode = "BAR.SYNC";
    pending_.push_back(b);
    return;
  }
  if (in.kind != MemKind::Load && in.kind != MemKind::Store && in.kind != MemKind::Atomic)
    throw std::invalid_argument(std::string("cannot write a ") + to_string(in.kind) +
                                " instruction (only loads, stores, atomics and barriers)");
  const char* opcode = mem_opcode(in);
  if (!in.active_mask)
    throw std::invalid_argument(
        "a " + std::string(to_string(in.kind)) +
        " with no active lane cannot be written (Accel-Sim reads it as predicated off)");
  const bool load = in.kind != MemKind::Store;  // an atomic writes its old value to registers like a load
  add_compute(in);
  // Registers. The importer makes waits_on = what the compute lines since the last load or store read of
  // the registers loads wrote, plus what this line reads of them (and, for a load, what it writes of them),
  // and wait_gap = the compute lines from the first such reader on. So the compute lines from wait_gap
  // lines back on, and this line, read waits_on between them, and compute lines overwrite the registers
  // this load writes that an earlier load wrote and waits_on does not hold (else they would join
  // waits_on). A load names its first destination only: the importer (and Accel-Sim) widen .64/.128
  // loads to 2 or 4 consecutive registers.
  const RegSet dsts = load && in.writes.any() ? lowest_of(in.writes) : RegSet{};
  // waits_on, at most 4 registers a line: from the compute line wait_gap lines back (the first reader) on,
  // then the memory line itself; what does not fit is dropped (and counted below).
  RegSet srcs;
  if (in.waits_on.any()) {
    const std::vector<RegSet> parts = chunks_of(in.waits_on, kMaxSrcs);
    const size_t n = compute_.size();
    size_t next = 0;
    if (in.wait_gap > 0)
      for (size_t i = in.wait_gap <= n ? n - in.wait_gap : 0; i < n && next < parts.size(); ++i)
        pending_[compute_[i]].srcs = parts[next++];
    srcs = parts[next < parts.size() ? next : next - 1];
  }
  if (load) {  // registers an older load wrote that this one rewrites: one a compute line, from the first on
    RegSet stale = LoadDependences::load_writes(in.width, dsts) & deps_.load_written();
    stale.remove(in.waits_on);
    size_t i = 0;
    for (const RegSet& one : chunks_of(stale, 1)) {
      if (i == compute_.size()) break;
      pending_[compute_[i++]].dsts = one;
    }
  }
  // What the importer reads back, to count where it differs.
  for (size_t i : compute_) deps_.compute(pending_[i].srcs, pending_[i].dsts);
  RegSet waits_on, writes;
  uint32_t wait_gap = 0;
  deps_.memory(load, in.width, srcs, dsts, waits_on, writes, wait_gap);
  if (!(waits_on == in.waits_on) || !(writes == (load ? in.writes : RegSet{})) ||
      wait_gap != (in.waits_on.any() ? in.wait_gap : 0))
    ++inexact_;
  flush_pending();
  append_hex(body_, in.pc, 4);
  body_ += ' ';
  append_hex(body_, in.active_mask, 8);
  body_ += ' ';
  append_regs(body_, dsts);
  body_ += ' ';
  body_ += opcode;
  body_ += ' ';
  append_regs(body_, srcs);
  body_ += ' ';
  body_ += std::to_string(in.width);
  append_addresses(body_, in);
  body_ += " 0\n";
  ++lines_;
}

void AccelWarpWriter::finish(std::string& out) {
  Line e;
  e.pc = last_pc_ + 16;
  e.mask = exit_mask_;
  e.opcode = "EXIT";
  pending_.push_back(e);
  flush_pending();
  out += "insts = ";
  out += std::to_string(lines_);
  out += '\n';
  out += body_;
}

AccelSimWriter::AccelSimWriter(std::string dir, std::function<void(const std::string&)> check_output)
    : dir_(std::move(dir)), check_(std::move(check_output)) {}

namespace {

// Names end at the line's end: newlines become spaces.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string dim3(uint32_t x, uint32_t y, uint32_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

}  // namespace

AccelWriteCounts AccelSimWriter::write(Workload& workload) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw ConfigError(dir_ +
                      ": exists and is not a folder (--format accelsim writes a folder: kernelslist.g and "
                      "kernel-N.traceg)");
  if (!fs::is_directory(dir_, ec) && !fs::create_directory(dir_, ec))
    throw ConfigError(dir_ + ": cannot create the trace folder: " + ec.message());
  const std::string list_path = dir_ + "/kernelslist.g";
  if (check_) check_(list_path);
  AccelWriteCounts n;
  std::string list, text;
  AccelWarpWriter warp;
  while (auto kernel = workload.next_kernel()) {
    const KernelInfo info = kernel->info();
    const uint64_t id = ++n.kernels;
    const std::string file = "kernel-" + std::to_string(id) + ".traceg";
    const std::string path = dir_ + "/" + file;
    if (check_) check_(path);
    OutputFile out(path);
    // A port knows its launch's dimensions; other workloads give a one-dimensional grid and block.
    kernels::Dim3 grid{info.num_ctas, 1, 1}, block{info.threads_per_cta, 1, 1};
    if (const auto* port = dynamic_cast<const kernels::PortKernel*>(kernel.get());
        port && port->launch().grid.count() == info.num_ctas &&
        port->launch().block.count() == info.threads_per_cta) {
      grid = port->launch().grid;
      block = port->launch().block;
    }
    out.write("-kernel name = " + one_line(info.name) + "\n-kernel id = " + std::to_string(id) +
              "\n-grid dim = " + dim3(grid.x, grid.y, grid.z) + "\n-block dim = " +
              dim3(block.x, block.y, block.z) + "\n-shmem = " + std::to_string(info.shmem_per_cta) +
              "\n-nregs = " + std::to_string(info.regs_per_thread) +
              "\n-binary version = " + std::to_string(kAccelWriteBinaryVersion) +
              "\n-cuda stream id = 0\n-shmem base_addr = 0x00007f6400000000\n-local mem base_addr = "
              "0x00007f63a5000000\n-accelsim tracer version = " +
              std::to_string(kAccelWriteTracerVersion) +
              "\n-enable lineinfo = 0\n\n#traces format = PC mask dest_num [reg_dests] opcode src_num "
              "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n"
              "# written by gpumemsys trace record (docs/accelsim-import.md)\n\n");
    uint32_t expected = 0;
    WarpInst in;
    while (auto cta = kernel->next_cta()) {
      if (cta->cta_id != expected || cta->warps.size() != info.warps_per_cta())
        throw std::logic_error("workload '" + workload.name() + "', kernel '" + info.name + "': CTA " +
                               std::to_string(cta->cta_id) + " with " + std::to_string(cta->warps.size()) +
                               " warps where CTA " + std::to_string(expected) + " with " +
                               std::to_string(info.warps_per_cta()) + " warps was due");
      const uint32_t c = expected++;
      ++n.ctas;
      text = "#BEGIN_TB\n\nthread block = " + std::to_string(c % grid.x) + "," +
             std::to_string(c / grid.x % grid.y) + "," + std::to_string(c / (uint64_t(grid.x) * grid.y)) +
             "\n\n";
      for (uint32_t w = 0; w < cta->warps.size(); ++w) {
        warp.reset(cta_warp_lanes(info.threads_per_cta, w));
        uint64_t i = 0;
        try {
          for (; cta->warps[w]->next(in); ++i) warp.add(in);
        } catch (const std::invalid_argument& e) {
          throw ConfigError(path + ": CTA " + std::to_string(c) + ", warp " + std::to_string(w) +
                            ", instruction " + std::to_string(i + 1) + ": " + e.what());
        }
        text += "warp = " + std::to_string(w) + "\n";
        warp.finish(text);
        text += '\n';
        ++n.warps;
        n.instructions += i;
        n.lines += warp.lines();
        n.inexact_deps += warp.inexact_deps();
        out.write(text);
        text.clear();
      }
      out.write("#END_TB\n\n");
    }
    if (expected != info.num_ctas)
      throw std::logic_error("kernel '" + info.name + "' handed out " + std::to_string(expected) + " of " +
                             std::to_string(info.num_ctas) + " CTAs");
    out.commit();
    list += file + "\n";
  }
  if (n.kernels == 0) throw ConfigError("workload '" + workload.name() + "' has no kernel to write");
  OutputFile out(list_path);
  out.write(list);
  out.commit();
  return n;
}

}  // namespace gms
