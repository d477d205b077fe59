// Mars PageViewRank (PVR): a web log of <URL, rank> lines sorted by rank, as
// sample_apps/PageViewRank/main.cu runs it: the host parses every line (rank = atoi of the field after the
// tab) into a map record {key: rank, value: the line's offset}; one MapReduce, MAP_GROUP: map copies key and
// value through its shared output buffer into the intermediate records, the group sorts them by rank,
// descending (compare() returns -1 for the larger rank), and finds the equal-rank groups. No reduce. The log
// itself never goes to the GPU. Input: BIN_TMPL/GenWebLogSrc's "rank" log,
// `http://www.abcdefg.com/<rand%1024>.html\t<rand>` (rand() replaced by a seeded splitmix64, 31 bits).
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tb/kernels/mars/mars_runtime.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using namespace mars;

// ptxas -v (sm_75) of PageViewRank's MarsLib.cu / MarsSort.cu (MarsRegs' order).
constexpr MarsRegs kRegs = {18, 42, 8, 14, 20, 26, 12};

class PageViewRank : public MarsPort {
 public:
  PageViewRank(uint32_t records, uint64_t ranks, uint64_t seed)
      : MarsPort(kRegs), records_(records), ranks_(ranks), seed_(seed) {
    app_.map_count = [](MapTask& t, Warp& w, const Int&) { t.emit_count(w, 4, 4, 0x1800); };
    app_.map = [](MapTask& t, Warp& w, const Int& i) {
      const Lanes<I4> o = t.offsets.ld<I4>(w, 0x1000, i * int64_t(16));
      w.compute(4);
      const Int rank =
          t.keys.ld<int32_t>(w, 0x1010, field<int64_t>(o, [](const I4& v) { return v.x; })).as<int64_t>();
      t.shared_put(w, 0, rank);
      const Int offset =
          t.vals.ld<int32_t>(w, 0x1020, field<int64_t>(o, [](const I4& v) { return v.z; })).as<int64_t>();
      t.shared_put(w, 4, offset);
      t.emit(w, Src{nullptr, Int(0)}, Src{nullptr, Int(4)}, 4, 4, 0x10000);
    };
    // compare(): the larger rank first.
    app_.compare = [](Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc) {
      const Int h1 = keys.ld<int32_t>(w, pc, a).as<int64_t>();
      const Int h2 = keys.ld<int32_t>(w, pc + 0x4, b).as<int64_t>();
      w.compute(5);
      return select<int64_t>(h1 > h2, int64_t(-1), select<int64_t>(h1 < h2, int64_t(1), int64_t(0)));
    };
  }

  void generate() override {
    uint64_t s = seed_;
    text_.clear();
    for (uint32_t i = 0; i < records_; ++i) {
      const uint64_t url = splitmix(s) % 1024, rank = splitmix(s) % ranks_;
      text_ += "http://www.abcdefg.com/" + std::to_string(url) + ".html\t" + std::to_string(rank) + "\n";
    }
  }

  std::string check() const override {
    // Reference: (rank, offset) of every line, sorted by rank descending; groups of equal rank.
    std::vector<std::pair<int, int>> want;
    for (size_t p = 0; p < text_.size();) {
      const size_t e = text_.find('\n', p), tab = text_.find('\t', p);
      want.emplace_back(std::stoi(text_.substr(tab + 1, e - tab - 1)), int(p));
      p = e + 1;
    }
    std::map<int, int, std::greater<int>> per_rank;
    for (const auto& [r, o] : want) ++per_rank[r];
    if (records_out_ != int(want.size()))
      return std::to_string(records_out_) + " records, expected " + std::to_string(want.size());
    if (groups_ != int(per_rank.size()))
      return std::to_string(groups_) + " rank groups, expected " + std::to_string(per_rank.size());
    std::vector<std::pair<int, int>> got;
    for (int i = 0; i < records_out_; ++i) {
      const I4 o = offsets_[size_t(i)];
      got.emplace_back(keys_.get<int32_t>(size_t(o.x)), vals_.get<int32_t>(size_t(o.z)));
      if (i > 0 && got[size_t(i)].first > got[size_t(i) - 1].first)
        return "record " + std::to_string(i) + ": rank " + std::to_string(got[size_t(i)].first) + " after " +
               std::to_string(got[size_t(i) - 1].first);
    }
    auto it = per_rank.begin();
    for (int g = 0; g < groups_; ++g, ++it) {
      const I2 r = range_[size_t(g)];
      if (got[size_t(r.x)].first != it->first || r.y - r.x != it->second)
        return "group " + std::to_string(g) + ": rank " + std::to_string(got[size_t(r.x)].first) + " x " +
               std::to_string(r.y - r.x) + ", expected " + std::to_string(it->first) + " x " +
               std::to_string(it->second);
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    if (got != want) return "the (rank, offset) records differ from the log's";
    return "";
  }

 private:
  void flow(Launcher& host) override {
    Runtime rt(plan_, host, app_);
    Spec s;
    s.workflow = MAP_GROUP;
    int offset = 0;
    for (size_t p = 0; p < text_.size();) {
      const size_t e = text_.find('\n', p), tab = text_.find('\t', p);
      const int rank = std::stoi(text_.substr(tab + 1, e - tab - 1));
      s.add_input(&rank, 4, &offset, 4);
      offset += int(e + 1 - p);
      p = e + 1;
    }
    rt.map_reduce(s);
    records_out_ = s.out_records;
    keep_output(s);
  }

  uint32_t records_;
  uint64_t ranks_, seed_;
  std::string text_;
  int records_out_ = 0;
};

}  // namespace

void register_mars_pvr(PortRegistry& r) {
  PortInfo p;
  p.name = "mars/pvr";
  p.suite = "Mars (MapReduce on GPUs)";
  p.source =
      "Mars 2009 release (HKUST), github emc2314/Graph500 imp/GraphGPU/src/Mars/sample_apps/PageViewRank "
      "(main.cu, MarsLib.cu, MarsSort.cu, MarsScan.cu r717) + BIN_TMPL/GenWebLogSrc/main.c";
  p.input =
      "GenWebLogSrc 'rank' log of `records` lines, ranks uniform below `ranks` (2^31, rand()'s range). "
      "run.sh: "
      "1,000,000 lines (16 MB of map input and intermediate records, a 2^20-record sort past the 256K "
      "records of the bitonicKernel path); default 65,536 lines (1 MB of intermediate index + 512 KB of "
      "records, 1.3x Fermi's 768 KB L2; one 65,536-record sort of 136 bitonicKernel launches)";
  p.papers = "001 (PVR)";
  p.kernels = mars::kMapGroupKernels;
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t records = s.get_uint("records", 65536, 2, 262144);
    const uint64_t ranks = s.get_uint("ranks", uint64_t(1) << 31, 1, uint64_t(1) << 31);
    const uint64_t seed = s.get_uint("seed", 1, 0, ~uint64_t(0) >> 1);
    return std::make_unique<PageViewRank>(uint32_t(records), ranks, seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
