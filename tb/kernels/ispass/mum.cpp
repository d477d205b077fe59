// ISPASS-2009 MUM (MUMmerGPU 1.0): exact matching of short DNA reads against a reference through the
// reference's suffix tree. The host builds the suffix tree of "s" + reference + "$" (Ukkonen), renumbers its
// nodes breadth first (16 levels, then blocks of 4 levels depth first) and flattens it into two 4096-wide 2D
// textures of 16-byte texels indexed by node id (id -> (x, y) with 32 consecutive ids down a column):
// nodetex (edge start, edge end, '$' child, suffix link) and childrentex (the A, C, G, T children); the
// reference goes into a 65536-wide char texture, four consecutive positions down a column. mummergpuKernel,
// one thread per read (CTAs of 256), finds for every start position of its read the longest prefix that
// occurs in the reference (matching statistics: walk down from the root, then follow the suffix link of the
// last node and skip down by edge lengths) and writes (node, characters matched on its edge) when the match
// is at least min_match long. Texture fetches are global loads here (on the GPU they are read-only loads
// through the texture cache; the model has no texture path): a 2D texel (x, y) is element y * width + x of
// the array, the row-major layout the host array has and cudaMemcpyToArray copies (the GPU's cudaArray and
// GPGPU-Sim's texture model tile 2D arrays, so the 32 ids of a column, 64 KiB apart here, share lines there).
// MatchCoord (unsigned node, short edge length, 8 bytes) is two 4-byte elements: the node store is exact,
// the edge length's 2-byte store is a 4-byte one at its address. Every load, store and branch follows the
// source; compute gaps follow its PTX blocks, the switch's and skip's cases as the warp's lanes take them.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tb/kernels/common/mummer_input.h"
#include "tb/kernels/common/mummer_kernel.h"
#include "tb/kernels/common/suffix_tree.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using mummer::assign;
using mummer::base_index;
using mummer::kTexColumn;
using mummer::kTexWidth;
using mummer::SuffixTree;
using mummer::tex_address;
using mummer::Texel;
using mummer::texel_index;

// nvcc 13.0 --ptx -arch=sm_75 of mummergpu_kernel.cu with its tex2D fetches turned into __ldg loads of the
// same (y * width + x) elements (texture references no longer compile): PTX instructions before each global
// memory instruction on its path (ld.param included).
constexpr uint32_t kEntry = 21;      // to queryLengths[qryid]
constexpr uint32_t kAddrs = 6;       // to queryAddrs[qryid]
constexpr uint32_t kFirstHead = 28;  // to the first substring's first query character
constexpr uint32_t kLoopHead = 17;   // suffix-link fetch to the next substring's first character
constexpr uint32_t kCharTest = 3, kToChildren = 8, kNextEdge = 1;
constexpr uint32_t kSwitch = 5, kSwitchLow = 2, kCaseA = 2, kSwitchC = 3, kCaseC = 2;  // switch (c)
constexpr uint32_t kSwitchHigh = 2, kCaseG = 1, kSwitchT = 3, kCaseT = 2;
constexpr uint32_t kEdgeTest = 3, kToNode = 8;
constexpr uint32_t kMustTest = 2, kMustSome = 3, kSkipEdge = 5, kSkipPart = 4, kNoSkip = 4, kToChar = 2;
constexpr uint32_t kWalkTest = 4, kWalkEntry = 4, kRefIndex = 9, kCompare = 4, kAdvance = 2, kWalkLoop = 6;
constexpr uint32_t kWalkExit = 3;
constexpr mummer::SwitchCosts kSwitchCosts = {kSwitch, kSwitchLow, kCaseA, kSwitchC, kCaseC, kSwitchHigh,
                                              kCaseG,  kSwitchT,   kCaseT, false,    0};
constexpr mummer::EdgeMatch kEdgeMatch = {kWalkTest, kWalkEntry, kRefIndex, kCompare,
                                          kAdvance,  kWalkLoop,  kWalkExit, 0xa0};
constexpr uint32_t kRecordTest = 3, kSetResult = 8, kSecondStore = 0, kAfterRecord = 6;
constexpr uint32_t kNoEdgeTest = 2, kNoEdgeSecond = 1, kAfterNoEdge = 3, kToSuffix = 2;
// ptxas -v, sm_75 (no shared memory).
constexpr uint32_t kRegs = 28;

constexpr int64_t kRefPitch = 65536;  // reference texture width
constexpr int64_t kRefBlock = 4;      // reference positions per column block
constexpr uint32_t kBlock = 256;      // BLOCKSIZE

Int field(const Lanes<Texel>& t, int k) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = t.v[l].w[k];
  r.deps = t.deps;
  return r;
}

// getRef: reference position -> texel of the 65536-wide reference texture.
Int ref_index(const Int& refpos) {
  const Int low = refpos & 0x3FFFF, high = refpos >> 18;
  return ((high << 2) + (low & 3)) * kRefPitch + (low >> 2);
}

// set_result's node id from a TextureAddress (the inverse of id2addr).
Int node_id(const Int& addr) {
  const Int x = addr & 0xFFFF, y = addr >> 16 & 0xFFFF;
  return (x << 5) + (y & 0x1F) + ((y >> 5) << 17);
}

class Mummer : public KernelPort {
 public:
  Mummer(uint32_t ref_bases, uint32_t num_queries, uint32_t read_length, uint32_t min_match,
         uint32_t mismatches, uint64_t seed)
      : bases_(ref_bases),
        num_queries_(num_queries),
        read_length_(read_length),
        min_match_(min_match),
        mismatches_(mismatches),
        seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // genreads.py's reads (exact at the ISPASS input; mummer_input.h).
    mummer::Input in = mummer::make_input(bases_, num_queries_, read_length_, mismatches_, seed_);
    reference_ = std::move(in.reference);
    reads_ = std::move(in.reads);

    // getQueriesTexture.
    const mummer::Queries qs = mummer::pack_queries(reads_);
    const std::string& text = qs.text;
    num_coords_ = text.size() - size_t(num_queries_) * (min_match_ + 1);

    // matchQueries/buildReferenceTexture: one page (up to 7.5 M bases).
    const std::string page = mummer::reference_page(reference_);
    tree_.build(page.substr(0, bases_ + 2));

    // loadQueries, loadReference (reference, node and children textures), loadResultBuffer.
    queries_ = mem.alloc<char>("queries", text.size());
    addrs_ = mem.alloc<int32_t>("queryAddrs", num_queries_);
    lengths_ = mem.alloc<int32_t>("queryLengths", num_queries_);
    const int64_t rows = (int64_t(page.size()) + kRefPitch - 1) / kRefPitch + kRefBlock;
    ref_ = mem.alloc<char>("reftex", size_t(rows * kRefPitch), 'Z');
    const size_t height = (tree_.nodes.size() + 1 + kTexWidth - 1) / kTexWidth + kTexColumn;
    nodes_ = mem.alloc<Texel>("nodetex", height * kTexWidth);
    children_ = mem.alloc<Texel>("childrentex", height * kTexWidth);
    coords_ = mem.alloc<uint32_t>("match_coords", 2 * num_coords_);  // MatchCoord: node, edge length (+pad)

    std::copy(text.begin(), text.end(), queries_.host().begin());
    addrs_.host() = qs.addrs;
    lengths_.host() = qs.lengths;
    for (int64_t i = 0; i < int64_t(page.size()); ++i) {
      const int64_t x = i % (kRefPitch * kRefBlock), y = i / (kRefPitch * kRefBlock);
      ref_[size_t((y * kRefBlock + x % kRefBlock) * kRefPitch + x / kRefBlock)] = page[size_t(i)];
    }
    for (const auto& x : tree_.nodes) {
      Texel& nt = nodes_[mummer::texel_of(x.id)];
      nt.w[0] = uint32_t(x.start);
      nt.w[1] = uint32_t(x.end);
      nt.w[2] = tree_.address(x.child[4]);
      nt.w[3] = tree_.address(x.link);
      for (int c = 0; c < 4; ++c) children_[mummer::texel_of(x.id)].w[c] = tree_.address(x.child[c]);
    }
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "mummergpuKernel";
    k.block = {std::min(num_queries_, kBlock), 1, 1};
    k.grid = {(num_queries_ + kBlock - 1) / kBlock, 1, 1};
    k.regs_per_thread = kRegs;
    k.body = [this](Warp& w) { kernel(w); };
    host.launch(std::move(k));
  }

  std::string check() const override {
    // Every read's every start: the longest prefix found in the reference by binary search over its sorted
    // suffixes (cut at the read length).
    std::vector<std::string_view> suffixes;
    const std::string_view ref(reference_);
    for (size_t i = 0; i < ref.size(); ++i) suffixes.push_back(ref.substr(i, read_length_));
    std::sort(suffixes.begin(), suffixes.end());
    using mummer::common_prefix;
    std::vector<const SuffixTree::Node*> by_id(tree_.nodes.size() + 1);
    for (const auto& x : tree_.nodes) by_id[x.id] = &x;
    size_t slot = 0;
    for (uint32_t q = 0; q < num_queries_; ++q) {
      const std::string_view read(reads_[q]);
      for (size_t p = 0; p + min_match_ <= read.size(); ++p, ++slot) {
        const std::string_view sub = read.substr(p);
        const auto it = std::lower_bound(suffixes.begin(), suffixes.end(), sub);
        size_t len = 0;
        if (it != suffixes.end()) len = common_prefix(sub, *it);
        if (it != suffixes.begin()) len = std::max(len, common_prefix(sub, *(it - 1)));
        const uint32_t node = coords_[2 * slot], edge = coords_[2 * slot + 1];
        const std::string where = "read " + std::to_string(q) + " position " + std::to_string(p) + ": ";
        if (len < min_match_) {
          if (node != 0 || edge != 0) return where + "a match written, none of " + std::to_string(min_match_);
          continue;
        }
        if (node == 0 || node >= by_id.size()) return where + "node " + std::to_string(node);
        const SuffixTree::Node& x = *by_id[node];
        const int32_t parent_depth = tree_.nodes[size_t(std::max(x.parent, 0))].depth;
        const size_t got = edge == 0 ? size_t(x.depth) : size_t(parent_depth) + edge;
        if (got != len || int64_t(edge) > x.depth - parent_depth ||
            ref.substr(size_t(x.minleaf - 1), len) != sub.substr(0, len))
          return where + "node " + std::to_string(node) + " edge " + std::to_string(edge) + " (length " +
                 std::to_string(got) + "), expected a match of " + std::to_string(len);
      }
    }
    return "";
  }

 private:
  void kernel(Warp& w) {
    const int64_t mml = min_match_;
    const Int qryid = w.global_x();
    w.compute(kEntry);
    w.return_if(qryid >= int64_t(num_queries_));
    const Int qlen = w.load(0x10, lengths_, qryid).as<int64_t>();
    w.compute(kAddrs);
    const Int qaddr = w.load(0x20, addrs_, qryid).as<int64_t>();
    const Int result = qaddr - qryid * (mml + 1);
    const Int last = qlen - mml;
    const Int root(int64_t(tex_address(1)));
    Int cur(0), prev(0), mustmatch(0), qml(0), refpos(0), start(0), end(0), c(0), qrystart(0);
    Bool noedge(false), mismatch(false);
    bool first = true;
    w.while_([&] { return qrystart <= last; },
             [&] {
               w.compute(first ? kFirstHead : kLoopHead);
               first = false;
               const Bool restart = cur == 0 || qml < 1;
               assign(w, cur, select<int64_t>(restart, root, cur));
               assign(w, qml, select<int64_t>(restart, 1, qml));
               assign(w, mustmatch, select<int64_t>(restart, 0, mustmatch));
               assign(w, c, w.load(0x30, queries_, qaddr + qrystart + qml).as<int64_t>());
               w.compute(kCharTest);
               assign(w, refpos, Int(0));
               assign(w, noedge, Bool(false));
               assign(w, mismatch, Bool(false));
               walk(w, qaddr + qrystart, cur, prev, mustmatch, qml, refpos, start, end, c, noedge, mismatch);
               w.if_else(
                   noedge,
                   [&] {  // no edge out of prev: its depth is the match
                     w.compute(kNoEdgeTest);
                     w.if_(qml > mml, [&] {
                       w.compute(kSetResult);
                       w.store(0x50, coords_, (result + qrystart) * 2, node_id(prev));
                       w.compute(kNoEdgeSecond);
                       w.store(0x60, coords_, (result + qrystart) * 2 + 1, Int(0));
                     });
                     w.compute(kAfterNoEdge);
                     assign(w, qml, qml - 1);
                     assign(w, mustmatch, Int(0));
                   },
                   [&] {  // RECORD_RESULT: the match ends on cur's edge
                     w.compute(kRecordTest);
                     w.if_(qml > mml, [&] {
                       w.compute(kSetResult);
                       w.store(0xb0, coords_, (result + qrystart) * 2, node_id(cur));
                       w.compute(kSecondStore);
                       w.store(0xc0, coords_, (result + qrystart) * 2 + 1, refpos - start);
                     });
                     assign(w, mustmatch, refpos - start);
                     assign(w, qml, qml - (mustmatch + 1));
                     w.compute(kAfterRecord);
                   });
               w.compute(kToSuffix);
               const Lanes<Texel> node = w.load(0xd0, nodes_, texel_index(prev));  // NEXT_SUBSTRING
               assign(w, start, field(node, 0));
               assign(w, cur, field(node, 3));
               assign(w, qrystart, qrystart + 1);
             });
  }

  // The walk of one substring (queries + qrystart): down the children while the read's characters match.
  void walk(Warp& w, const Int& qbase, Int& cur, Int& prev, Int& mustmatch, Int& qml, Int& refpos, Int& start,
            Int& end, Int& c, Bool& noedge, Bool& mismatch) {
    bool first_edge = true;
    w.while_([&] { return c != 0; },
             [&] {
               w.compute(first_edge ? kToChildren : kNextEdge + kToChildren);
               first_edge = false;
               const Lanes<Texel> children = w.load(0x40, children_, texel_index(cur));
               assign(w, prev, cur);
               mummer::switch_base(w, c, kSwitchCosts);
               Int next;
               for (unsigned l = 0; l < kWarpSize; ++l) {
                 const int b = base_index(char(c.v[l]));
                 next.v[l] = b < 4 ? children.v[l].w[b] : 0;
               }
               next.deps = children.deps;
               next.deps |= c.deps;
               assign(w, cur, next);
               w.compute(kEdgeTest);
               assign(w, noedge, cur == 0);
               w.break_if(noedge);
               w.compute(kToNode);
               const Lanes<Texel> node = w.load(0x70, nodes_, texel_index(cur));
               assign(w, start, field(node, 0));
               assign(w, end, field(node, 1));
               w.compute(kMustTest);
               w.if_else(
                   mustmatch != 0,
                   [&] {
                     w.compute(kMustSome);
                     const Int edgelen = end - start + 1;
                     w.if_else(
                         mustmatch >= edgelen,
                         [&] {  // skip the whole edge
                           w.compute(kSkipEdge);
                           assign(w, refpos, end + 1);
                           assign(w, qml, qml + edgelen);
                           assign(w, mustmatch, mustmatch - edgelen);
                         },
                         [&] {  // skip into the edge
                           w.compute(kSkipPart);
                           assign(w, qml, qml + mustmatch);
                           assign(w, refpos, start + mustmatch);
                           assign(w, mustmatch, Int(0));
                         });
                   },
                   [&] {  // the edge's first character matched already
                     w.compute(kNoSkip);
                     assign(w, qml, qml + 1);
                     assign(w, refpos, start + 1);
                   });
               w.compute(kToChar);
               assign(w, c, w.load(0x80, queries_, qbase + qml).as<int64_t>());
               mummer::match_edge(
                   w, kEdgeMatch,
                   [&](const Int& pos) { return w.load(0x90, ref_, ref_index(pos)).as<int64_t>(); }, queries_,
                   qbase, end, qml, refpos, c, mismatch);
               w.break_if(mismatch);
             });
  }

  uint32_t bases_, num_queries_, read_length_, min_match_, mismatches_;
  uint64_t seed_;
  std::string reference_;
  std::vector<std::string> reads_;
  size_t num_coords_ = 0;
  SuffixTree tree_;
  DeviceArray<char> queries_, ref_;
  DeviceArray<int32_t> addrs_, lengths_;
  DeviceArray<Texel> nodes_, children_;
  DeviceArray<uint32_t> coords_;
};

}  // namespace

void register_ispass_mum(PortRegistry& r) {
  PortInfo p;
  p.name = "ispass/mum";
  p.suite = "GPGPU-Sim ISPASS-2009";
  p.source =
      "github.com/accel-sim/gpu-app-collection @52c11fbc, src/cuda/ispass-2009/MUM (MUMmerGPU 1.0: "
      "mummergpu.cu, mummergpu_kernel.cu, suffix-tree.cpp, genreads.py)";
  p.input =
      "README.GPGPU-Sim's run: 'MUM NC_003997.20k.fna NC_003997_q25bp.50k.fna', 20,000 bases of B. anthracis "
      "and 50,000 reads of 25 bases, min match 20 (default -l), forward strand only: one launch of 196 CTAs "
      "x "
      "256 threads. The data files are not public with the source: the reference is 20,000 uniform random "
      "bases and the reads its substrings at uniform starts as genreads.py draws them (exact: its -m "
      "mismatch "
      "option is parsed but not applied; `mismatches` applies it, for tests), seeded (splitmix64). Not "
      "scaled: 9.27 MiB in 7 arrays (node and children textures 2.5 MiB each, 4096 x 40 texels of 16 B, of "
      "which ~0.5 MiB each are nodes; result buffer 2.3 MiB; reads 1.3 MiB; reference texture 320 KiB), 358 "
      "K "
      "warp memory instructions (fermi: 13 s). Whether the ISPASS reads were drawn from the 20 k prefix or "
      "from the whole 5.2 Mbp genome (then most would match < 20 bases) is not known";
  p.papers = "TSC (000: mummergpu, from Rodinia; this is the ISPASS-2009 MUMmerGPU 1.0 kernel)";
  p.kernels = "mummergpuKernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t bases = s.get_uint("ref_bases", 20000, 32, 2000000);
    const uint64_t queries = s.get_uint("queries", 50000, 1, 2000000);
    const uint64_t min_match = s.get_uint("min_match", 20, 1, 1000);
    const uint64_t length = s.get_uint("read_length", 25, min_match, std::min<uint64_t>(bases, 1000));
    const uint64_t mismatches = s.get_uint("mismatches", 0, 0, 100);
    const uint64_t seed = s.get_uint("seed", 2009);
    return std::make_unique<Mummer>(uint32_t(bases), uint32_t(queries), uint32_t(length), uint32_t(min_match),
                                    uint32_t(mismatches), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
