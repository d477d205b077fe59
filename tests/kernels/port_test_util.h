// Helpers for the kernel ports' tests: build a registered port with size keys, and pull every warp stream
// of every kernel (CTA by CTA, warp by warp), counting and hashing the instructions.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms::kernels::test {

// `size` is the YAML of the size map, e.g. "{rows: 64, cols: 64}".
inline std::unique_ptr<PortWorkload> make_port(const std::string& name, const std::string& size = "{}") {
  const PortInfo* info = PortRegistry::builtin().find(name);
  if (!info) throw std::runtime_error("no port " + name);
  const ConfigNode s = ConfigNode::load_string(size, "size");
  std::unique_ptr<KernelPort> port = info->make(s);
  s.finish();  // a size key the port does not know is a test bug
  return std::make_unique<PortWorkload>(name, std::move(port));
}

// FNV-1a, byte by byte.
inline void mix(uint64_t& h, uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 1099511628211ull;
  }
}
inline void mix(uint64_t& h, const WarpInst& i) {
  mix(h, uint64_t(i.kind));
  mix(h, i.pc);
  mix(h, i.active_mask);
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (i.active_mask >> l & 1) mix(h, i.addr[l]);
}

// Every CTA of a kernel taken at once, then one instruction per unfinished warp in turn (as SMs pull them).
inline uint64_t pull_round_robin(Workload& wl) {
  uint64_t insts = 0;
  for (std::unique_ptr<KernelSource> k; (k = wl.next_kernel());) {
    std::vector<std::unique_ptr<CtaWork>> ctas;
    for (std::unique_ptr<CtaWork> c; (c = k->next_cta());) ctas.push_back(std::move(c));
    std::vector<WarpStream*> left;
    for (auto& c : ctas)
      for (auto& w : c->warps) left.push_back(w.get());
    while (!left.empty()) {
      std::vector<WarpStream*> still;
      for (WarpStream* w : left) {
        WarpInst i;
        if (w->next(i)) ++insts, still.push_back(w);
      }
      left.swap(still);
    }
  }
  return insts;
}

struct StreamSummary {
  uint64_t kernels = 0, ctas = 0, warps = 0, insts = 0, loads = 0, stores = 0, barriers = 0, atomics = 0;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over kind, pc, mask and active lanes' addresses
  std::vector<uint64_t> insts_per_kernel;
  std::vector<std::string> kernel_names;
  std::vector<WarpInst> first;  // each kernel's first instruction (CTA 0, warp 0)
};

// Pulls every stream; `each(kernel_index, kernel_name, inst)` sees every instruction if given.
inline StreamSummary pull_all(
    Workload& wl, const std::function<void(uint64_t, const std::string&, const WarpInst&)>& each = {}) {
  StreamSummary s;
  for (std::unique_ptr<KernelSource> k; (k = wl.next_kernel());) {
    s.kernel_names.push_back(k->info().name);
    s.insts_per_kernel.push_back(0);
    bool first = true;
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());) {
      ++s.ctas;
      for (auto& warp : cta->warps) {
        ++s.warps;
        for (WarpInst i; warp->next(i);) {
          if (each) each(s.kernels, k->info().name, i);
          if (first) s.first.push_back(i), first = false;
          ++s.insts, ++s.insts_per_kernel.back();
          ++(i.kind == MemKind::Load     ? s.loads
             : i.kind == MemKind::Store  ? s.stores
             : i.kind == MemKind::Atomic ? s.atomics
                                         : s.barriers);
          mix(s.hash, i);
        }
      }
    }
    ++s.kernels;
  }
  return s;
}

struct KernelStats {
  std::string name;
  uint32_t ctas = 0, threads_per_cta = 0;
  uint64_t insts = 0;  // warp instructions (barriers included)
};

struct StreamStats {
  std::vector<KernelStats> kernels;
  uint64_t insts = 0;
  uint64_t hash = 1469598103934665603ull;  // over kind, pc, mask and active lanes' addresses
  WarpInst first;                          // the first instruction of the first kernel's first warp
};

// pull_all with per-kernel counts and the first instruction kept.
inline StreamStats pull_stats(Workload& wl) {
  StreamStats s;
  bool have_first = false;
  while (auto k = wl.next_kernel()) {
    KernelStats ks{k->info().name, k->info().num_ctas, k->info().threads_per_cta, 0};
    while (auto cta = k->next_cta())
      for (auto& warp : cta->warps)
        for (WarpInst i; warp->next(i);) {
          if (!have_first) s.first = i, have_first = true;
          mix(s.hash, i);
          ++ks.insts;
        }
    s.insts += ks.insts;
    s.kernels.push_back(std::move(ks));
  }
  return s;
}

// The port at `size` computes the benchmark's result functionally (check() is "").
inline void expect_checks(const std::string& name, const std::string& size) {
  auto p = make_port(name, size);
  ASSERT_NE(p, nullptr) << name;
  p->run_functionally();
  EXPECT_EQ(p->check(), "") << name;
}

// Two fresh workloads of the port at `size` give the same streams (kernels, instructions, hash of every
// kind, pc, mask and address), and the pulled streams compute the result too.
inline void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const StreamSummary sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_GT(sa.insts, 0u) << name;
  EXPECT_EQ(sa.kernels, sb.kernels) << name;
  EXPECT_EQ(sa.insts, sb.insts) << name;
  EXPECT_EQ(sa.hash, sb.hash) << name;
  EXPECT_EQ(a->check(), "") << name;
}

// The disabled default-input tests' line: the port's stream size at `size` (kernels, CTAs, warps, warp
// instructions, loads, stores, atomics, with compute) and its check(); with per_kernel, each kernel's
// instructions below it.
inline void print_stream_size(const std::string& name, const std::string& size, bool per_kernel = false) {
  auto p = make_port(name, size);
  uint64_t compute = 0;
  const auto s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { compute += i.gap; });
  std::printf(
      "%-18s %-36s kernels %3llu  CTAs %6llu  warps %7llu  warp insts %9llu (loads %llu, stores %llu, "
      "atomics %llu; with compute %llu)  check '%s'\n",
      name.c_str(), size.c_str(), (unsigned long long)s.kernels, (unsigned long long)s.ctas,
      (unsigned long long)s.warps, (unsigned long long)s.insts, (unsigned long long)s.loads,
      (unsigned long long)s.stores, (unsigned long long)s.atomics, (unsigned long long)(s.insts + compute),
      p->check().c_str());
  if (per_kernel)
    for (size_t k = 0; k < s.kernel_names.size(); ++k)
      std::printf("  %2zu %-32s %9llu\n", k, s.kernel_names[k].c_str(),
                  (unsigned long long)s.insts_per_kernel[k]);
}

}  // namespace gms::kernels::test
