// Helpers for the native-trace tests: a hand-made workload held in vectors, a dump of any workload in
// dispatch order (one string per kernel, CTA, warp and instruction) and small file helpers.
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/workload.h"
#include "tb/traces/native_workload.h"

namespace gms_test {

using gms::WarpInst;

struct HandKernel {
  gms::KernelInfo info;
  std::vector<std::vector<std::vector<WarpInst>>> ctas;  // [cta][warp][inst]
};

class VecStream : public gms::WarpStream {
 public:
  explicit VecStream(std::vector<WarpInst> v) : v_(std::move(v)) {}
  bool next(WarpInst& out) override {
    if (i_ == v_.size()) return false;
    out = v_[i_++];
    return true;
  }

 private:
  std::vector<WarpInst> v_;
  size_t i_ = 0;
};

class VecKernel : public gms::KernelSource {
 public:
  explicit VecKernel(HandKernel k) : k_(std::move(k)) {}
  const gms::KernelInfo& info() const override { return k_.info; }
  std::unique_ptr<gms::CtaWork> next_cta() override {
    if (next_ == k_.ctas.size()) return nullptr;
    auto c = std::make_unique<gms::CtaWork>();
    c->cta_id = uint32_t(next_);
    for (auto& w : k_.ctas[next_]) c->warps.push_back(std::make_unique<VecStream>(w));
    ++next_;
    return c;
  }

 private:
  HandKernel k_;
  size_t next_ = 0;
};

class VecWorkload : public gms::Workload {
 public:
  VecWorkload(std::string name, std::vector<HandKernel> k) : name_(std::move(name)), k_(std::move(k)) {}
  std::string name() const override { return name_; }
  std::unique_ptr<gms::KernelSource> next_kernel() override {
    if (next_ == k_.size()) return nullptr;
    return std::make_unique<VecKernel>(k_[next_++]);
  }

 private:
  std::string name_;
  std::vector<HandKernel> k_;
  size_t next_ = 0;
};

inline WarpInst inst(uint64_t pc, gms::MemKind kind, uint32_t mask, unsigned width, uint32_t gap,
                     const std::vector<uint64_t>& active_addrs) {
  WarpInst in;
  in.pc = pc;
  in.kind = kind;
  in.active_mask = mask;
  in.width = uint8_t(width);
  in.gap = gap;
  size_t k = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (mask >> l & 1) in.addr[l] = active_addrs.at(k++);
  return in;
}

// Addresses base + k*stride for the active lanes of a full warp.
inline std::vector<uint64_t> seq(uint64_t base, int64_t stride, unsigned n = 32) {
  std::vector<uint64_t> v;
  for (unsigned k = 0; k < n; ++k) v.push_back(base + uint64_t(int64_t(k) * stride));
  return v;
}

inline std::string dump_inst(const WarpInst& in) {
  std::ostringstream os;
  const char* kind = in.kind == gms::MemKind::Store     ? "st"
                     : in.kind == gms::MemKind::Barrier ? "bar"
                     : in.kind == gms::MemKind::Load    ? "ld"
                                                        : gms::to_string(in.kind);
  os << std::hex << "pc=" << in.pc << " " << kind << " m=" << in.active_mask << std::dec
     << " w=" << unsigned(in.width) << " gap=" << in.gap << std::hex;
  for (uint64_t a : in.addr) os << " " << a;
  return os.str();
}

// Every kernel, CTA, warp and instruction in dispatch order.
inline std::vector<std::string> dump(gms::Workload& w) {
  std::vector<std::string> out{"workload " + w.name()};
  while (auto k = w.next_kernel()) {
    const auto& i = k->info();
    out.push_back("kernel " + i.name + " " + std::to_string(i.num_ctas) + " " +
                  std::to_string(i.threads_per_cta) + " " + std::to_string(i.regs_per_thread) + " " +
                  std::to_string(i.shmem_per_cta));
    while (auto c = k->next_cta()) {
      out.push_back("cta " + std::to_string(c->cta_id));
      for (size_t wi = 0; wi < c->warps.size(); ++wi) {
        out.push_back("warp " + std::to_string(wi));
        WarpInst in;
        while (c->warps[wi]->next(in)) out.push_back(dump_inst(in));
      }
    }
  }
  return out;
}

// A file in the build tree's scratch folder, prefixed with the running test's name (ctest runs test cases
// in parallel processes).
inline std::string tmp_path(const std::string& name) {
  const std::string d = std::string(GMS_BINARY_DIR) + "/test-tmp/traces_native";
  std::system(("mkdir -p '" + d + "'").c_str());
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return d + "/" + (info ? std::string(info->test_suite_name()) + "." + info->name() + "_" : "") + name;
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The error reading the whole native trace at `path` gives ("" when it reads fine).
inline std::string error_of(const std::string& path) {
  try {
    gms::NativeTraceWorkload w(path);
    dump(w);
  } catch (const gms::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace gms_test
