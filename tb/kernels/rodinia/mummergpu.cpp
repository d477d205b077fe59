// Rodinia 3.1 mummergpu (MUMmerGPU 2.0): exact matching of DNA reads against a reference through the
// reference's suffix tree, then printing every maximal match. The host builds the suffix tree of "s" +
// reference + "$" (Ukkonen's edge labels, renumberTree's ids: tb/kernels/common/suffix_tree.h, shared with
// ispass/mum, MUMmerGPU 1.0) and flattens it, with the Makefile's defaults (common.cu: TREETEX, REORDER_TREE,
// RENUMBER_TREE on; QRYTEX, REFTEX, REORDER_REF, MERGETEX, TWO_LEVEL_* off), into two 4096-wide 2D textures
// of 16-byte texels (32 consecutive ids down a column): nodetex (parent, suffix link, edge start, edge end,
// depth: 3 bytes each) and childrentex (the A, C, G, T, $ children as 3-byte addresses and the leaf's left
// character; a leaf's first 3 bytes hold its suffix's position). The reference and the reads are plain global
// char arrays. mummergpuKernel, one thread per read (CTAs of 256), finds for every start of its read the
// longest prefix found in the reference (down from the root, then the suffix link and skip/count) and stores
// (node address, characters matched on its edge) as one 8-byte store when it is at least min_match long. The
// host turns every match into a MatchInfo (its print parent's leaf count sizes its alignment slots) and
// printKernel, one thread per match, climbs from the match node to its print parent (the shallowest ancestor
// at least min_match deep), walks that subtree depth first (A, C, G, T, $) and writes every left-maximal leaf
// as an Alignment (position, match length). Texture fetches are global loads (as in ispass/mum: the model has
// no texture path; a texel (x, y) is element y * 4096 + x, the row-major layout cudaMemcpyToArray copies).
#include <algorithm>
#include <cstdint>
#include <numeric>
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
using mummer::kMaxQueryLen;
using mummer::kTexColumn;
using mummer::kTexWidth;
using mummer::SuffixTree;
using mummer::tex_address;
using mummer::Texel;
using mummer::texel_index;

// nvcc 13.0 --ptx -arch=sm_75 of mummergpu_kernel.cu with the Makefile's defaults and its tex2D fetches
// turned into __ldg loads of the same (y * 4096 + x) elements (texture references no longer compile): PTX
// instructions before each global memory instruction on its path (ld.param included).
// mummergpuKernel (the PTX loads queryAddrs before queryLengths):
constexpr uint32_t kEntry = 21, kLengths = 0, kFirstHead = 3 + 19 + 10, kLoopHead = 14 + 10;
constexpr uint32_t kCharTest = 3, kWalkIn = 2, kToChildren = 8, kNextEdge = 1;
constexpr uint32_t kSwitch = 5, kSwitchLow = 2, kCaseA = 6, kSwitchC = 4, kCaseC = 6, kNoCase = 1;
constexpr uint32_t kSwitchHigh = 2, kCaseG = 5, kSwitchT = 4, kCaseT = 7;
constexpr uint32_t kToAddress = 14, kToNode = 4, kAfterNode = 15, kMustSome = 9, kMustNone = 3, kToChar = 5;
constexpr uint32_t kWalkTest = 4, kWalkEntry = 6, kCompare = 2, kAdvance = 3, kWalkLoop = 5, kWalkExit = 3;
constexpr uint32_t kNoEdgeTest = 2, kNoEdgeStore = 1, kAfterNoEdge = 3, kRecordTest = 3, kAfterRecord = 7;
constexpr uint32_t kToSuffix = 2;
constexpr mummer::SwitchCosts kSwitchCosts = {kSwitch, kSwitchLow, kCaseA, kSwitchC, kCaseC, kSwitchHigh,
                                              kCaseG,  kSwitchT,   kCaseT, true,     kNoCase};
constexpr mummer::EdgeMatch kEdgeMatch = {kWalkTest, kWalkEntry, 0,         kCompare,
                                          kAdvance,  kWalkLoop,  kWalkExit, 0x80};
// printKernel:
constexpr uint32_t kPEntry = 19, kToQueryId = 5, kToAddr = 2, kToFlank = 2, kToMatchNode = 7;
constexpr uint32_t kClimbTest = 5, kClimb = 15, kClimbLoop = 3, kToPrintParent = 6, kToOffset = 2;
constexpr uint32_t kOnPath = 3, kEdgeTest = 3, kToBadParent = 6, kEdgeAgain = 1, kToLoop = 2, kLoopSetup = 5;
constexpr uint32_t kToChildrenP = 10, kLoopTest = 2, kLeafTest = 6, kLeftTest = 4, kPageTest = 13;
constexpr uint32_t kShadowTest = 4, kToStore = 2, kAfterStore = 1, kToNodeP = 2, kToParentChildren = 14;
constexpr uint32_t kWhichChild = 14, kWhichNext = 12, kWhichLast = 14, kAfterUp = 6, kToDepth = 2;
constexpr uint32_t kAfterDepth = 4, kGoldenTest = 3, kToGolden = 5, kTryChild = 4, kTestChild = 10;
constexpr uint32_t kTakeChild = 10, kAfterScan = 3, kDepthTest = 2, kDepthInc = 3, kGoldenCmp = 8;
constexpr uint32_t kToGoldenNode = 6, kMatchTest = 5, kMatchEdge = 4, kToMatchParent = 12, kTail = 5;
// ptxas -v, sm_75 (no shared memory): both kernels.
constexpr uint32_t kRegsMatch = 29, kRegsPrint = 29;

constexpr uint32_t kBlock = 256;  // BLOCKSIZE

// Texel byte offsets: nodetex's parent, suffix, start, end, depth; childrentex's A, C, G, T, $ and leafchar.
constexpr int kParent = 0, kSuffix = 3, kStart = 6, kEnd = 9, kDepth = 12, kLeafChar = 15;

// The 3 bytes at off, little endian (MKI), per lane.
Int mki(const Lanes<Texel>& t, int off) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l)
    r.v[l] = t.v[l].byte(off) | t.v[l].byte(off + 1) << 8 | t.v[l].byte(off + 2) << 16;
  r.deps = t.deps;
  return r;
}

// The byte at off, per lane.
Int byte_at(const Lanes<Texel>& t, int off) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = t.v[l].byte(off);
  r.deps = t.deps;
  return r;
}

// arrayToAddress with REORDER_TREE: 12-bit x and y from 3 bytes.
uint32_t to_address(uint32_t b0, uint32_t b1, uint32_t b2) {
  return (b0 | (b2 & 0xF) << 8) | ((b1 | (b2 & 0xF0) << 4) << 16);
}
Int address_at(const Lanes<Texel>& t, int off) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l)
    r.v[l] = to_address(t.v[l].byte(off), t.v[l].byte(off + 1), t.v[l].byte(off + 2));
  r.deps = t.deps;
  return r;
}
void write_address(Texel& t, int off, uint32_t addr) {  // writeAddress
  const uint32_t x = addr & 0xFFFF, y = addr >> 16;
  t.set(off, x);
  t.set(off + 1, y);
  t.set(off + 2, ((x >> 8) & 0xF) | ((y >> 4) & 0xF0));
}

uint32_t address_id(uint32_t addr) {  // addr2id
  const uint32_t x = addr & 0xFFFF, y = addr >> 16;
  return (x << 5) + (y & 0x1F) + ((y >> 5) << 17);
}

class MummerGpu : public KernelPort {
 public:
  MummerGpu(uint32_t ref_bases, uint32_t num_queries, uint32_t read_length, uint32_t min_match,
            uint32_t mismatches, uint64_t seed)
      : bases_(ref_bases),
        num_queries_(num_queries),
        read_length_(read_length),
        min_match_(min_match),
        mismatches_(mismatches),
        seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // genreads.py's reads (mummer_input.h, shared with ispass/mum).
    mummer::Input in = mummer::make_input(bases_, num_queries_, read_length_, mismatches_, seed_);
    reference_ = std::move(in.reference);
    reads_ = std::move(in.reads);
    reference_answers();

    // getQueriesTexture; buildCoordOffsetArray.
    const mummer::Queries qs = mummer::pack_queries(reads_);
    const std::string& text = qs.text;
    const size_t num_coords = size_t(qs.addrs.back()) - size_t(num_queries_ - 1) * (min_match_ + 1) +
                              (read_length_ - min_match_ + 1);

    // initReferencePages/buildReferenceTexture: one page (up to 8 M bases).
    refstr_ = mummer::reference_page(reference_);
    page_end_ = int64_t(1 + bases_ + (kMaxQueryLen + 1 + 1) / 2 + 1);
    tree_.build(refstr_.substr(0, bases_ + 2));
    leaves_and_print_parents();

    // loadReference (reference string, node and children textures), loadQueries, loadResultBuffer; the print
    // kernel's MatchInfo and Alignment buffers (runPrintKernel), sized by the host's match count.
    ref_ = mem.alloc<char>("ref", refstr_.size());
    const int64_t rows = (int64_t(tree_.nodes.size()) + 1 + kTexWidth * kTexColumn - 1) /
                         (kTexWidth * kTexColumn) * kTexColumn;
    nodes_ = mem.alloc<Texel>("nodetex", size_t(rows * kTexWidth));
    children_ = mem.alloc<Texel>("childrentex", size_t(rows * kTexWidth));
    queries_ = mem.alloc<char>("queries", text.size());
    addrs_ = mem.alloc<int32_t>("queryAddrs", num_queries_);
    lengths_ = mem.alloc<int32_t>("queryLengths", num_queries_);
    coords_ = mem.alloc<uint64_t>("match_coords", num_coords);  // MatchCoord: node, edge match length
    const size_t matches = std::max<size_t>(expected_.size(), 1), slots = std::max<size_t>(slots_, 1);
    minfo_ = mem.alloc<uint32_t>("matches", 5 * matches);  // MatchInfo: 20 bytes
    minfo16_ = DeviceArray<uint16_t>("matches", minfo_.base(), 10 * matches);
    align_ = mem.alloc<uint32_t>("alignments", 2 * slots);  // Alignment: int, unsigned short (8 bytes)
    align16_ = DeviceArray<uint16_t>("alignments", align_.base(), 4 * slots);

    std::copy(refstr_.begin(), refstr_.end(), ref_.host().begin());
    std::copy(text.begin(), text.end(), queries_.host().begin());
    addrs_.host() = qs.addrs;
    lengths_.host() = qs.lengths;
    for (size_t v = 0; v < tree_.nodes.size(); ++v) {  // buildNodeTexture
      const SuffixTree::Node& x = tree_.nodes[v];
      Texel& nt = nodes_[mummer::texel_of(x.id)];
      Texel& ct = children_[mummer::texel_of(x.id)];
      write_address(nt, kParent, tree_.address(x.parent));
      write_address(nt, kSuffix, tree_.address(v == 0 ? 0 : x.link));
      for (int k = 0; k < 3; ++k) {
        nt.set(kStart + k, uint32_t(x.start) >> (8 * k));
        nt.set(kEnd + k, uint32_t(x.end) >> (8 * k));
        nt.set(kDepth + k, uint32_t(x.depth + 1) >> (8 * k));
      }
      if (v != 0 && x.leaf()) {
        ct.set(kLeafChar, uint32_t(uint8_t(refstr_[size_t(x.minleaf - 1)])));
        for (int k = 0; k < 3; ++k) ct.set(k, uint32_t(x.minleaf) >> (8 * k));
      } else {
        for (int c = 0; c < 5; ++c) write_address(ct, 3 * c, tree_.address(x.child[c]));
      }
    }
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "mummergpuKernel";
    k.block = {std::min(num_queries_, kBlock), 1, 1};
    k.grid = {(num_queries_ + kBlock - 1) / kBlock, 1, 1};
    k.regs_per_thread = kRegsMatch;
    k.body = [this](Warp& w) { match_kernel(w); };
    host.launch(std::move(k));

    // coordsToPrintBuffers: a MatchInfo per forward match, in query and position order; its alignment slots
    // are its print parent's leaves.
    num_matches_ = 0;
    uint32_t offset = 0;
    size_t slot = 0;
    for (uint32_t q = 0; q < num_queries_; ++q)
      for (uint32_t p = 0; p + min_match_ <= read_length_; ++p, ++slot) {
        const uint64_t c = coords_[slot];
        const uint32_t node = uint32_t(c), edge = uint32_t(c >> 32);
        if (node == 0 || (edge & 0x8000) != 0) continue;
        const uint32_t leaves = leaves_of_print_parent(node);
        if (num_matches_ >= expected_.size() || offset + leaves > slots_) {
          overflow_ = true;
          continue;
        }
        uint32_t* m = &minfo_[5 * num_matches_];
        m[0] = offset;
        m[1] = q;
        m[2] = node;
        m[3] = leaves;
        m[4] = (edge & 0xFFFF) | p << 16;  // edgematch, qrystartpos
        minfo16_[10 * num_matches_ + 8] = uint16_t(edge);
        minfo16_[10 * num_matches_ + 9] = uint16_t(p);
        offset += leaves;
        ++num_matches_;
      }
    if (num_matches_ == 0) return;
    KernelLaunch pk;
    pk.name = "printKernel";
    pk.block = {std::min(num_matches_, kBlock), 1, 1};
    pk.grid = {(num_matches_ + kBlock - 1) / kBlock, 1, 1};
    pk.regs_per_thread = kRegsPrint;
    pk.body = [this](Warp& w) { print_kernel(w); };
    host.launch(std::move(pk));
  }

  std::string check() const override {
    if (overflow_) return "more matches or alignment slots than the host's reference count";
    if (num_matches_ != expected_.size())
      return std::to_string(num_matches_) + " matches, expected " + std::to_string(expected_.size());
    size_t slot = 0, e = 0;
    for (uint32_t q = 0; q < num_queries_; ++q)
      for (uint32_t p = 0; p + min_match_ <= read_length_; ++p, ++slot) {
        const std::string where = "read " + std::to_string(q) + " position " + std::to_string(p) + ": ";
        const bool match = e < expected_.size() && expected_[e].query == q && expected_[e].pos == p;
        if ((coords_[slot] != 0) != match) return where + (match ? "no match written" : "a match written");
        if (!match) continue;
        const Expected& x = expected_[e];
        const uint32_t base = minfo_[5 * e];
        if (minfo_[5 * e + 3] != x.leaves)
          return where + std::to_string(minfo_[5 * e + 3]) + " leaves, expected " + std::to_string(x.leaves);
        for (size_t k = 0; k < x.leaves; ++k) {
          const uint32_t left = align_[2 * (base + k)], len = align16_[4 * (base + k) + 2];
          const uint32_t want_left = k < x.hits.size() ? x.hits[k].first : 0;
          const uint32_t want_len = k < x.hits.size() ? x.hits[k].second : 0;
          if (left != want_left || len != want_len)
            return where + "alignment " + std::to_string(k) + " (" + std::to_string(left) + ", " +
                   std::to_string(len) + "), expected (" + std::to_string(want_left) + ", " +
                   std::to_string(want_len) + ")";
        }
        ++e;
      }
    return "";
  }

 private:
  struct Expected {
    uint32_t query, pos, leaves;
    std::vector<std::pair<uint32_t, uint32_t>> hits;  // (1-based reference position, match length)
  };

  // The sequential answer: every read position whose longest match in the reference is at least min_match
  // long; its print parent's leaves are the suffixes sharing its first min_match bases, and the alignments
  // the left-maximal ones (the reference's previous base differs from the read's, or either is the start),
  // in the suffix tree's depth-first order (suffixes sorted with '$' after T) with their common prefix
  // length.
  void reference_answers() {
    const std::string t = reference_ + '~';  // '$' sorts after T
    std::vector<uint32_t> sa(bases_);
    std::iota(sa.begin(), sa.end(), 0u);
    const std::string_view tv(t);
    std::sort(sa.begin(), sa.end(), [&](uint32_t a, uint32_t b) { return tv.substr(a) < tv.substr(b); });
    expected_.clear();
    slots_ = 0;
    for (uint32_t q = 0; q < num_queries_; ++q) {
      const std::string_view read(reads_[q]);
      for (uint32_t p = 0; p + min_match_ <= read_length_; ++p) {
        const std::string_view key = read.substr(p, min_match_);
        const auto lo = std::lower_bound(sa.begin(), sa.end(), key, [&](uint32_t i, std::string_view k) {
          return tv.substr(i, k.size()) < k;
        });
        const auto hi = std::upper_bound(
            lo, sa.end(), key, [&](std::string_view k, uint32_t i) { return k < tv.substr(i, k.size()); });
        if (lo == hi) continue;
        Expected x{q, p, uint32_t(hi - lo), {}};
        for (auto it = lo; it != hi; ++it)
          if (*it == 0 || p == 0 || reference_[*it - 1] != read[p - 1])
            x.hits.emplace_back(*it + 1, uint32_t(mummer::common_prefix(read.substr(p), tv.substr(*it))));
        slots_ += x.leaves;
        expected_.push_back(std::move(x));
      }
    }
  }

  // setNumLeaves and setPrintParent (with suffix-tree.cpp's depths: string depth + 1), by texture address.
  void leaves_and_print_parents() {
    const size_t n = tree_.nodes.size();
    std::vector<uint32_t> leaves(n, 0);
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      return tree_.nodes[size_t(a)].depth > tree_.nodes[size_t(b)].depth;
    });
    for (int32_t v : order) {  // deepest first: children before parents
      const SuffixTree::Node& x = tree_.nodes[size_t(v)];
      if (x.leaf()) leaves[size_t(v)] = 1;
      if (x.parent >= 0) leaves[size_t(x.parent)] += leaves[size_t(v)];
    }
    std::vector<int32_t> pp(n, 0);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // shallowest first
      const int32_t v = *it;
      const SuffixTree::Node& x = tree_.nodes[size_t(v)];
      pp[size_t(v)] = x.parent < 0 || tree_.nodes[size_t(x.parent)].depth + 1 <= int32_t(min_match_)
                          ? v
                          : pp[size_t(x.parent)];
    }
    pp_leaves_.assign(n + 2, 0);
    for (size_t v = 0; v < n; ++v) pp_leaves_[tree_.nodes[v].id] = leaves[size_t(pp[v])];
  }
  uint32_t leaves_of_print_parent(uint32_t addr) const {  // lookupNumLeaves
    const uint32_t id = address_id(addr);
    return id < pp_leaves_.size() ? pp_leaves_[id] : 0;
  }

  void match_kernel(Warp& w) {
    const int64_t mml = min_match_;
    const Int qryid = w.global_x();
    w.compute(kEntry);
    w.return_if(qryid >= int64_t(num_queries_));
    const Int qaddr = w.load(0x10, addrs_, qryid).as<int64_t>();
    w.compute(kLengths);
    const Int qlen = w.load(0x20, lengths_, qryid).as<int64_t>();
    const Int last = qlen - mml;
    w.return_if(last < 0);
    const Int result = qaddr - qryid * (mml + 1);
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
               w.if_(c != 0, [&] { w.compute(kWalkIn); });
               walk(w, qaddr + qrystart, cur, prev, mustmatch, qml, refpos, start, end, c, noedge, mismatch);
               w.if_else(
                   noedge,
                   [&] {  // no edge out of prev: the match ends at it
                     w.compute(kNoEdgeTest);
                     w.if_(qml > mml, [&] {
                       w.compute(kNoEdgeStore);
                       w.store(0x90, coords_, result + qrystart, prev);
                     });
                     w.compute(kAfterNoEdge);
                     assign(w, qml, qml - 1);
                     assign(w, mustmatch, Int(0));
                   },
                   [&] {  // RECORD_RESULT: the match ends on cur's edge
                     w.compute(kRecordTest);
                     const Int edge = refpos - start;
                     w.if_(qml > mml, [&] {
                       // The two ints' bits, edge in the high word (a lane's edge may be negative: no
                       // signed shift of it).
                       w.store(0xa0, coords_, result + qrystart,
                               (cur & 0xFFFFFFFF) | ((edge & 0xFFFFFFFF) << 32));
                     });
                     assign(w, mustmatch, edge);
                     assign(w, qml, qml - (mustmatch + 1));
                     w.compute(kAfterRecord);
                   });
               w.compute(kToSuffix);
               const Lanes<Texel> node = w.load(0xb0, nodes_, texel_index(prev));  // NEXT_SUBSTRING
               assign(w, cur, address_at(node, kSuffix));
               assign(w, qrystart, qrystart + 1);
             });
  }

  // One substring's walk down the tree while the read's characters match.
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
                 const Texel& t = children.v[l];
                 next.v[l] = b < 4 ? to_address(t.byte(3 * b), t.byte(3 * b + 1), t.byte(3 * b + 2)) : 0;
               }
               next.deps = children.deps;
               next.deps |= c.deps;
               assign(w, cur, next);
               w.compute(kToAddress);
               assign(w, noedge, cur == 0);
               w.break_if(noedge);
               w.compute(kToNode);
               const Lanes<Texel> node = w.load(0x50, nodes_, texel_index(cur));
               assign(w, start, mki(node, kStart));
               assign(w, end, mki(node, kEnd));
               w.compute(kAfterNode);
               w.if_else(
                   mustmatch != 0,
                   [&] {  // skip/count: min(edge, mustmatch) characters are known to match
                     w.compute(kMustSome);
                     const Int edgelen = end - start + 1;
                     const Int skip = select<int64_t>(mustmatch < edgelen, mustmatch, edgelen);
                     assign(w, refpos,
                            select<int64_t>(start + mustmatch < end + 1, start + mustmatch, end + 1));
                     assign(w, qml, qml + skip);
                     assign(w, mustmatch, select<int64_t>(mustmatch - edgelen > 0, mustmatch - edgelen, 0));
                   },
                   [&] {  // the edge's first character matched already
                     w.compute(kMustNone);
                     assign(w, qml, qml + 1);
                     assign(w, refpos, start + 1);
                   });
               w.compute(kToChar);
               assign(w, c, w.load(0x60, queries_, qbase + qml).as<int64_t>());
               mummer::match_edge(
                   w, kEdgeMatch, [&](const Int& pos) { return w.load(0x70, ref_, pos).as<int64_t>(); },
                   queries_, qbase, end, qml, refpos, c, mismatch);
               w.break_if(mismatch);
             });
  }

  void print_kernel(Warp& w) {
    const int64_t mml = min_match_;
    const Int m = w.global_x();
    w.compute(kPEntry);
    w.return_if(m >= int64_t(num_matches_));
    w.compute(kToQueryId);
    const Int qid = w.load(0x110, minfo_, m * 5 + 1).as<int64_t>();
    w.compute(kToAddr);
    const Int qaddr = w.load(0x120, addrs_, qid).as<int64_t>();
    const Int qsp = w.load(0x130, minfo16_, m * 10 + 9).as<int64_t>();
    w.compute(kToFlank);
    const Int flank = w.load(0x140, queries_, qaddr + qsp).as<int64_t>();
    const Int matchaddr = w.load(0x150, minfo_, m * 5 + 2).as<int64_t>();
    w.compute(kToMatchNode);
    Lanes<Texel> node = w.load(0x160, nodes_, texel_index(matchaddr));
    Int cur = matchaddr, print_parent = matchaddr;
    Bool climbed(false);
    w.compute(kClimbTest);
    w.while_([&] { return mki(node, kDepth) > mml; },
             [&] {
               w.compute(kClimb);
               assign(w, print_parent, cur);
               assign(w, cur, address_at(node, kParent));
               assign(w, climbed, Bool(true));
               assign(w, node, w.load(0x170, nodes_, texel_index(cur)));
               w.compute(kClimbLoop);
             });
    w.if_(climbed, [&] { w.compute(kToPrintParent); });
    const Int bad_parent = cur;
    assign(w, cur, print_parent);
    assign(w, node, w.load(0x180, nodes_, texel_index(print_parent)));
    Int matchlen = mki(node, kDepth) - 1;
    w.compute(kToOffset);
    Int matchnum = w.load(0x190, minfo_, m * 5).as<int64_t>();
    w.compute(kOnPath);
    Int to_golden(0);
    w.if_(print_parent == matchaddr, [&] {  // already off the golden path
      const Int em = w.load(0x1a0, minfo16_, m * 10 + 8).as<int64_t>();
      w.compute(kEdgeTest);
      assign(w, to_golden, Int(1));
      w.if_(em > 0, [&] {
        w.compute(kToBadParent);
        const Lanes<Texel> bp = w.load(0x1b0, nodes_, texel_index(bad_parent));
        w.compute(kEdgeAgain);
        const Int em2 = w.load(0x1c0, minfo16_, m * 10 + 8).as<int64_t>();
        assign(w, matchlen, mki(bp, kDepth) - 1 + em2);
      });
    });
    w.compute(kToLoop);
    w.return_if(cur == bad_parent);
    w.compute(kLoopSetup);
    Int curchild(int64_t('A'));
    Bool force(false);
    bool first = true;
    w.while_(
        [&] { return cur != bad_parent; },
        [&] {
          w.compute(first ? kToChildrenP : kLoopTest + kToChildrenP);
          first = false;
          const Lanes<Texel> children = w.load(0x1d0, children_, texel_index(cur));
          const Int leafchar = byte_at(children, kLeafChar);
          w.compute(kLeafTest);
          w.if_else(
              leafchar != 0 || force,
              [&] { up(w, children, leafchar, flank, matchlen, matchnum, cur, curchild, force, to_golden); },
              [&] { down(w, m, qaddr, matchaddr, matchlen, cur, curchild, force, to_golden); });
        });
  }

  // A leaf (or all children done): print it when left maximal, then back to the parent and its next child.
  void up(Warp& w, const Lanes<Texel>& children, const Int& leafchar, const Int& flank, Int& matchlen,
          Int& matchnum, Int& cur, Int& curchild, Bool& force, Int& to_golden) {
    w.compute(kLeftTest);
    w.if_(leafchar != 0 && leafchar != flank, [&] {
      w.compute(kPageTest);
      const Int left = mki(children, 0) - 1 + kPageBegin;
      const Int right = left + matchlen;
      w.if_((left != kPageBegin || kShadowLeft == -1) && (right != page_end_ || kShadowRight == -1), [&] {
        w.compute(kShadowTest);
        w.if_(!(left > kPageBegin && right < kShadowLeft), [&] {
          w.compute(kToStore);
          w.store(0x1e0, align_, matchnum * 2, left);
          w.store(0x1f0, align16_, matchnum * 4 + 2, matchlen);
          w.compute(kAfterStore);
          assign(w, matchnum, matchnum + 1);
        });
      });
    });
    assign(w, force, Bool(false));
    w.compute(kToNodeP);
    const Lanes<Texel> node = w.load(0x200, nodes_, texel_index(cur));
    const Int parent = address_at(node, kParent);
    w.compute(kToParentChildren);
    const Lanes<Texel> pch = w.load(0x210, children_, texel_index(parent));
    const Int pa = address_at(pch, 0), pc = address_at(pch, 3), pg = address_at(pch, 6),
              pt = address_at(pch, 9);
    w.compute(kWhichChild);
    w.if_(pa != cur, [&] {
      w.compute(kWhichNext);
      w.if_(pc != cur, [&] {
        w.compute(kWhichNext);
        w.if_(pg != cur, [&] { w.compute(kWhichLast); });
      });
    });
    assign(w, curchild,
           select<int64_t>(
               pa == cur, int64_t('C'),
               select<int64_t>(pc == cur, int64_t('G'),
                               select<int64_t>(pg == cur, int64_t('T'),
                                               select<int64_t>(pt == cur, int64_t('$'), curchild)))));
    assign(w, force, pa != cur && pc != cur && pg != cur && pt != cur);  // the $ child: up a level
    assign(w, cur, parent);
    w.compute(kAfterUp);
    assign(w, to_golden, select<int64_t>(to_golden != 0, to_golden - 1, to_golden));
    w.if_(to_golden == 0, [&] {
      w.compute(kToDepth);
      const Lanes<Texel> n = w.load(0x220, nodes_, texel_index(cur));
      assign(w, matchlen, mki(n, kDepth) - 1);
      w.compute(kAfterDepth);
    });
  }

  // Down to the next child (A, C, G, T, $ from curchild), tracking whether it is on the read's path.
  void down(Warp& w, const Int& m, const Int& qaddr, const Int& matchaddr, Int& matchlen, Int& cur,
            Int& curchild, Bool& force, Int& to_golden) {
    const Lanes<Texel> children = w.load(0x230, children_, texel_index(cur));
    w.compute(kGoldenTest);
    Int golden(0);
    w.if_(to_golden == 0, [&] {
      const Int qsp = w.load(0x240, minfo16_, m * 10 + 9).as<int64_t>();
      w.compute(kToGolden);
      assign(w, golden, w.load(0x250, queries_, qaddr + qsp + matchlen + 1).as<int64_t>());
    });
    Bool found(false);
    static constexpr char kOrder[5] = {'A', 'C', 'G', 'T', '$'};
    for (int k = 0; k < 5; ++k) {  // the do { } while (0) scan: each letter's test, from curchild on
      const Int next = address_at(children, 3 * k);
      w.if_(!found, [&] {
        w.compute(kTryChild);
        w.if_(curchild == int64_t(kOrder[k]), [&] {
          w.compute(kTestChild);
          w.if_else(
              next != 0,
              [&] {
                w.compute(kTakeChild);
                assign(w, cur, next);
                assign(w, found, Bool(true));
              },
              [&] {
                if (k < 4) assign(w, curchild, Int(int64_t(kOrder[k + 1])));
              });
        });
      });
    }
    w.compute(kAfterScan);
    assign(w, force, !found);
    w.if_(found, [&] {
      w.compute(kDepthTest);
      w.if_else(
          to_golden == 0,
          [&] {
            w.compute(kGoldenCmp);
            w.if_else(
                curchild == golden,
                [&] {
                  w.compute(kToGoldenNode);
                  const Lanes<Texel> node = w.load(0x260, nodes_, texel_index(cur));
                  assign(w, matchlen, mki(node, kDepth) - 1);
                  w.compute(kMatchTest);
                  w.if_(cur == matchaddr, [&] {  // past the match's end: off the path
                    assign(w, to_golden, Int(1));
                    const Int em = w.load(0x270, minfo16_, m * 10 + 8).as<int64_t>();
                    w.compute(kMatchEdge);
                    w.if_(em > 0, [&] {
                      w.compute(kToMatchParent);
                      const Lanes<Texel> pn = w.load(0x280, nodes_, texel_index(address_at(node, kParent)));
                      w.compute(kEdgeAgain);
                      const Int em2 = w.load(0x290, minfo16_, m * 10 + 8).as<int64_t>();
                      assign(w, matchlen, mki(pn, kDepth) - 1 + em2);
                      w.compute(kTail);
                    });
                  });
                },
                [&] { assign(w, to_golden, Int(1)); });
          },
          [&] {
            w.compute(kDepthInc);
            assign(w, to_golden, to_golden + 1);
          });
      assign(w, curchild, Int(int64_t('A')));
    });
  }

  static constexpr int64_t kPageBegin = 1, kShadowLeft = -1, kShadowRight = 0;  // one page: calloc'ed

  uint32_t bases_, num_queries_, read_length_, min_match_, mismatches_;
  uint64_t seed_;
  std::string reference_, refstr_;
  std::vector<std::string> reads_;
  std::vector<Expected> expected_;
  size_t slots_ = 0;
  int64_t page_end_ = 0;
  SuffixTree tree_;
  std::vector<uint32_t> pp_leaves_;
  uint32_t num_matches_ = 0;
  bool overflow_ = false;
  DeviceArray<char> ref_, queries_;
  DeviceArray<Texel> nodes_, children_;
  DeviceArray<int32_t> addrs_, lengths_;
  DeviceArray<uint64_t> coords_;
  DeviceArray<uint32_t> minfo_, align_;
  DeviceArray<uint16_t> minfo16_, align16_;
};

}  // namespace

void register_rodinia_mummergpu(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/mummergpu";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/accel-sim/gpu-app-collection @52c11fbc, src/cuda/rodinia/3.1/cuda/mummergpu (MUMmerGPU "
      "2.0: "
      "mummergpu.cu, mummergpu_kernel.cu, common.cu, suffix-tree.cpp, src/Makefile defaults)";
  p.input =
      "Rodinia's run: 'mummergpu NC_003997.fna NC_003997_q100bp.fna', B. anthracis (5.2 Mbp) and reads of "
      "100 "
      "bases drawn from it by genreads.py, min match 20 (default -l), forward strand, one reference page (8 "
      "M "
      "bases a page), one query block and one print round. The data files are not in the source (Rodinia's "
      "data package) and the whole genome's tree would need 2 x 160 MiB of textures: the reference is 20,000 "
      "uniform random bases (ispass/mum's size) and the reads 3,000 of its 100-base substrings at uniform "
      "starts (reads scaled so that the run stays near ispass/mum's cost), seeded (splitmix64; `mismatches` "
      "changes bases, for tests). About 32,000 tree nodes: node and children textures 4096 x 32 texels of 16 "
      "B (2 MiB each), 243,000 match coordinates (1.9 MiB), 243,000 MatchInfo (4.9 MiB), 243,000 alignment "
      "slots (1.9 MiB), reads 306 KB, reference 24 KB: 12.7 MiB in 9 arrays. mummergpuKernel 12 CTAs x 256, "
      "printKernel 950 CTAs x 256 (every start of an exact read matches; only its first is left maximal: "
      "3,000 alignments); 295,435 warp memory instructions (5.18 M with compute)";
  p.papers = "TSC (000: mummergpu, Rodinia)";
  p.kernels = "mummergpuKernel, printKernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t bases = s.get_uint("ref_bases", 20000, 32, 2000000);
    const uint64_t queries = s.get_uint("queries", 3000, 1, 2000000);
    const uint64_t min_match = s.get_uint("min_match", 20, 1, 1000);
    const uint64_t length = s.get_uint("read_length", 100, min_match, std::min<uint64_t>(bases, 1000));
    const uint64_t mismatches = s.get_uint("mismatches", 0, 0, 100);
    const uint64_t seed = s.get_uint("seed", 2010);
    return std::make_unique<MummerGpu>(uint32_t(bases), uint32_t(queries), uint32_t(length),
                                       uint32_t(min_match), uint32_t(mismatches), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
