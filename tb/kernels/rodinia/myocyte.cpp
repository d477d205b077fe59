// Rodinia 3.1 myocyte (CUDA, mode 0): a cardiac myocyte model (91 ODEs) integrated by an embedded
// Runge-Kutta-Fehlberg 7(8) solver on the host. Every right-hand-side evaluation (master()) copies the 91
// state values and 18 parameters to the device and launches `kernel` on 2 CTAs of 32 threads, of which one
// thread each works: CTA 0's thread 0 runs the excitation-contraction model (kernel_ecc: 39 state values and
// a parameter in, 46 rates out, 14 of them read back), CTA 1's thread 0 the three CaM models one after the
// other (kernel_cam: a calcium value, 6 parameters, 15 state values in, 15 rates and a flux out; the flux
// goes to d_finavalu[com_offset], as the source writes it). The host then finishes the rates (kernel_fin).
// One solver step = 13 launches per attempt (the Fehlberg stages); the solver retries a step with a
// smaller h while the error is too large.
//
// What is ported: each launch's global loads and stores, one lane, in the source's order with its exact
// indices, and the host's launch sequence. What is not: the model's arithmetic (several thousand PTX
// instructions a launch) is a compute gap and the stored rates are stand-ins (a rate is its variable's
// loaded value, a flux its calcium value, and every stored value carries the dependences of all the
// thread's loads, as the model's do); the host's Runge-Kutta arithmetic is not run, every launch gets the
// initial state. The solver's attempts per step (its only data-dependent control) are a size key: 3, as a
// host build of the CUDA source's arithmetic (glibc math, FMA contraction as nvcc does) takes at every step
// of the run script's 100 (3926 launches instead of 3900 without contraction: steps 95 and 98 take 4).
#include <cstdint>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 -arch=sm_75 -Xptxas -v on kernel.cu with kernel_ecc.cu and kernel_cam.cu inlined: registers per
// thread, no shared memory.
constexpr uint32_t kRegs = 110;
// PTX (nvcc --ptx -arch=sm_75): the entry to the branch on blockIdx / threadIdx; kernel_ecc's inlined body
// is about 4400 instructions (static count of its blocks, pow / exp calls once), kernel_cam's about 470.
// Loads are back to back (constant offsets: 1 each); the compute before each ECC store is kernel_ecc's
// 4400 split by the source lines since the previous access (table below), kernel_cam's 410 before its first
// rate store, 4 between rate stores, 11 before the flux.
constexpr uint32_t kEntry = 13, kCamFirst = 2, kCamLoad = 1, kCamCompute = 410, kCamStore = 4;
constexpr uint32_t kCamFlux = 11, kCaLoad = 3;

constexpr int kEquations = 91, kParameters = 18, kStages = 13;

enum Arr : uint8_t { kInit, kFina, kParams };
enum Kind : uint8_t { kLoad, kStore };
struct Access {
  Kind kind;
  Arr arr;
  uint8_t index;
  uint16_t gap;
};
// kernel_ecc's global accesses in source order (valu_offset 0: offset_N is index N - 1; offset_22 and
// offsets 41-46 are not loaded, the source has them commented out) and the PTX instructions before each.
constexpr Access kEcc[] = {
    {kLoad, kParams, 15, 13}, {kLoad, kInit, 0, 1},     {kLoad, kInit, 1, 1},     {kLoad, kInit, 2, 1},
    {kLoad, kInit, 3, 1},     {kLoad, kInit, 4, 1},     {kLoad, kInit, 5, 1},     {kLoad, kInit, 6, 1},
    {kLoad, kInit, 7, 1},     {kLoad, kInit, 8, 1},     {kLoad, kInit, 9, 1},     {kLoad, kInit, 10, 1},
    {kLoad, kInit, 11, 1},    {kLoad, kInit, 12, 1},    {kLoad, kInit, 13, 1},    {kLoad, kInit, 14, 1},
    {kLoad, kInit, 15, 1},    {kLoad, kInit, 16, 1},    {kLoad, kInit, 17, 1},    {kLoad, kInit, 18, 1},
    {kLoad, kInit, 19, 1},    {kLoad, kInit, 20, 1},    {kLoad, kInit, 22, 1},    {kLoad, kInit, 23, 1},
    {kLoad, kInit, 24, 1},    {kLoad, kInit, 25, 1},    {kLoad, kInit, 26, 1},    {kLoad, kInit, 27, 1},
    {kLoad, kInit, 28, 1},    {kLoad, kInit, 29, 1},    {kLoad, kInit, 30, 1},    {kLoad, kInit, 31, 1},
    {kLoad, kInit, 32, 1},    {kLoad, kInit, 33, 1},    {kLoad, kInit, 34, 1},    {kLoad, kInit, 35, 1},
    {kLoad, kInit, 36, 1},    {kLoad, kInit, 37, 1},    {kLoad, kInit, 38, 1},    {kLoad, kInit, 39, 1},
    {kStore, kFina, 0, 1845}, {kStore, kFina, 1, 11},   {kStore, kFina, 2, 11},   {kStore, kFina, 11, 229},
    {kStore, kFina, 12, 131}, {kStore, kFina, 7, 197},  {kStore, kFina, 8, 11},   {kStore, kFina, 39, 11},
    {kStore, kFina, 9, 66},   {kStore, kFina, 10, 11},  {kStore, kFina, 3, 229},  {kStore, kFina, 4, 11},
    {kStore, kFina, 5, 11},   {kStore, kFina, 6, 11},   {kStore, kFina, 42, 120}, {kStore, kFina, 44, 207},
    {kStore, kFina, 43, 66},  {kStore, kFina, 45, 66},  {kStore, kFina, 13, 98},  {kStore, kFina, 14, 11},
    {kStore, kFina, 15, 11},  {kStore, kFina, 16, 76},  {kStore, kFina, 17, 11},  {kStore, kFina, 18, 33},
    {kStore, kFina, 19, 11},  {kStore, kFina, 20, 11},  {kStore, kFina, 21, 11},  {kStore, kFina, 22, 11},
    {kStore, kFina, 23, 11},  {kStore, kFina, 24, 11},  {kLoad, kFina, 18, 11},   {kLoad, kFina, 19, 1},
    {kLoad, kFina, 20, 1},    {kLoad, kFina, 21, 1},    {kLoad, kFina, 22, 1},    {kLoad, kFina, 23, 1},
    {kLoad, kFina, 24, 1},    {kStore, kFina, 25, 33},  {kStore, kFina, 26, 11},  {kStore, kFina, 27, 11},
    {kStore, kFina, 28, 11},  {kLoad, kFina, 25, 11},   {kLoad, kFina, 27, 1},    {kLoad, kFina, 26, 11},
    {kLoad, kFina, 28, 1},    {kStore, kFina, 29, 33},  {kLoad, kFina, 29, 22},   {kStore, kFina, 30, 1},
    {kLoad, kFina, 16, 55},   {kStore, kFina, 31, 1},   {kLoad, kFina, 17, 22},   {kStore, kFina, 32, 1},
    {kStore, kFina, 33, 11},  {kStore, kFina, 34, 44},  {kStore, kFina, 35, 55},  {kStore, kFina, 36, 22},
    {kStore, kFina, 37, 22},  {kStore, kFina, 38, 426}, {kStore, kFina, 40, 33},  {kStore, kFina, 41, 11},
};

// data/myocyte/y.txt (the initial state) and params.txt: 16 values; read() asks for 18 and fscanf leaves
// its variable as it was at the end of the file, so the last two parameters repeat the 16th.
constexpr float kY0[kEquations] = {
    1.3705539e-003f, 9.8714218e-001f,  9.9182408e-001f,  6.9968275e-006f, 1.0006761e+000f, 2.5800244e-002f,
    1.5606144e-002f, 4.0110808e-003f,  3.1904893e-001f,  4.0110456e-003f, 9.9463216e-001f, 8.4705483e-003f,
    6.0394891e-003f, 8.8875021e-001f,  8.2057663e-007f,  1.0271527e-007f, 3.5547650e+000f, 7.7561711e-001f,
    9.0782945e-003f, 1.1836625e-001f,  1.0156121e-002f,  2.5328101e-004f, 2.0087204e-003f, 1.3747360e-001f,
    2.2097020e-003f, 7.7737983e-003f,  1.0124416e-002f,  7.5692786e-002f, 1.1608535e-001f, 1.2509040e+000f,
    5.6109998e-001f, 8.8597621e+000f,  8.8611627e+000f,  8.8615763e+000f, 1.3500000e+002f, 1.8394727e-004f,
    1.0924132e-004f, 8.8935135e-005f,  -8.5719165e+001f, 4.1071583e-001f, 0.0000000e+000f, 0.0000000e+000f,
    1.7483040e+004f, -1.4677756e+004f, -1.6869784e+005f, 1.6590486e+005f, 3.8674011e+002f, 6.0137654e+000f,
    2.1665981e-003f, 0.0000000e+000f,  0.0000000e+000f,  0.0000000e+000f, 5.2910875e-001f, 3.1783490e-002f,
    7.1017447e-006f, 2.8316127e-009f,  2.3444660e-009f,  1.3282361e-004f, 4.3772286e-003f, 1.2450156e-002f,
    3.6005070e+000f, 4.3833441e-002f,  5.4727484e-005f,  8.6054033e-009f, 2.3715335e+000f, 1.3105350e+001f,
    2.7224584e-004f, 1.1056849e-005f,  9.5203944e-006f,  1.3418139e-007f, 1.4654302e-012f, 8.8079626e-009f,
    5.6863655e-004f, 2.1354933e-006f,  5.6653572e-006f,  1.3743596e-003f, 4.3580316e-002f, 3.8789477e-005f,
    5.5612103e-010f, 4.1446000e+000f,  1.1342721e+000f,  1.5613769e-005f, 7.7666417e-006f, 4.5935002e-008f,
    3.0629005e-013f, 3.2828882e-018f,  2.0356103e-014f,  1.2025051e-004f, 4.4862898e-007f, 1.7078402e-007f,
    8.1327361e-007f,
};
constexpr float kParams0[kParameters] = {
    1.000000e003f, 4.180000e002f,  0.000000e000f,  1.200000e002f,  3.617508e000f,  9.650000e001f,
    5.650000e000f, 2.420000e001f,  9.951600e-002f, 3.000000e-003f, 5.700000e-001f, 5.650000e000f,
    2.420000e001f, 9.951600e-002f, 3.000000e-003f, 5.700000e-001f, 5.700000e-001f, 5.700000e-001f,
};

// kernel_cam's three calls: state offset, parameter offset, flux (com) offset.
constexpr int64_t kCam[3][3] = {{46, 0, 0}, {61, 5, 1}, {76, 10, 2}};

class Myocyte : public KernelPort {
 public:
  Myocyte(uint32_t xmax, uint32_t attempts) : xmax_(xmax), attempts_(attempts) {}

  void setup(DeviceMemory& mem) override {
    // work()'s cudaMalloc order.
    init_ = mem.alloc<float>("d_initvalu", kEquations);
    fina_ = mem.alloc<float>("d_finavalu", kEquations);
    params_ = mem.alloc<float>("d_params", kParameters);
    com_ = mem.alloc<float>("d_com", 3);
  }

  void run(Launcher& host) override {
    for (uint32_t k = 1; k <= xmax_; ++k)
      for (uint32_t a = 0; a < attempts_; ++a)
        for (int s = 0; s < kStages; ++s) {
          // master(): the state and parameters copied in (cudaMemcpy, no kernel).
          for (int i = 0; i < kEquations; ++i) init_[size_t(i)] = kY0[i];
          for (int i = 0; i < kParameters; ++i) params_[size_t(i)] = kParams0[i];
          KernelLaunch kl;
          kl.name = "kernel";
          kl.grid = {2, 1, 1};
          kl.block = {32, 1, 1};
          kl.regs_per_thread = kRegs;
          kl.body = [this](Warp& w) { body(w); };
          host.launch(std::move(kl));
        }
  }

  std::string check() const override {
    // The stand-in rates of the last launch: CTA 0's for its variables, CTA 1's for the CaM ones; indices
    // 0..2 are written by both CTAs (the source's flux stores), either value is right.
    std::vector<float> ecc(kEquations, 0.0f), cam(kEquations, 0.0f);
    std::vector<bool> by_ecc(kEquations, false);
    for (const Access& a : kEcc)
      if (a.kind == kStore) {
        ecc[a.index] = a.index < 40 && a.index != 21 ? kY0[a.index] : 0.0f;
        by_ecc[a.index] = true;
      }
    for (const auto& c : kCam) {
      for (int64_t i = 0; i < 15; ++i) cam[size_t(c[0] + i)] = kY0[c[0] + i];
      cam[size_t(c[2])] = kY0[35 + c[2]] * 1e3f;
    }
    for (int i = 0; i < kEquations; ++i) {
      const float got = fina_[size_t(i)];
      const bool ok = i < 3 ? got == ecc[size_t(i)] || got == cam[size_t(i)]
                            : got == (by_ecc[size_t(i)] ? ecc[size_t(i)] : cam[size_t(i)]);
      if (!ok)
        return "d_finavalu[" + std::to_string(i) + "] = " + std::to_string(got) + ", expected " +
               std::to_string(by_ecc[size_t(i)] ? ecc[size_t(i)] : cam[size_t(i)]);
    }
    return "";
  }

 private:
  void body(Warp& w) {
    const uint32_t bx = w.block_idx().x;
    w.compute(kEntry);
    w.if_(w.thread_idx_x() == 0, [&] { bx == 0 ? ecc(w) : cams(w); });
  }

  // kernel_ecc: the table's accesses (PCs 0x10 apart in source order); a rate's stand-in is its variable's
  // loaded value (0 if none), plus zero times every load so far.
  void ecc(Warp& w) {
    Float own[kEquations];
    Float all = 0.0f;
    uint32_t pc = 0x10;
    for (const Access& a : kEcc) {
      w.compute(a.gap);
      DeviceArray<float>& arr = a.arr == kInit ? init_ : a.arr == kFina ? fina_ : params_;
      if (a.kind == kLoad) {
        const Float v = w.load(pc, arr, Int(a.index));
        if (a.arr == kInit) own[a.index] = v;
        all = all + v * 0.0f;
      } else {
        w.store(pc, arr, Int(a.index), own[a.index] + all);
      }
      pc += 0x10;
    }
  }

  // The three kernel_cam calls, each after its calcium load (PCs from 0x800, 0x200 apart per call).
  void cams(Warp& w) {
    for (int c = 0; c < 3; ++c) {
      const int64_t valu = kCam[c][0], par = kCam[c][1], com = kCam[c][2];
      uint32_t pc = 0x800 + 0x200 * uint32_t(c);
      w.compute(kCaLoad);
      const Float ca = w.load(pc, init_, Int(35 + c)) * 1e3f;
      Float all = ca * 0.0f;
      w.compute(kCamFirst);
      for (int64_t p : {par + 1, par + 2, par + 3, par + 4, int64_t(16), int64_t(17)}) {
        pc += 0x10;
        all = all + w.load(pc, params_, Int(p)) * 0.0f;
        w.compute(kCamLoad);
      }
      Float v[15];
      for (int64_t i = 0; i < 15; ++i) {
        pc += 0x10;
        v[i] = w.load(pc, init_, Int(valu + i));
        all = all + v[i] * 0.0f;
        w.compute(kCamLoad);
      }
      w.compute(kCamCompute - kCamLoad);
      for (int64_t i = 0; i < 15; ++i) {
        pc += 0x10;
        if (i) w.compute(kCamStore);
        w.store(pc, fina_, Int(valu + i), v[i] + all);
      }
      w.compute(kCamFlux);
      w.store(pc + 0x10, fina_, Int(com), ca + all);
    }
  }

  uint32_t xmax_, attempts_;
  DeviceArray<float> init_, fina_, params_, com_;
};

}  // namespace

void register_rodinia_myocyte(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/myocyte";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/myocyte/main.cu, work.cu, solver.cu, "
      "embedded_fehlberg_7_8.cu, master.cu, kernel.cu, kernel_ecc.cu, kernel_cam.cu @ 9c10d3e";
  p.input =
      "the run script's: myocyte.out 100 1 0 (100 ms simulated, 1 instance, mode 0), y.txt / params.txt "
      "values embedded; default the same: 100 steps x 3 attempts x 13 stages = 3900 launches of 2 one-thread "
      "CTAs, 0.83 M warp instructions (the model's arithmetic as compute gaps, stand-in values; the solver's "
      "attempts per step a size key, 3 as a host build of the source's arithmetic takes). Footprint 0.5 KB: "
      "cache-insensitive. Size keys: xmax (steps), attempts";
  p.papers = "Decoupled L1D (002, MYC)";
  p.kernels = "kernel (kernel_ecc, kernel_cam inlined)";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t xmax = s.get_uint("xmax", 100, 1, 100000);
    const uint64_t attempts = s.get_uint("attempts", 3, 1, 12);
    return std::make_unique<Myocyte>(uint32_t(xmax), uint32_t(attempts));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
