// LonestarGPU bh: Burtscher and Pingali's CUDA Barnes-Hut n-body code (v3.1 as in LonestarGPU 2.0, the
// Fermi configuration: THREADS1..6 = 512, 512, 128, 64, 256, 1024 threads, FACTOR1..6 = 3, 3, 6, 6, 5, 1
// blocks per SM). Per time step the host launches BoundingBoxKernel (a grid-stride min/max over the bodies,
// a shared-memory reduction, and the last block, found by atomicInc on a counter, combines every block's
// box and makes the root), ClearKernel1 (child pointers to -1), TreeBuildingKernel (each thread inserts its
// bodies from the root down, locking a child pointer with atomicCAS to -2 while it splits a leaf into new
// cells taken with atomicSub from `bottom`; a thread that finds a locked pointer retries after the CTA's
// barrier), ClearKernel2, SummarizationKernel (each thread computes its cells' masses and centres of mass,
// spinning, a barrier per iteration, until the masses of the children other threads compute are there),
// SortKernel (cells top-down: a thread spins until its cell's start index is set by the parent's thread,
// then sets its children's and places its bodies in the sorted order), ForceCalculationKernel (each warp
// walks the tree for 32 sorted bodies at once, opening a cell only when all 32 need it, a per-warp stack in
// shared memory) and IntegrationKernel. Summarization and Sort wait on other CTAs: the source sizes their
// grids (FACTOR3, FACTOR4: "must all be resident at the same time") to be resident at once; their launches
// are co_resident (Warp::spin where a lane's poll found nothing yet). TreeBuildingKernel's CTAs wait on each
// other too: a thread that finds a pointer locked retries after its CTA's barrier until the holder, maybe
// in another CTA, releases it after its own; on the GPU the holder is running, so the source needs no
// residency there, but its grid is device-sized as well (FACTOR2 per SM) and a model that runs CTAs one
// after another (the analytical model's cores) must advance its CTAs together: it is co_resident as well.
// Device-sized grids come from the `sms`
// size key (15: Fermi GTX 480). The source's main() repeats the whole run 3 times for timing: one run here.
// The __device__ variables (stepd, bottomd, maxdepthd, blkcntd, radiusd) are one small array placed after
// the cudaMalloc'd ones.
// Spins: how often a warp polls before its producer's store is there depends on the interleaving (the
// host's round robin functionally, the SMs' timing in a simulation), so the poll loads in the stream do.
// Loads follow the compiled code's order (nvcc 13, sm_75 PTX); float arithmetic follows the PTX's fused
// multiply-adds (fma where the PTX has fma.rn), with 1/sqrtf for rsqrtf's approximation.
// check(): the octree the parallel build makes is the same whatever the insertion order (each leaf holds one
// body, cells split where bodies separate, a cell's geometry is its path from the root), and the kernels sum
// children in octant order and walk them in their compacted octant order; so a sequential reference that
// inserts the bodies one by one, summarises, sorts and walks the tree per 32 sorted bodies with the same
// float operations gives bit-identical positions and velocities: check() compares them exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

constexpr int64_t kThreads1 = 512, kThreads2 = 512, kThreads3 = 128, kThreads4 = 64, kThreads5 = 256,
                  kThreads6 = 1024, kClearThreads = 1024;
constexpr uint32_t kFactor1 = 3, kFactor2 = 3, kFactor3 = 6, kFactor4 = 6, kFactor5 = 5, kFactor6 = 1;
constexpr int64_t kMaxDepth = 32;  // MAXDEPTH
constexpr int64_t kWarp = 32;

// nvcc -arch=sm_75 -Xptxas -v (CUDA 13): registers 5 (init), 35 (bounding box), 12 (clear 1), 40 (tree),
// 14 (clear 2), 39 (summarisation), 20 (sort), 29 (force), 30 (integration); static shared memory 12288,
// 8192 and 3072 bytes (bounding box, summarisation, force). On Fermi (32768 registers per SM) the source's
// __launch_bounds__(THREADS, FACTOR) caps them at 32768 / (THREADS * FACTOR): 21 for bounding box and tree,
// 25 for force; the others fit as compiled.
constexpr uint32_t kInitRegs = 5, kBoxRegs = 21, kClear1Regs = 12, kTreeRegs = 21, kClear2Regs = 14,
                   kSumRegs = 39, kSortRegs = 20, kForceRegs = 25, kIntRegs = 30;
constexpr uint32_t kBoxShmem = 12288, kSumShmem = 8192, kForceShmem = 3072;

// PTX instructions between consecutive global memory instructions (nvcc --ptx -arch=sm_75, counted on the
// path described; loop back edges counted once per iteration, unrolled loops per item).
constexpr uint32_t kInit0 = 4, kInitNext = 1;
constexpr uint32_t kBoxEntry = 7, kBoxNext = 1, kBoxScanEntry = 15, kBoxScanHead = 2, kBoxScanNext = 3,
                   kBoxScanTail = 5, kBoxToBar = 20, kBoxBar = 21, kBoxToStore = 33, kBoxStoreNext = 2,
                   kBoxToAtomic = 4, kBoxReduceHead = 12, kBoxReduceNext = 2, kBoxToRadius = 26,
                   kBoxRootNext = 3, kBoxToChildren = 5;
constexpr uint32_t kClearEntry = 22, kClearLoop = 6;  // entry and first head; loop tail and head
constexpr uint32_t kTreeEntry = 8, kTreeRoot = 2, kTreeBody = 17, kTreeBodyNext = 4, kTreeChild = 16,
                   kTreeDown = 25, kTreeToCas = 15, kTreeToInsert = 11, kTreeToBottom = 7, kTreeErr = 4,
                   kTreePatch = 7, kTreeOldPos = 3, kTreeOldZ = 4, kTreeMoveOld = 7, kTreeNewChild = 19,
                   kTreeInsertNew = 6, kTreeToBar = 8, kTreeRelease = 4, kTreeToMax = 3;
constexpr uint32_t kClear2Entry = 7, kClear2Mass = 15, kClear2Start = 2;
constexpr uint32_t kSumEntry = 16, kSumMass = 19, kSumMassNext = 8, kSumChildNext = 3, kSumChildMass = 5,
                   kSumCount = 5, kSumBodyMass = 8, kSumPosX = 3, kSumPosYZ = 2, kSumToCount = 4,
                   kSumToPosX = 3, kSumToPosYZ = 2, kSumToMass = 1, kSumFinalMass = 13, kSumFinalChild = 4,
                   kSumFinalChildMass = 6, kSumRecheck = 12, kSumToBar = 2, kSumAfterBar = 3, kSumLoop = 3;
constexpr uint32_t kSortEntry = 19, kSortStart = 5, kSortChild0 = 5, kSortChild = 1, kSortClear = 5,
                   kSortMove = 2, kSortToStart = 4, kSortToCount = 1, kSortToSorted = 6, kSortLoop = 3;
constexpr uint32_t kForceRadius = 21, kForceDepth = 5, kForceDepthLoop = 11, kForceDepthCheck = 6,
                   kForceErrLoad = 2, kForceErrStore = 1, kForceToBar = 10, kForceCopy = 13,
                   kForceAfterBar = 19, kForceBody = 3, kForcePosX = 3, kForcePos = 1, kForceToChild = 25,
                   kForceChild = 13, kForcePosN = 7, kForcePosNext = 2, kForceToBodyMass = 9,
                   kForceToCellMass = 17, kForcePush = 19, kForceNoChild = 2, kForcePop = 14,
                   kForceToStep = 5, kForceToAcc = 7, kForceVel = 2, kForceVelStore = 1, kForceNoVel = 7,
                   kForceTail = 4;
constexpr uint32_t kIntEntry = 29, kIntHead = 2, kIntNext = 1, kIntVel = 2, kIntStore = 1, kIntLoop = 3;

// The __device__ variables, one int each (radiusd holds a float's bits).
enum Var : int64_t { kStep = 0, kBottom = 1, kMaxDepthVar = 2, kBlkCnt = 3, kRadius = 4, kVars = 5 };

// Parameters of main(): dtime 0.025, dthf = dtime / 2, epssq = 0.05^2, itolsq = 1 / 0.5^2.
constexpr float kDtime = 0.025f, kDthf = kDtime * 0.5f;
const float kEpssq = float(0.05 * 0.05), kItolsq = 1.0f / float(0.5 * 0.5);

template <class T>
void set(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}
template <class T>
void set(const Warp& w, Lanes<T>& dst, T x) {
  for (uint32_t b = w.active(); b; b &= b - 1) dst.v[unsigned(__builtin_ctz(b))] = x;
}

float bits_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}
int32_t float_bits(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i;
}
Float as_float(const Lanes<int32_t>& x) {
  Float r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = bits_float(x.v[l]);
  r.deps = x.deps;
  return r;
}
Lanes<int32_t> as_bits(const Float& x) {
  Lanes<int32_t> r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = float_bits(x.v[l]);
  r.deps = x.deps;
  return r;
}
Float fma3(const Float& a, const Float& b, const Float& c) {
  Float r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = std::fma(a.v[l], b.v[l], c.v[l]);
  r.deps = a.deps;
  r.deps |= b.deps;
  r.deps |= c.deps;
  return r;
}
Float fmin_lanes(const Float& a, const Float& b) {
  return detail::zip(a, b, [](float x, float y) { return std::fmin(x, y); });
}
Float fmax_lanes(const Float& a, const Float& b) {
  return detail::zip(a, b, [](float x, float y) { return std::fmax(x, y); });
}
Int octant(const Float& cx, const Float& cy, const Float& cz, const Float& px, const Float& py,
           const Float& pz) {
  Int j;
  for (unsigned l = 0; l < kWarpSize; ++l)
    j.v[l] = (cx.v[l] < px.v[l] ? 1 : 0) | (cy.v[l] < py.v[l] ? 2 : 0) | (cz.v[l] < pz.v[l] ? 4 : 0);
  j.deps = cx.deps;
  j.deps |= cy.deps;
  j.deps |= cz.deps;
  j.deps |= px.deps;
  j.deps |= py.deps;
  j.deps |= pz.deps;
  return j;
}

// The force a body at distance d (squared plus softening: fma as the PTX) gets from mass m, per component.
float dist2(float dx, float dy, float dz) {
  return std::fma(dx, dx, std::fma(dy, dy, std::fma(dz, dz, kEpssq)));
}
float pull(float d2, float m) {
  const float rs = 1.0f / std::sqrt(d2);
  return rs * (rs * (rs * m));
}

// The source's random number generator (drndset / drnd: a 31-bit linear congruential generator).
class Drnd {
 public:
  explicit Drnd(uint64_t seed) {
    a_ = 1;
    b_ = 0;
    x_ = (a_ * seed + b_) & kMask;
    a_ = (kMult * a_) & kMask;
    b_ = (kMult * b_ + kAdd) & kMask;
  }
  double next() {
    const uint64_t last = x_;
    x_ = (a_ * x_ + b_) & kMask;
    return double(last) / 2147483648.0;
  }

 private:
  static constexpr uint64_t kMult = 1103515245, kAdd = 12345, kMask = 0x7FFFFFFF;
  uint64_t a_, b_, x_;
};

class BarnesHut : public KernelPort {
 public:
  BarnesHut(uint32_t bodies, uint32_t steps, uint32_t sms, uint32_t block_cap, uint64_t seed)
      : n_(bodies), steps_(steps), sms_(sms), split_(uint32_t(kClearThreads) / block_cap), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    int64_t nnodes = int64_t(n_) * 2;
    if (nnodes < 1024 * int64_t(sms_)) nnodes = 1024 * int64_t(sms_);
    while ((nnodes & (kWarp - 1)) != 0) ++nnodes;
    nnodes_ = nnodes - 1;
    const size_t nn = size_t(nnodes_) + 1, boxes = size_t(sms_) * kFactor1;
    // main()'s input generator (a Plummer model), drndset(seed) (7 in the source).
    Drnd rnd(seed_);
    mass0_.assign(n_, 0.0f);
    pos0_.assign(3 * size_t(n_), 0.0f);
    vel0_.assign(3 * size_t(n_), 0.0f);
    const double rsc = (3 * 3.1415926535897932384626433832795) / 16, vsc = std::sqrt(1.0 / rsc);
    for (uint32_t i = 0; i < n_; ++i) {
      mass0_[i] = float(1.0 / n_);
      const double r = 1.0 / std::sqrt(std::pow(rnd.next() * 0.999, -2.0 / 3.0) - 1);
      double x, y, z, sq;
      do {
        x = rnd.next() * 2.0 - 1.0;
        y = rnd.next() * 2.0 - 1.0;
        z = rnd.next() * 2.0 - 1.0;
        sq = x * x + y * y + z * z;
      } while (sq > 1.0);
      double scale = rsc * r / std::sqrt(sq);
      pos0_[3 * i] = float(x * scale);
      pos0_[3 * i + 1] = float(y * scale);
      pos0_[3 * i + 2] = float(z * scale);
      do {
        x = rnd.next();
        y = rnd.next() * 0.1;
      } while (y > x * x * std::pow(1 - x * x, 3.5));
      const double v = x * std::sqrt(2.0 / std::sqrt(1 + r * r));
      do {
        x = rnd.next() * 2.0 - 1.0;
        y = rnd.next() * 2.0 - 1.0;
        z = rnd.next() * 2.0 - 1.0;
        sq = x * x + y * y + z * z;
      } while (sq > 1.0);
      scale = vsc * v / std::sqrt(sq);
      vel0_[3 * i] = float(x * scale);
      vel0_[3 * i + 1] = float(y * scale);
      vel0_[3 * i + 2] = float(z * scale);
    }
    // main()'s cudaMalloc order, then the __device__ variables.
    err_ = mem.alloc<int32_t>("errd", 1);
    child_ = mem.alloc<int32_t>("childd", nn * 8);
    mass_ = mem.alloc<float>("massd", nn);
    posx_ = mem.alloc<float>("posxd", nn);
    posy_ = mem.alloc<float>("posyd", nn);
    posz_ = mem.alloc<float>("poszd", nn);
    velx_ = mem.alloc<float>("velxd", nn);
    vely_ = mem.alloc<float>("velyd", nn);
    velz_ = mem.alloc<float>("velzd", nn);
    accx_ = mem.alloc<float>("accxd", nn);
    accy_ = mem.alloc<float>("accyd", nn);
    accz_ = mem.alloc<float>("acczd", nn);
    count_ = mem.alloc<int32_t>("countd", nn);
    start_ = mem.alloc<int32_t>("startd", nn);
    sort_ = mem.alloc<int32_t>("sortd", nn);
    maxx_ = mem.alloc<float>("maxxd", boxes);
    maxy_ = mem.alloc<float>("maxyd", boxes);
    maxz_ = mem.alloc<float>("maxzd", boxes);
    minx_ = mem.alloc<float>("minxd", boxes);
    miny_ = mem.alloc<float>("minyd", boxes);
    minz_ = mem.alloc<float>("minzd", boxes);
    vars_ = mem.alloc<int32_t>("stepd,bottomd,maxdepthd,blkcntd,radiusd", kVars);
    for (uint32_t i = 0; i < n_; ++i) {
      mass_[i] = mass0_[i];
      posx_[i] = pos0_[3 * i];
      posy_[i] = pos0_[3 * i + 1];
      posz_[i] = pos0_[3 * i + 2];
      velx_[i] = vel0_[3 * i];
      vely_[i] = vel0_[3 * i + 1];
      velz_[i] = vel0_[3 * i + 2];
    }
  }

  void run(Launcher& host) override {
    const uint32_t b = sms_;
    host.launch(make("InitializationKernel", 1, 1, kInitRegs, 0, false, [this](Warp& w) { init(w); }));
    for (uint32_t step = 0; step < steps_; ++step) {
      host.launch(make("BoundingBoxKernel", b * kFactor1, kThreads1, kBoxRegs, kBoxShmem, false,
                       [this](Warp& w) { bounding_box(w); }));
      host.launch(make("ClearKernel1", b * split_, kClearThreads / split_, kClear1Regs, 0, false,
                       [this](Warp& w) { clear1(w); }));
      host.launch(make("TreeBuildingKernel", b * kFactor2, kThreads2, kTreeRegs, 0, true,
                       [this](Warp& w) { build_tree(w); }));
      host.launch(make("ClearKernel2", b * split_, kClearThreads / split_, kClear2Regs, 0, false,
                       [this](Warp& w) { clear2(w); }));
      host.launch(make("SummarizationKernel", b * kFactor3, kThreads3, kSumRegs, kSumShmem, true,
                       [this](Warp& w) { summarize(w); }));
      host.launch(
          make("SortKernel", b * kFactor4, kThreads4, kSortRegs, 0, true, [this](Warp& w) { sort(w); }));
      host.launch(make("ForceCalculationKernel", b * kFactor5, kThreads5, kForceRegs, kForceShmem, false,
                       [this](Warp& w) { force(w); }));
      host.launch(make("IntegrationKernel", b * kFactor6 * split_, kThreads6 / split_, kIntRegs, 0, false,
                       [this](Warp& w) { integrate(w); }));
    }
  }

  std::string check() const override;

 private:
  static KernelLaunch make(const char* name, uint32_t grid, int64_t threads, uint32_t regs, uint32_t shmem,
                           bool co_resident, std::function<void(Warp&)> body) {
    KernelLaunch k;
    k.name = name;
    k.grid = {grid, 1, 1};
    k.block = {uint32_t(threads), 1, 1};
    k.regs_per_thread = regs;
    k.shmem_per_cta = shmem;
    k.co_resident = co_resident;
    k.body = std::move(body);
    return k;
  }

  Int first_index(const Warp& w) const {
    return w.thread_in_block() + int64_t(w.block_idx().x) * int64_t(w.block_dim().x);
  }
  int64_t stride(const Warp& w) const { return int64_t(w.block_dim().x) * int64_t(w.grid_dim().x); }

  void init(Warp& w) {
    w.compute(kInit0);
    w.store(0x10, err_, Int(0), 0);
    w.compute(kInitNext);
    w.store(0x20, vars_, Int(kStep), -1);
    w.compute(kInitNext);
    w.store(0x30, vars_, Int(kMaxDepthVar), 1);
    w.store(0x40, vars_, Int(kBlkCnt), 0);
  }

  void bounding_box(Warp& w) {
    const Int tid = w.thread_in_block();
    const int64_t bid = w.block_idx().x, last = int64_t(w.grid_dim().x) - 1;
    w.compute(kBoxEntry);
    Float minx = w.load(0x100, posx_, Int(0));
    w.compute(kBoxNext);
    Float miny = w.load(0x110, posy_, Int(0));
    w.compute(kBoxNext);
    Float minz = w.load(0x120, posz_, Int(0));
    Float maxx = minx, maxy = miny, maxz = minz;
    w.compute(kBoxScanEntry);
    w.for_(tid + bid * kThreads1, Int(int64_t(n_)), Int(kThreads1 * int64_t(w.grid_dim().x)),
           [&](const Int& j) {
             w.compute(kBoxScanHead);
             const Float vx = w.load(0x130, posx_, j);
             set(w, minx, fmin_lanes(minx, vx));
             set(w, maxx, fmax_lanes(maxx, vx));
             w.compute(kBoxScanNext);
             const Float vy = w.load(0x140, posy_, j);
             set(w, miny, fmin_lanes(miny, vy));
             set(w, maxy, fmax_lanes(maxy, vy));
             w.compute(kBoxScanNext);
             const Float vz = w.load(0x150, posz_, j);
             set(w, minz, fmin_lanes(minz, vz));
             set(w, maxz, fmax_lanes(maxz, vz));
             w.compute(kBoxScanTail);
           });
    std::vector<float>* s[6];
    Float* v[6] = {&minx, &maxx, &miny, &maxy, &minz, &maxz};
    for (unsigned a = 0; a < 6; ++a) {
      s[a] = &w.shared<float>(a, kThreads1);
      w.shared_store(*s[a], tid, *v[a]);
    }
    for (int64_t j = kThreads1 / 2; j > 0; j /= 2) {
      w.compute(j == kThreads1 / 2 ? kBoxToBar : kBoxBar);
      w.sync();
      w.if_(tid < j, [&] {
        const Int k = tid + j;
        for (unsigned a = 0; a < 6; ++a) {
          const Float o = w.shared_load(*s[a], k);
          set(w, *v[a], a % 2 == 0 ? fmin_lanes(*v[a], o) : fmax_lanes(*v[a], o));
          w.shared_store(*s[a], tid, *v[a]);
        }
      });
    }
    w.if_(tid == 0, [&] {
      const Int k(bid);
      DeviceArray<float>* out[6] = {&minx_, &maxx_, &miny_, &maxy_, &minz_, &maxz_};
      for (unsigned a = 0; a < 6; ++a) {
        w.compute(a == 0 ? kBoxToStore : kBoxStoreNext);
        w.store(0x160 + 0x10 * a, *out[a], k, *v[a]);
      }
      w.compute(kBoxToAtomic);
      const Lanes<int32_t> old = w.atomic(0x1c0, vars_, Int(kBlkCnt), RegSet{}, [&](int32_t o, unsigned) {
        return uint32_t(o) >= uint32_t(last) ? int32_t(0) : int32_t(o + 1);
      });
      w.if_(old == int32_t(last), [&] {  // the last block: every block's box is there
        for (int64_t j = 0; j <= last; ++j)
          for (unsigned a = 0; a < 6; ++a) {
            w.compute(j == 0 && a == 0 ? kBoxReduceHead : kBoxReduceNext);
            const Float o = w.load(0x1d0 + 0x10 * a, *out[a], Int(j));
            set(w, *v[a], a % 2 == 0 ? fmin_lanes(*v[a], o) : fmax_lanes(*v[a], o));
          }
        const Float val = fmax_lanes(maxx - minx, maxy - miny);
        const Float radius = fmax_lanes(val, maxz - minz) * 0.5f;
        const Int root(nnodes_);
        w.compute(kBoxToRadius);
        w.store(0x230, vars_, Int(kRadius), as_bits(radius));
        w.store(0x240, vars_, Int(kBottom), int32_t(nnodes_));
        w.compute(kBoxRootNext + 1);
        w.store(0x250, mass_, root, -1.0f);
        w.compute(kBoxRootNext);
        w.store(0x260, start_, root, 0);
        w.compute(kBoxRootNext);
        w.store(0x270, posx_, root, (minx + maxx) * 0.5f);
        w.compute(kBoxRootNext);
        w.store(0x280, posy_, root, (miny + maxy) * 0.5f);
        w.compute(kBoxRootNext);
        w.store(0x290, posz_, root, (minz + maxz) * 0.5f);
        w.compute(kBoxToChildren);
        for (int64_t i = 0; i < 8; ++i) w.store(0x2a0, child_, Int(nnodes_ * 8 + i), -1);
        const Lanes<int32_t> step = w.load(0x2b0, vars_, Int(kStep));
        w.compute(1);
        w.store(0x2c0, vars_, Int(kStep), step + 1);
      });
    });
  }

  // ClearKernel1 and ClearKernel2's loop: k from (bottom rounded down to a warp) + the thread's index, past
  // bottom, by the grid's size, below `top`.
  template <class F>
  void clear_loop(Warp& w, const Int& bottom, int64_t top, F each) {
    const int64_t inc = stride(w);
    Int k = (bottom & int64_t(-kWarp)) + first_index(w);
    k = select<int64_t>(k < bottom, k + inc, k);
    w.while_([&] { return k < top; },
             [&] {
               each(k);
               w.compute(kClearLoop);
               set(w, k, k + inc);
             });
  }

  void clear1(Warp& w) {
    w.compute(kClearEntry);
    clear_loop(w, Int(8 * int64_t(n_)), 8 * nnodes_, [&](const Int& k) { w.store(0x300, child_, k, -1); });
  }

  void clear2(Warp& w) {
    w.compute(kClear2Entry);
    const Int bottom = w.load(0x400, vars_, Int(kBottom)).as<int64_t>();
    w.compute(kClear2Mass);
    clear_loop(w, bottom, nnodes_, [&](const Int& k) {
      w.store(0x410, mass_, k, -1.0f);
      w.compute(kClear2Start);
      w.store(0x420, start_, k, -1);
    });
  }

  void build_tree(Warp& w) {
    const int64_t nb = n_, inc = stride(w);
    w.compute(kTreeEntry);
    const Float radius = as_float(w.load(0x500, vars_, Int(kRadius)));
    w.compute(kTreeRoot + 1);
    const Float rootx = w.load(0x510, posx_, Int(nnodes_));
    w.compute(kTreeRoot);
    const Float rooty = w.load(0x520, posy_, Int(nnodes_));
    w.compute(kTreeRoot - 1);
    const Float rootz = w.load(0x530, posz_, Int(nnodes_));
    Int localmax(1), skip(1), i = first_index(w), n, depth, j, ch, locked, patch;
    Float x, y, z, r, px, py, pz;
    // Moves (x, y, z) to the child octant of the point p, a half-size r further down.
    auto descend = [&](const Float& cx, const Float& cy, const Float& cz) {
      const Int jj = octant(cx, cy, cz, px, py, pz);
      set(w, j, jj);
      set(w, x, cx + select<float>(cx < px, r, -r));
      set(w, y, cy + select<float>(cy < py, r, -r));
      set(w, z, cz + select<float>(cz < pz, r, -r));
    };
    w.while_([&] { return i < nb; },
             [&] {
               w.if_(skip != 0, [&] {  // a new body: from the root
                 set(w, skip, int64_t(0));
                 w.compute(kTreeBody);
                 set(w, px, w.load(0x540, posx_, i));
                 w.compute(kTreeBodyNext);
                 set(w, py, w.load(0x550, posy_, i));
                 w.compute(kTreeBodyNext);
                 set(w, pz, w.load(0x560, posz_, i));
                 set(w, n, nnodes_);
                 set(w, depth, int64_t(1));
                 set(w, r, radius * 0.5f);
                 descend(rootx, rooty, rootz);
               });
               w.compute(kTreeChild);
               set(w, ch, w.load(0x570, child_, n * 8 + j).as<int64_t>());
               w.while_([&] { return ch >= nb; },
                        [&] {  // down to the leaf level
                          set(w, n, ch);
                          set(w, depth, depth + 1);
                          set(w, r, r * 0.5f);
                          const Float cx = x, cy = y, cz = z;
                          descend(cx, cy, cz);
                          w.compute(kTreeDown);
                          set(w, ch, w.load(0x580, child_, n * 8 + j).as<int64_t>());
                        });
               w.if_(ch != -2, [&] {  // a locked pointer: try again after the barrier
                 set(w, locked, n * 8 + j);
                 w.if_else(
                     ch == -1,
                     [&] {  // empty: insert the body
                       w.compute(kTreeToInsert);
                       const Lanes<int32_t> old = w.atomic_cas(0x590, child_, locked, int32_t(-1), i);
                       w.if_(old == -1, [&] {
                         set(w, localmax, max(depth, localmax));
                         set(w, i, i + inc);
                         set(w, skip, int64_t(1));
                       });
                     },
                     [&] {  // a body: lock the pointer, split
                       w.compute(kTreeToCas);
                       const Lanes<int32_t> old = w.atomic_cas(0x5a0, child_, locked, ch, int32_t(-2));
                       w.if_(old == ch, [&] {
                         set(w, patch, int64_t(-1));
                         Bool more(true);
                         w.while_([&] { return more; },
                                  [&] {
                                    set(w, depth, depth + 1);
                                    w.compute(kTreeToBottom);
                                    const Int cell =
                                        w.atomic_add(0x5b0, vars_, Int(kBottom), int32_t(-1)).as<int64_t>() -
                                        1;
                                    w.if_(cell <= nb, [&] {
                                      w.compute(kTreeErr);
                                      w.store(0x5c0, err_, Int(0), 1);
                                      w.store(0x5d0, vars_, Int(kBottom), int32_t(nnodes_));
                                    });
                                    w.if_(patch != -1, [&] {
                                      w.compute(kTreePatch);
                                      w.store(0x5e0, child_, n * 8 + j, cell);
                                    });
                                    set(w, patch, max(patch, cell));
                                    w.compute(kTreeOldPos);
                                    const Float ox = w.load(0x5f0, posx_, ch);
                                    w.compute(kTreeOldPos);
                                    const Float oy = w.load(0x600, posy_, ch);
                                    w.compute(kTreeOldZ);
                                    const Float oz = w.load(0x610, posz_, ch);
                                    const Int jo = octant(x, y, z, ox, oy, oz);
                                    w.compute(kTreeMoveOld);
                                    w.store(0x620, child_, cell * 8 + jo, ch);
                                    set(w, n, cell);
                                    set(w, r, r * 0.5f);
                                    const Float cx = x, cy = y, cz = z;
                                    descend(cx, cy, cz);
                                    w.compute(kTreeNewChild);
                                    set(w, ch, w.load(0x630, child_, n * 8 + j).as<int64_t>());
                                    set(w, more, ch >= 0);
                                  });
                         w.compute(kTreeInsertNew);
                         w.store(0x640, child_, n * 8 + j, i);
                         set(w, localmax, max(depth, localmax));
                         set(w, i, i + inc);
                         set(w, skip, int64_t(2));
                       });
                     });
               });
               w.compute(kTreeToBar);
               w.sync();
               w.if_(skip == 2, [&] {
                 w.compute(kTreeRelease);
                 w.store(0x650, child_, locked, patch);  // unlock
               });
             });
    w.compute(kTreeToMax);
    w.atomic_max(0x660, vars_, Int(kMaxDepthVar), localmax);
  }

  // A cell's mass, centre of mass (stored) and body count (stored) from its children cached in shared
  // memory; returns the mass (stored by the caller).
  Float combine(Warp& w, const Int& k, std::vector<int32_t>& sch, std::vector<float>& smass, const Int& tid) {
    const int64_t nb = n_;
    Float cm(0.0f), px(0.0f), py(0.0f), pz(0.0f), m;
    Int cnt(0);
    for (int64_t c = 0; c < 8; ++c) {
      const Int ch = w.shared_load(sch, tid + c * kThreads3).as<int64_t>();
      w.if_(ch >= 0, [&] {
        w.if_else(
            ch >= nb,
            [&] {  // a cell: its mass was cached, its count counts its bodies
              set(w, m, w.shared_load(smass, tid + c * kThreads3));
              w.compute(kSumCount);
              set(w, cnt, cnt + w.load(0x700, count_, ch).as<int64_t>());
            },
            [&] {
              w.compute(kSumBodyMass);
              set(w, m, w.load(0x710, mass_, ch));
              set(w, cnt, cnt + 1);
            });
        set(w, cm, cm + m);
        w.compute(kSumPosX);
        set(w, px, fma3(m, w.load(0x720, posx_, ch), px));
        w.compute(kSumPosYZ);
        set(w, py, fma3(m, w.load(0x730, posy_, ch), py));
        w.compute(kSumPosYZ);
        set(w, pz, fma3(m, w.load(0x740, posz_, ch), pz));
      });
    }
    w.compute(kSumToCount);
    w.store(0x750, count_, k, cnt);
    const Float inv = 1.0f / cm;
    w.compute(kSumToPosX);
    w.store(0x760, posx_, k, px * inv);
    w.compute(kSumToPosYZ);
    w.store(0x770, posy_, k, py * inv);
    w.compute(kSumToPosYZ);
    w.store(0x780, posz_, k, pz * inv);
    return cm;
  }

  void summarize(Warp& w) {
    const int64_t nb = n_, inc = stride(w);
    const Int tid = w.thread_in_block();
    auto& sch = w.shared<int32_t>(0, size_t(kThreads3) * 8);
    auto& smass = w.shared<float>(1, size_t(kThreads3) * 8);
    w.compute(kSumEntry);
    const Int bottom = w.load(0x800, vars_, Int(kBottom)).as<int64_t>();
    Int k = (bottom & int64_t(-kWarp)) + first_index(w);
    k = select<int64_t>(k < bottom, k + inc, k);
    const Int restart = k;
    w.compute(kSumMass - kSumMassNext);
    for (int pass = 0; pass < 5; ++pass) {  // wait-free pre-passes: the cells whose children are ready
      w.while_([&] { return k <= nnodes_; },
               [&] {
                 w.compute(kSumMassNext);
                 const Float mk = w.load(0x810, mass_, k);
                 w.if_(mk < 0.0f, [&] {
                   Bool ready(true);
                   w.for_(Int(0), Int(8), Int(1), [&](const Int& c) {
                     w.compute(kSumChildNext);
                     const Lanes<int32_t> ch = w.load(0x820, child_, k * 8 + c);
                     w.shared_store(sch, tid + c * kThreads3, ch);
                     Bool stop(false);
                     w.if_(ch >= int32_t(nb), [&] {
                       w.compute(kSumChildMass);
                       const Float mc = w.load(0x830, mass_, ch.as<int64_t>());
                       w.shared_store(smass, tid + c * kThreads3, mc);
                       set(w, stop, mc < 0.0f);
                     });
                     set(w, ready, !stop);
                     w.break_if(stop);
                   });
                   w.if_(ready, [&] {
                     const Float cm = combine(w, k, sch, smass, tid);
                     w.compute(kSumToMass);
                     w.store(0x840, mass_, k, cm);
                   });
                 });
                 w.compute(kSumLoop);
                 set(w, k, k + inc);
               });
      set(w, k, restart);
    }
    Int flag(0), j(0);
    Float cm;
    w.while_([&] { return k <= nnodes_; },
             [&] {
               w.compute(kSumFinalMass);
               const Float mk = w.load(0x850, mass_, k);
               bool waiting = false;
               w.if_else(
                   mk >= 0.0f, [&] { set(w, k, k + inc); },
                   [&] {
                     w.if_else(
                         j == 0,
                         [&] {  // a new cell: read and cache its children
                           set(w, j, int64_t(8));
                           for (int64_t c = 0; c < 8; ++c) {
                             w.compute(kSumFinalChild);
                             const Lanes<int32_t> ch = w.load(0x860, child_, k * 8 + c);
                             w.shared_store(sch, tid + c * kThreads3, ch);
                             Bool ok = ch < int32_t(nb);
                             w.if_(!ok, [&] {
                               w.compute(kSumFinalChildMass);
                               const Float mc = w.load(0x870, mass_, ch.as<int64_t>());
                               w.shared_store(smass, tid + c * kThreads3, mc);
                               set(w, ok, mc >= 0.0f);
                             });
                             w.if_(ok, [&] { set(w, j, j - 1); });
                           }
                         },
                         [&] {  // children cached: poll the masses not ready yet
                           set(w, j, int64_t(8));
                           for (int64_t c = 0; c < 8; ++c) {
                             const Int ch = w.shared_load(sch, tid + c * kThreads3).as<int64_t>();
                             Bool ok = ch < nb;
                             w.if_(!ok,
                                   [&] { set(w, ok, w.shared_load(smass, tid + c * kThreads3) >= 0.0f); });
                             w.if_(!ok, [&] {
                               w.compute(kSumRecheck);
                               const Float mc = w.load(0x880, mass_, ch);
                               w.shared_store(smass, tid + c * kThreads3, mc);
                               set(w, ok, mc >= 0.0f);
                             });
                             w.if_(ok, [&] { set(w, j, j - 1); });
                           }
                         });
                     w.if_(j == 0, [&] {
                       set(w, cm, combine(w, k, sch, smass, tid));
                       set(w, flag, int64_t(1));
                     });
                     for (uint32_t b = w.active(); b; b &= b - 1)
                       if (j.v[unsigned(__builtin_ctz(b))] != 0) waiting = true;
                   });
               if (waiting) w.spin();  // children other threads compute are not there yet
               w.compute(kSumToBar);
               w.sync();
               w.if_(flag != 0, [&] {
                 w.compute(kSumAfterBar);
                 w.store(0x890, mass_, k, cm);
                 set(w, k, k + inc);
                 set(w, flag, int64_t(0));
               });
             });
  }

  void sort(Warp& w) {
    const int64_t nb = n_, dec = stride(w);
    w.compute(kSortEntry);
    const Int bottom = w.load(0x900, vars_, Int(kBottom)).as<int64_t>();
    Int k = first_index(w) + (nnodes_ + 1 - dec);
    w.while_([&] { return k >= bottom; },
             [&] {
               w.compute(kSortStart);
               Int start = w.load(0x910, start_, k).as<int64_t>();
               bool waiting = false;
               for (uint32_t b = w.active(); b; b &= b - 1)
                 if (start.v[unsigned(__builtin_ctz(b))] < 0) waiting = true;
               w.if_(start >= 0, [&] {
                 Int j(0);
                 for (int64_t c = 0; c < 8; ++c) {
                   w.compute(c == 0 ? kSortChild0 : kSortChild);
                   const Int ch = w.load(0x920, child_, k * 8 + c).as<int64_t>();
                   w.if_(ch >= 0, [&] {
                     w.if_(j != c, [&] {  // move the child to the front
                       w.compute(kSortClear);
                       w.store(0x930, child_, k * 8 + c, -1);
                       w.compute(kSortMove);
                       w.store(0x940, child_, k * 8 + j, ch);
                     });
                     set(w, j, j + 1);
                     w.if_else(
                         ch >= nb,
                         [&] {  // a cell: its start, then past its bodies
                           w.compute(kSortToStart);
                           w.store(0x950, start_, ch, start);
                           w.compute(kSortToCount);
                           set(w, start, start + w.load(0x960, count_, ch).as<int64_t>());
                         },
                         [&] {  // a body: its place in the sorted order
                           w.compute(kSortToSorted);
                           w.store(0x970, sort_, start, ch);
                           set(w, start, start + 1);
                         });
                   });
                 }
                 set(w, k, k - dec);
               });
               w.compute(kSortLoop);
               if (waiting) w.spin();  // the parent's thread has not set this cell's start yet
             });
  }

  void force(Warp& w) {
    const int64_t nb = n_;
    const Int tid = w.thread_in_block();
    auto& dq = w.shared<float>(2, size_t(kMaxDepth * kThreads5 / kWarp));
    w.if_(tid == 0, [&] {  // dq[level]: the squared opening distance of the level, plus softening
      w.compute(kForceRadius);
      const Float tmp = as_float(w.load(0xa00, vars_, Int(kRadius))) * 2.0f;
      dq[0] = tmp.v[0] * tmp.v[0] * kItolsq;
      w.compute(kForceDepth);
      int64_t i = 1;
      for (;; ++i) {
        const Int md = w.load(0xa10, vars_, Int(kMaxDepthVar)).as<int64_t>();
        if (!w.any(Int(i) < md)) break;
        dq[size_t(i)] = dq[size_t(i - 1)] * 0.25f;
        dq[size_t(i - 1)] += kEpssq;
        w.compute(kForceDepthLoop);
      }
      dq[size_t(i - 1)] += kEpssq;
      w.compute(kForceDepthCheck);
      const Int md = w.load(0xa20, vars_, Int(kMaxDepthVar)).as<int64_t>();
      w.if_(md > kMaxDepth, [&] {
        w.compute(kForceErrLoad);
        const Lanes<int32_t> v = w.load(0xa30, vars_, Int(kMaxDepthVar));
        w.compute(kForceErrStore);
        w.store(0xa40, err_, Int(0), v);
      });
    });
    w.compute(kForceToBar);
    w.sync();
    const Int md = w.load(0xa50, vars_, Int(kMaxDepthVar)).as<int64_t>();
    w.if_(md <= kMaxDepth, [&] {
      const int64_t base = w.warp_in_cta(), jb = base * kMaxDepth;
      for (uint32_t b = w.active(); b; b &= b - 1) {  // the warp's copy of dq (lanes diff < MAXDEPTH)
        const int64_t diff = __builtin_ctz(b);
        if (diff < kMaxDepth) dq[size_t(diff + jb)] = dq[size_t(diff)];
      }
      w.compute(kForceCopy);
      w.sync();
      w.compute(kForceAfterBar);
      // The warp's stack of (child position, node) per level: shared memory only lane 0 writes.
      std::vector<int64_t> spos(kMaxDepth), snode(kMaxDepth);
      w.for_(first_index(w), Int(nb), Int(stride(w)), [&](const Int& kk) {
        w.compute(kForceBody);
        const Int i = w.load(0xa60, sort_, kk).as<int64_t>();
        w.compute(kForcePosX);
        const Float px = w.load(0xa70, posx_, i);
        w.compute(kForcePos);
        const Float py = w.load(0xa80, posy_, i);
        w.compute(kForcePos);
        const Float pz = w.load(0xa90, posz_, i);
        Float ax(0.0f), ay(0.0f), az(0.0f);
        const unsigned lead = unsigned(__builtin_ctz(w.active()));  // every choice below is the warp's
        int64_t depth = 0;
        spos[0] = 0;
        snode[0] = nnodes_ * 8;
        w.compute(kForceToChild);
        do {
          int64_t pd = spos[size_t(depth)], nd = snode[size_t(depth)];
          RegSet nd_deps;  // a cell just opened: its children's addresses come from its loaded pointer
          while (pd < 8) {
            Int at(nd + pd);
            at.deps = nd_deps;
            const Int n = w.load(0xaa0, child_, at).as<int64_t>();
            ++pd;
            if (w.any(n >= 0)) {
              w.compute(kForcePosN);
              const Float dx = w.load(0xab0, posx_, n) - px;
              w.compute(kForcePosNext);
              const Float dy = w.load(0xac0, posy_, n) - py;
              w.compute(kForcePosNext);
              const Float dz = w.load(0xad0, posz_, n) - pz;
              Float d2 = dx;
              for (unsigned l = 0; l < kWarpSize; ++l) d2.v[l] = dist2(dx.v[l], dy.v[l], dz.v[l]);
              d2.deps |= dy.deps;
              d2.deps |= dz.deps;
              bool far = n.v[lead] < nb;
              if (!far) far = !w.any(!(d2 >= dq[size_t(jb + depth)]));  // __all_sync over the warp
              if (far) {
                w.compute(n.v[lead] < nb ? kForceToBodyMass : kForceToCellMass);
                const Float m = w.load(0xae0, mass_, n);
                Float f = m;
                for (unsigned l = 0; l < kWarpSize; ++l) f.v[l] = pull(d2.v[l], m.v[l]);
                f.deps |= d2.deps;
                set(w, ax, fma3(dx, f, ax));
                set(w, ay, fma3(dy, f, ay));
                set(w, az, fma3(dz, f, az));
                w.compute(pd < 8 ? kForceChild : kForcePop);
              } else {  // open the cell: push where this level goes on
                spos[size_t(depth)] = pd;
                snode[size_t(depth)] = nd;
                ++depth;
                pd = 0;
                nd = n.v[lead] * 8;
                nd_deps = n.deps;
                w.compute(kForcePush);
              }
            } else {
              pd = 8;  // the remaining children are empty too
              w.compute(kForceNoChild + kForcePop);
            }
          }
          --depth;
        } while (depth >= 0);
        w.compute(kForceToStep);
        const Int step = w.load(0xaf0, vars_, Int(kStep)).as<int64_t>();
        w.if_else(
            step > 0,
            [&] {
              DeviceArray<float>* acc[3] = {&accx_, &accy_, &accz_};
              DeviceArray<float>* vel[3] = {&velx_, &vely_, &velz_};
              const Float* a[3] = {&ax, &ay, &az};
              for (unsigned d = 0; d < 3; ++d) {
                w.compute(d == 0 ? kForceToAcc : 0);
                const Float old = w.load(0xb00 + 0x30 * d, *acc[d], i);
                w.compute(kForceVel);
                const Float v = w.load(0xb10 + 0x30 * d, *vel[d], i);
                w.compute(kForceVelStore);
                w.store(0xb20 + 0x30 * d, *vel[d], i, fma3(*a[d] - old, Float(kDthf), v));
              }
            },
            [&] { w.compute(kForceNoVel); });
        w.store(0xb90, accx_, i, ax);
        w.store(0xba0, accy_, i, ay);
        w.store(0xbb0, accz_, i, az);
        w.compute(kForceTail);
      });
    });
  }

  void integrate(Warp& w) {
    w.compute(kIntEntry);
    w.for_(first_index(w), Int(int64_t(n_)), Int(stride(w)), [&](const Int& i) {
      w.compute(kIntHead);
      const Float ax = w.load(0xc00, accx_, i);
      w.compute(kIntNext);
      const Float ay = w.load(0xc10, accy_, i);
      w.compute(kIntNext);
      const Float az = w.load(0xc20, accz_, i);
      w.compute(kIntNext);
      const Float vx = w.load(0xc30, velx_, i);
      w.compute(kIntVel);
      const Float vy = w.load(0xc40, vely_, i);
      w.compute(kIntVel);
      const Float vz = w.load(0xc50, velz_, i);
      const Float dthf(kDthf), dtime(kDtime);
      const Float hx = fma3(ax, dthf, vx), hy = fma3(ay, dthf, vy), hz = fma3(az, dthf, vz);
      DeviceArray<float>* pos[3] = {&posx_, &posy_, &posz_};
      const Float* h[3] = {&hx, &hy, &hz};
      for (unsigned d = 0; d < 3; ++d) {
        w.compute(kIntVel);
        const Float p = w.load(0xc60 + 0x20 * d, *pos[d], i);
        w.compute(kIntStore);
        w.store(0xc70 + 0x20 * d, *pos[d], i, fma3(*h[d], dtime, p));
      }
      w.compute(kIntStore);
      w.store(0xcc0, velx_, i, fma3(ax, dthf, hx));
      w.compute(kIntStore);
      w.store(0xcd0, vely_, i, fma3(ay, dthf, hy));
      w.compute(kIntStore);
      w.store(0xce0, velz_, i, fma3(az, dthf, hz));
      w.compute(kIntLoop);
    });
  }

  uint32_t n_, steps_, sms_;
  uint32_t split_;  // the 1024-thread grid-stride kernels' CTAs split in this many (block_cap)
  uint64_t seed_;
  int64_t nnodes_ = 0;
  std::vector<float> mass0_, pos0_, vel0_;  // the input (x, y, z per body)
  DeviceArray<int32_t> err_, child_, count_, start_, sort_, vars_;
  DeviceArray<float> mass_, posx_, posy_, posz_, velx_, vely_, velz_, accx_, accy_, accz_;
  DeviceArray<float> maxx_, maxy_, maxz_, minx_, miny_, minz_;
};

// The sequential reference: the same time steps on the host, the tree built by inserting the bodies in
// index order, the same float operations.
std::string BarnesHut::check() const {
  const uint32_t n = n_;
  std::vector<float> m(mass0_), px(n), py(n), pz(n), vx(n), vy(n), vz(n), ax(n, 0.0f), ay(n, 0.0f),
      az(n, 0.0f);
  for (uint32_t i = 0; i < n; ++i) {
    px[i] = pos0_[3 * i], py[i] = pos0_[3 * i + 1], pz[i] = pos0_[3 * i + 2];
    vx[i] = vel0_[3 * i], vy[i] = vel0_[3 * i + 1], vz[i] = vel0_[3 * i + 2];
  }
  const int64_t nb = n, root = nnodes_;
  for (uint32_t step = 0; step < steps_; ++step) {
    // Bounding box and root.
    float minx = px[0], maxx = px[0], miny = py[0], maxy = py[0], minz = pz[0], maxz = pz[0];
    for (uint32_t i = 0; i < n; ++i) {
      minx = std::fmin(minx, px[i]), maxx = std::fmax(maxx, px[i]);
      miny = std::fmin(miny, py[i]), maxy = std::fmax(maxy, py[i]);
      minz = std::fmin(minz, pz[i]), maxz = std::fmax(maxz, pz[i]);
    }
    const float radius = std::fmax(std::fmax(maxx - minx, maxy - miny), maxz - minz) * 0.5f;
    const size_t nn = size_t(root) + 1;
    std::vector<int64_t> child(nn * 8, -1), count(nn, 0);
    std::vector<float> cx(nn), cy(nn), cz(nn), cm(nn);  // cells' centres of mass and masses
    const float rx = (minx + maxx) * 0.5f, ry = (miny + maxy) * 0.5f, rz = (minz + maxz) * 0.5f;
    int64_t bottom = root, maxdepth = 1;
    auto oct = [](float x, float y, float z, float qx, float qy, float qz) {
      return int64_t((x < qx ? 1 : 0) | (y < qy ? 2 : 0) | (z < qz ? 4 : 0));
    };
    for (int64_t i = 0; i < nb; ++i) {  // insertion, as a thread with no competitor does it
      float r = radius * 0.5f;
      int64_t j = oct(rx, ry, rz, px[size_t(i)], py[size_t(i)], pz[size_t(i)]), node = root, depth = 1;
      float x = rx + (rx < px[size_t(i)] ? r : -r), y = ry + (ry < py[size_t(i)] ? r : -r),
            z = rz + (rz < pz[size_t(i)] ? r : -r);
      int64_t ch = child[size_t(node * 8 + j)];
      while (ch >= nb) {
        node = ch;
        ++depth;
        r *= 0.5f;
        const float qx = x, qy = y, qz = z;
        j = oct(qx, qy, qz, px[size_t(i)], py[size_t(i)], pz[size_t(i)]);
        x = qx + (qx < px[size_t(i)] ? r : -r), y = qy + (qy < py[size_t(i)] ? r : -r),
        z = qz + (qz < pz[size_t(i)] ? r : -r);
        ch = child[size_t(node * 8 + j)];
      }
      if (ch != -1) {
        int64_t at = node * 8 + j;
        do {
          ++depth;
          const int64_t cell = --bottom;
          if (cell <= nb) return "tree: out of cells";
          child[size_t(at)] = cell;
          child[size_t(cell * 8 + oct(x, y, z, px[size_t(ch)], py[size_t(ch)], pz[size_t(ch)]))] = ch;
          node = cell;
          r *= 0.5f;
          const float qx = x, qy = y, qz = z;
          j = oct(qx, qy, qz, px[size_t(i)], py[size_t(i)], pz[size_t(i)]);
          x = qx + (qx < px[size_t(i)] ? r : -r), y = qy + (qy < py[size_t(i)] ? r : -r),
          z = qz + (qz < pz[size_t(i)] ? r : -r);
          at = node * 8 + j;
          ch = child[size_t(at)];
        } while (ch >= 0);
        child[size_t(at)] = i;
      } else {
        child[size_t(node * 8 + j)] = i;
      }
      maxdepth = std::max(maxdepth, depth);
    }
    // Summarisation, children in octant order (cells have lower indices than their parent).
    auto mass_of = [&](int64_t c) { return c < nb ? m[size_t(c)] : cm[size_t(c)]; };
    auto pos_of = [&](int64_t c, int d) {
      return c < nb ? (d == 0   ? px
                       : d == 1 ? py
                                : pz)[size_t(c)]
                    : (d == 0   ? cx
                       : d == 1 ? cy
                                : cz)[size_t(c)];
    };
    for (int64_t k = bottom; k <= root; ++k) {
      float mm = 0.0f, sx = 0.0f, sy = 0.0f, sz = 0.0f;
      int64_t cnt = 0;
      for (int64_t c = 0; c < 8; ++c) {
        const int64_t ch = child[size_t(k * 8 + c)];
        if (ch < 0) continue;
        const float w = mass_of(ch);
        cnt += ch >= nb ? count[size_t(ch)] : 1;
        mm += w;
        sx = std::fma(w, pos_of(ch, 0), sx);
        sy = std::fma(w, pos_of(ch, 1), sy);
        sz = std::fma(w, pos_of(ch, 2), sz);
      }
      count[size_t(k)] = cnt;
      const float inv = 1.0f / mm;
      cx[size_t(k)] = sx * inv, cy[size_t(k)] = sy * inv, cz[size_t(k)] = sz * inv, cm[size_t(k)] = mm;
    }
    // Sort: children moved to the front in octant order, bodies in tree order.
    std::vector<int64_t> sorted(static_cast<size_t>(nb)), start(nn, 0);
    for (int64_t k = root; k >= bottom; --k) {
      int64_t s = start[size_t(k)], jj = 0;
      for (int64_t c = 0; c < 8; ++c) {
        const int64_t ch = child[size_t(k * 8 + c)];
        if (ch < 0) continue;
        child[size_t(k * 8 + c)] = -1;
        child[size_t(k * 8 + jj++)] = ch;
        if (ch >= nb) {
          start[size_t(ch)] = s;
          s += count[size_t(ch)];
        } else {
          sorted[size_t(s++)] = ch;
        }
      }
    }
    // Forces, 32 sorted bodies at a time walking the tree together.
    if (maxdepth > kMaxDepth) return "tree deeper than MAXDEPTH";
    std::vector<float> dq(kMaxDepth, 0.0f);
    const float t = radius * 2.0f;
    dq[0] = t * t * kItolsq;
    int64_t lv = 1;
    for (; lv < maxdepth; ++lv) {
      dq[size_t(lv)] = dq[size_t(lv - 1)] * 0.25f;
      dq[size_t(lv - 1)] += kEpssq;
    }
    dq[size_t(lv - 1)] += kEpssq;
    for (int64_t g = 0; g < nb; g += kWarp) {
      const int64_t e = std::min(nb, g + kWarp);
      std::vector<int64_t> body;
      for (int64_t k = g; k < e; ++k) body.push_back(sorted[size_t(k)]);
      const size_t lanes = body.size();
      std::vector<float> fx(lanes, 0.0f), fy(lanes, 0.0f), fz(lanes, 0.0f), ddx(lanes), ddy(lanes),
          ddz(lanes), d2(lanes);
      int64_t spos[kMaxDepth], snode[kMaxDepth], depth = 0;
      spos[0] = 0, snode[0] = root * 8;
      do {
        int64_t pd = spos[depth], nd = snode[depth];
        while (pd < 8) {
          const int64_t c = child[size_t(nd + pd)];
          ++pd;
          if (c < 0) {
            pd = 8;
            continue;
          }
          bool all = true;
          for (size_t l = 0; l < lanes; ++l) {
            const size_t b = size_t(body[l]);
            ddx[l] = pos_of(c, 0) - px[b], ddy[l] = pos_of(c, 1) - py[b], ddz[l] = pos_of(c, 2) - pz[b];
            d2[l] = dist2(ddx[l], ddy[l], ddz[l]);
            all = all && d2[l] >= dq[size_t(depth)];
          }
          if (c < nb || all) {
            for (size_t l = 0; l < lanes; ++l) {
              const float f = pull(d2[l], mass_of(c));
              fx[l] = std::fma(ddx[l], f, fx[l]);
              fy[l] = std::fma(ddy[l], f, fy[l]);
              fz[l] = std::fma(ddz[l], f, fz[l]);
            }
          } else {
            spos[depth] = pd, snode[depth] = nd;
            ++depth;
            pd = 0, nd = c * 8;
          }
        }
        --depth;
      } while (depth >= 0);
      for (size_t l = 0; l < lanes; ++l) {
        const size_t b = size_t(body[l]);
        if (step > 0) {
          vx[b] = std::fma(fx[l] - ax[b], kDthf, vx[b]);
          vy[b] = std::fma(fy[l] - ay[b], kDthf, vy[b]);
          vz[b] = std::fma(fz[l] - az[b], kDthf, vz[b]);
        }
        ax[b] = fx[l], ay[b] = fy[l], az[b] = fz[l];
      }
    }
    for (uint32_t i = 0; i < n; ++i) {  // integration
      const float hx = std::fma(ax[i], kDthf, vx[i]), hy = std::fma(ay[i], kDthf, vy[i]),
                  hz = std::fma(az[i], kDthf, vz[i]);
      px[i] = std::fma(hx, kDtime, px[i]), py[i] = std::fma(hy, kDtime, py[i]),
      pz[i] = std::fma(hz, kDtime, pz[i]);
      vx[i] = std::fma(ax[i], kDthf, hx), vy[i] = std::fma(ay[i], kDthf, hy),
      vz[i] = std::fma(az[i], kDthf, hz);
    }
  }
  if (err_[0] != 0) return "errd = " + std::to_string(err_[0]);
  const std::vector<float>* got[6] = {&posx_.host(), &posy_.host(), &posz_.host(),
                                      &velx_.host(), &vely_.host(), &velz_.host()};
  const std::vector<float>* want[6] = {&px, &py, &pz, &vx, &vy, &vz};
  const char* names[6] = {"posx", "posy", "posz", "velx", "vely", "velz"};
  for (unsigned a = 0; a < 6; ++a)
    for (uint32_t i = 0; i < n; ++i)
      if (float_bits((*got[a])[i]) != float_bits((*want[a])[i]))
        return std::string(names[a]) + "[" + std::to_string(i) + "] = " + std::to_string((*got[a])[i]) +
               ", expected " + std::to_string((*want[a])[i]);
  return "";
}

}  // namespace

void register_lonestar_bh(PortRegistry& r) {
  PortInfo p;
  p.name = "lonestar/bh";
  p.suite = "LonestarGPU 2.0";
  p.source =
      "LonestarGPU 2.0 apps/bh/main.cu (CUDA BarnesHut v3.1, Burtscher & Pingali; the Fermi thread and "
      "block-factor settings), as in github.com/accel-sim/gpu-app-collection src/cuda/lonestargpu-2.0, "
      "commit 52c11fb";
  p.input =
      "The suite's run script: 30000 bodies x 50 time steps (small; medium 300000 x 10, large 3000000 x 2), "
      "the whole run repeated 3 times for timing. One time step of 30000 bodies is already ~42 M warp "
      "instructions (ForceCalculationKernel: each warp walks ~9000 tree nodes for its 32 bodies), so the "
      "default is 3072 bodies x 2 time steps (the second exercises the velocity update), one run: ~3 M "
      "warp instructions. Footprint: the node arrays are sized for max(2 x bodies, 1024 x SMs) nodes "
      "(15360 on 15 SMs): 1.3 MB allocated (30000 bodies: 5 MB), of which the force walk reuses the "
      "tree's top levels (a few hundred KB touched per step, under Fermi's 768 KB L2; the suite's input's "
      "ratio to the L2 is not kept). Input: main()'s Plummer-model generator with its linear "
      "congruential generator, drndset(seed) (7 in the source). Grids: sms (default 15, GTX 480) x the "
      "source's Fermi factors. block_cap 512 (default 1024, the source) runs the three 1024-thread "
      "grid-stride kernels (ClearKernel1, ClearKernel2, IntegrationKernel) as twice as many 512-thread CTAs "
      "(the same threads, the same per-warp streams) for SMs of 512 threads (configs/tiny.yaml). Size "
      "keys: bodies, timesteps, sms, block_cap, seed";
  p.papers = "Decoupled L1D (002)";
  p.kernels =
      "InitializationKernel, BoundingBoxKernel, ClearKernel1, TreeBuildingKernel, ClearKernel2, "
      "SummarizationKernel (co-resident), SortKernel (co-resident), ForceCalculationKernel, "
      "IntegrationKernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t bodies = s.get_uint("bodies", 3072, 1, uint64_t(1) << 24);
    const uint64_t steps = s.get_uint("timesteps", 2, 1, 1000);
    const uint64_t sms = s.get_uint("sms", 15, 1, 1024);
    const uint64_t seed = s.get_uint("seed", 7, 0, 0x7FFFFFFF);
    const uint64_t cap = s.get_uint("block_cap", 1024, 512, 1024);
    if (cap != 512 && cap != 1024) throw ConfigError("lonestar/bh: block_cap must be 512 or 1024");
    return std::make_unique<BarnesHut>(uint32_t(bodies), uint32_t(steps), uint32_t(sms), uint32_t(cap), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
