// Parboil 2.5 bfs (CUDA, Luo/Wong/Hwu DAC'10): breadth-first search from a source node with per-block
// hierarchical queues. Each thread visits one frontier node (visit_node): marks it BLACK, reads its cost and
// its (start, degree) node record, and for each edge does atomicMin on the neighbour's cost and, when that
// lowered it, atomicExch of the neighbour's colour with the level's gray shade; a neighbour that was not
// already of that shade is appended to one of NUM_BIN = 8 shared-memory queues (shared atomicAdd on the
// queue tail; a tail past W_QUEUE_SIZE = 400 sets the overflow flag instead). Thread 0 scans the queue sizes
// and the block's queues are concatenated into the next frontier. The host picks, per frontier of num_t
// nodes: 1 block -> BFS_in_GPU_kernel (one CTA of 512 threads, several levels in one launch while the
// frontier stays <= 512, through shared next_wf), 2..14 blocks -> BFS_kernel_multi_blk_inGPU (14 CTAs,
// levels separated by an inter-CTA spin barrier), more -> BFS_kernel (one level).
// Port notes:
// - BFS_kernel_multi_blk_inGPU's barrier needs all 14 CTAs resident at once; the port's CTAs do not run that
//   way, so the kernel is launched once per BFS level: each launch runs one iteration of the kernel's loop
//   (its body exactly as the kernel computes it) and the spin barrier after it becomes the launch boundary.
//   Launch j > 0 starts with the rest of iteration j - 1 (block 0's stay decision, the second barrier, every
//   thread's read of stay_vol); a last launch runs the final decision and the kernel's exit stores. Every
//   barrier arrival is thread 0's atomicAdd on `count` and one volatile read of it (the spin's last read;
//   the real number of spins is timing). Values block 0 writes before a barrier for the other CTAs to read
//   after it (stay_vol, no_of_nodes_vol, tail = 0) are applied by the host before the launch, as the barrier
//   guarantees; block 0's instructions write the same values at their place. The first launch's write of
//   no_of_nodes_vol (unordered with the other CTAs' reads in the source) is treated the same way.
// - gray_shade is a per-thread parameter that only thread 0 toggles (as in the source); the port keeps it
//   per lane and carries thread 0's shade from one level launch to the next.
// - tex1Dfetch of the node and edge records are emitted as 8-byte global loads (what __ldg compiles to).
// - Parboil's per-block queue limit is the source's: an overflow sets the flag, the host stops (as the
//   source's host does: no result), and check() reports it.
// Compute gaps, registers and shared memory: nvcc 13 -arch=sm_75 on kernel.cu with tex1Dfetch replaced by
// __ldg (texture references no longer compile).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// ptxas -v (sm_75): registers per thread and static shared memory per CTA.
constexpr uint32_t kRegsOne = 30, kRegsMulti = 32, kRegsBfs = 28;
constexpr uint32_t kShmemOne = 14948, kShmemMulti = 12908, kShmemBfs = 12900;
// PTX instructions between global memory instructions (visit_node inlined alike in the three kernels;
// counted in BFS_kernel's remainder edge loop; the kernels' own parts in their PTX).
constexpr uint32_t kReset = 10, kBarToQueue = 9, kQueueToColor = 4, kColorToCost = 2, kCostToNode = 2,
                   kNodeToEdge = 12, kEdgeToMin = 4, kMinTest = 2, kMinToExch = 2, kExchToAppend = 5,
                   kAppendToSlot = 6, kOverflowGap = 3, kEdgeTail = 5, kSumToTail = 12, kConcatEntry = 38,
                   kConcatLoop = 6, kPrologue = 10, kKtGap = 2, kBarrierGap = 2, kDecisionGap = 2,
                   kStayGap = 2, kExitGap = 4, kOneTailGap = 26;
constexpr int kMaxThreads = 512, kNumSm = 14, kNumBin = 8, kQueueSize = 400;
constexpr int32_t kInf = 2147483647, kWhite = 16677217, kGray0 = 16677219, kGray1 = 16677220,
                  kBlack = 16677221;

// Shared-memory slots of the LocalQueues and the kernels' own shared variables.
enum Slot : unsigned { kTail, kElems, kSharers, kPrefix, kMisc, kNextWf };
enum Misc : int { kShift, kTotSum, kNodesSm, kOddTime };

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Int lo32(const Lanes<uint64_t>& v) {
  return map(v, [](uint64_t x) { return int64_t(int32_t(uint32_t(x))); });
}
Int hi32(const Lanes<uint64_t>& v) {
  return map(v, [](uint64_t x) { return int64_t(int32_t(uint32_t(x >> 32))); });
}
uint64_t pack(int32_t x, int32_t y) {
  return uint64_t(uint32_t(x)) | uint64_t(uint32_t(y)) << 32;
}

// Candidate grid edges beyond the spanning tree: nodes with both a left and an up neighbour.
uint64_t extra_candidates(uint64_t n, uint64_t width) {
  uint64_t c = 0;
  for (uint64_t y = 1; y * width < n; ++y) c += std::min(width, n - y * width) - 1;
  return c;
}
uint64_t grid_width(uint64_t n) {
  uint64_t w = 1;
  while (w * w < n) ++w;
  return w;
}

class Bfs : public KernelPort {
 public:
  Bfs(uint32_t nodes, uint32_t edges, uint32_t source, uint64_t seed, bool random)
      : n_(nodes), m_(edges), source_(source), seed_(seed), random_(random) {}

  void setup(DeviceMemory& mem) override {
    // Road-like graph: a grid of width ceil(sqrt(n)), a random spanning tree (each node linked to its left
    // or upper neighbour) plus random other grid links up to m / 2 undirected edges (m directed arcs),
    // cost 1.
    const uint64_t width = grid_width(n_);
    std::vector<std::vector<int32_t>> adj(n_);
    std::vector<std::pair<uint32_t, uint32_t>> spare;
    uint64_t s = seed_;
    for (uint32_t i = 1; i < n_ && !random_; ++i) {
      const uint64_t x = i % width, y = i / width;
      const bool left = y == 0 || (x > 0 && (splitmix(s) & 1));
      const uint32_t a = left ? i - 1 : uint32_t(i - width);
      adj[i].push_back(int32_t(a));
      adj[a].push_back(int32_t(i));
      if (x > 0 && y > 0) spare.emplace_back(i, left ? uint32_t(i - width) : i - 1);
    }
    // random: m / 2 uniform random undirected links, no self loops (a near-regular graph of low diameter,
    // as Parboil's 1M input; its large frontiers reach BFS_kernel).
    for (uint64_t k = 0; k < m_ / 2 && random_;) {
      const uint32_t a = uint32_t(splitmix(s) % n_), b = uint32_t(splitmix(s) % n_);
      if (a == b) continue;
      adj[a].push_back(int32_t(b));
      adj[b].push_back(int32_t(a));
      ++k;
    }
    const uint64_t extra = random_ ? 0 : m_ / 2 - (n_ - 1);
    for (uint64_t k = 0; k < extra; ++k) {
      const uint64_t j = k + splitmix(s) % (spare.size() - k);
      std::swap(spare[k], spare[j]);
      adj[spare[k].first].push_back(int32_t(spare[k].second));
      adj[spare[k].second].push_back(int32_t(spare[k].first));
    }
    // Module globals (count, no_of_nodes_vol, stay_vol), then main's cudaMalloc order.
    count_ = mem.alloc<int32_t>("count", 1);
    nodes_vol_ = mem.alloc<int32_t>("no_of_nodes_vol", 1);
    stay_vol_ = mem.alloc<int32_t>("stay_vol", 1);
    nodes_ = mem.alloc<uint64_t>("d_graph_nodes", n_);
    edges_ = mem.alloc<uint64_t>("d_graph_edges", m_);
    color_ = mem.alloc<int32_t>("d_color", n_, kWhite);
    cost_ = mem.alloc<int32_t>("d_cost", n_, kInf);
    q1_ = mem.alloc<int32_t>("d_q1", n_);
    q2_ = mem.alloc<int32_t>("d_q2", n_);
    tail_ = mem.alloc<int32_t>("tail", 1);
    mem.alloc<int32_t>("front_cost_d", 1);
    switch_k_ = mem.alloc<int32_t>("switch_kd", 1);
    num_td_ = mem.alloc<int32_t>("num_td", 1);
    mem.alloc<uint8_t>("stay", 1);
    mem.alloc<int32_t>("max_nodes_per_block_d", 1);
    global_kt_ = mem.alloc<int32_t>("global_kt_d", 1);
    overflow_ = mem.alloc<int32_t>("d_overflow", 1);
    uint32_t next = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      std::sort(adj[i].begin(), adj[i].end());
      nodes_[i] = pack(int32_t(next), int32_t(adj[i].size()));
      for (int32_t d : adj[i]) edges_[next++] = pack(d, 1);
    }
  }

  void run(Launcher& host) override {
    tail_[0] = 1;
    cost_[source_] = 0;
    q1_[0] = int32_t(source_);
    global_kt_[0] = 0;
    overflow_[0] = 0;
    int k = 0;
    for (;;) {
      const int num_t = tail_[0];
      tail_[0] = 0;
      if (num_t == 0) break;
      int blocks = 1;
      if (num_t > kMaxThreads) blocks = (num_t + kMaxThreads - 1) / kMaxThreads;
      const bool even = k % 2 == 0;
      DeviceArray<int32_t>& qa = even ? q1_ : q2_;
      DeviceArray<int32_t>& qb = even ? q2_ : q1_;
      const int32_t gray = even ? kGray0 : kGray1;
      if (blocks == 1) {
        launch_one(host, qa, qb, gray, num_t);
      } else if (blocks <= kNumSm) {
        num_td_[0] = num_t;
        launch_multi(host, qa, qb, gray);
        if (!switch_k_[0]) --k;
      } else {
        launch_bfs(host, qa, qb, gray, num_t, blocks);
      }
      ++k;
      if (overflow_[0]) return;  // the source prints an error and exits
    }
  }

  std::string check() const override {
    if (overflow_[0]) return "local queue overflow (W_QUEUE_SIZE " + std::to_string(kQueueSize) + ")";
    std::vector<int32_t> want(n_, kInf);
    std::deque<uint32_t> q{source_};
    want[source_] = 0;
    while (!q.empty()) {
      const uint32_t u = q.front();
      q.pop_front();
      const uint64_t rec = nodes_[u];
      const uint32_t start = uint32_t(rec), deg = uint32_t(rec >> 32);
      for (uint32_t e = start; e < start + deg; ++e) {
        const uint32_t v = uint32_t(edges_[e]);
        if (want[v] == kInf) want[v] = want[u] + 1, q.push_back(v);
      }
    }
    for (uint32_t i = 0; i < n_; ++i)
      if (cost_[i] != want[i])
        return "cost[" + std::to_string(i) + "] = " + std::to_string(cost_[i]) + ", expected " +
               std::to_string(want[i]);
    return "";
  }

 private:
  // LocalQueues::reset for threads < NUM_BIN.
  void reset(Warp& w) {
    const Int tid = w.thread_in_block();
    w.if_(tid < int64_t(kNumBin), [&] {
      const int64_t bd = int64_t(w.block_dim().x);
      w.compute(kReset);
      w.shared_store(w.shared<int32_t>(kTail, kNumBin), tid, 0);
      w.shared_store(w.shared<int32_t>(kSharers, kNumBin), tid, (tid * 0 + (bd >> 3)) + (tid < (bd & 7)));
    });
  }

  // visit_node: PCs pc .. pc + 0x60.
  void visit(Warp& w, uint32_t pc, const Int& pid, const Int& gray) {
    const Int index = w.thread_in_block() & 7;
    w.compute(kQueueToColor);
    w.store(pc, color_, pid, kBlack);
    w.compute(kColorToCost);
    const Int cur_cost = w.load(pc + 0x10, cost_, pid).as<int64_t>();
    w.compute(kCostToNode);
    const Lanes<uint64_t> node = w.load(pc + 0x20, nodes_, pid);
    const Int start = lo32(node), deg = hi32(node);
    w.compute(kNodeToEdge);
    w.for_(start, start + deg, Int(1), [&](const Int& i) {
      const Lanes<uint64_t> edge = w.load(pc + 0x30, edges_, i);
      const Int id = lo32(edge);
      const Int cost = hi32(edge) + cur_cost;
      w.compute(kEdgeToMin);
      const Int orig = w.atomic_min(pc + 0x40, cost_, id, cost).as<int64_t>();
      w.compute(kMinTest);
      w.if_(orig > cost, [&] {
        w.compute(kMinToExch);
        const Int old = w.atomic_exch(pc + 0x50, color_, id, gray).as<int64_t>();
        w.if_(old != gray, [&] {
          w.compute(kExchToAppend);
          // LocalQueues::append: shared atomicAdd on tail[index], lane by lane.
          std::vector<int32_t>& tails = w.shared<int32_t>(kTail, kNumBin);
          Int slot(0);
          for (uint32_t b = w.active(); b; b &= b - 1) {
            const unsigned l = unsigned(__builtin_ctz(b));
            slot.v[l] = tails[size_t(index.v[l])]++;
          }
          w.compute(1);
          w.if_else(
              slot >= int64_t(kQueueSize),
              [&] {
                w.compute(kOverflowGap);
                w.store(pc + 0x60, overflow_, Int(0), 1);
              },
              [&] {
                w.compute(kAppendToSlot);
                w.shared_store(w.shared<int32_t>(kElems, kNumBin * kQueueSize), index * kQueueSize + slot,
                               id);
              });
        });
      });
      w.compute(kEdgeTail);
    });
  }

  // Thread 0: LocalQueues::size_prefix_sum; returns the total (lane 0).
  int32_t prefix_sum(Warp& w) {
    std::vector<int32_t>& tails = w.shared<int32_t>(kTail, kNumBin);
    std::vector<int32_t>& prefix = w.shared<int32_t>(kPrefix, kNumBin);
    prefix[0] = 0;
    for (int i = 1; i < kNumBin; ++i) prefix[size_t(i)] = prefix[size_t(i - 1)] + tails[size_t(i - 1)];
    w.compute(kSumToTail + 15);  // 15 shared accesses
    return prefix[kNumBin - 1] + tails[kNumBin - 1];
  }

  // LocalQueues::concatenate into dst[base + ...] (global, at pc) or into the shared next_wf (pc 0).
  void concatenate(Warp& w, uint32_t pc, DeviceArray<int32_t>* dst, int64_t base) {
    const Int tid = w.thread_in_block();
    const Int qi = tid & 7;
    Int shift = tid >> 3;
    std::vector<int32_t>& tails = w.shared<int32_t>(kTail, kNumBin);
    std::vector<int32_t>& sharers = w.shared<int32_t>(kSharers, kNumBin);
    std::vector<int32_t>& prefix = w.shared<int32_t>(kPrefix, kNumBin);
    std::vector<int32_t>& elems = w.shared<int32_t>(kElems, kNumBin * kQueueSize);
    const Int tq = w.shared_load(tails, qi).as<int64_t>();
    const Int pq = w.shared_load(prefix, qi).as<int64_t>();
    const Int sh = w.shared_load(sharers, qi).as<int64_t>();
    w.compute(kConcatEntry);
    w.while_([&] { return shift < tq; },
             [&] {
               const Int v = w.shared_load(elems, qi * kQueueSize + shift).as<int64_t>();
               if (dst)
                 w.store(pc, *dst, pq + shift + base, v);
               else
                 w.shared_store(w.shared<int32_t>(kNextWf, kMaxThreads), pq + shift, v);
               shift = shift + sh;
               w.compute(kConcatLoop);
             });
  }

  // BFS_in_GPU_kernel: one CTA, levels while the frontier fits one block. PCs 0x100..
  void launch_one(Launcher& host, DeviceArray<int32_t>& qa, DeviceArray<int32_t>& qb, int32_t gray,
                  int num_t) {
    KernelLaunch kl;
    kl.name = "BFS_in_GPU_kernel";
    kl.grid = {1, 1, 1};
    kl.block = {uint32_t(kMaxThreads), 1, 1};
    kl.regs_per_thread = kRegsOne;
    kl.shmem_per_cta = kShmemOne;
    kl.body = [this, &qa, &qb, gray, num_t](Warp& w) {
      const Int tid = w.thread_in_block();
      std::vector<int32_t>& misc = w.shared<int32_t>(kMisc, 4);
      Int shade(gray);
      int64_t nodes = num_t;
      w.if_(tid == 0, [&] { w.shared_store(misc, Int(kTotSum), 0); });
      for (;;) {
        reset(w);
        w.sync();
        const Int gtid = int64_t(w.block_idx().x) * kMaxThreads + tid;
        const bool first = misc[kTotSum] == 0;
        w.if_(gtid < nodes, [&] {
          w.compute(kBarToQueue);
          const Int pid = first ? w.load(0x100, qa, gtid).as<int64_t>()
                                : w.shared_load(w.shared<int32_t>(kNextWf, kMaxThreads), gtid).as<int64_t>();
          visit(w, 0x110, pid, shade);
        });
        w.sync();
        w.if_(tid == 0, [&] {
          const int32_t tot = prefix_sum(w);
          misc[kTotSum] = tot;
          w.compute(kOneTailGap);
          w.store(0x180, tail_, Int(0), tot);
        });
        w.sync();
        const int32_t tot = misc[kTotSum];
        if (tot == 0) return;
        if (tot <= kMaxThreads) {
          concatenate(w, 0, nullptr, 0);
          w.sync();
          nodes = tot;
          w.if_(tid == 0, [&] {
            for (unsigned l = 0; l < kWarpSize; ++l)
              if (w.active() >> l & 1) shade.v[l] = shade.v[l] == kGray0 ? kGray1 : kGray0;
          });
        } else {
          concatenate(w, 0x190, &qb, 0);
          return;
        }
      }
    };
    host.launch(std::move(kl));
  }

  // BFS_kernel: one level over `blocks` CTAs. PCs 0x500..
  void launch_bfs(Launcher& host, DeviceArray<int32_t>& qa, DeviceArray<int32_t>& qb, int32_t gray, int num_t,
                  int blocks) {
    KernelLaunch kl;
    kl.name = "BFS_kernel";
    kl.grid = {uint32_t(blocks), 1, 1};
    kl.block = {uint32_t(kMaxThreads), 1, 1};
    kl.regs_per_thread = kRegsBfs;
    kl.shmem_per_cta = kShmemBfs;
    kl.body = [this, &qa, &qb, gray, num_t](Warp& w) {
      const Int tid = w.thread_in_block();
      std::vector<int32_t>& misc = w.shared<int32_t>(kMisc, 4);
      reset(w);
      w.sync();
      const Int gtid = int64_t(w.block_idx().x) * kMaxThreads + tid;
      w.if_(gtid < int64_t(num_t), [&] {
        w.compute(kBarToQueue);
        const Int pid = w.load(0x500, qa, gtid).as<int64_t>();
        visit(w, 0x510, pid, Int(gray));
      });
      w.sync();
      w.if_(tid == 0, [&] {
        const int32_t tot = prefix_sum(w);
        const Lanes<int32_t> old = w.atomic_add(0x580, tail_, Int(0), tot);
        misc[kShift] = old.v[0];
      });
      w.sync();
      concatenate(w, 0x590, &qb, misc[kShift]);
    };
    host.launch(std::move(kl));
  }

  // Barrier arrival (start_global_barrier): thread 0's atomicAdd on count and the spin's passing read.
  void barrier(Warp& w, uint32_t pc) {
    const Int tid = w.thread_in_block();
    w.sync();
    w.if_(tid == 0, [&] {
      w.compute(kBarrierGap);
      w.atomic_add(pc, count_, Int(0), 1);
      w.compute(1);
      w.load(pc + 0x10, count_, Int(0));
    });
    w.sync();
  }

  // BFS_kernel_multi_blk_inGPU, one launch per level (see the file's header). PCs 0x200..
  void launch_multi(Launcher& host, DeviceArray<int32_t>& qa, DeviceArray<int32_t>& qb, int32_t gray) {
    int odd = 1;
    int32_t shade0 = gray;  // thread 0's gray shade; the other threads keep `gray`
    bool stay = true;
    for (int level = 0;; ++level) {
      // The host applies what block 0 decides between the barriers (see the header).
      bool decided_stay = true;
      if (level == 0) {
        nodes_vol_[0] = num_td_[0];
      } else {
        const int32_t t = tail_[0];
        stay_vol_[0] = 0;
        decided_stay = t < kNumSm * kMaxThreads && t > kMaxThreads;
        if (decided_stay) {
          stay_vol_[0] = 1;
          nodes_vol_[0] = t;
          tail_[0] = 0;
        }
      }
      stay = decided_stay;
      KernelLaunch kl;
      kl.name = "BFS_kernel_multi_blk_inGPU";
      kl.grid = {uint32_t(kNumSm), 1, 1};
      kl.block = {uint32_t(kMaxThreads), 1, 1};
      kl.regs_per_thread = kRegsMulti;
      kl.shmem_per_cta = kShmemMulti;
      kl.body = [this, &qa, &qb, gray, shade0, odd, level, stay](Warp& w) {
        const Int tid = w.thread_in_block();
        const bool blk0 = w.block_idx().x == 0;
        std::vector<int32_t>& misc = w.shared<int32_t>(kMisc, 4);
        Int shade(gray);
        shade.v[0] = w.warp_in_cta() == 0 ? shade0 : gray;
        if (level == 0) {
          w.if_(tid == 0, [&] {
            misc[kOddTime] = 1;
            if (blk0) {
              w.compute(kPrologue);
              const Lanes<int32_t> n = w.load(0x200, num_td_, Int(0));
              w.store(0x210, nodes_vol_, Int(0), n);
            }
          });
          w.compute(kKtGap);
          w.atomic(0x220, global_kt_, Int(0), RegSet{}, [](int32_t old, unsigned) { return old | 0; });
        } else {
          // The rest of iteration level - 1: block 0's decision, the second barrier, the stay test.
          if (blk0)
            w.if_(tid == 0, [&] {
              w.compute(kDecisionGap);
              w.store(0x230, stay_vol_, Int(0), 0);
              w.load(0x240, tail_, Int(0));
              if (stay) {
                w.compute(kDecisionGap);
                w.store(0x250, stay_vol_, Int(0), 1);
                Lanes<int32_t> t(nodes_vol_[0]);  // the value decided (the host has zeroed tail)
                t.deps = w.load(0x260, tail_, Int(0)).deps;
                w.store(0x270, nodes_vol_, Int(0), t);
                w.store(0x280, tail_, Int(0), tail_[0]);  // 0, plus what CTAs already added (see header)
              }
            });
          barrier(w, 0x290);
          w.compute(kStayGap);
          w.load(0x2b0, stay_vol_, Int(0));
          if (!stay) {
            if (blk0)
              w.if_(tid == 0, [&] {
                w.compute(kExitGap);
                w.store(0x2c0, global_kt_, Int(0), global_kt_[0] + 2 * level);
                w.store(0x2d0, switch_k_, Int(0), (odd + 1) % 2);
                const Lanes<int32_t> n = w.load(0x2e0, nodes_vol_, Int(0));
                w.store(0x2f0, num_td_, Int(0), n);
              });
            return;
          }
        }
        // Iteration `level` of the kernel's loop.
        reset(w);
        w.if_(tid == 0, [&] {
          const Lanes<int32_t> n = w.load(0x300, nodes_vol_, Int(0));
          misc[kNodesSm] = n.v[0];
        });
        w.sync();
        const int64_t nodes = misc[kNodesSm];
        const Int gtid = int64_t(w.block_idx().x) * kMaxThreads + tid;
        w.if_(gtid < nodes, [&] {
          w.compute(kBarToQueue);
          DeviceArray<int32_t>& in = odd ? qa : qb;
          const Int pid = w.atomic(0x310, in, gtid, RegSet{}, [](int32_t old, unsigned) {
                             return old | 0;
                           }).as<int64_t>();
          visit(w, 0x320, pid, shade);
        });
        w.sync();
        w.if_(tid == 0, [&] {
          const int32_t tot = prefix_sum(w);
          const Lanes<int32_t> old = w.atomic_add(0x390, tail_, Int(0), tot);
          misc[kShift] = old.v[0];
        });
        w.sync();
        concatenate(w, 0x3a0, odd ? &qb : &qa, misc[kShift]);
        barrier(w, 0x3b0);
      };
      host.launch(std::move(kl));
      if (!stay) break;
      if (overflow_[0]) return;
      odd = (odd + 1) % 2;
      shade0 = shade0 == kGray0 ? kGray1 : kGray0;
    }
  }

  uint32_t n_, m_, source_;
  uint64_t seed_;
  bool random_;
  DeviceArray<int32_t> count_, nodes_vol_, stay_vol_, color_, cost_, q1_, q2_, tail_, switch_k_, num_td_,
      global_kt_, overflow_;
  DeviceArray<uint64_t> nodes_, edges_;  // int2 records: x in the low word
};

}  // namespace

void register_parboil_bfs(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/bfs";
  p.suite = "Parboil 2.5";
  p.source =
      "Parboil 2.5 benchmarks/bfs/src/cuda (kernel.cu, main.cu, config.h), github.com/abduld/Parboil "
      "commit a4c63da";
  p.input =
      "Parboil's inputs are graph files (1M, NY, SF); the medium NY input derives from the DIMACS New York "
      "road map (USA-road-d.NY: 264,346 nodes, 733,846 directed arcs). Default: a seeded road-like graph "
      "of that size (a grid of width ceil(sqrt(nodes)): a random spanning tree of left/up links plus random "
      "other grid links up to edges/2 undirected links), source node 0, every edge cost 1 (the files carry "
      "a cost the kernel adds; 1 makes it the BFS checked against a sequential BFS); footprint ~12 MB "
      "(edges 5.9 MB, nodes 2.1 MB, color/cost/q1/q2 1.06 MB each), not scaled: 2 BFS_in_GPU_kernel and 5 "
      "BFS_kernel_multi_blk_inGPU launches, 124 K warp memory instructions (+72 K barriers), fermi 13 s. "
      "Node and edge tex1Dfetch reads are 8-byte global loads (as __ldg). "
      "BFS_kernel_multi_blk_inGPU's inter-CTA spin barrier is replaced by one launch per BFS level "
      "(plus a last launch for its exit), see tb/kernels/parboil/bfs.cpp. Size keys: nodes, edges, "
      "source, seed, random (1: uniform random links instead of the grid)";
  p.papers = "reuse distance (003)";
  p.kernels = "BFS_in_GPU_kernel, BFS_kernel_multi_blk_inGPU, BFS_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t n = s.get_uint("nodes", 264346, 4, 1u << 24);
    const uint64_t m = s.get_uint("edges", 733846, 2, 1u << 26);
    const uint64_t src = s.get_uint("source", 0, 0, n - 1);
    const uint64_t seed = s.get_uint("seed", 1);
    const bool random = s.get_uint("random", 0, 0, 1) != 0;
    const uint64_t lo = random ? 2 : 2 * (n - 1),
                   hi = random ? m : lo + 2 * extra_candidates(n, grid_width(n));
    if (m % 2 != 0 || m < lo || m > hi)
      throw ConfigError("parboil/bfs: edges must be even and in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "] for " + std::to_string(n) + " nodes");
    return std::make_unique<Bfs>(uint32_t(n), uint32_t(m), uint32_t(src), seed, random);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
