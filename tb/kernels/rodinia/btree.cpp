// Rodinia 3.1 b+tree (CUDA): searches of a B+ tree of order 256 laid out for the GPU as an array of knodes
// (breadth-first, each knode: location, indices[257], keys[257] with INT_MIN / INT_MAX sentinels, is_leaf,
// num_keys: 2,068 bytes). Rodinia's command file runs `j 6000 3000` (findRangeK: 6,000 range searches of
// 3,000 keys, one CTA of 256 threads each, walking the start and the end key down the tree level by level)
// and then `k 10000` (findK: 10,000 single-key searches, one CTA each). Each CTA's threads compare their
// key slot with the searched key; the thread whose slot brackets it writes the next node's index, thread 0
// moves the CTA's current node there, with __syncthreads() between.
//
// Input: Rodinia reads the tree's keys from a data file (mil.txt, 1,000,000 keys). The port builds the tree
// the same way, by inserting keys one by one with the benchmark's own B+ tree code (insert, leaf split at
// cut(order - 1), internal split at cut(order), new root; duplicates ignored) and its transform_to_cuda
// (breadth-first numbering), from keys 0 .. size-1 in a seeded shuffled order (Fisher-Yates driven by glibc
// rand() after srand(size)). The search keys come from the benchmark's own rand() calls (no srand: seed 1),
// range starts first, then single keys. Both commands use the same knodes array (the benchmark copies the
// same tree into a fresh allocation per command).
#include <algorithm>
#include <climits>
#include <memory>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

constexpr int64_t kOrder = 256;               // DEFAULT_ORDER
constexpr int64_t kKnodeInts = 517;           // sizeof(knode) / 4: location, indices, keys, is_leaf, num_keys
constexpr int64_t kIndices = 1, kKeys = 258;  // int offsets of indices[0] and keys[0] in a knode
constexpr uint32_t kThreads = uint32_t(kOrder);  // order < 1024 ? order : 1024

// ptxas -v (nvcc 13.0, -arch=sm_75; sm_70 is no longer supported): registers per thread (no shared memory).
constexpr uint32_t kRegsFindK = 20, kRegsFindRangeK = 24;
// PTX instructions (nvcc --ptx -arch=sm_75; the level loop is unrolled 4 times) before the global accesses
// of one level: the node's key slot and the searched key, the next slot, the child index, and the final
// comparison. The loop's other accesses follow each other directly (0-1 instructions).
constexpr uint32_t kGapLevel = 5, kGapNext = 4, kGapChild = 3, kGapFinal = 4, kGapRecord = 3;

// The benchmark's B+ tree (main.c), with nodes in a vector instead of malloc.
class BPlusTree {
 public:
  struct Node {
    std::vector<int> keys;
    std::vector<int64_t> ptrs;  // children (node ids) or, in a leaf, record values; ptrs[order-1]: next leaf
    int64_t parent = -1;
    bool leaf = false;
    int num_keys = 0;
  };

  void insert(int key) {
    if (root_ >= 0 && find(key)) return;
    if (root_ < 0) {
      root_ = make(true);
      nodes_[size_t(root_)].keys[0] = key;
      nodes_[size_t(root_)].ptrs[0] = key;
      nodes_[size_t(root_)].num_keys = 1;
      return;
    }
    const int64_t leaf = find_leaf(key);
    if (nodes_[size_t(leaf)].num_keys < kOrder - 1) {
      insert_into_leaf(leaf, key);
      return;
    }
    split_leaf(leaf, key);
  }

  int height() const {
    int h = 0;
    for (int64_t c = root_; !nodes_[size_t(c)].leaf; c = nodes_[size_t(c)].ptrs[0]) ++h;
    return h;
  }

  // transform_to_cuda: knodes breadth-first, records in leaf order.
  void to_knodes(std::vector<int32_t>& knodes, std::vector<int32_t>& records) const {
    std::vector<int64_t> queue{root_};
    int64_t nodeindex = 1, queueindex = 0;
    knodes.assign(nodes_.size() * size_t(kKnodeInts), 0);
    records.clear();
    for (size_t q = 0; q < queue.size(); ++q) {
      const Node& n = nodes_[size_t(queue[q])];
      int32_t* k = &knodes[size_t(queueindex * kKnodeInts)];
      k[0] = int32_t(queueindex++);
      k[kKnodeInts - 2] = n.leaf;
      const int nk = n.num_keys + 2;
      k[kKnodeInts - 1] = nk;
      int32_t* keys = k + kKeys;
      int32_t* ind = k + kIndices;
      for (int64_t i = 0; i <= kOrder; ++i) keys[i] = INT_MAX;  // keys[order] is left unset by Rodinia
      keys[0] = INT_MIN;
      keys[nk - 1] = INT_MAX;
      int i;
      if (!n.leaf) {
        ind[0] = int32_t(nodeindex++);
        for (i = 1; i < nk - 1; ++i) {
          keys[i] = n.keys[size_t(i - 1)];
          queue.push_back(n.ptrs[size_t(i - 1)]);
          ind[i] = int32_t(nodeindex++);
        }
        queue.push_back(n.ptrs[size_t(i - 1)]);
      } else {
        ind[0] = 0;
        for (i = 1; i < nk - 1; ++i) {
          keys[i] = n.keys[size_t(i - 1)];
          records.push_back(int32_t(n.ptrs[size_t(i - 1)]));
          ind[i] = int32_t(records.size() - 1);
        }
      }
      ind[nk - 1] = int32_t(queueindex);
    }
    knodes.resize(size_t(queueindex * kKnodeInts));
  }

 private:
  int64_t make(bool leaf) {
    Node n;
    n.keys.assign(size_t(kOrder - 1), 0);
    n.ptrs.assign(size_t(kOrder), -1);
    n.leaf = leaf;
    nodes_.push_back(std::move(n));
    return int64_t(nodes_.size() - 1);
  }
  static int cut(int length) { return length % 2 == 0 ? length / 2 : length / 2 + 1; }

  int64_t find_leaf(int key) const {
    int64_t c = root_;
    while (!nodes_[size_t(c)].leaf) {
      const Node& n = nodes_[size_t(c)];
      int i = 0;
      while (i < n.num_keys && key >= n.keys[size_t(i)]) ++i;
      c = n.ptrs[size_t(i)];
    }
    return c;
  }
  bool find(int key) const {
    const Node& n = nodes_[size_t(find_leaf(key))];
    for (int i = 0; i < n.num_keys; ++i)
      if (n.keys[size_t(i)] == key) return true;
    return false;
  }
  void insert_into_leaf(int64_t id, int key) {
    Node& l = nodes_[size_t(id)];
    int at = 0;
    while (at < l.num_keys && l.keys[size_t(at)] < key) ++at;
    for (int i = l.num_keys; i > at; --i) {
      l.keys[size_t(i)] = l.keys[size_t(i - 1)];
      l.ptrs[size_t(i)] = l.ptrs[size_t(i - 1)];
    }
    l.keys[size_t(at)] = key;
    l.ptrs[size_t(at)] = key;
    ++l.num_keys;
  }
  void split_leaf(int64_t id, int key) {
    const int64_t nid = make(true);
    Node &l = nodes_[size_t(id)], &nl = nodes_[size_t(nid)];
    std::vector<int> tk(static_cast<size_t>(kOrder));
    std::vector<int64_t> tp(static_cast<size_t>(kOrder));
    int at = 0;
    while (at < kOrder - 1 && l.keys[size_t(at)] < key) ++at;
    for (int i = 0, j = 0; i < l.num_keys; ++i, ++j) {
      if (j == at) ++j;
      tk[size_t(j)] = l.keys[size_t(i)];
      tp[size_t(j)] = l.ptrs[size_t(i)];
    }
    tk[size_t(at)] = key;
    tp[size_t(at)] = key;
    const int split = cut(int(kOrder - 1));
    l.num_keys = 0;
    for (int i = 0; i < split; ++i, ++l.num_keys) {
      l.ptrs[size_t(i)] = tp[size_t(i)];
      l.keys[size_t(i)] = tk[size_t(i)];
    }
    for (int i = split, j = 0; i < kOrder; ++i, ++j, ++nl.num_keys) {
      nl.ptrs[size_t(j)] = tp[size_t(i)];
      nl.keys[size_t(j)] = tk[size_t(i)];
    }
    nl.ptrs[size_t(kOrder - 1)] = l.ptrs[size_t(kOrder - 1)];
    l.ptrs[size_t(kOrder - 1)] = nid;
    nl.parent = l.parent;
    insert_into_parent(id, nl.keys[0], nid);
  }
  void insert_into_parent(int64_t left, int key, int64_t right) {
    const int64_t parent = nodes_[size_t(left)].parent;
    if (parent < 0) {
      const int64_t r = make(false);
      Node& n = nodes_[size_t(r)];
      n.keys[0] = key;
      n.ptrs[0] = left;
      n.ptrs[1] = right;
      n.num_keys = 1;
      nodes_[size_t(left)].parent = nodes_[size_t(right)].parent = r;
      root_ = r;
      return;
    }
    Node& p = nodes_[size_t(parent)];
    int left_index = 0;
    while (left_index <= p.num_keys && p.ptrs[size_t(left_index)] != left) ++left_index;
    if (p.num_keys < kOrder - 1) {
      for (int i = p.num_keys; i > left_index; --i) {
        p.ptrs[size_t(i + 1)] = p.ptrs[size_t(i)];
        p.keys[size_t(i)] = p.keys[size_t(i - 1)];
      }
      p.ptrs[size_t(left_index + 1)] = right;
      p.keys[size_t(left_index)] = key;
      ++p.num_keys;
      return;
    }
    split_node(parent, left_index, key, right);
  }
  void split_node(int64_t old, int left_index, int key, int64_t right) {
    std::vector<int64_t> tp(static_cast<size_t>(kOrder + 1));
    std::vector<int> tk(static_cast<size_t>(kOrder));
    {
      const Node& o = nodes_[size_t(old)];
      for (int i = 0, j = 0; i < o.num_keys + 1; ++i, ++j) {
        if (j == left_index + 1) ++j;
        tp[size_t(j)] = o.ptrs[size_t(i)];
      }
      for (int i = 0, j = 0; i < o.num_keys; ++i, ++j) {
        if (j == left_index) ++j;
        tk[size_t(j)] = o.keys[size_t(i)];
      }
    }
    tp[size_t(left_index + 1)] = right;
    tk[size_t(left_index)] = key;
    const int split = cut(int(kOrder));
    const int64_t nid = make(false);
    Node &o = nodes_[size_t(old)], &nn = nodes_[size_t(nid)];
    o.num_keys = 0;
    int i;
    for (i = 0; i < split - 1; ++i, ++o.num_keys) {
      o.ptrs[size_t(i)] = tp[size_t(i)];
      o.keys[size_t(i)] = tk[size_t(i)];
    }
    o.ptrs[size_t(i)] = tp[size_t(i)];
    const int k_prime = tk[size_t(split - 1)];
    int j;
    for (++i, j = 0; i < kOrder; ++i, ++j, ++nn.num_keys) {
      nn.ptrs[size_t(j)] = tp[size_t(i)];
      nn.keys[size_t(j)] = tk[size_t(i)];
    }
    nn.ptrs[size_t(j)] = tp[size_t(i)];
    nn.parent = o.parent;
    for (int c = 0; c <= nn.num_keys; ++c) nodes_[size_t(nn.ptrs[size_t(c)])].parent = nid;
    insert_into_parent(old, k_prime, nid);
  }

  std::vector<Node> nodes_;
  int64_t root_ = -1;
};

class BTree : public KernelPort {
 public:
  BTree(int64_t size, int64_t k_count, int64_t j_count, int64_t j_range)
      : size_(size), k_count_(k_count), j_count_(j_count), j_range_(j_range) {}

  void setup(DeviceMemory& mem) override {
    // The tree: keys 0 .. size-1 inserted in a seeded shuffled order.
    std::vector<int> keys(static_cast<size_t>(size_));
    for (int64_t i = 0; i < size_; ++i) keys[size_t(i)] = int(i);
    LibcRand shuffle{uint32_t(size_)};
    for (int64_t i = size_ - 1; i > 0; --i)
      std::swap(keys[size_t(i)], keys[size_t(shuffle.rand() % (i + 1))]);
    BPlusTree tree;
    for (int k : keys) tree.insert(k);
    height_ = tree.height();
    std::vector<int32_t> knodes, records;
    tree.to_knodes(knodes, records);
    knodes_elem_ = int64_t(knodes.size()) / kKnodeInts;

    // The commands' search keys (rand() with the default seed): j's starts, then k's keys.
    LibcRand rng(1);
    std::vector<int32_t> start(static_cast<size_t>(j_count_)), end(static_cast<size_t>(j_count_)),
        find(static_cast<size_t>(k_count_));
    for (int64_t i = 0; i < j_count_; ++i) {
      start[size_t(i)] = int32_t(float(rng.rand()) / float(LibcRand::kRandMax) * float(size_));
      end[size_t(i)] = int32_t(start[size_t(i)] + j_range_);
      if (end[size_t(i)] >= size_) {
        start[size_t(i)] = int32_t(start[size_t(i)] - (end[size_t(i)] - size_));
        end[size_t(i)] = int32_t(size_ - 1);
      }
    }
    for (int64_t i = 0; i < k_count_; ++i)
      find[size_t(i)] = int32_t(float(rng.rand()) / float(LibcRand::kRandMax) * float(size_));

    // kernel_gpu_cuda_wrapper_2 (j), then kernel_gpu_cuda_wrapper (k), in their cudaMalloc order.
    knodes_ = mem.alloc<int32_t>("knodesD", knodes.size());
    knodes_.host() = knodes;
    const size_t J = size_t(j_count_), K = size_t(k_count_);
    j_curr_ = mem.alloc<int64_t>("currKnodeD (j)", J, 0);
    j_offset_ = mem.alloc<int64_t>("offsetD (j)", J, 0);
    j_last_ = mem.alloc<int64_t>("lastKnodeD", J, 0);
    j_offset2_ = mem.alloc<int64_t>("offset_2D", J, 0);
    start_ = mem.alloc<int32_t>("startD", J);
    start_.host() = start;
    end_ = mem.alloc<int32_t>("endD", J);
    end_.host() = end;
    recstart_ = mem.alloc<int32_t>("RecstartD", J, 0);
    reclen_ = mem.alloc<int32_t>("ReclenD", J, 0);
    records_ = mem.alloc<int32_t>("recordsD", records.size());
    records_.host() = records;
    k_curr_ = mem.alloc<int64_t>("currKnodeD (k)", K, 0);
    k_offset_ = mem.alloc<int64_t>("offsetD (k)", K, 0);
    keys_ = mem.alloc<int32_t>("keysD", K);
    keys_.host() = find;
    ans_ = mem.alloc<int32_t>("ansD", K, -1);
  }

  void run(Launcher& host) override {
    if (j_count_ > 0) {
      KernelLaunch k;
      k.name = "findRangeK";
      k.grid = {uint32_t(j_count_), 1, 1};
      k.block = {kThreads, 1, 1};
      k.regs_per_thread = kRegsFindRangeK;
      k.body = [this](Warp& w) { find_range_k(w); };
      host.launch(std::move(k));
    }
    if (k_count_ > 0) {
      KernelLaunch k;
      k.name = "findK";
      k.grid = {uint32_t(k_count_), 1, 1};
      k.block = {kThreads, 1, 1};
      k.regs_per_thread = kRegsFindK;
      k.body = [this](Warp& w) { find_k(w); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override {
    // Keys 0 .. size-1 are all in the tree and record value = key: findK answers the key itself, a range
    // search starts at record `start` (records are in key order) and spans end - start + 1 records.
    for (int64_t i = 0; i < k_count_; ++i) {
      const int32_t want = keys_[size_t(i)] < size_ ? keys_[size_t(i)] : -1;  // rand() = RAND_MAX: key = size
      if (ans_[size_t(i)] != want)
        return "ans[" + std::to_string(i) + "] = " + std::to_string(ans_[size_t(i)]) + ", expected " +
               std::to_string(want);
    }
    for (int64_t i = 0; i < j_count_; ++i) {
      if (recstart_[size_t(i)] != start_[size_t(i)])
        return "recstart[" + std::to_string(i) + "] = " + std::to_string(recstart_[size_t(i)]) +
               ", expected " + std::to_string(start_[size_t(i)]);
      const int32_t len = end_[size_t(i)] - start_[size_t(i)] + 1;
      if (reclen_[size_t(i)] != len)
        return "reclen[" + std::to_string(i) + "] = " + std::to_string(reclen_[size_t(i)]) + ", expected " +
               std::to_string(len);
    }
    return "";
  }

 private:
  Int key_slot(const Lanes<int64_t>& node, const Int& thid) const { return node * kKnodeInts + kKeys + thid; }
  Int index_slot(const Lanes<int64_t>& node, const Int& thid) const {
    return node * kKnodeInts + kIndices + thid;
  }

  // One tree level of a search: the thread whose key slot brackets `key` stores the child's index to
  // `offset` (its node read from `node_of`, findK's quirk: offsetD, findRangeK: currKnodeD).
  void descend(Warp& w, uint32_t pc, DeviceArray<int64_t>& curr, DeviceArray<int32_t>& key_arr,
               DeviceArray<int64_t>& offset, DeviceArray<int64_t>* node_of, int64_t bid) {
    const Int thid = w.thread_idx_x();
    w.compute(kGapLevel);
    const Lanes<int64_t> node = w.load(pc, curr, Int(bid));
    const Lanes<int32_t> k0 = w.load(pc + 0x10, knodes_, key_slot(node, thid));
    const Lanes<int32_t> key = w.load(pc + 0x20, key_arr, Int(bid));
    w.if_(k0 <= key, [&] {
      w.compute(kGapNext);
      const Lanes<int32_t> k1 = w.load(pc + 0x30, knodes_, key_slot(node, thid + 1));
      w.if_(k1 > key, [&] {
        const Lanes<int64_t> from = node_of ? w.load(pc + 0x40, *node_of, Int(bid)) : node;
        w.compute(kGapChild);
        const Lanes<int32_t> child = w.load(pc + 0x50, knodes_, index_slot(from, thid));
        w.if_(child < knodes_elem_, [&] { w.store(pc + 0x60, offset, Int(bid), child); });
      });
    });
  }

  void find_k(Warp& w) {
    const int64_t bid = w.block_idx().x;
    const Int thid = w.thread_idx_x();
    for (int i = 0; i < height_; ++i) {
      descend(w, 0x10, k_curr_, keys_, k_offset_, &k_offset_, bid);
      w.sync();
      w.if_(thid == 0, [&] { w.store(0x90, k_curr_, Int(bid), w.load(0x80, k_offset_, Int(bid))); });
      w.sync();
    }
    w.compute(kGapFinal);
    const Lanes<int64_t> node = w.load(0xa0, k_curr_, Int(bid));
    const Lanes<int32_t> k = w.load(0xb0, knodes_, key_slot(node, thid));
    const Lanes<int32_t> key = w.load(0xc0, keys_, Int(bid));
    w.if_(k == key, [&] {
      const Lanes<int32_t> rec = w.load(0xd0, knodes_, index_slot(node, thid));
      w.compute(kGapRecord);
      w.store(0xf0, ans_, Int(bid), w.load(0xe0, records_, rec.as<int64_t>()));
    });
  }

  void find_range_k(Warp& w) {
    const int64_t bid = w.block_idx().x;
    const Int thid = w.thread_idx_x();
    for (int i = 0; i < height_; ++i) {
      descend(w, 0x110, j_curr_, start_, j_offset_, nullptr, bid);
      descend(w, 0x180, j_last_, end_, j_offset2_, nullptr, bid);
      w.sync();
      w.if_(thid == 0, [&] {
        w.store(0x210, j_curr_, Int(bid), w.load(0x200, j_offset_, Int(bid)));
        w.store(0x230, j_last_, Int(bid), w.load(0x220, j_offset2_, Int(bid)));
      });
      w.sync();
    }
    w.compute(kGapFinal);
    const Lanes<int64_t> node = w.load(0x240, j_curr_, Int(bid));
    const Lanes<int32_t> k = w.load(0x250, knodes_, key_slot(node, thid));
    const Lanes<int32_t> s = w.load(0x260, start_, Int(bid));
    w.if_(k == s,
          [&] { w.store(0x280, recstart_, Int(bid), w.load(0x270, knodes_, index_slot(node, thid))); });
    w.sync();
    w.compute(kGapFinal);
    const Lanes<int64_t> last = w.load(0x290, j_last_, Int(bid));
    const Lanes<int32_t> kl = w.load(0x2a0, knodes_, key_slot(last, thid));
    const Lanes<int32_t> e = w.load(0x2b0, end_, Int(bid));
    w.if_(kl == e, [&] {
      const Lanes<int32_t> idx = w.load(0x2c0, knodes_, index_slot(last, thid));
      const Lanes<int32_t> rs = w.load(0x2d0, recstart_, Int(bid));
      w.compute(kGapRecord);
      w.store(0x2e0, reclen_, Int(bid), idx - rs + 1);
    });
  }

  int64_t size_, k_count_, j_count_, j_range_;
  int height_ = 0;
  int64_t knodes_elem_ = 0;
  DeviceArray<int32_t> knodes_, start_, end_, recstart_, reclen_, records_, keys_, ans_;
  DeviceArray<int64_t> j_curr_, j_offset_, j_last_, j_offset2_, k_curr_, k_offset_;
};

}  // namespace

void register_rodinia_btree(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/b+tree";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/b+tree/main.c + kernel/kernel_gpu_cuda.cu + "
      "kernel/kernel_gpu_cuda_2.cu + their wrappers @ 9c10d3e";
  p.input =
      "Rodinia's run: mil.txt (1,000,000 keys) and command.txt (j 6000 3000, k 10000); the port inserts keys "
      "0..size-1 in a seeded shuffled order with the benchmark's B+ tree code (order 256) instead of reading "
      "mil.txt, and keeps the commands: 1,000,000 keys (height 2, ~12 MiB of knodes + 4 MiB of records, "
      "about "
      "the 13.7 MB paper 004 lists; 20x the fermi LLC)";
  p.papers = "TSC/TSC+ (000), Decoupled L1D (002, BT), H-Xbar LLC (004, BT)";
  p.kernels = "findRangeK, findK";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t size = s.get_uint("keys", 1000000, 2, 16000000);
    const uint64_t k = s.get_uint("k_count", 10000, 0, 65535);
    const uint64_t j = s.get_uint("j_count", 6000, 0, 65535);
    const uint64_t range = s.get_uint("j_range", 3000, 0, size - 1);
    return std::make_unique<BTree>(int64_t(size), int64_t(k), int64_t(j), int64_t(range));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
