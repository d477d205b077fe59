// Rodinia 3.1 cfd (euler3d, single precision): an explicit finite-volume Euler solver on an unstructured
// tetrahedral mesh, one thread per element. The host fills the five conserved variables of three arrays
// with the far-field state (cuda_initialize_variables), then per iteration copies variables to
// old_variables (a device-to-device cudaMemcpy: done on the host here, it is no kernel), launches
// cuda_compute_step_factor, and three Runge-Kutta stages of cuda_compute_flux (the element's own state,
// then per face the neighbour's index, the face normal and, for an interior face, the neighbour's state:
// the data-dependent gathers) and cuda_time_step. Arrays are structure-of-arrays, variable v of element i
// at [i + v * nelr]; nelr is the element count rounded up to the 192-thread block.
//
// The benchmark reads its mesh from a data file (fvcorr.domn.097K: 97,046 tetrahedra around a wing, 4
// face neighbours each; in the file 0 marks a wing face, a negative number a far-field face). That file is
// not available here (it is 22.9 MB), so the port builds an equivalent mesh with a seeded generator:
//   - a box of nx x ny x nz cubes (nx = 2m, ny = m, nz = m + 1), each cut into 6 tetrahedra along its main
//     diagonal (Kuhn's triangulation, face-conforming), vertices jittered (seeded) so volumes and normals
//     vary; a flat plate of m x m/2 cubes in the middle layer is cut out: the wing (its faces: nb = -1),
//     the outer faces: far field (nb = -2);
//   - elements numbered cube by cube (x fastest), the 6 of a cube consecutive, the first `elements` kept
//     (faces towards the dropped rest become far field);
//   - then shuffled (seeded) within consecutive windows of `window` elements (default 1024, about 5 CTAs).
// What this keeps of the real mesh, as far as can be inferred without the file: tetrahedra (4 neighbours,
// 2 of them in the same cube here), the element count, a banded numbering (a generator's advancing front,
// or a bandwidth-reducing renumbering, keeps neighbours within about N^(2/3) indices: here one layer of
// cubes, 6 nx ny = 4,800 elements at m = 20), and a numbering that is locally disordered, so a warp's
// neighbour gathers touch many lines (the TSC paper finds cfd prefers small cache lines, which an ordered
// numbering would not give). window = 1 gives the ordered numbering. Measured on the default mesh when
// the port was written: 2.4% of the faces are boundary faces; interior faces' |i - nb|: median 394, 90%
// within 4,587, 99% within 5,692 (max 6,134); a warp's neighbour gather touches 22.9 distinct 128 B lines
// on average (3.5 with window 1).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

constexpr int64_t kBlock = 192;  // BLOCK_SIZE_0..4
constexpr int64_t kNnb = 4, kNdim = 3, kNvar = 5, kRk = 3;
constexpr int64_t kDensity = 0, kMomentum = 1, kDensityEnergy = 4;
constexpr float kGamma = 1.4f;

// ptxas -v (nvcc 13.0 -arch=sm_75; sm_70 is no longer supported): registers per thread (no shared memory).
constexpr uint32_t kRegsInit = 24, kRegsStep = 20, kRegsFlux = 58, kRegsTime = 26;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access on the path taken; constant-memory
// loads count as compute.
constexpr uint32_t kGapInit[kNvar] = {10, 4, 5, 4, 2};
constexpr uint32_t kGapStep[kNvar] = {13, 3, 4, 3, 1}, kGapStepArea = 15, kGapStepStore = 6;
constexpr uint32_t kGapFluxI[kNvar] = {26, 0, 1, 1, 6};
constexpr uint32_t kGapFluxNb0 = 17;              // the first neighbour index, after the element's state
constexpr uint32_t kGapFluxNormal0 = 7;           // the first normal component, j = 0 (3 for j > 0)
constexpr uint32_t kGapFluxNormal = 3;            //
constexpr uint32_t kGapFluxNormalYZ[2] = {0, 2};  // the other two components
constexpr uint32_t kGapFluxBranch = 3;            // nb >= 0 test and branch
constexpr uint32_t kGapFluxNbState0 = 12, kGapFluxNbState = 11;  // to the neighbour's density (j = 0, j > 0)
constexpr uint32_t kGapFluxNbVar[kNvar - 1] = {0, 1, 1, 6};      // its momentum and energy
constexpr uint32_t kGapFluxInterior = 57;                        // viscosity and the averaged fluxes
constexpr uint32_t kGapFluxBoundary = 6, kGapFluxWing = 4, kGapFluxNotWing = 5, kGapFluxFar = 49;
constexpr uint32_t kGapFluxJoin[kNnb] = {2, 2, 11, 4};  // after the face, to the next face or the stores
constexpr uint32_t kGapFluxStore[kNvar] = {0, 1, 1, 1, 1};
constexpr uint32_t kGapTimeFactor = 16, kGapTimeOld[kNvar] = {5, 3, 3, 3, 3}, kGapTimeFlux = 1,
                   kGapTimeStore = 2;

struct F3 {
  float x = 0, y = 0, z = 0;
};

// An element's derived state, as the kernels compute it (compute_velocity, _speed_sqd, _pressure,
// _speed_of_sound, _flux_contribution), in the source's operation order.
struct State {
  float density = 0, density_energy = 0;
  F3 momentum, velocity;
  float speed_sqd = 0, pressure = 0, speed_of_sound = 0;
  F3 fc_x, fc_y, fc_z, fc_de;
};

void flux_contribution(float density_energy, float pressure, const F3& m, const F3& v, F3& fx, F3& fy, F3& fz,
                       F3& fde) {
  fx.x = v.x * m.x + pressure;
  fx.y = v.x * m.y;
  fx.z = v.x * m.z;
  fy.x = fx.y;
  fy.y = v.y * m.y + pressure;
  fy.z = v.y * m.z;
  fz.x = fx.z;
  fz.y = fy.z;
  fz.z = v.z * m.z + pressure;
  const float de_p = density_energy + pressure;
  fde.x = v.x * de_p;
  fde.y = v.y * de_p;
  fde.z = v.z * de_p;
}

State state_of(float density, F3 momentum, float density_energy) {
  State s;
  s.density = density;
  s.momentum = momentum;
  s.density_energy = density_energy;
  s.velocity = {momentum.x / density, momentum.y / density, momentum.z / density};
  s.speed_sqd = s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y + s.velocity.z * s.velocity.z;
  s.pressure = (kGamma - 1.0f) * (density_energy - 0.5f * density * s.speed_sqd);
  s.speed_of_sound = std::sqrt(kGamma * s.pressure / density);
  flux_contribution(density_energy, s.pressure, momentum, s.velocity, s.fc_x, s.fc_y, s.fc_z, s.fc_de);
  return s;
}

struct Far {  // the far-field constants (__constant__ ff_variable, ff_flux_contribution_*)
  float var[kNvar];
  F3 fc_x, fc_y, fc_z, fc_de;
};

struct Flux {
  float density = 0, density_energy = 0;
  F3 momentum;
};

// One face of cuda_compute_flux's loop: an interior face (nb >= 0) with the neighbour's state.
void add_interior(Flux& f, const State& i, float speed_i, const State& nb, const F3& n) {
  const float normal_len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  float factor =
      -normal_len * 0.2f * 0.5f * (speed_i + std::sqrt(nb.speed_sqd) + i.speed_of_sound + nb.speed_of_sound);
  f.density += factor * (i.density - nb.density);
  f.density_energy += factor * (i.density_energy - nb.density_energy);
  f.momentum.x += factor * (i.momentum.x - nb.momentum.x);
  f.momentum.y += factor * (i.momentum.y - nb.momentum.y);
  f.momentum.z += factor * (i.momentum.z - nb.momentum.z);
  const float nc[3] = {n.x, n.y, n.z};
  const float mi[3] = {i.momentum.x, i.momentum.y, i.momentum.z},
              mn[3] = {nb.momentum.x, nb.momentum.y, nb.momentum.z};
  auto comp = [](const F3& v, int c) { return c == 0 ? v.x : c == 1 ? v.y : v.z; };
  for (int c = 0; c < 3; ++c) {
    factor = 0.5f * nc[c];
    f.density += factor * (mn[c] + mi[c]);
    f.density_energy += factor * (comp(nb.fc_de, c) + comp(i.fc_de, c));
    f.momentum.x += factor * (comp(nb.fc_x, c) + comp(i.fc_x, c));
    f.momentum.y += factor * (comp(nb.fc_y, c) + comp(i.fc_y, c));
    f.momentum.z += factor * (comp(nb.fc_z, c) + comp(i.fc_z, c));
  }
}
void add_wing(Flux& f, const State& i, const F3& n) {
  f.momentum.x += n.x * i.pressure;
  f.momentum.y += n.y * i.pressure;
  f.momentum.z += n.z * i.pressure;
}
void add_far(Flux& f, const State& i, const Far& ff, const F3& n) {
  const float nc[3] = {n.x, n.y, n.z};
  const float mi[3] = {i.momentum.x, i.momentum.y, i.momentum.z};
  auto comp = [](const F3& v, int c) { return c == 0 ? v.x : c == 1 ? v.y : v.z; };
  for (int c = 0; c < 3; ++c) {
    const float factor = 0.5f * nc[c];
    f.density += factor * (ff.var[kMomentum + c] + mi[c]);
    f.density_energy += factor * (comp(ff.fc_de, c) + comp(i.fc_de, c));
    f.momentum.x += factor * (comp(ff.fc_x, c) + comp(i.fc_x, c));
    f.momentum.y += factor * (comp(ff.fc_y, c) + comp(i.fc_y, c));
    f.momentum.z += factor * (comp(ff.fc_z, c) + comp(i.fc_z, c));
  }
}
float step_factor_of(const State& s, float area) {
  return 0.5f / (std::sqrt(area) * (std::sqrt(s.speed_sqd) + s.speed_of_sound));
}

// A small seeded generator (splitmix64) for the mesh.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

// The mesh as the benchmark holds it after reading its file: areas (element volumes), neighbours and
// (negated) face normals, structure of arrays over nelr elements (the padding repeats the last element's
// area and neighbours; its normals stay 0: the benchmark's padding loop copies them onto themselves).
struct CfdMesh {
  int64_t nel = 0, nelr = 0;
  std::vector<float> areas;
  std::vector<int32_t> nb;     // [i + j * nelr]
  std::vector<float> normals;  // [i + (j + k * 4) * nelr]
};

CfdMesh make_cfd_mesh(int64_t nel, int64_t window, uint64_t seed) {
  // Grid size: the smallest m whose box (minus the plate) holds nel tetrahedra.
  int64_t m = 2;
  auto plate = [](int64_t mm) { return mm * (mm / 2); };
  while (6 * (2 * m * m * (m + 1) - plate(m)) < nel) ++m;
  const int64_t nx = 2 * m, ny = m, nz = m + 1, zp = nz / 2;
  auto is_wing = [&](int64_t i, int64_t j, int64_t k) {
    return k == zp && i >= m / 2 && i < m / 2 + m && j < m / 2;
  };
  // Jittered vertices.
  Rng rng{seed};
  const int64_t vx = nx + 1, vy = ny + 1, vz = nz + 1;
  std::vector<std::array<double, 3>> vert(size_t(vx * vy * vz));
  for (int64_t k = 0; k < vz; ++k)
    for (int64_t j = 0; j < vy; ++j)
      for (int64_t i = 0; i < vx; ++i) {
        std::array<double, 3> p{double(i), double(j), double(k)};
        const bool inner = i > 0 && i < nx && j > 0 && j < ny && k > 0 && k < nz;
        for (auto& c : p) c += inner ? 0.2 * (rng.uniform() - 0.5) : 0.0;
        vert[size_t((k * vy + j) * vx + i)] = {p[0] * 0.1, p[1] * 0.1, p[2] * 0.1};
      }
  // Tetrahedra in cube order, 6 per cube (the 6 monotone paths from corner 000 to 111).
  static constexpr int kPerm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<std::array<int64_t, 4>> tets;
  for (int64_t k = 0; k < nz && int64_t(tets.size()) < nel; ++k)
    for (int64_t j = 0; j < ny && int64_t(tets.size()) < nel; ++j)
      for (int64_t i = 0; i < nx && int64_t(tets.size()) < nel; ++i) {
        if (is_wing(i, j, k)) continue;
        for (const auto& p : kPerm) {
          int64_t c[3] = {i, j, k};
          std::array<int64_t, 4> t;
          t[0] = (c[2] * vy + c[1]) * vx + c[0];
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            t[size_t(s + 1)] = (c[2] * vy + c[1]) * vx + c[0];
          }
          if (int64_t(tets.size()) < nel) tets.push_back(t);
        }
      }
  // The shuffled numbering: position -> tetrahedron.
  std::vector<int64_t> order(static_cast<size_t>(nel));
  for (int64_t e = 0; e < nel; ++e) order[size_t(e)] = e;
  if (window > 1)
    for (int64_t b = 0; b < nel; b += window) {
      const int64_t e = std::min(nel, b + window);
      for (int64_t x = e - 1; x > b; --x)
        std::swap(order[size_t(x)], order[size_t(b + int64_t(rng.next() % uint64_t(x - b + 1)))]);
    }
  std::vector<int64_t> pos(static_cast<size_t>(nel));
  for (int64_t e = 0; e < nel; ++e) pos[size_t(order[size_t(e)])] = e;
  // Face adjacency: a face (its sorted vertex triple) seen twice joins two elements.
  auto key = [&](int64_t a, int64_t b, int64_t c) {
    int64_t v[3] = {a, b, c};
    std::sort(v, v + 3);
    const uint64_t n = uint64_t(vx * vy * vz);
    return (uint64_t(v[0]) * n + uint64_t(v[1])) * n + uint64_t(v[2]);
  };
  std::unordered_map<uint64_t, int64_t> faces;
  faces.reserve(size_t(nel) * 3);
  std::vector<std::array<int64_t, 4>> nbr(static_cast<size_t>(nel));
  for (int64_t t = 0; t < nel; ++t)
    for (int f = 0; f < 4; ++f) {
      const auto& v = tets[size_t(t)];
      const uint64_t kf = key(v[size_t((f + 1) % 4)], v[size_t((f + 2) % 4)], v[size_t((f + 3) % 4)]);
      auto [it, fresh] = faces.emplace(kf, t * 4 + f);
      if (fresh) {
        nbr[size_t(t)][size_t(f)] = -2;
      } else {
        const int64_t o = it->second;
        nbr[size_t(t)][size_t(f)] = o / 4;
        nbr[size_t(o / 4)][size_t(o % 4)] = t;
      }
    }
  CfdMesh mesh;
  mesh.nel = nel;
  mesh.nelr = kBlock * ((nel / kBlock) + std::min<int64_t>(1, nel % kBlock));
  const int64_t nelr = mesh.nelr;
  mesh.areas.assign(size_t(nelr), 0.0f);
  mesh.nb.assign(size_t(nelr * kNnb), 0);
  mesh.normals.assign(size_t(nelr * kNnb * kNdim), 0.0f);
  auto sub = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  };
  auto cross = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                 a[0] * b[1] - a[1] * b[0]};
  };
  for (int64_t t = 0; t < nel; ++t) {
    const int64_t i = pos[size_t(t)];
    const auto& v = tets[size_t(t)];
    const auto& p0 = vert[size_t(v[0])];
    const auto e1 = sub(vert[size_t(v[1])], p0), e2 = sub(vert[size_t(v[2])], p0),
               e3 = sub(vert[size_t(v[3])], p0);
    const auto c12 = cross(e1, e2);
    const double vol = std::abs(c12[0] * e3[0] + c12[1] * e3[1] + c12[2] * e3[2]) / 6.0;
    mesh.areas[size_t(i)] = float(vol);
    std::array<double, 3> centroid{0, 0, 0};
    for (int q = 0; q < 4; ++q)
      for (int c = 0; c < 3; ++c) centroid[size_t(c)] += vert[size_t(v[size_t(q)])][size_t(c)] / 4;
    for (int f = 0; f < 4; ++f) {
      const auto& a = vert[size_t(v[size_t((f + 1) % 4)])];
      const auto& b = vert[size_t(v[size_t((f + 2) % 4)])];
      const auto& c = vert[size_t(v[size_t((f + 3) % 4)])];
      auto n = cross(sub(b, a), sub(c, a));  // |n| = 2 x face area
      const auto out = sub(a, centroid);
      const double sgn = (n[0] * out[0] + n[1] * out[1] + n[2] * out[2]) > 0 ? 0.5 : -0.5;
      int64_t o = nbr[size_t(t)][size_t(f)];
      int32_t code = -2;  // far field
      if (o >= 0) {
        code = int32_t(pos[size_t(o)]);
      } else {
        // A boundary face on the plate (its centroid at the plate's height, inside its extent): the wing.
        const double fz = (a[2] + b[2] + c[2]) / 3 / 0.1, fx = (a[0] + b[0] + c[0]) / 3 / 0.1,
                     fy = (a[1] + b[1] + c[1]) / 3 / 0.1;
        const bool on_plate = (std::abs(fz - zp) < 1e-9 || std::abs(fz - (zp + 1)) < 1e-9) && fx > m / 2 &&
                              fx < m / 2 + m && fy < m / 2 && fy > 0;
        if (on_plate) code = -1;
      }
      mesh.nb[size_t(i + f * nelr)] = code;
      // The file holds outward normals; the benchmark negates them on reading.
      for (int k = 0; k < 3; ++k)
        mesh.normals[size_t(i + (f + k * kNnb) * nelr)] = float(-sgn * n[size_t(k)]);
    }
  }
  for (int64_t i = nel; i < nelr; ++i) {
    mesh.areas[size_t(i)] = mesh.areas[size_t(nel - 1)];
    for (int64_t j = 0; j < kNnb; ++j) mesh.nb[size_t(i + j * nelr)] = mesh.nb[size_t(nel - 1 + j * nelr)];
  }
  return mesh;
}

class Cfd : public KernelPort {
 public:
  Cfd(int64_t nel, int64_t window, int iterations) : nel_(nel), window_(window), iterations_(iterations) {}

  void setup(DeviceMemory& mem) override {
    mesh_ = make_cfd_mesh(nel_, window_, 0x0cfd);
    const int64_t nelr = mesh_.nelr;
    // Far-field state (main: Mach 1.2, angle of attack 0), in the source's order.
    {
      const float angle = float(3.1415926535897931 / 180.0f) * 0.0f;
      ff_.var[kDensity] = 1.4f;
      const float ff_pressure = 1.0f;
      const float ff_sos = float(std::sqrt(double(kGamma * ff_pressure / ff_.var[kDensity])));
      const float ff_speed = 1.2f * ff_sos;
      const F3 vel{ff_speed * float(std::cos(angle)), ff_speed * float(std::sin(angle)), 0.0f};
      ff_.var[kMomentum + 0] = ff_.var[kDensity] * vel.x;
      ff_.var[kMomentum + 1] = ff_.var[kDensity] * vel.y;
      ff_.var[kMomentum + 2] = ff_.var[kDensity] * vel.z;
      ff_.var[kDensityEnergy] =
          ff_.var[kDensity] * (0.5f * (ff_speed * ff_speed)) + (ff_pressure / (kGamma - 1.0f));
      const F3 mom{ff_.var[kMomentum], ff_.var[kMomentum + 1], ff_.var[kMomentum + 2]};
      flux_contribution(ff_.var[kDensityEnergy], ff_pressure, mom, vel, ff_.fc_x, ff_.fc_y, ff_.fc_z,
                        ff_.fc_de);
    }
    areas_ = mem.alloc<float>("areas", size_t(nelr));
    areas_.host() = mesh_.areas;
    ese_ = mem.alloc<int32_t>("elements_surrounding_elements", size_t(nelr * kNnb));
    ese_.host() = mesh_.nb;
    normals_ = mem.alloc<float>("normals", size_t(nelr * kNdim * kNnb));
    normals_.host() = mesh_.normals;
    variables_ = mem.alloc<float>("variables", size_t(nelr * kNvar));
    old_variables_ = mem.alloc<float>("old_variables", size_t(nelr * kNvar));
    fluxes_ = mem.alloc<float>("fluxes", size_t(nelr * kNvar));
    step_factors_ = mem.alloc<float>("step_factors", size_t(nelr));
  }

  void run(Launcher& host) override {
    host.launch(initialize(variables_));
    host.launch(initialize(old_variables_));
    host.launch(initialize(fluxes_));
    std::fill(step_factors_.host().begin(), step_factors_.host().end(), 0.0f);  // cudaMemset
    for (int it = 0; it < iterations_; ++it) {
      old_variables_.host() = variables_.host();  // cudaMemcpy device to device
      host.launch(step_factor());
      for (int j = 0; j < kRk; ++j) {
        host.launch(flux());
        host.launch(time_step(j));
      }
    }
  }

  std::string check() const override {
    // The same solver, element by element.
    const int64_t nelr = mesh_.nelr;
    std::vector<float> var(size_t(nelr * kNvar)), old, flx(size_t(nelr * kNvar)),
        sf(static_cast<size_t>(nelr));
    for (int64_t v = 0; v < kNvar; ++v)
      for (int64_t i = 0; i < nelr; ++i) var[size_t(i + v * nelr)] = flx[size_t(i + v * nelr)] = ff_.var[v];
    auto st = [&](int64_t e) {
      return state_of(var[size_t(e + kDensity * nelr)],
                      {var[size_t(e + (kMomentum + 0) * nelr)], var[size_t(e + (kMomentum + 1) * nelr)],
                       var[size_t(e + (kMomentum + 2) * nelr)]},
                      var[size_t(e + kDensityEnergy * nelr)]);
    };
    for (int it = 0; it < iterations_; ++it) {
      old = var;
      for (int64_t i = 0; i < nelr; ++i) sf[size_t(i)] = step_factor_of(st(i), mesh_.areas[size_t(i)]);
      for (int j = 0; j < kRk; ++j) {
        for (int64_t i = 0; i < nelr; ++i) {
          const State si = st(i);
          const float speed_i = std::sqrt(si.speed_sqd);
          Flux f;
          for (int64_t k = 0; k < kNnb; ++k) {
            const int32_t nb = mesh_.nb[size_t(i + k * nelr)];
            const F3 n{mesh_.normals[size_t(i + (k + 0 * kNnb) * nelr)],
                       mesh_.normals[size_t(i + (k + 1 * kNnb) * nelr)],
                       mesh_.normals[size_t(i + (k + 2 * kNnb) * nelr)]};
            if (nb >= 0)
              add_interior(f, si, speed_i, st(nb), n);
            else if (nb == -1)
              add_wing(f, si, n);
            else if (nb == -2)
              add_far(f, si, ff_, n);
          }
          flx[size_t(i + kDensity * nelr)] = f.density;
          flx[size_t(i + (kMomentum + 0) * nelr)] = f.momentum.x;
          flx[size_t(i + (kMomentum + 1) * nelr)] = f.momentum.y;
          flx[size_t(i + (kMomentum + 2) * nelr)] = f.momentum.z;
          flx[size_t(i + kDensityEnergy * nelr)] = f.density_energy;
        }
        for (int64_t i = 0; i < nelr; ++i) {
          const float factor = sf[size_t(i)] / float(kRk + 1 - j);
          for (int64_t v : {kDensity, kDensityEnergy, kMomentum + 0, kMomentum + 1, kMomentum + 2})
            var[size_t(i + v * nelr)] = old[size_t(i + v * nelr)] + factor * flx[size_t(i + v * nelr)];
        }
      }
    }
    // Relative tolerance 1e-5: the kernels and this reference share the arithmetic functions (equal at -O2);
    // the margin covers a compiler contracting them into FMAs differently (-march=native builds).
    auto cmp = [](const char* what, const std::vector<float>& want,
                  const std::vector<float>& got) -> std::string {
      for (size_t k = 0; k < want.size(); ++k)
        if (!(std::abs(got[k] - want[k]) <= 1e-5f * std::max(1.0f, std::abs(want[k]))))
          return std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(got[k]) +
                 ", expected " + std::to_string(want[k]);
      return "";
    };
    std::string e = cmp("variables", var, variables_.host());
    if (e.empty()) e = cmp("fluxes", flx, fluxes_.host());
    if (e.empty()) e = cmp("step_factors", sf, step_factors_.host());
    return e;
  }

 private:
  Dim3 grid() const { return {uint32_t(mesh_.nelr / kBlock), 1, 1}; }

  KernelLaunch initialize(DeviceArray<float>& a) {
    KernelLaunch k{"cuda_initialize_variables", grid(), {uint32_t(kBlock), 1, 1}, kRegsInit, 0, {}};
    k.body = [this, &a](Warp& w) {
      const Int i = w.global_x();
      for (int64_t j = 0; j < kNvar; ++j) {
        w.compute(kGapInit[j]);
        w.store(0x10 + 0x10 * uint32_t(j), a, i + j * mesh_.nelr, ff_.var[j]);
      }
    };
    return k;
  }

  // The element's five variables (lanes of i): loads in the source's order.
  std::array<Float, kNvar> load_state(Warp& w, const Int& i, uint32_t pc, const uint32_t* gaps) {
    const int64_t nelr = mesh_.nelr;
    std::array<Float, kNvar> v;
    for (int64_t s = 0; s < kNvar; ++s) {
      w.compute(gaps[s]);
      v[size_t(s)] = w.load(pc + 0x10 * uint32_t(s), variables_, i + s * nelr);
    }
    return v;
  }

  static State lane_state(const std::array<Float, kNvar>& v, unsigned l) {
    return state_of(v[kDensity][l], {v[kMomentum][l], v[kMomentum + 1][l], v[kMomentum + 2][l]},
                    v[kDensityEnergy][l]);
  }
  static RegSet deps_of(const std::array<Float, kNvar>& v) {
    RegSet d;
    for (const auto& x : v) d |= x.deps;
    return d;
  }

  KernelLaunch step_factor() {
    KernelLaunch k{"cuda_compute_step_factor", grid(), {uint32_t(kBlock), 1, 1}, kRegsStep, 0, {}};
    k.body = [this](Warp& w) {
      const Int i = w.global_x();
      const auto v = load_state(w, i, 0x110, kGapStep);
      w.compute(kGapStepArea);
      const Float area = w.load(0x160, areas_, i);
      Float out;
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        out[l] = step_factor_of(lane_state(v, l), area[l]);
      }
      out.deps = deps_of(v);
      out.deps |= area.deps;
      w.compute(kGapStepStore);
      w.store(0x170, step_factors_, i, out);
    };
    return k;
  }

  KernelLaunch flux() {
    KernelLaunch k{"cuda_compute_flux", grid(), {uint32_t(kBlock), 1, 1}, kRegsFlux, 0, {}};
    k.body = [this](Warp& w) {
      const int64_t nelr = mesh_.nelr;
      const Int i = w.global_x();
      const auto vi = load_state(w, i, 0x210, kGapFluxI);
      std::array<State, kWarpSize> si;
      std::array<float, kWarpSize> speed_i;
      std::array<Flux, kWarpSize> f;
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        si[l] = lane_state(vi, l);
        speed_i[l] = std::sqrt(si[l].speed_sqd);
      }
      RegSet acc = deps_of(vi);
      for (int64_t j = 0; j < kNnb; ++j) {
        const uint32_t pc = 0x260 + 0x100 * uint32_t(j);
        w.compute(j == 0 ? kGapFluxNb0 : 0);  // later faces: the previous face's join gap
        const Int nb = w.load(pc, ese_, i + j * nelr).as<int64_t>();
        w.compute(j == 0 ? kGapFluxNormal0 : kGapFluxNormal);
        const Float nx = w.load(pc + 0x10, normals_, i + (j + 0 * kNnb) * nelr);
        w.compute(kGapFluxNormalYZ[0]);
        const Float ny = w.load(pc + 0x20, normals_, i + (j + 1 * kNnb) * nelr);
        w.compute(kGapFluxNormalYZ[1]);
        const Float nz = w.load(pc + 0x30, normals_, i + (j + 2 * kNnb) * nelr);
        acc |= nx.deps;
        acc |= ny.deps;
        acc |= nz.deps;
        acc |= nb.deps;
        auto normal = [&](unsigned l) { return F3{nx[l], ny[l], nz[l]}; };
        w.compute(kGapFluxBranch);
        w.if_else(
            nb >= int64_t(0),
            [&] {
              w.compute(j == 0 ? kGapFluxNbState0 : kGapFluxNbState);
              std::array<Float, kNvar> vn;
              vn[0] = w.load(pc + 0x40, variables_, nb + kDensity * nelr);
              for (int64_t s = 1; s < kNvar; ++s) {
                w.compute(kGapFluxNbVar[s - 1]);
                vn[size_t(s)] = w.load(pc + 0x40 + 0x10 * uint32_t(s), variables_, nb + s * nelr);
              }
              for (uint32_t b = w.active(); b; b &= b - 1) {
                const unsigned l = unsigned(__builtin_ctz(b));
                add_interior(f[l], si[l], speed_i[l], lane_state(vn, l), normal(l));
              }
              acc |= deps_of(vn);
              w.compute(kGapFluxInterior);
            },
            [&] {
              w.compute(kGapFluxBoundary);
              w.if_else(
                  nb == int64_t(-1),
                  [&] {
                    w.compute(kGapFluxWing);
                    for (uint32_t b = w.active(); b; b &= b - 1) {
                      const unsigned l = unsigned(__builtin_ctz(b));
                      add_wing(f[l], si[l], normal(l));
                    }
                  },
                  [&] {
                    w.compute(kGapFluxNotWing);
                    w.if_(nb == int64_t(-2), [&] {
                      w.compute(kGapFluxFar);
                      for (uint32_t b = w.active(); b; b &= b - 1) {
                        const unsigned l = unsigned(__builtin_ctz(b));
                        add_far(f[l], si[l], ff_, normal(l));
                      }
                    });
                  });
            });
        w.compute(kGapFluxJoin[j]);
      }
      Float out[kNvar];
      for (uint32_t b = w.active(); b; b &= b - 1) {
        const unsigned l = unsigned(__builtin_ctz(b));
        out[kDensity][l] = f[l].density;
        out[kMomentum + 0][l] = f[l].momentum.x;
        out[kMomentum + 1][l] = f[l].momentum.y;
        out[kMomentum + 2][l] = f[l].momentum.z;
        out[kDensityEnergy][l] = f[l].density_energy;
      }
      for (int64_t s = 0; s < kNvar; ++s) {
        out[s].deps = acc;
        w.compute(kGapFluxStore[s]);
        w.store(0x660 + 0x10 * uint32_t(s), fluxes_, i + s * nelr, out[s]);
      }
    };
    return k;
  }

  KernelLaunch time_step(int j) {
    KernelLaunch k{"cuda_time_step", grid(), {uint32_t(kBlock), 1, 1}, kRegsTime, 0, {}};
    k.body = [this, j](Warp& w) {
      const int64_t nelr = mesh_.nelr;
      const Int i = w.global_x();
      w.compute(kGapTimeFactor);
      const Float factor = w.load(0x710, step_factors_, i) / float(kRk + 1 - j);
      uint32_t pc = 0x720;
      int n = 0;
      for (int64_t v : {kDensity, kDensityEnergy, kMomentum + 0, kMomentum + 1, kMomentum + 2}) {
        w.compute(kGapTimeOld[n++]);
        const Float old = w.load(pc, old_variables_, i + v * nelr);
        w.compute(kGapTimeFlux);
        const Float fl = w.load(pc + 0x10, fluxes_, i + v * nelr);
        w.compute(kGapTimeStore);
        w.store(pc + 0x20, variables_, i + v * nelr, old + factor * fl);
        pc += 0x30;
      }
    };
    return k;
  }

  int64_t nel_, window_;
  int iterations_;
  CfdMesh mesh_;
  Far ff_{};
  DeviceArray<float> areas_, normals_, variables_, old_variables_, fluxes_, step_factors_;
  DeviceArray<int32_t> ese_;
};

}  // namespace

void register_rodinia_cfd(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/cfd";
  p.suite = "Rodinia 3.1";
  p.source = "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/cfd/euler3d.cu @ 9c10d3e";
  p.input =
      "Rodinia's run: fvcorr.domn.097K (97,046 tetrahedra, nelr 97,152), 2000 iterations (12.2 MiB in seven "
      "arrays). Default here: a generated mesh of the same element count (seeded; Kuhn tetrahedra of a box "
      "around a plate wing, cube-ordered numbering shuffled in windows of 1024 elements; see cfd.cpp) and 3 "
      "iterations: the same footprint (16x the fermi LLC), every iteration streams it, 1.80 M warp "
      "instructions instead of 1,200 M";
  p.papers = "TSC/TSC+ (000, cfd), G-Cache (001, CFD), Decoupled L1D (002, CFD)";
  p.kernels = "cuda_initialize_variables, cuda_compute_step_factor, cuda_compute_flux, cuda_time_step";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t elements = s.get_uint("elements", 97046, 64, 4000000);
    const uint64_t window = s.get_uint("window", 1024, 1, 1000000);
    const uint64_t iters = s.get_uint("iterations", 3, 1, 2000);
    return std::make_unique<Cfd>(int64_t(elements), int64_t(window), int(iters));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
