// Mars InvertedIndex (IIX): for every link in a set of HTML files, the files that hold it, as
// sample_apps/InvertedIndex/main.cu runs it: each file is uploaded to its own buffer and cut into blocks of
// about 1 KB ending at a newline (made '\0'); a block is a map record {key: {file_buf, url_offset,
// url_hash}; value: {block_offset, block_size, file_id}}. One MapReduce, MAP_GROUP: map (and map_count,
// which only counts) scans its block byte by byte with the source's state machine (START, '<' IN_TAG, 'a'
// IN_ATAG, "href" FOUND_HREF, '"' START_LINK) and for each link ends the URL with '\0', hashes it
// (hash_func), stores url_offset and url_hash in its key and emits {key, file_id}; the group sorts by
// (url_hash, URL) and finds each URL's group of file ids. No reduce.
// Input: run.sh concatenates three sample pages (BIN_TMPL/II_BIN/sample/1-3.html, 20,338 / 3,747 / 3,854
// bytes with 41 / 17 / 20 href attributes, 39 / 16 / 12 of them in <a> tags) 1024 times each into three
// files (28 MB). Here three synthetic pages of those sizes and link counts (text, tag and <link href> lines,
// <a href="..."> lines over a per-page pool of URLs, some shared by all pages), seeded, each repeated
// `copies` times.
// Approximated: the IN_ATAG state's `char href[5]` lives in local memory (5 st.local.u8 and an ld.local.u8
// in the PTX); local memory is not modelled, those accesses are compute.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tb/kernels/mars/mars_runtime.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using namespace mars;

// ptxas -v (sm_75) of InvertedIndex's MarsLib.cu / MarsSort.cu (MarsRegs' order).
constexpr MarsRegs kRegs = {30, 59, 8, 14, 28, 20, 18};

constexpr int kKeySize = 16;  // II_KEY_T {char* file_buf; int url_offset; int url_hash;}
constexpr int kValSize = 12;  // II_VAL_T {int block_offset; int block_size; int file_id;}
enum State { kStart = 0, kInTag = 1, kInATag = 2, kFoundHref = 3, kStartLink = 4 };
// The three sample pages: bytes, <a href> links, other href attributes.
constexpr int kPageBytes[3] = {20338, 3747, 3854};
constexpr int kPageLinks[3] = {39, 16, 12};
constexpr int kPageOtherHrefs[3] = {2, 1, 8};

// A synthetic page of `bytes` bytes with `links` <a href> lines and `others` <link href> lines.
std::string make_page(int page, int bytes, int links, int others, uint64_t& s) {
  static const char* kWords[] = {"alumni", "events",  "the",     "university", "news",  "and",    "of",
                                 "career", "network", "members", "campus",     "login", "online", "services"};
  std::vector<std::string> pool;
  for (int u = 0; u < 6; ++u)
    pool.push_back("http://www.site.edu/common/" + std::to_string(u) + "/index.html");
  for (int u = 0; u < links; ++u)
    pool.push_back("http://www.page" + std::to_string(page) + ".edu/section" + std::to_string(u % 7) +
                   "/item" + std::to_string(u) + ".cfm");
  std::vector<int> kind;  // 0 text, 1 <a href>, 2 <link href>, 3 other tag
  const int lines = bytes / 53;
  for (int l = 0; l < lines; ++l) kind.push_back(l % 3 == 0 ? 3 : 0);
  for (int a = 0; a < links; ++a) kind[size_t(splitmix(s) % uint64_t(lines))] = 1;
  for (int a = 0; a < others; ++a) kind[size_t(splitmix(s) % uint64_t(lines))] = 2;
  std::string out = "<html>\n";
  for (int l = 0; l < lines && int(out.size()) < bytes; ++l) {
    std::string line;
    switch (kind[size_t(l)]) {
      case 1:
        line = "<a href=\"" + pool[size_t(splitmix(s) % pool.size())] + "\">" + kWords[splitmix(s) % 14] +
               "</a>";
        break;
      case 2:
        line = "<link href=\"http://www.site.edu/style" + std::to_string(splitmix(s) % 4) +
               ".css\" rel=\"stylesheet\" type=\"text/css\">";
        break;
      case 3:
        line = "<td class=\"c" + std::to_string(splitmix(s) % 9) + "\" width=\"" +
               std::to_string(splitmix(s) % 600) + "\"><img src=\"/img/" + std::to_string(splitmix(s) % 50) +
               ".gif\"></td>";
        break;
      default:
        for (int w = 0; w < 8; ++w) line += std::string(kWords[splitmix(s) % 14]) + " ";
        break;
    }
    out += line + "\n";
  }
  while (int(out.size()) < bytes - 8) out += "<p> </p>\n";
  out += "</html>\n";
  return out;
}

class InvertedIndex : public MarsPort {
 public:
  InvertedIndex(uint32_t copies, uint64_t seed) : MarsPort(kRegs), copies_(copies), seed_(seed) {
    app_.map_count = [this](MapTask& t, Warp& w, const Int& i) { scan(t, w, i, false); };
    app_.map = [this](MapTask& t, Warp& w, const Int& i) { scan(t, w, i, true); };
    // compare(): by url_hash, then the URLs.
    app_.compare = [this](Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc) {
      return compare_hash_string(w, keys, a, b, pc, files_);
    };
  }

  void generate() override {
    uint64_t s = seed_;
    text_.clear();
    for (int f = 0; f < 3; ++f) {
      const std::string page = make_page(f, kPageBytes[f], kPageLinks[f], kPageOtherHrefs[f], s);
      std::string file;
      for (uint32_t c = 0; c < copies_; ++c) file += page;
      text_.push_back(std::move(file));
    }
  }

  std::string check() const override {
    // Reference: the same blocks and state machine, sequentially; URL -> file ids, one per occurrence.
    std::map<std::string, std::vector<int>> want;
    for (int f = 0; f < 3; ++f) {
      std::vector<uint8_t> d(text_[size_t(f)].begin(), text_[size_t(f)].end());
      d.push_back(0);
      for (const auto& [off, size] : blocks(d)) {
        int state = kStart;
        for (int j = 0; j < size; ++j) {
          const uint8_t* buf = d.data() + off;
          switch (state) {
            case kStart:
              if (buf[j] == '<') state = kInTag;
              break;
            case kInTag:
              state = buf[j] == 'a' ? kInATag : buf[j] == ' ' ? kInTag : kStart;
              break;
            case kInATag:
              if (buf[j] == 'h') {
                int x = 0;
                for (; x < 5; ++x)
                  if ("href"[x] != buf[j + x]) break;
                if (x == 4) {
                  state = kFoundHref;
                  j += 3;
                } else {
                  state = kStart;
                }
              } else if (buf[j] != ' ') {
                state = kStart;
              }
              break;
            case kFoundHref:
              state = (buf[j] == ' ' || buf[j] == '=') ? kFoundHref : buf[j] == '"' ? kStartLink : kStart;
              break;
            default: {
              int e = j;
              while (buf[e] != '"') ++e;
              want[std::string(reinterpret_cast<const char*>(buf) + j, size_t(e - j))].push_back(f);
              j = e;
              state = kStart;
            }
          }
        }
      }
    }
    if (want.empty()) return "the input has no links";
    if (groups_ != int(want.size()))
      return std::to_string(groups_) + " URL groups, expected " + std::to_string(want.size());
    std::map<std::string, std::vector<int>> got;
    for (int g = 0; g < groups_; ++g) {
      const I2 r = range_[size_t(g)];
      std::string url0;
      std::vector<int> ids;
      for (int m = r.x; m < r.y; ++m) {
        const I4 o = offsets_[size_t(m)];
        const uint64_t ptr = keys_.get<uint64_t>(size_t(o.x));
        const int uo = keys_.get<int32_t>(size_t(o.x) + 8);
        const std::string url(reinterpret_cast<const char*>(files_.host().data()) + (ptr - files_.base()) +
                              size_t(uo));
        if (m == r.x) url0 = url;
        if (url != url0) return "group " + std::to_string(g) + " mixes " + url0 + " and " + url;
        ids.push_back(vals_.get<int32_t>(size_t(o.z)));
      }
      std::sort(ids.begin(), ids.end());
      if (!got.emplace(url0, ids).second) return "URL " + url0 + " in two groups";
    }
    for (const auto& [url, ids] : want) {
      auto it = got.find(url);
      if (it == got.end()) return "no group for " + url;
      if (it->second != ids)
        return url + ": " + std::to_string(it->second.size()) + " file ids, expected " +
               std::to_string(ids.size());
    }
    return "";
  }

 private:
  // main.cu's blocks of a file (`d` holds the file and its terminating '\0'): about 1 KB each, ending after
  // a newline (made '\0'), the last one the file's remainder. A read at d[size] (the source steps one past
  // its buffer there) is taken as '\0'.
  static std::vector<std::pair<int, int>> blocks(std::vector<uint8_t>& d) {
    std::vector<std::pair<int, int>> out;
    const int size = int(d.size());
    auto byte = [&](int p) { return p < size ? d[size_t(p)] : uint8_t(0); };
    int offset = 0, p = 0, start = 0;
    for (;;) {
      int block = 1024;
      if (offset + block > size) block = size - offset;
      p += block;
      while (byte(p) != '\n' && byte(p) != '\0') ++p;
      if (byte(p) != '\0') {
        d[size_t(p)] = '\0';
        ++p;
        block = p - start;
        out.emplace_back(offset, block);
        offset += block;
        start = p;
      } else {
        out.emplace_back(offset, size - offset);
        break;
      }
    }
    return out;
  }

  void flow(Launcher& host) override {
    Runtime rt(plan_, host, app_);
    Spec s;
    s.workflow = MAP_GROUP;
    std::vector<Buf> data;
    std::vector<std::vector<uint8_t>> host_data;
    for (int f = 0; f < 3; ++f) {
      std::vector<uint8_t> d(text_[size_t(f)].begin(), text_[size_t(f)].end());
      d.push_back(0);
      data.push_back(rt.alloc("data" + std::to_string(f), d.size()));
      for (const auto& [off, size] : blocks(d)) {
        uint8_t key[kKeySize] = {};
        const uint64_t ptr = data.back().base();
        std::memcpy(key, &ptr, 8);
        const int32_t val[3] = {off, size, f};
        s.add_input(key, kKeySize, val, kValSize);
      }
      host_data.push_back(std::move(d));
    }
    // The three buffers as one window (their accesses through one array; the gaps are never touched).
    const uint64_t lo = data.front().base(), hi = data.back().base() + data.back().size();
    files_ = Buf("data", lo, size_t(hi - lo));
    for (int f = 0; f < 3; ++f)
      std::copy(host_data[size_t(f)].begin(), host_data[size_t(f)].end(),
                files_.host().begin() + int64_t(data[size_t(f)].base() - lo));
    rt.map_reduce(s);
    keep_output(s);
  }

  // A file pointer plus an offset, as a byte offset in files_.
  Int at(const Lanes<int64_t>& ptr, const Int& off) const { return ptr - int64_t(files_.base()) + off; }

  // map_count / map: the block's state machine (the switch's cases are separate branches, each loading
  // buf[j] itself, in the PTX's order: START_LINK, IN_ATAG, FOUND_HREF, IN_TAG, START).
  void scan(MapTask& t, Warp& w, const Int& i, bool emit) {
    const uint32_t pc = emit ? 0x2000 : 0x1000;
    const Lanes<I4> o = t.offsets.ld<I4>(w, pc, i * int64_t(16));
    const Int key = field<int64_t>(o, [](const I4& v) { return v.x; });
    const Int val = field<int64_t>(o, [](const I4& v) { return v.z; });
    w.compute(4);
    const Lanes<int64_t> fptr = t.keys.ld<int64_t>(w, pc + 0x10, key);
    const Int block_offset = t.vals.ld<int32_t>(w, pc + 0x20, val).as<int64_t>();
    const Int size = t.vals.ld<int32_t>(w, pc + 0x30, val + int64_t(4)).as<int64_t>();
    const Int buf = at(fptr, block_offset);
    Int state = int64_t(kStart), j = 0;
    w.compute(1);
    w.while_(
        [&] { return j < size; },
        [&] {
          const Int st = state;
          w.compute(8);
          w.if_(st == int64_t(kStartLink), [&] {
            Int le = buf + j;
            Int c = files_.ld<uint8_t>(w, pc + 0x40, le).as<int64_t>();
            w.compute(2);
            w.while_([&] { return c != int64_t('"'); },
                     [&] {
                       assign(w, le, le + int64_t(1));
                       assign(w, c, files_.ld<uint8_t>(w, pc + 0x50, le).as<int64_t>());
                       w.compute(2);
                     });
            if (emit) {
              files_.st<uint8_t>(w, pc + 0x60, le, Int(0));
              w.compute(4);
              t.keys.st<int32_t>(w, pc + 0x70, key + int64_t(8), j + block_offset);
              w.compute(4);
              const Int h = hash_lanes(w, files_, buf + j, le - (buf + j), pc + 0x80);
              w.compute(5);
              t.keys.st<int32_t>(w, pc + 0x100, key + int64_t(12), h);
              t.emit(w, Src{&t.keys, key}, Src{&t.vals, val + int64_t(8)}, kKeySize, 4, 0x10000);
            } else {
              t.emit_count(w, kKeySize, 4, pc + 0x60);
            }
            w.compute(4);
            assign(w, j, le - buf);
            assign(w, state, Int(int64_t(kStart)));
          });
          w.if_(st == int64_t(kInATag), [&] {
            const Int c = files_.ld<uint8_t>(w, pc + 0x200, buf + j).as<int64_t>();
            w.compute(1);
            w.if_else(
                c == int64_t('h'),
                [&] {
                  w.compute(5);  // href[5] = "href": five st.local.u8 (local memory, not modelled)
                  Bool match = c == int64_t('h');
                  for (int x = 1; x < 4; ++x)
                    w.if_(match, [&] {
                      const Int cx =
                          files_.ld<uint8_t>(w, pc + 0x210 + 0x10 * uint32_t(x), buf + j + int64_t(x))
                              .as<int64_t>();
                      w.compute(2);
                      assign(w, match, cx == int64_t("href"[x]));
                    });
                  Bool found = Bool(false);
                  w.if_(match, [&] {
                    const Int c4 = files_.ld<uint8_t>(w, pc + 0x250, buf + j + int64_t(4)).as<int64_t>();
                    assign(w, found, c4 != int64_t(0));
                  });
                  w.compute(7);  // href[x] == '\0': ld.local.u8
                  assign(w, state, select<int64_t>(found, int64_t(kFoundHref), int64_t(kStart)));
                  assign(w, j, select<int64_t>(found, j + int64_t(3), j));
                },
                [&] {
                  w.compute(2);
                  assign(w, state, select<int64_t>(c == int64_t(' '), int64_t(kInATag), int64_t(kStart)));
                });
          });
          w.if_(st == int64_t(kFoundHref), [&] {
            const Int c = files_.ld<uint8_t>(w, pc + 0x300, buf + j).as<int64_t>();
            w.compute(5);
            assign(w, state,
                   select<int64_t>(c == int64_t(' ') || c == int64_t('='), int64_t(kFoundHref),
                                   select<int64_t>(c == int64_t('"'), int64_t(kStartLink), int64_t(kStart))));
          });
          w.if_(st == int64_t(kInTag), [&] {
            const Int c = files_.ld<uint8_t>(w, pc + 0x400, buf + j).as<int64_t>();
            w.compute(4);
            assign(w, state,
                   select<int64_t>(c == int64_t('a'), int64_t(kInATag),
                                   select<int64_t>(c == int64_t(' '), int64_t(kInTag), int64_t(kStart))));
          });
          w.if_(st == int64_t(kStart), [&] {
            const Int c = files_.ld<uint8_t>(w, pc + 0x500, buf + j).as<int64_t>();
            w.compute(2);
            assign(w, state, select<int64_t>(c == int64_t('<'), int64_t(kInTag), int64_t(kStart)));
          });
          w.compute(4);
          assign(w, j, j + int64_t(1));
        });
  }

  uint32_t copies_;
  uint64_t seed_;
  std::vector<std::string> text_;
  Buf files_;
};

}  // namespace

void register_mars_iix(PortRegistry& r) {
  PortInfo p;
  p.name = "mars/iix";
  p.suite = "Mars (MapReduce on GPUs)";
  p.source =
      "Mars 2009 release (HKUST), github emc2314/Graph500 imp/GraphGPU/src/Mars/sample_apps/InvertedIndex "
      "(main.cu, map.cu, compare.cu, MarsLib.cu, MarsSort.cu, MarsScan.cu) + BIN_TMPL/II_BIN/run.sh";
  p.input =
      "three synthetic pages of the samples' sizes and link counts, each repeated `copies` times (run.sh: "
      "the "
      "samples x 1024, 28 MB in ~28K map records of ~1 KB, ~69K links; whole it is 6 M warp memory "
      "instructions at 256 copies, 3x the budget). Default 96 copies: 2.7 MB of HTML (3.5x Fermi's 768 KB "
      "L2) in ~2,600 blocks, ~6,400 links sorted (an 8,192-record bitonic sort); 2.15 M warp memory insts";
  p.papers = "001 (IIX)";
  p.kernels = mars::kMapGroupKernels;
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t copies = s.get_uint("copies", 96, 1, 1024);
    const uint64_t seed = s.get_uint("seed", 1, 0, ~uint64_t(0) >> 1);
    return std::make_unique<InvertedIndex>(uint32_t(copies), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
