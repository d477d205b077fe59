// Mars, the MapReduce framework on GPUs (Fang, He, Govindaraju, Luo, Wang; HKUST, 2009 release), as the four
// applications of paper 001 compile it (sample_apps/<App>/MarsLib.cu, MarsSort.cu, MarsScan.cu, identical
// in the four but for version tags): the map side (MapperCount, prefix sums of the sizes, Mapper), the group
// side (GPU bitonic sort of the intermediate index by the app's compare, the key and value bytes copied in
// sorted order, the key boundaries found) and the reduce side (ReducerCount, prefix sums, Reducer). The app
// supplies its map_count / map / compare / reduce_count / reduce device functions (MarsApp); Runtime runs
// MapReduce(spec) as the host code does, launch by launch, with the framework's launch geometry.
//
// Device buffers are Mars' char buffers (Buf): the runtime reads int4 / int2 / int fields and single bytes
// of them as the PTX does (ld.global.v4.u32 of an int4, ld.global.u8 of a key byte, ...), so every access
// has its own width. All buffers a run allocates are laid out in setup() (the footprint is declared before
// the run): a planning run of the same host code on a scratch memory records the cudaMalloc sizes in order,
// and the real run takes them back in the same order (MarsPlan).
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "tb/kernels/kernel_port.h"
#include "tb/kernels/port_kernel.h"

namespace gms::kernels::mars {

struct I2 {
  int32_t x = 0, y = 0;
};
struct I4 {
  int32_t x = 0, y = 0, z = 0, w = 0;
};
struct F4 {
  float x = 0, y = 0, z = 0, w = 0;
};

// A cudaMalloc'd char buffer with typed views for the accesses' widths (1, 4, 8 and 16 bytes). The bytes are
// the contents; a view's element is refreshed from them for the lanes of an access just before it (and
// written back after a store), so a view is an address-and-width window, never a second copy of the data.
class Buf {
 public:
  Buf() = default;
  Buf(std::string name, uint64_t base, size_t bytes);
  bool valid() const { return p_ != nullptr; }
  uint64_t base() const { return p_->bytes.base(); }
  size_t size() const { return p_->bytes.size(); }
  std::vector<uint8_t>& host() { return p_->bytes.host(); }
  const std::vector<uint8_t>& host() const { return p_->bytes.host(); }
  // Host access (uploads, results).
  template <class T>
  T get(size_t off) const {
    T v;
    std::memcpy(&v, p_->bytes.host().data() + off, sizeof(T));
    return v;
  }
  template <class T>
  void put(size_t off, const T& v) {
    std::memcpy(p_->bytes.host().data() + off, &v, sizeof(T));
  }
  // A warp's access of a T at byte offset `off` (aligned to sizeof(T)).
  template <class T>
  Lanes<T> ld(Warp& w, uint32_t pc, const Int& off);
  template <class T, class V>
  void st(Warp& w, uint32_t pc, const Int& off, const V& v);

 private:
  struct Impl {
    DeviceArray<uint8_t> bytes;
    DeviceArray<int32_t> i32;
    DeviceArray<int64_t> i64;
    DeviceArray<float> f32;
    DeviceArray<I2> i2;
    DeviceArray<I4> i4;
    DeviceArray<F4> f4;
  };
  template <class T>
  DeviceArray<T>& view();
  std::shared_ptr<Impl> p_;
};

// Where a run's buffers come from: planning (a scratch memory; sizes recorded) or the real run (the bases
// setup() placed, in the same order).
class MarsPlan {
 public:
  Buf alloc(const std::string& name, size_t bytes);
  // setup(): the planned buffers placed in `mem`, in order; then the real run replays them.
  void place(DeviceMemory& mem);
  void rewind() { next_ = 0; }

 private:
  struct Entry {
    std::string name;
    size_t bytes;
    uint64_t base;
  };
  bool placed_ = false;
  uint64_t scratch_next_ = uint64_t(0x100000000000);
  std::vector<Entry> entries_;
  size_t next_ = 0;
};

// Runs every launch on the host at once (the planning run).
class FunctionalLauncher : public Launcher {
 public:
  void launch(KernelLaunch k) override { run_functionally(k); }
};

enum Workflow { MAP_ONLY = 1, MAP_GROUP = 2, MAP_REDUCE = 3 };

class MapTask;
using ReduceTask = MapTask;

// ptxas -v (sm_75) registers of the app's build of each kernel, in this order.
struct MarsRegs {
  uint32_t map_count = 0, map = 0, reduce_count = 0, reduce = 0, bitonic = 0, single = 0, boundary = 0;
};

// A map_count / map / reduce_count / reduce device function of the app.
using AppFn = std::function<void(MapTask&, Warp&, const Int&)>;

// The app's device functions. Offsets are byte offsets into the task's key / value buffers.
struct MarsApp {
  // map_count / map: the loop body of MapperCount / Mapper for record `i` (the app loads the fields of
  // inputOffsetSizes[i] it uses, as its PTX does).
  AppFn map_count, map;
  // compare(keys, a, b): <0, 0, >0 as the app's compare() of the keys at byte offsets a and b; `pc` is the
  // base of the call site's PCs (the function is inlined into each caller).
  std::function<Int(Warp&, Buf& keys, const Int& a, const Int& b, uint32_t pc)> compare;
  // reduce_count / reduce: the loop body of ReducerCount / Reducer for key group `cindex` (none for an app
  // whose MapReduces stop at the group).
  AppFn reduce_count, reduce;
  MarsRegs regs;
};

// One MapReduce's host state (Spec_t): inputs on the host, results on the device.
struct Spec {
  std::vector<uint8_t> in_keys, in_vals;
  std::vector<I4> in_offsets;
  int workflow = MAP_ONLY;
  // Results (device).
  Buf inter_keys, inter_vals, inter_offsets, inter_key_list_range;
  int inter_records = 0, inter_diff_keys = 0, inter_all_key = 0, inter_all_val = 0;
  Buf out_keys, out_vals, out_offsets, out_key_list_range;
  int out_records = 0, out_all_key = 0, out_all_val = 0, out_diff_keys = 0;
  void add_input(const void* key, int key_size, const void* val, int val_size);
};

// A byte source of an emit: global memory (a Buf at an offset) or the thread's shared output buffer.
struct Src {
  Buf* g = nullptr;
  Int off;  // byte offset in g, or in the thread's 20-byte shared buffer
};

// The arrays a Mapper / Reducer thread emits into, and EmitInterCount / EmitIntermediate (Emit's twins on the
// reduce side).
class MapTask {
 public:
  Buf keys, vals, offsets, ranges;       // the task's input buffers (ranges: the reduce's key groups)
  Buf size_k, size_v, count;             // MapperCount's per-thread sizes (EmitInterCount)
  Buf ps_k, ps_v, ps_c, kv_off, cur;     // Mapper's prefix sums, keyValOffsets, curIndex
  Buf out_keys, out_vals, out_offsets;   // intermediate records
  Int index;                             // TID
  std::vector<uint8_t>* sbuf = nullptr;  // GET_OUTPUT_BUF: 20 bytes per thread
  void emit_count(Warp& w, int key_size, int val_size, uint32_t pc);
  // EmitIntermediate (map side), `pc` the call site's PC base.
  void emit(Warp& w, const Src& key, const Src& val, int key_size, int val_size, uint32_t pc);
  // Emit (reduce side; its PTX reloads the per-thread arrays between the offset fields' stores).
  void emit_reduce(Warp& w, const Src& key, const Src& val, int key_size, int val_size, uint32_t pc);
  // The record's key and value bytes copied to out_keys + kdst and out_vals + vdst (both Emits copy alike).
  void copy_record(Warp& w, const Src& key, const Src& val, int key_size, int val_size, const Int& kdst,
                   const Int& vdst, uint32_t pc);
  // The thread's shared output buffer (GET_OUTPUT_BUF(off)): a 4-byte value per lane at byte `off`.
  template <class T>
  void shared_put(Warp& w, int off, const Lanes<T>& v) {
    for (uint32_t b = w.active(); b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      uint8_t* at = sbuf->data() + size_t(w.thread_in_block().v[l]) * 20 + size_t(off);
      if constexpr (std::is_floating_point_v<T>) {
        const float f = float(v.v[l]);
        std::memcpy(at, &f, 4);
      } else {
        const int32_t x = int32_t(v.v[l]);
        std::memcpy(at, &x, 4);
      }
    }
    w.compute(1);
  }
};

class Runtime {
 public:
  Runtime(MarsPlan& plan, Launcher& host, const MarsApp& app) : plan_(plan), host_(host), app_(app) {}
  // MapReduce(spec): map, then group (sort) unless MAP_ONLY, then reduce if MAP_REDUCE.
  void map_reduce(Spec& spec);
  Buf alloc(const std::string& name, size_t bytes) { return plan_.alloc(name, bytes); }
  Launcher& host() { return host_; }

  // Pieces, public for tests.
  int prefix_sum(Buf& in, Buf& out, int n);  // prefexSum: exclusive scan, returns the total
  void prescan_array(Buf& out, Buf& in, int n);
  int sort_gpu(Buf& keys, int total_key, Buf& vals, int total_val, Buf& ptr_in, int n, Buf& out_keys,
               Buf& out_vals, Buf& ptr_out, std::vector<I2>& key_list_range);

 private:
  struct Side;
  // One side (map or reduce) from its input task `t` of n records or key groups: the count kernel, the
  // prefix sums, the output arrays (in t) and the emitting kernel; false when the side stops after the sums.
  bool run_side(const Side& side, MapTask& t, int n, int& all_k, int& all_v, int& all_c);
  int start_map(Spec& s);
  void start_group(Spec& s);
  void start_reduce(Spec& s);
  // MarsScan's block-sum levels (g_scanBlockSums) and their allocation state.
  void prealloc_block_sums(int n);
  void dealloc_block_sums() {
    sums_.clear();
    elts_allocated_ = 0;
  }
  void initial_prefix_sum(int n);  // saven_initialPrefixSum
  void prescan_recursive(Buf& out, Buf& in, int n, int level);
  void bitonic_sort(Buf& raw, Buf& in, int n, Buf& out);
  void copy_chunks(Buf& src, Buf& pa, int n, Buf& dst);
  int chunk_boundary(Buf& keys, Buf& ptr, int n, std::vector<I2>& range);
  // The 512 x 512-thread chunked helper launches of MarsSort (initialize, get/set arrays, boundaries).
  void chunked(const std::string& name, int n, uint32_t threads, uint32_t regs,
               const std::function<void(Warp&, const Int& pos)>& body);

  MarsPlan& plan_;
  Launcher& host_;
  const MarsApp& app_;
  std::vector<Buf> sums_;
  int elts_allocated_ = 0;
};

// What the four apps' ports share, main.cu's shape: the app's device functions, a planning run of the host
// code in setup() (the buffers' sizes) and its replay in run(), and the last MapReduce's output kept for
// check(). An app supplies its input (generate) and host code (flow).
class MarsPort : public KernelPort {
 public:
  void setup(DeviceMemory& mem) override;
  void run(Launcher& host) override;

 protected:
  explicit MarsPort(const MarsRegs& regs) { app_.regs = regs; }
  // The input, before the planning run.
  virtual void generate() = 0;
  // The host code: one or more MapReduces on Runtime(plan_, host, app_).
  virtual void flow(Launcher& host) = 0;
  // keys_, vals_, offsets_ (out_records of them), range_ and groups_ (out_diff_keys) from s's output.
  void keep_output(const Spec& s);

  MarsApp app_;
  MarsPlan plan_;
  Buf keys_, vals_;
  std::vector<I4> offsets_;
  std::vector<I2> range_;
  int groups_ = 0;
};

// ---- Buf templates ----

template <class T>
DeviceArray<T>& Buf::view() {
  DeviceArray<T>* a;
  if constexpr (std::is_same_v<T, int32_t>)
    a = &p_->i32;
  else if constexpr (std::is_same_v<T, int64_t>)
    a = &p_->i64;
  else if constexpr (std::is_same_v<T, float>)
    a = &p_->f32;
  else if constexpr (std::is_same_v<T, I2>)
    a = &p_->i2;
  else if constexpr (std::is_same_v<T, I4>)
    a = &p_->i4;
  else
    a = &p_->f4;
  if (a->size() == 0 && p_->bytes.size() >= sizeof(T))
    *a = DeviceArray<T>(p_->bytes.name(), p_->bytes.base(), p_->bytes.size() / sizeof(T));
  return *a;
}

template <class T>
Lanes<T> Buf::ld(Warp& w, uint32_t pc, const Int& off) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return w.load(pc, p_->bytes, off);
  } else {
    DeviceArray<T>& v = view<T>();
    const Int idx = off / int64_t(sizeof(T));
    for (uint32_t b = w.active(); b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      const int64_t o = off.v[l];
      if (o >= 0 && o % int64_t(sizeof(T)) == 0 && uint64_t(o / int64_t(sizeof(T))) < v.size())
        std::memcpy(&v.host()[size_t(o) / sizeof(T)], p_->bytes.host().data() + o, sizeof(T));
      else
        throw std::out_of_range("mars: buffer '" + p_->bytes.name() + "': access at byte " +
                                std::to_string(o));
    }
    return w.load(pc, v, idx);
  }
}

template <class T, class V>
void Buf::st(Warp& w, uint32_t pc, const Int& off, const V& val) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    w.store(pc, p_->bytes, off, val);
  } else {
    DeviceArray<T>& v = view<T>();
    const Int idx = off / int64_t(sizeof(T));
    for (uint32_t b = w.active(); b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      const int64_t o = off.v[l];
      if (o < 0 || o % int64_t(sizeof(T)) != 0 || uint64_t(o / int64_t(sizeof(T))) >= v.size())
        throw std::out_of_range("mars: buffer '" + p_->bytes.name() + "': store at byte " +
                                std::to_string(o));
    }
    w.store(pc, v, idx, val);
    for (uint32_t b = w.active(); b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      const size_t o = size_t(off.v[l]);
      std::memcpy(p_->bytes.host().data() + o, &v.host()[o / sizeof(T)], sizeof(T));
    }
  }
}

// ---- small helpers for ports ----

// r = v in the active lanes (a register assigned inside a branch).
template <class T, class V>
void assign(Warp& w, Lanes<T>& r, const V& v) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    r.v[l] = T(detail::lane(v, l));
  }
  r.deps |= detail::deps_of(v);
}

template <class T, class F>
Lanes<T> field(const Lanes<I4>& a, F f) {
  Lanes<T> r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = T(f(a.v[l]));
  r.deps = a.deps;
  return r;
}

// A string comparison loop, `for (; *a == *b && *a && *b; a++, b++);` then the sign of *a - *b, over bytes
// of `buf_a` / `buf_b` from byte offsets a and b (the PTX loads both first bytes, then two per iteration).
Int strcmp_lanes(Warp& w, Buf& buf_a, const Int& a, Buf& buf_b, const Int& b, uint32_t pc);

// The apps' hash_func(str, len): `hash = len; for i < len: hash = (hash << 4) ^ (hash >> 28) ^ str[i]`, its
// loop unrolled by 4 as nvcc compiles it (4 loads an iteration, then up to 3).
Int hash_lanes(Warp& w, Buf& buf, const Int& str, const Int& len, uint32_t pc);
int32_t hash_host(const uint8_t* s, int len);

// compare() of the apps whose keys are {char* buf; int offset; int hash} (PageViewCount's PVC_KEY_T,
// InvertedIndex's II_KEY_T): by hash, then strcmp of the strings at buf + offset, which point into `strings`.
Int compare_hash_string(Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc, Buf& strings);

// The kernels a MAP_GROUP MapReduce launches (the ports' `kernels` line).
extern const char kMapGroupKernels[];

// The apps' generators' rand(), replaced by a seeded splitmix64.
uint64_t splitmix(uint64_t& s);

}  // namespace gms::kernels::mars
