// LonestarGPU sp (survey propagation, `nsp` in LonestarGPU 2.0), its convergence phase: the host code's
// converge() launches calc_pi_values (each thread, grid-stride over the formula's clause->variable edges,
// multiplies (1 - eta) over the other clauses of the edge's variable into pi_0, pi_S, pi_U) and update_eta
// (each edge's new eta is the product over the clause's other literals of pi_U / (pi_0 + pi_S + pi_U); the
// largest change reaches max_eps by atomicMax on its bits) until max_eps <= EPSILON (0.01) or 1000
// iterations (the port's max_iteration key, default lower: see PortInfo::input). Those are the two kernels
// paper 004 counts for SP; the decimation that follows converge() in nsp (update_bias, a CUB radix sort of
// the bias list, decimate_2, then further rounds) is not ported: the port runs the first round's survey
// propagation to convergence. Grids are nSM * maximum_residency(kernel, 384) blocks of 384 threads. Loads
// follow the compiled code (nvcc 13, sm_75 PTX): an edge's destination is loaded before its source, pi_S
// before pi_0 in update_eta, and the inner loop of calc_pi_values (unrolled four times in the PTX) is walked
// item by item. Results do not depend on atomic order (each edge's pi and eta are written by its own thread
// from values of the previous kernel; max_eps is a max), so check() recomputes every iteration sequentially,
// in the same float operation order, and compares eta, pi_0, pi_S, pi_U and the iteration count exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v (CUDA 13) on apps/sp/newsp.cu: registers per thread.
constexpr uint32_t kCpvRegs = 44, kUeRegs = 23;
// PTX instructions between consecutive global memory instructions (nvcc --ptx -arch=sm_75, counted).
constexpr uint32_t kCpvEntry = 36, kCpvDstToSrc = 1, kCpvSrcToSat = 2, kCpvSatToVsat = 3, kCpvVsatToRo = 4,
                   kCpvRoToLoop = 17, kCpvColToSrc = 3, kCpvSrcToSat2 = 2, kCpvSatToEta = 6, kCpvEtaToBar = 3,
                   kCpvBarToBar = 1, kCpvItemTail = 8, kCpvSkipTail = 3, kCpvLoopToStore = 2,
                   kCpvStoreToStore = 3, kCpvEdgeTail = 7;
constexpr uint32_t kUeEntry = 32, kUeSrcToSat = 2, kUeSatToVsat = 3, kUeVsatToRo = 4, kUeRoToLoop = 7,
                   kUeColToDst = 4, kUeDstToVsat = 4, kUeVsatToPi = 6, kUePiToPi = 1, kUePiToSum = 3,
                   kUeItemTail = 5, kUeLoopToEta = 2, kUeEtaToStore = 5, kUeEdgeTail = 7, kUeToAtomic = 4;
constexpr uint32_t kThreads = 384;     // converge(): <<<nSM * residency, 384>>>
constexpr double kEpsilon = 0.01;      // EPSILON
constexpr uint32_t kMaxCtasPerSm = 8;  // Fermi

// dst = src in the active lanes.
template <class T>
void assign(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

int32_t float_bits(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i;
}
float bits_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}

class Sp : public KernelPort {
 public:
  Sp(uint32_t clauses, uint32_t vars, uint32_t k, uint32_t seed, uint32_t max_iteration, uint32_t sms,
     uint32_t sm_threads, uint32_t sm_regs)
      : m_(clauses),
        n_(vars),
        k_(k),
        seed_(seed),
        max_iteration_(max_iteration),
        sms_(sms),
        sm_threads_(sm_threads),
        sm_regs_(sm_regs) {}

  void setup(DeviceMemory& mem) override {
    // genformula seed M N K: K distinct random variables per clause, each negated with probability 1/2.
    LibcRand gen(seed_);
    std::vector<uint32_t> lit(size_t(m_) * k_);
    std::vector<uint8_t> neg(lit.size());
    for (uint32_t c = 0; c < m_; ++c)
      for (uint32_t i = 0; i < k_; ++i) {
        uint32_t v;
        bool dup;
        do {
          v = uint32_t(gen.rand()) % n_;
          dup = false;
          for (uint32_t j = 0; j < i; ++j) dup = dup || lit[size_t(c) * k_ + j] == v;
        } while (dup);
        lit[size_t(c) * k_ + i] = v;
        neg[size_t(c) * k_ + i] = uint8_t(gen.rand() % 2);
      }
    e_ = uint32_t(lit.size());
    // nsp's main: max_eps, summag, then the clause graph, the variable graph and the edges (from_cpu), then
    // the bias lists.
    max_eps_ = mem.alloc<int32_t>("g_max_eps", 1);
    mem.alloc<float>("g_summag", 1);
    cro_ = mem.alloc<int32_t>("clauses.row_offsets", size_t(m_) + 1);
    ccol_ = mem.alloc<int32_t>("clauses.columns", e_);
    csat_ = mem.alloc<uint8_t>("clauses.sat", m_);
    mem.alloc<float>("clauses.bias", m_);
    mem.alloc<uint8_t>("clauses.value", m_);
    vro_ = mem.alloc<int32_t>("vars.row_offsets", size_t(n_) + 1);
    vcol_ = mem.alloc<int32_t>("vars.columns", e_);
    vsat_ = mem.alloc<uint8_t>("vars.sat", n_);
    mem.alloc<float>("vars.bias", n_);
    mem.alloc<uint8_t>("vars.value", n_);
    src_ = mem.alloc<int32_t>("ed.src", e_);
    dst_ = mem.alloc<int32_t>("ed.dst", e_);
    bar_ = mem.alloc<uint8_t>("ed.bar", e_);
    eta_ = mem.alloc<float>("ed.eta", e_);
    pi0_ = mem.alloc<float>("ed.pi_0", e_);
    piS_ = mem.alloc<float>("ed.pi_S", e_);
    piU_ = mem.alloc<float>("ed.pi_U", e_);
    mem.alloc<float>("g_bias_list", n_);
    mem.alloc<float>("g_bias_list_2", n_);
    mem.alloc<int32_t>("g_bias_list_vars", n_);
    mem.alloc<int32_t>("g_bias_list_vars_2", n_);
    mem.alloc<int32_t>("g_bias_list_len", 1);
    // init_from_file: edges in file order, eta from nsp's own (unseeded: seed 1) rand().
    LibcRand r(1);
    std::vector<int32_t> count(n_, 0);
    for (uint32_t e = 0; e < e_; ++e) {
      src_[e] = int32_t(e / k_);
      dst_[e] = int32_t(lit[e]);
      bar_[e] = neg[e];
      eta_[e] = float(r.rand()) / float(LibcRand::kRandMax);
      ccol_[e] = int32_t(e);
      ++count[lit[e]];
    }
    for (uint32_t c = 0; c <= m_; ++c) cro_[c] = int32_t(c * k_);
    int32_t sum = 0;
    for (uint32_t v = 0; v < n_; ++v) vro_[v] = sum, sum += count[v];
    vro_[n_] = sum;
    std::vector<int32_t> fill(n_, 0);
    for (uint32_t e = 0; e < e_; ++e) vcol_[size_t(vro_[lit[e]] + fill[lit[e]]++)] = int32_t(e);
    eta0_ = eta_.host();
  }

  void run(Launcher& host) override {
    const uint32_t cpv_grid = sms_ * residency(kCpvRegs), ue_grid = sms_ * residency(kUeRegs);
    iterations_ = 0;
    float max_eps;
    uint32_t i = 0;
    do {
      KernelLaunch c;
      c.name = "calc_pi_values";
      c.grid = {cpv_grid, 1, 1};
      c.block = {kThreads, 1, 1};
      c.regs_per_thread = kCpvRegs;
      c.body = [this](Warp& w) { calc_pi_values(w); };
      host.launch(std::move(c));
      max_eps_[0] = float_bits(0.0f);
      KernelLaunch u;
      u.name = "update_eta";
      u.grid = {ue_grid, 1, 1};
      u.block = {kThreads, 1, 1};
      u.regs_per_thread = kUeRegs;
      u.body = [this](Warp& w) { update_eta(w); };
      host.launch(std::move(u));
      max_eps = bits_float(max_eps_[0]);
      ++iterations_;
    } while (max_eps > kEpsilon && i++ < max_iteration_);
  }

  std::string check() const override {
    std::vector<float> eta = eta0_, pi0(e_, 0.0f), piS(e_, 0.0f), piU(e_, 0.0f);
    uint32_t iterations = 0, i = 0;
    float max_eps;
    do {
      for (uint32_t e = 0; e < e_; ++e) {  // calc_pi_values (no clause or variable is satisfied yet)
        const int32_t a = src_[e];
        float p0 = 1.0f, vs = 1.0f, vu = 1.0f;
        for (int32_t x = vro_[size_t(dst_[e])]; x < vro_[size_t(dst_[e]) + 1]; ++x) {
          const int32_t eb = vcol_[size_t(x)];
          if (src_[size_t(eb)] == a) continue;
          const float f = 1.0f - eta[size_t(eb)];
          p0 = p0 * f;
          if (bar_[size_t(eb)] == bar_[e])
            vs = vs * f;
          else
            vu = vu * f;
        }
        pi0[e] = p0;
        piU[e] = (1.0f - vu) * vs;
        piS[e] = (1.0f - vs) * vu;
      }
      max_eps = 0.0f;
      for (uint32_t e = 0; e < e_; ++e) {  // update_eta
        const int32_t a = src_[e];
        float ne = 1.0f;
        for (int32_t x = cro_[size_t(a)]; x < cro_[size_t(a) + 1]; ++x) {
          const int32_t je = ccol_[size_t(x)];
          if (dst_[size_t(je)] == dst_[e]) continue;
          const float s = pi0[size_t(je)] + piS[size_t(je)] + piU[size_t(je)];
          if (s == 0.0f) {
            ne = 0.0f;
            break;
          }
          ne = ne * (piU[size_t(je)] / s);
        }
        const float eps = std::fabs(ne - eta[e]);
        if (eps > max_eps) max_eps = eps;
        eta[e] = ne;
      }
      ++iterations;
    } while (max_eps > kEpsilon && i++ < max_iteration_);
    if (iterations != iterations_)
      return "converged in " + std::to_string(iterations_) + " iterations, expected " +
             std::to_string(iterations);
    for (uint32_t e = 0; e < e_; ++e) {
      const std::string at = "[" + std::to_string(e) + "] = ";
      if (eta_[e] != eta[e])
        return "eta" + at + std::to_string(eta_[e]) + ", expected " + std::to_string(eta[e]);
      if (pi0_[e] != pi0[e])
        return "pi_0" + at + std::to_string(pi0_[e]) + ", expected " + std::to_string(pi0[e]);
      if (piS_[e] != piS[e])
        return "pi_S" + at + std::to_string(piS_[e]) + ", expected " + std::to_string(piS[e]);
      if (piU_[e] != piU[e])
        return "pi_U" + at + std::to_string(piU_[e]) + ", expected " + std::to_string(piU[e]);
    }
    return "";
  }

 private:
  // maximum_residency(kernel, 384, 0): the occupancy calculator's CTAs per SM (register allocation
  // granularity left out).
  uint32_t residency(uint32_t regs) const {
    uint32_t r = kMaxCtasPerSm;
    r = std::min(r, sm_threads_ / kThreads);
    r = std::min(r, sm_regs_ / (regs * kThreads));
    return std::max(r, 1u);
  }

  void calc_pi_values(Warp& w) {
    const Int id = w.global_x();
    const int64_t threads = int64_t(w.block_dim().x) * int64_t(w.grid_dim().x);
    w.compute(kCpvEntry);
    w.for_(id, Int(int64_t(e_)), Int(threads), [&](const Int& e) {
      const Int j = w.load(0x10, dst_, e).as<int64_t>();
      w.compute(kCpvDstToSrc);
      const Int a = w.load(0x20, src_, e).as<int64_t>();
      w.compute(kCpvSrcToSat);
      const Lanes<uint8_t> asat = w.load(0x30, csat_, a);
      w.compute(kCpvSatToVsat);
      w.continue_if(asat != 0);
      const Lanes<uint8_t> jsat = w.load(0x40, vsat_, j);
      w.compute(kCpvVsatToRo);
      w.continue_if(jsat != 0);
      const Int hi = w.load(0x50, vro_, j + 1).as<int64_t>();
      const Int lo = w.load(0x60, vro_, j).as<int64_t>();
      w.compute(kCpvRoToLoop);
      Float p0(1.0f), vs(1.0f), vu(1.0f);
      w.for_(Int(0), hi - lo, Int(1), [&](const Int& i) {
        const Int eb = w.load(0x70, vcol_, lo + i).as<int64_t>();
        w.compute(kCpvColToSrc);
        const Int b = w.load(0x80, src_, eb).as<int64_t>();
        w.compute(kCpvSrcToSat2);
        const Lanes<uint8_t> bsat = w.load(0x90, csat_, b);
        w.compute(kCpvSatToEta);
        w.if_else(
            bsat == 0 && b != a,
            [&] {
              const Float f = 1.0f - w.load(0xa0, eta_, eb);
              w.compute(kCpvEtaToBar);
              const Lanes<uint8_t> bar_e = w.load(0xb0, bar_, e);
              w.compute(kCpvBarToBar);
              const Lanes<uint8_t> bar_b = w.load(0xc0, bar_, eb);
              const Bool same = bar_b == bar_e;
              assign(w, p0, p0 * f);
              assign(w, vs, select<float>(same, vs * f, vs));
              assign(w, vu, select<float>(same, vu, vu * f));
              w.compute(kCpvItemTail);
            },
            [&] { w.compute(kCpvSkipTail); });
      });
      w.compute(kCpvLoopToStore);
      w.store(0xd0, pi0_, e, p0);
      w.compute(kCpvStoreToStore);
      w.store(0xe0, piU_, e, (1.0f - vu) * vs);
      w.compute(kCpvStoreToStore);
      w.store(0xf0, piS_, e, (1.0f - vs) * vu);
      w.compute(kCpvEdgeTail);
    });
  }

  void update_eta(Warp& w) {
    const Int id = w.global_x();
    const int64_t threads = int64_t(w.block_dim().x) * int64_t(w.grid_dim().x);
    Float lmax(0.0f);
    w.compute(kUeEntry);
    w.for_(id, Int(int64_t(e_)), Int(threads), [&](const Int& e) {
      const Int i = w.load(0x110, dst_, e).as<int64_t>();
      const Int a = w.load(0x120, src_, e).as<int64_t>();
      w.compute(kUeSrcToSat);
      const Lanes<uint8_t> asat = w.load(0x130, csat_, a);
      w.compute(kUeSatToVsat);
      w.continue_if(asat != 0);
      const Lanes<uint8_t> isat = w.load(0x140, vsat_, i);
      w.compute(kUeVsatToRo);
      w.continue_if(isat != 0);
      const Int hi = w.load(0x150, cro_, a + 1).as<int64_t>();
      const Int lo = w.load(0x160, cro_, a).as<int64_t>();
      w.compute(kUeRoToLoop);
      Float ne(1.0f);
      w.for_(Int(0), hi - lo, Int(1), [&](const Int& x) {
        const Int je = w.load(0x170, ccol_, lo + x).as<int64_t>();
        w.compute(kUeColToDst);
        const Int j = w.load(0x180, dst_, je).as<int64_t>();
        w.compute(kUeDstToVsat);
        w.continue_if(j == i);
        const Lanes<uint8_t> jsat = w.load(0x190, vsat_, j);
        w.compute(kUeVsatToPi);
        w.continue_if(jsat != 0);
        const Float ps = w.load(0x1a0, piS_, je);
        w.compute(kUePiToPi);
        const Float p0 = w.load(0x1b0, pi0_, je);
        w.compute(kUePiToPi);
        const Float pu = w.load(0x1c0, piU_, je);
        w.compute(kUePiToSum);
        const Float s = p0 + ps + pu;
        const Bool zero = s == 0.0f;
        assign(w, ne, select<float>(zero, 0.0f, ne * (pu / s)));
        w.break_if(zero);
        w.compute(kUeItemTail);
      });
      w.compute(kUeLoopToEta);
      const Float old = w.load(0x1d0, eta_, e);
      const Float eps = map(ne - old, [](float d) { return std::fabs(d); });
      assign(w, lmax, select<float>(eps > lmax, eps, lmax));
      w.compute(kUeEtaToStore);
      w.store(0x1e0, eta_, e, ne);
      w.compute(kUeEdgeTail);
    });
    w.compute(kUeToAtomic);
    w.if_(lmax != 0.0f, [&] { w.atomic_max(0x1f0, max_eps_, Int(0), map(lmax, float_bits)); });
  }

  uint32_t m_, n_, k_, seed_, max_iteration_, sms_, sm_threads_, sm_regs_;
  uint32_t e_ = 0;
  uint32_t iterations_ = 0;
  std::vector<float> eta0_;
  DeviceArray<int32_t> max_eps_, cro_, ccol_, vro_, vcol_, src_, dst_;
  DeviceArray<uint8_t> csat_, vsat_, bar_;  // CUDA bool: one byte
  DeviceArray<float> eta_, pi0_, piS_, piU_;
};

}  // namespace

void register_lonestar_sp(PortRegistry& r) {
  PortInfo p;
  p.name = "lonestar/sp";
  p.suite = "LonestarGPU 2.0";
  p.source =
      "LonestarGPU 2.0 apps/sp (newsp.cu: converge() with calc_pi_values and update_eta; sp.h; genformula.c "
      "for the input), as in github.com/accel-sim/gpu-app-collection src/cuda/lonestargpu-2.0, commit "
      "52c11fb; "
      "the decimation after the first convergence (update_bias, CUB sort, decimate_2) is not ported";
  p.input =
      "The suite's inputs are random 3-SAT formulas from its genformula (M clauses, N variables, K = 3, "
      "M/N = 4.2, near the SAT threshold, e.g. 42000 x 10000, ~4.6 MB). Default: genformula seed 1, "
      "M = 16800, N = 4000, K = 3 (the suite's M/N; 50,400 clause-variable edges, footprint 1.8 MB, ~2.4x "
      "Fermi's 768 KB L2, near paper 004's 17 MB of SP data in a 6 MB LLC); eta from nsp's unseeded rand(). "
      "It needs 72 iterations (18 M memory warp instructions, ~8 minutes on fermi) to converge, so the "
      "default stops after 8 (max_iteration = 7 in place of the source's MAXITERATION = 1000: every "
      "iteration has the same access pattern, only eta's values change): 16 launches, ~2 M memory warp "
      "instructions. Grids: sms * maximum_residency(kernel, 384 threads) with Fermi's limits (15 SMs, "
      "1536 threads, 32768 registers, 8 CTAs: 15 and 45 blocks). Size keys: clauses, vars, k, seed, "
      "max_iteration, sms, sm_threads, sm_regs";
  p.papers = "Adaptive memory-side LLC (004)";
  p.kernels = "calc_pi_values, update_eta";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t m = s.get_uint("clauses", 16800, 1, uint64_t(1) << 24);
    const uint64_t n = s.get_uint("vars", 4000, 3, uint64_t(1) << 24);
    const uint64_t k = s.get_uint("k", 3, 2, 16);
    if (k > n) throw ConfigError("lonestar/sp: k (" + std::to_string(k) + ") exceeds vars");
    const uint64_t seed = s.get_uint("seed", 1, 0, UINT32_MAX);
    const uint64_t max_it = s.get_uint("max_iteration", 7, 0, 1000);
    const uint64_t sms = s.get_uint("sms", 15, 1, 1024);
    const uint64_t threads = s.get_uint("sm_threads", 1536, kThreads, 65536);
    const uint64_t regs = s.get_uint("sm_regs", 32768, 1024, 1 << 20);
    return std::make_unique<Sp>(uint32_t(m), uint32_t(n), uint32_t(k), uint32_t(seed), uint32_t(max_it),
                                uint32_t(sms), uint32_t(threads), uint32_t(regs));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
