// Mars PageViewCount (PVC): distinct page views from a web log of <URL, IP, cookie> lines, as
// sample_apps/PageViewCount/main.cu runs it: the log's lines ('\n' made '\0') are uploaded and every line is
// a map record (key {file_buf, entry_offset, entry_hash}, value {entry_size, phase = 0}). MapReduce 1
// (MAP_REDUCE) removes duplicate lines: map hashes the line (hash_func over entry_size bytes), the group
// sorts by (hash, line) and reduce emits each group's first record with phase = 1. MapReduce 2 (MAP_GROUP)
// takes those records as its input: map cuts the URL and the IP out of the line ('\t' made '\0'), keys the
// record by the URL's hash and emits the IP's offset; the group sorts by (URL hash, URL), so each URL's group
// holds its distinct views. Input: BIN_TMPL/GenWebLogSrc's "count" log, `http://www.abcdefg.com/<rand%1024>
// .html\t<a>.<b>.<c>.<d>\t<rand%1000>` (rand() replaced by a seeded splitmix64).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tb/kernels/mars/mars_runtime.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using namespace mars;

// ptxas -v (sm_75) of PageViewCount's MarsLib.cu / MarsSort.cu (MarsRegs' order).
constexpr MarsRegs kRegs = {20, 49, 18, 36, 28, 20, 18};

constexpr int kKeySize = 16;  // PVC_KEY_T {char* file_buf; int entry_offset; int entry_hash;}
constexpr int kValSize = 8;   // PVC_VAL_T {int entry_size; int phase;}

class PageViewCount : public MarsPort {
 public:
  PageViewCount(uint32_t records, uint32_t urls, uint64_t seed)
      : MarsPort(kRegs), records_(records), urls_(urls), seed_(seed) {
    app_.map_count = [this](MapTask& t, Warp& w, const Int& i) { map_count(t, w, i); };
    app_.map = [this](MapTask& t, Warp& w, const Int& i) { map(t, w, i); };
    // compare(): by entry_hash, then the entries' strings.
    app_.compare = [this](Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc) {
      return compare_hash_string(w, keys, a, b, pc, file_);
    };
    app_.reduce_count = [](ReduceTask& t, Warp& w, const Int&) {
      t.emit_count(w, kKeySize, kValSize, 0x1900);
    };
    app_.reduce = [](ReduceTask& t, Warp& w, const Int& c) {
      const Int start = t.ranges.ld<int32_t>(w, 0x1a00, c * int64_t(8)).as<int64_t>();
      w.compute(2);
      const Lanes<I4> o = t.offsets.ld<I4>(w, 0x1a10, start * int64_t(16));
      const Int key = field<int64_t>(o, [](const I4& v) { return v.x; });
      const Int vals = field<int64_t>(o, [](const I4& v) { return v.z; });
      w.compute(5);
      t.vals.st<int32_t>(w, 0x1a20, vals + int64_t(4), Int(1));  // pVal->phase = 1
      t.emit_reduce(w, Src{&t.keys, key}, Src{&t.vals, vals}, kKeySize, kValSize, 0x20000);
    };
  }

  void generate() override {
    // GenWebLogSrc "count": one line a record.
    uint64_t s = seed_;
    text_.clear();
    for (uint32_t i = 0; i < records_; ++i) {
      const uint64_t url = splitmix(s) % urls_;
      const uint64_t a = splitmix(s) % 256, b = splitmix(s) % 256, c = splitmix(s) % 256,
                     d = splitmix(s) % 256;
      const uint64_t cookie = splitmix(s) % 1000;
      text_ += "http://www.abcdefg.com/" + std::to_string(url) + ".html\t" + std::to_string(a) + "." +
               std::to_string(b) + "." + std::to_string(c) + "." + std::to_string(d) + "\t" +
               std::to_string(cookie) + "\n";
    }
  }

  std::string check() const override {
    // Reference: the distinct lines, and per URL the number of distinct lines.
    std::set<std::string> lines;
    std::map<std::string, int> per_url;
    for (size_t p = 0; p < text_.size();) {
      const size_t e = text_.find('\n', p);
      const std::string line = text_.substr(p, e - p);
      if (lines.insert(line).second) ++per_url[line.substr(0, line.find('\t'))];
      p = e + 1;
    }
    if (distinct_ != int(lines.size()))
      return "MapReduce 1: " + std::to_string(distinct_) + " distinct lines, expected " +
             std::to_string(lines.size());
    if (groups_ != int(per_url.size()))
      return std::to_string(groups_) + " URL groups, expected " + std::to_string(per_url.size());
    std::set<std::string> seen;
    for (int g = 0; g < groups_; ++g) {
      const I2 r = range_[size_t(g)];
      std::string url0;
      for (int m = r.x; m < r.y; ++m) {
        const I4 o = offsets_[size_t(m)];
        const int eo = keys_.get<int32_t>(size_t(o.x) + 8);
        const std::string url(reinterpret_cast<const char*>(file_.host().data()) + eo);
        if (m == r.x) url0 = url;
        if (url != url0) return "group " + std::to_string(g) + " mixes " + url0 + " and " + url;
        const int ip = vals_.get<int32_t>(size_t(o.z));
        if (ip != eo + int(url.size()) + 1)
          return "group " + std::to_string(g) + " member " + std::to_string(m) + ": IP offset " +
                 std::to_string(ip);
      }
      auto it = per_url.find(url0);
      if (it == per_url.end() || !seen.insert(url0).second)
        return "group " + std::to_string(g) + ": unexpected URL " + url0;
      if (it->second != r.y - r.x)
        return url0 + ": " + std::to_string(r.y - r.x) + " views, expected " + std::to_string(it->second);
    }
    return "";
  }

 private:
  // main.cu: the log uploaded, two MapReduces.
  void flow(Launcher& host) override {
    Runtime rt(plan_, host, app_);
    const int file_size = int(text_.size()) + 1;
    file_ = rt.alloc("d_filebuf", size_t(file_size));
    std::vector<uint8_t>& fb = file_.host();
    std::copy(text_.begin(), text_.end(), fb.begin());
    fb[size_t(file_size - 1)] = '\n';
    Spec s;
    for (int cur = 0, p = 0;;) {
      const int start = p;
      while (fb[size_t(p)] != '\n') ++p;
      fb[size_t(p)] = '\0';
      ++p;
      const int size = p - start;
      const int offset = cur;
      cur += size;
      if (cur >= file_size) break;
      uint8_t key[kKeySize] = {}, val[kValSize] = {};
      const uint64_t ptr = file_.base();
      std::memcpy(key, &ptr, 8);
      std::memcpy(key + 8, &offset, 4);
      std::memcpy(val, &size, 4);
      s.add_input(key, kKeySize, val, kValSize);
    }
    s.workflow = MAP_REDUCE;
    rt.map_reduce(s);
    distinct_ = s.out_records;
    Spec s2;
    s2.in_keys.assign(s.out_keys.host().begin(), s.out_keys.host().begin() + s.out_all_key);
    s2.in_vals.assign(s.out_vals.host().begin(), s.out_vals.host().begin() + s.out_all_val);
    s2.in_offsets.resize(size_t(s.out_records));
    std::memcpy(s2.in_offsets.data(), s.out_offsets.host().data(), sizeof(I4) * size_t(s.out_records));
    s2.workflow = MAP_GROUP;
    rt.map_reduce(s2);
    keep_output(s2);
  }

  // The entry's byte offset in the log: key->file_buf + key->entry_offset.
  Int entry_of(const Lanes<int64_t>& ptr, const Int& off) const { return ptr - int64_t(file_.base()) + off; }

  void map_count(MapTask& t, Warp& w, const Int& i) {
    const Int val = t.offsets.ld<int32_t>(w, 0x1800, i * int64_t(16) + int64_t(8)).as<int64_t>();
    w.compute(1);
    const Int phase = t.vals.ld<int32_t>(w, 0x1810, val + int64_t(4)).as<int64_t>();
    w.compute(1);
    // EmitInterCount(sizeof key, phase == 0 ? sizeof val : sizeof(int)): the sizes are selects.
    Int vs = select<int64_t>(phase == int64_t(0), int64_t(kValSize), int64_t(4));
    const Int at = t.index * int64_t(4);
    t.size_k.st<int32_t>(w, 0x1830, at,
                         t.size_k.ld<int32_t>(w, 0x1820, at).as<int64_t>() + int64_t(kKeySize));
    w.compute(1);
    t.size_v.st<int32_t>(w, 0x1850, at, t.size_v.ld<int32_t>(w, 0x1840, at).as<int64_t>() + vs);
    t.count.st<int32_t>(w, 0x1870, at, t.count.ld<int32_t>(w, 0x1860, at).as<int64_t>() + int64_t(1));
    w.compute(2);
  }

  void map(MapTask& t, Warp& w, const Int& i) {
    const Lanes<I4> o = t.offsets.ld<I4>(w, 0x1000, i * int64_t(16));
    const Int key = field<int64_t>(o, [](const I4& v) { return v.x; });
    const Int val = field<int64_t>(o, [](const I4& v) { return v.z; });
    w.compute(4);
    const Lanes<int64_t> fptr = t.keys.ld<int64_t>(w, 0x1010, key);
    w.compute(1);
    const Int eo = t.keys.ld<int32_t>(w, 0x1020, key + int64_t(8)).as<int64_t>();
    w.compute(1);
    const Int phase = t.vals.ld<int32_t>(w, 0x1030, val + int64_t(4)).as<int64_t>();
    w.compute(1);
    const Int entry = entry_of(fptr, eo);
    w.if_else(
        phase != int64_t(0),
        [&] {  // phase 1: the URL and the IP cut out of the line
          Int p = entry, url_size = 1;
          Int c = file_.ld<uint8_t>(w, 0x1040, p).as<int64_t>();
          w.compute(3);
          w.while_([&] { return c != int64_t('\t'); },
                   [&] {
                     w.compute(4);
                     assign(w, p, p + int64_t(1));
                     assign(w, url_size, url_size + int64_t(1));
                     assign(w, c, file_.ld<uint8_t>(w, 0x1050, p).as<int64_t>());
                     w.compute(2);
                   });
          w.compute(1);
          file_.st<uint8_t>(w, 0x1060, p, Int(0));
          const Int eo2 = t.keys.ld<int32_t>(w, 0x1070, key + int64_t(8)).as<int64_t>();
          const Int ip_offset = eo2 + url_size;
          Int c2 = 0;
          w.while_(
              [&] {
                w.compute(2);
                assign(w, c2, file_.ld<uint8_t>(w, 0x1080, p).as<int64_t>());
                w.compute(2);
                return c2 != int64_t('\t');
              },
              [&] { assign(w, p, p + int64_t(1)); });
          w.compute(1);
          file_.st<uint8_t>(w, 0x1090, p, Int(0));
          t.shared_put(w, 0, ip_offset);
          w.compute(3);
          const Int h = hash_lanes(w, file_, entry, url_size, 0x10a0);
          t.keys.st<int32_t>(w, 0x1110, key + int64_t(12), h);
          t.emit(w, Src{&t.keys, key}, Src{nullptr, Int(0)}, kKeySize, 4, 0x10000);
        },
        [&] {  // phase 0: the whole line hashed
          const Int size = t.vals.ld<int32_t>(w, 0x1200, val).as<int64_t>();
          w.compute(1);
          const Int h = hash_lanes(w, file_, entry, size, 0x1210);
          t.keys.st<int32_t>(w, 0x1280, key + int64_t(12), h);
          t.emit(w, Src{&t.keys, key}, Src{&t.vals, val}, kKeySize, kValSize, 0x11000);
        });
  }

  uint32_t records_, urls_;
  uint64_t seed_;
  std::string text_;
  Buf file_;
  int distinct_ = 0;
};

}  // namespace

void register_mars_pvc(PortRegistry& r) {
  PortInfo p;
  p.name = "mars/pvc";
  p.suite = "Mars (MapReduce on GPUs)";
  p.source =
      "Mars 2009 release (HKUST), github emc2314/Graph500 imp/GraphGPU/src/Mars/sample_apps/PageViewCount "
      "(main.cu r738, MarsLib.cu, MarsSort.cu, MarsScan.cu r720) + BIN_TMPL/GenWebLogSrc/main.c";
  p.input =
      "GenWebLogSrc 'count' log of `records` lines over `urls` pages (1024, the generator's). run.sh: "
      "1,000,000 "
      "lines (~48 MB log, 10^6-record sorts of 210 bitonic launches each, far past a minute of simulation); "
      "default 16,384 lines (~790 KB log, about Fermi's 768 KB L2 and 49x its 16 KB L1; two 16,384-record "
      "sorts of 105 bitonicKernel launches each, 2.06 M warp memory instructions)";
  p.papers = "001 (PVC)";
  p.kernels = std::string(mars::kMapGroupKernels) + ", ReducerCount, Reducer";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t records = s.get_uint("records", 16384, 2, 200000);
    const uint64_t urls = s.get_uint("urls", 1024, 1, 1u << 20);
    const uint64_t seed = s.get_uint("seed", 1, 0, ~uint64_t(0) >> 1);
    return std::make_unique<PageViewCount>(uint32_t(records), uint32_t(urls), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
