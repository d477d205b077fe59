#include "tb/traces/accelsim_kernel.h"

#include <bitset>
#include <cstdio>

#include "models/coalescing/coalescer.h"
#include "models/common/lane_stride.h"
#include "models/common/text_excerpt.h"
#include "tb/traces/compressed_input.h"

namespace gms {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

// "key = <unsigned>" with the key already checked.
uint64_t keyed_number(const LineReader& r, const std::string& t, const char* key, uint64_t max) {
  const size_t eq = t.find('=');
  uint64_t v = 0;
  if (eq == std::string::npos || trim(t.substr(0, eq)) != key || !parse_dec_u64(trim(t.substr(eq + 1)), v) ||
      v > max)
    r.fail("malformed line " + quote_excerpt(t) + " (expected '" + key + " = <number>')");
  return v;
}

}  // namespace

AccelWarpStream::AccelWarpStream(std::shared_ptr<const AccelCtaTrace> cta, uint32_t warp)
    : cta_(std::move(cta)), pos_(cta_->warp_range[warp].first), end_(cta_->warp_range[warp].second) {}

bool AccelWarpStream::next(WarpInst& out) {
  if (pos_ == end_) return false;
  const AccelCtaTrace::Inst& in = cta_->insts[pos_++];
  out.pc = in.pc;
  out.kind = in.kind;
  out.active_mask = in.mask;
  out.width = in.width;
  out.gap = in.gap;
  out.waits_on = in.waits_on;
  out.writes = in.writes;
  out.wait_gap = in.wait_gap;
  const uint64_t* a = cta_->addrs.data() + in.addr_begin;
  if (in.kind == MemKind::Barrier) {  // no addresses
    out.addr.fill(0);
    return true;
  }
  if (in.strided) {
    expand_stride(out.addr, a[0], a[1]);
    return true;
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane) out.addr[lane] = ((in.mask >> lane) & 1) ? *a++ : 0;
  return true;
}

AccelSimKernel::AccelSimKernel(const std::string& path, const std::string& display_name,
                               std::shared_ptr<AccelImportStats> stats)
    : in_(std::make_unique<LineReader>(path)), stats_(std::move(stats)) {
  header_ = read_accelsim_header(*in_);
  info_.name = header_.name;
  info_.num_ctas = uint32_t(header_.num_ctas());
  info_.threads_per_cta = uint32_t(header_.threads_per_cta());
  info_.regs_per_thread = header_.nregs;
  info_.shmem_per_cta = header_.shmem;
  counts_ = &stats_->begin_kernel(header_.name, display_name);
}

AccelSimKernel::~AccelSimKernel() = default;

std::unique_ptr<CtaWork> AccelSimKernel::next_cta() {
  if (next_id_ == info_.num_ctas || !in_) return nullptr;
  if (!at_begin_) {
    for (;;) {
      if (!in_->next(line_))
        in_->fail("unexpected end of file: " + std::to_string(next_id_) +
                  " thread blocks read, the grid has " + std::to_string(info_.num_ctas));
      const std::string t = trim(line_);
      if (t.empty()) continue;
      if (t != "#BEGIN_TB") in_->fail("expected #BEGIN_TB, got " + quote_excerpt(t));
      break;
    }
  }
  at_begin_ = false;
  // Parsed into the reused scratch (hot in host caches, no growth copies), then copied at its exact size:
  // with a thousand CTAs resident (132 SMs), growing every CTA's own vectors cost cold copies.
  read_tb(scratch_);
  auto cta = std::make_shared<AccelCtaTrace>(scratch_);
  auto work = std::make_unique<CtaWork>();
  work->cta_id = next_id_++;
  for (uint32_t w = 0; w < cta->warp_range.size(); ++w)
    work->warps.push_back(std::make_unique<AccelWarpStream>(cta, w));
  ++counts_->ctas;
  if (next_id_ == info_.num_ctas) check_no_more_tbs();
  return work;
}

void AccelSimKernel::check_no_more_tbs() {
  while (in_->next(line_))
    if (!trim(line_).empty())
      in_->fail("more thread blocks than the grid's " + std::to_string(info_.num_ctas) + ": " +
                quote_excerpt(trim(line_)));
  in_.reset();  // frees the decoder's buffers
}

void AccelSimKernel::read_tb(AccelCtaTrace& cta) {
  const uint64_t begin_line = in_->line_no();
  const uint32_t warps = info_.warps_per_cta();
  cta.insts.clear();
  cta.addrs.clear();
  cta.warp_range.assign(warps, {0, 0});
  std::vector<bool> seen(warps, false);
  bool have_id = false;
  for (;;) {
    if (!in_->next(line_))
      in_->fail("unexpected end of file inside the thread block that begins at line " +
                std::to_string(begin_line) + " (no #END_TB)");
    const std::string t = trim(line_);
    if (t.empty()) continue;
    if (t == "#END_TB") break;
    if (starts_with(t, "thread block")) {
      unsigned long long x, y, z;
      int used = 0;
      if (std::sscanf(t.c_str(), "thread block = %llu,%llu,%llu%n", &x, &y, &z, &used) != 3 ||
          size_t(used) != t.size())
        in_->fail("malformed line " + quote_excerpt(t) + " (expected 'thread block = x,y,z')");
      if (x >= header_.grid[0] || y >= header_.grid[1] || z >= header_.grid[2])
        in_->fail("thread block " + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) +
                  " lies outside the grid");
      have_id = true;
    } else if (starts_with(t, "warp")) {
      if (!have_id) in_->fail("warp before 'thread block = x,y,z'");
      const uint64_t w = keyed_number(*in_, t, "warp", UINT32_MAX);
      if (w >= warps)
        in_->fail("warp " + std::to_string(w) + " but the block dim gives " + std::to_string(warps) +
                  " warps");
      if (seen[w]) in_->fail("warp " + std::to_string(w) + " appears twice in this thread block");
      seen[w] = true;
      const uint64_t warp_line = in_->line_no();
      do {
        if (!in_->next(line_))
          in_->fail("unexpected end of file: no 'insts = n' after 'warp = " + std::to_string(w) + "'");
      } while (trim(line_).empty());
      const uint64_t n = keyed_number(*in_, trim(line_), "insts", UINT32_MAX);
      read_warp(cta, uint32_t(w), n, warp_line);
    } else {
      in_->fail("unexpected line in a thread block: " + quote_excerpt(t));
    }
  }
  if (!have_id) in_->fail("thread block without 'thread block = x,y,z'");
}

void AccelSimKernel::check_fits(const AccelInst& in) const {
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if ((in.mask >> lane & 1) && in.addr[lane] + (in.width - 1) < in.addr[lane]) {
      WarpInst w;
      w.width = uint8_t(in.width);
      w.addr = in.addr;
      in_->fail(wrap_error(w, lane));
    }
}

void AccelSimKernel::read_warp(AccelCtaTrace& cta, uint32_t warp, uint64_t insts, uint64_t first_line) {
  const auto report_short = [&](uint64_t got) {
    in_->fail("warp " + std::to_string(warp) + " (line " + std::to_string(first_line) + ") has " +
              std::to_string(got) + " instruction lines, insts = " + std::to_string(insts));
  };
  cta.warp_range[warp].first = uint32_t(cta.insts.size());
  uint32_t gap = 0;
  deps_.reset();
  for (uint64_t i = 0; i < insts; ++i) {
    do {
      if (!in_->next(line_))
        in_->fail("unexpected end of file: warp " + std::to_string(warp) + " has " + std::to_string(i) +
                  " of " + std::to_string(insts) + " instruction lines");
    } while (line_.find_first_not_of(" \t") == std::string::npos);
    const char c = line_[line_.find_first_not_of(" \t")];
    if (c == '#' || c == 'w' || c == 'i' || c == 't') report_short(i);
    parse_accelsim_inst(line_, header_.format, *in_, tokens_, inst_);
    ++counts_->trace_insts;
    AccelOp op = inst_.op;
    const bool memory = op == AccelOp::Load || op == AccelOp::Store || op == AccelOp::Atomic;
    if (memory && inst_.mask == 0) {
      ++counts_->predicated_off;
      op = AccelOp::Compute;
    } else if (op == AccelOp::Unsupported) {
      ++counts_->unsupported;
      stats_->count_unsupported(inst_.mnemonic);
    } else if (op == AccelOp::Exit) {
      ++counts_->exits;
      ++counts_->compute;
    } else if (op == AccelOp::Compute) {
      ++counts_->compute;
    }
    if (op == AccelOp::Barrier) {  // kept in the stream: the SM holds the warp there (counted as compute)
      ++counts_->compute;
      AccelCtaTrace::Inst b;
      b.pc = inst_.pc;
      b.mask = inst_.mask;
      b.gap = gap;
      b.width = 0;
      b.kind = MemKind::Barrier;
      b.addr_begin = uint32_t(cta.addrs.size());
      b.strided = false;
      cta.insts.push_back(b);
      gap = 0;
      continue;
    }
    if (op != AccelOp::Load && op != AccelOp::Store && op != AccelOp::Atomic) {
      ++gap;  // one issue cycle; carried to the warp's next memory instruction
      deps_.compute(inst_.srcs, inst_.dsts);
      continue;
    }
    check_fits(inst_);
    if (op == AccelOp::Atomic) {  // aligned lanes only: the check the native readers and the SM make
      WarpInst w;
      w.kind = MemKind::Atomic;
      w.width = uint8_t(inst_.width);
      w.active_mask = inst_.mask;
      w.addr = inst_.addr;
      if (const std::string e = address_error(w); !e.empty()) in_->fail(e);
    }
    AccelCtaTrace::Inst m;
    m.pc = inst_.pc;
    m.mask = inst_.mask;
    m.gap = gap;
    m.width = uint8_t(inst_.width);
    m.kind = op == AccelOp::Load ? MemKind::Load : op == AccelOp::Atomic ? MemKind::Atomic : MemKind::Store;
    // An atomic's destination registers (ATOMG's old value; RED has none) are written like a load's.
    deps_.memory(op != AccelOp::Store, inst_.width, inst_.srcs, inst_.dsts, m.waits_on, m.writes, m.wait_gap);
    m.addr_begin = uint32_t(cta.addrs.size());
    uint64_t stride = 0;
    m.strided = uniform_stride(inst_.mask, inst_.addr, stride);
    if (m.strided) {
      cta.addrs.push_back(inst_.addr[0]);
      cta.addrs.push_back(stride);
    } else {
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if ((inst_.mask >> lane) & 1) cta.addrs.push_back(inst_.addr[lane]);
    }
    cta.insts.push_back(m);
    ++(op == AccelOp::Load ? counts_->loads : op == AccelOp::Atomic ? counts_->atomics : counts_->stores);
    gap = 0;
  }
  cta.warp_range[warp].second = uint32_t(cta.insts.size());
}

}  // namespace gms
