// Mars SimilarityScore (SSC): the cosine similarity of every pair of documents' feature vectors, sorted, as
// sample_apps/SimilarityScore/main.cu runs it: a `docs` x `dims` float matrix (GenMatrix: rand() % 100) is
// uploaded, every pair (i < j) is a map record {key: the matrix pointer; value: {doc1, doc2, dim, 0}}; one
// MapReduce, MAP_GROUP: map reads both rows as float4s (nvcc unrolls the loop by 4), computes up /
// (sqrtf(|a|^2) * sqrtf(|b|^2)) and emits {key: the score, value: {doc1, doc2}} through its shared output
// buffer; the group sorts by score, descending (scores within 1e-7 compare equal), and finds the equal-score
// groups. No reduce. The matrix holds integers below 100, so every dot product and norm is an exact float
// and the scores are the reference's bit for bit (sqrtf and the division are correctly rounded on the GPU).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tb/kernels/mars/mars_runtime.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using namespace mars;

// ptxas -v (sm_75) of SimilarityScore's MarsLib.cu / MarsSort.cu (MarsRegs' order).
constexpr MarsRegs kRegs = {18, 66, 8, 14, 22, 21, 12};
constexpr float kSmall = 0.0000001f;

// The score of rows a and b, in map()'s operation order.
float score(const float* a, const float* b, int dim) {
  float up = 0, da = 0, db = 0;
  const int col4 = dim >> 2;
  for (int i = 0; i < col4; ++i) {
    const float* x = a + 4 * i;
    const float* y = b + 4 * i;
    up += (x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]);
    da += x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    db += y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3];
  }
  for (int i = col4 * 4; i < dim; ++i) {
    up += (a[i] * b[i]);
    da += (a[i] * a[i]);
    db += (b[i] * b[i]);
  }
  return up / (std::sqrt(da) * std::sqrt(db));
}

class SimilarityScore : public MarsPort {
 public:
  SimilarityScore(uint32_t docs, uint32_t dims, uint64_t seed)
      : MarsPort(kRegs), docs_(docs), dims_(dims), seed_(seed) {
    app_.map_count = [](MapTask& t, Warp& w, const Int&) { t.emit_count(w, 4, 8, 0x1800); };
    app_.map = [this](MapTask& t, Warp& w, const Int& i) { map(t, w, i); };
    app_.compare = [](Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc) {
      const Float x = keys.ld<float>(w, pc, a);
      const Float y = keys.ld<float>(w, pc + 0x4, b);
      w.compute(5);
      Int r;
      for (unsigned l = 0; l < kWarpSize; ++l)
        r.v[l] = std::fabs(x.v[l] - y.v[l]) < kSmall ? 0 : (x.v[l] < y.v[l] ? 1 : -1);
      r.deps = x.deps;
      r.deps |= y.deps;
      return r;
    };
  }

  void generate() override {
    uint64_t s = seed_;
    matrix_.resize(size_t(docs_) * dims_);
    for (float& x : matrix_) x = float(splitmix(s) % 100);
  }

  std::string check() const override {
    const int n = int(docs_);
    const int pairs = n * (n - 1) / 2;
    if (records_ != pairs) return std::to_string(records_) + " scores, expected " + std::to_string(pairs);
    std::vector<char> seen(size_t(n) * size_t(n), 0);
    float prev = 0;
    for (int i = 0; i < records_; ++i) {
      const I4 o = offsets_[size_t(i)];
      const float got = keys_.get<float>(size_t(o.x));
      const int d1 = vals_.get<int32_t>(size_t(o.z)), d2 = vals_.get<int32_t>(size_t(o.z) + 4);
      if (d1 < 0 || d2 <= d1 || d2 >= n || seen[size_t(d1) * size_t(n) + size_t(d2)]++)
        return "record " + std::to_string(i) + ": pair (" + std::to_string(d1) + ", " + std::to_string(d2) +
               ")";
      const float want = score(&matrix_[size_t(d1) * dims_], &matrix_[size_t(d2) * dims_], int(dims_));
      if (got != want)
        return "score of (" + std::to_string(d1) + ", " + std::to_string(d2) + ") = " + std::to_string(got) +
               ", expected " + std::to_string(want);
      if (i > 0 && got > prev + kSmall)
        return "record " + std::to_string(i) + ": score " + std::to_string(got) + " after " +
               std::to_string(prev);
      prev = got;
    }
    // Groups: consecutive ranges covering every record, each a run of scores equal within 1e-7.
    int next = 0;
    for (int g = 0; g < groups_; ++g) {
      const I2 r = range_[size_t(g)];
      if (r.x != next || r.y <= r.x)
        return "group " + std::to_string(g) + " starts at " + std::to_string(r.x);
      const float first = keys_.get<float>(size_t(offsets_[size_t(r.x)].x));
      for (int m = r.x + 1; m < r.y; ++m)
        if (std::fabs(keys_.get<float>(size_t(offsets_[size_t(m)].x)) -
                      keys_.get<float>(size_t(offsets_[size_t(m) - 1].x))) >= kSmall)
          return "group " + std::to_string(g) + " mixes scores " + std::to_string(first);
      if (r.y < records_ && std::fabs(keys_.get<float>(size_t(offsets_[size_t(r.y)].x)) -
                                      keys_.get<float>(size_t(offsets_[size_t(r.y) - 1].x))) < kSmall)
        return "group " + std::to_string(g) + " ends inside a run of equal scores";
      next = r.y;
    }
    if (next != records_) return "the groups cover " + std::to_string(next) + " records";
    return "";
  }

 private:
  void flow(Launcher& host) override {
    Runtime rt(plan_, host, app_);
    matrix_buf_ = rt.alloc("d_matrix", sizeof(float) * matrix_.size());
    std::memcpy(matrix_buf_.host().data(), matrix_.data(), sizeof(float) * matrix_.size());
    Spec s;
    s.workflow = MAP_GROUP;
    const uint64_t ptr = matrix_buf_.base();
    for (int i = 0; i < int(docs_); ++i)
      for (int j = i + 1; j < int(docs_); ++j) {
        int32_t val[4] = {i, j, int32_t(dims_), 0};
        s.add_input(&ptr, 8, val, 16);
      }
    rt.map_reduce(s);
    records_ = s.out_records;
    keep_output(s);
  }

  void map(MapTask& t, Warp& w, const Int& i) {
    const Lanes<I4> o = t.offsets.ld<I4>(w, 0x1000, i * int64_t(16));
    const Int key = field<int64_t>(o, [](const I4& v) { return v.x; });
    const Int val = field<int64_t>(o, [](const I4& v) { return v.z; });
    w.compute(4);
    const Lanes<int64_t> mptr = t.keys.ld<int64_t>(w, 0x1010, key);
    w.compute(1);
    const Int dim = t.vals.ld<int32_t>(w, 0x1020, val + int64_t(8)).as<int64_t>();
    const Int doc1 = t.vals.ld<int32_t>(w, 0x1030, val).as<int64_t>();
    w.compute(4);
    const Int doc2 = t.vals.ld<int32_t>(w, 0x1040, val + int64_t(4)).as<int64_t>();
    const Int m = mptr - int64_t(matrix_buf_.base());
    const Int a = m + doc1 * dim * int64_t(4), b = m + doc2 * dim * int64_t(4);
    const Int col4 = dim >> int64_t(2), rem = dim & int64_t(3);
    Float up = 0.0f, da = 0.0f, db = 0.0f;
    auto quad = [&](const Int& k, uint32_t pc) {  // one float4 of each row
      const Lanes<F4> x = matrix_buf_.ld<F4>(w, pc, a + k * int64_t(16));
      w.compute(1);
      const Lanes<F4> y = matrix_buf_.ld<F4>(w, pc + 0x4, b + k * int64_t(16));
      for (uint32_t bits = w.active(); bits; bits &= bits - 1) {
        const unsigned l = unsigned(__builtin_ctz(bits));
        const F4 p = x.v[l], q = y.v[l];
        up.v[l] += (p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w);
        da.v[l] += p.x * p.x + p.y * p.y + p.z * p.z + p.w * p.w;
        db.v[l] += q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
      }
      up.deps |= x.deps, up.deps |= y.deps, da.deps |= x.deps, db.deps |= y.deps;
      w.compute(15);
    };
    auto single = [&](const Int& k, uint32_t pc) {  // one float of each row (dim % 4 != 0)
      const Float x = matrix_buf_.ld<float>(w, pc, a + k * int64_t(4));
      const Float y = matrix_buf_.ld<float>(w, pc + 0x4, b + k * int64_t(4));
      for (uint32_t bits = w.active(); bits; bits &= bits - 1) {
        const unsigned l = unsigned(__builtin_ctz(bits));
        up.v[l] += (x.v[l] * y.v[l]);
        da.v[l] += (x.v[l] * x.v[l]);
        db.v[l] += (y.v[l] * y.v[l]);
      }
      up.deps |= x.deps, up.deps |= y.deps, da.deps |= x.deps, db.deps |= y.deps;
      w.compute(3);
    };
    w.compute(10);
    // for (i < col4): unrolled by 4, then the last col4 % 4 float4s.
    w.for_(0, col4 >> int64_t(2), 1, [&](const Int& q) {
      w.compute(5);
      for (int u = 0; u < 4; ++u) quad(q * int64_t(4) + int64_t(u), 0x1100 + 0x10 * uint32_t(u));
    });
    const Int done4 = (col4 >> int64_t(2)) * int64_t(4), left4 = col4 & int64_t(3);
    w.compute(1);
    w.if_(left4 > int64_t(0), [&] {
      quad(done4, 0x1200);
      w.if_(left4 > int64_t(1), [&] {
        quad(done4 + int64_t(1), 0x1210);
        w.if_(left4 > int64_t(2), [&] { quad(done4 + int64_t(2), 0x1220); });
      });
    });
    // for (i < remainder) over the floats after the float4s (remainder < 4: the tail of its unrolled loop).
    const Int tail = col4 * int64_t(4);
    w.compute(17);
    w.if_(rem > int64_t(0), [&] {
      single(tail, 0x1300);
      w.if_(rem > int64_t(1), [&] {
        single(tail + int64_t(1), 0x1310);
        w.if_(rem > int64_t(2), [&] { single(tail + int64_t(2), 0x1320); });
      });
    });
    Float result;
    for (unsigned l = 0; l < kWarpSize; ++l)
      result.v[l] = up.v[l] / (std::sqrt(da.v[l]) * std::sqrt(db.v[l]));
    result.deps = up.deps;
    result.deps |= da.deps;
    result.deps |= db.deps;
    w.compute(7);
    t.shared_put(w, 0, result);
    t.shared_put(w, 4, doc1);
    t.shared_put(w, 8, doc2);
    t.emit(w, Src{nullptr, Int(0)}, Src{nullptr, Int(4)}, 4, 8, 0x10000);
  }

  uint32_t docs_, dims_;
  uint64_t seed_;
  std::vector<float> matrix_;
  Buf matrix_buf_;
  int records_ = 0;
};

}  // namespace

void register_mars_ssc(PortRegistry& r) {
  PortInfo p;
  p.name = "mars/ssc";
  p.suite = "Mars (MapReduce on GPUs)";
  p.source =
      "Mars 2009 release (HKUST), github emc2314/Graph500 imp/GraphGPU/src/Mars/sample_apps/SimilarityScore "
      "(main.cu, MarsLib.cu, MarsSort.cu, MarsScan.cu r708)";
  p.input =
      "`docs` x `dims` float matrix (rand() % 100, a seeded splitmix64). run.sh: 1024 x 256 (1 MB matrix, "
      "523,776 pairs: a sort past the 256K records of the bitonicKernel path, 210 launches of 2^20 records); "
      "default 362 x 256 (362 KB matrix, 0.47x Fermi's 768 KB L2 and 23x its 16 KB L1; 65,341 pairs, 1.5 MB "
      "of map input, one 65,536-record sort of 136 bitonicKernel launches; 1.92 M warp memory insts), the "
      "largest whose pair count stays in the bitonicKernel path (docs <= 724)";
  p.papers = "001 (SSC)";
  p.kernels = mars::kMapGroupKernels;
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t docs = s.get_uint("docs", 362, 2, 724);
    const uint64_t dims = s.get_uint("dims", 256, 4, 4096);
    const uint64_t seed = s.get_uint("seed", 1, 0, ~uint64_t(0) >> 1);
    if (dims % 4 != 0)
      throw ConfigError("mars/ssc: dims (" + std::to_string(dims) +
                        ") must be a multiple of 4 (float4 rows)");
    return std::make_unique<SimilarityScore>(uint32_t(docs), uint32_t(dims), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
