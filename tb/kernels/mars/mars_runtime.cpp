// The Mars runtime (mars_runtime.h). Compute gaps are the PTX instruction counts between the global memory
// instructions of the kernels (nvcc 13 --ptx -arch=sm_75 of sample_apps/PageViewCount/MarsLib.cu, MarsSort.cu
// and MarsScan.cu, a stub cutil.h); registers per thread from ptxas -v of each app's build (MarsApp).
#include "tb/kernels/mars/mars_runtime.h"

#include <algorithm>
#include <stdexcept>

namespace gms::kernels::mars {

namespace {

constexpr uint32_t kBlock = 256;  // DEFAULT_DIMBLOCK
constexpr int kRecPerTask = 1;    // DEFAULT_NUMTASK
constexpr uint32_t kScanBlock = 256;
constexpr uint32_t kSortThreads = 256;  // NUM_THREADS_CHUNK, SHARED_MEM_INT2
constexpr int kSortMaxRecords = 256 * 1024;

// Registers of the runtime's own kernels (ptxas -v, sm_75; the same in the four apps' builds).
constexpr uint32_t kRegsPrescan = 20, kRegsUniformAdd = 16, kRegsInitialize = 10, kRegsGetIntY = 8,
                   kRegsGetXY = 8, kRegsSetXY = 10, kRegsSetZW = 14, kRegsCopyChunks = 26,
                   kRegsSetBoundary = 10, kRegsWriteBoundary = 10;

int ceil_div(int n, int m) {
  return n / m + int(n % m != 0);
}
bool pow2(int n) {
  return (n & (n - 1)) == 0;
}
int floor_pow2(int n) {
  int e = 0;
  while ((2 << e) <= n) ++e;
  return 1 << e;
}

// THREAD_CONF: a 1D grid, or a square-ish 2D one past 65535 blocks.
Dim3 thread_conf(int blocks) {
  Dim3 g{uint32_t(blocks), 1, 1};
  if (g.x > 65535) {
    g.x = uint32_t(std::sqrt(double(blocks)));
    g.y = uint32_t(ceil_div(blocks, int(g.x)));
  }
  return g;
}

// BLOCK_ID, TID.
Int block_id(Warp& w) {
  return Int(int64_t(w.grid_dim().y) * w.block_idx().x + w.block_idx().y);
}
Int tid_of(Warp& w) {
  return block_id(w) * int64_t(w.block_dim().x) + w.thread_idx_x();
}

Lanes<I4> make_i4(const Int& x, const Int& y, const Int& z, const Int& w) {
  Lanes<I4> r;
  for (unsigned l = 0; l < kWarpSize; ++l)
    r.v[l] = I4{int32_t(x.v[l]), int32_t(y.v[l]), int32_t(z.v[l]), int32_t(w.v[l])};
  r.deps = x.deps;
  r.deps |= y.deps;
  r.deps |= z.deps;
  r.deps |= w.deps;
  return r;
}
Lanes<I2> make_i2(const Int& x, const Int& y) {
  Lanes<I2> r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = I2{int32_t(x.v[l]), int32_t(y.v[l])};
  r.deps = x.deps;
  r.deps |= y.deps;
  return r;
}
Int i2x(const Lanes<I2>& a) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = a.v[l].x;
  r.deps = a.deps;
  return r;
}
Int i2y(const Lanes<I2>& a) {
  Int r;
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = a.v[l].y;
  r.deps = a.deps;
  return r;
}
Int i32(const Lanes<int32_t>& a) {
  return a.as<int64_t>();
}

// One byte of an emit's source: a global load, or the thread's shared buffer (ld.shared.v4.u8: one
// instruction a 4-byte word).
Int src_byte(Warp& w, const Src& s, std::vector<uint8_t>* sbuf, int i, uint32_t pc) {
  if (s.g) return s.g->ld<uint8_t>(w, pc, s.off + int64_t(i)).as<int64_t>();
  Int r;
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    r.v[l] = (*sbuf)[size_t(w.thread_in_block().v[l]) * 20 + size_t(s.off.v[l] + i)];
  }
  if (i % 4 == 0) w.compute(1);
  return r;
}

}  // namespace

// ---- Buf, MarsPlan, Spec ----

Buf::Buf(std::string name, uint64_t base, size_t bytes) : p_(std::make_shared<Impl>()) {
  p_->bytes = DeviceArray<uint8_t>(std::move(name), base, bytes);
}

Buf MarsPlan::alloc(const std::string& name, size_t bytes) {
  if (!placed_) {  // planning: placed as cudaMalloc would from a scratch base (never emitted)
    const uint64_t align = bytes >= (uint64_t(2) << 20) ? uint64_t(2) << 20 : 256;
    const uint64_t base = (scratch_next_ + align - 1) / align * align;
    scratch_next_ = base + bytes;
    entries_.push_back({name, bytes, 0});
    return Buf(name, base, bytes);
  }
  if (next_ >= entries_.size() || entries_[next_].bytes != bytes || entries_[next_].name != name)
    throw std::logic_error(
        "mars: the run allocates '" + name + "' (" + std::to_string(bytes) + " bytes) where the plan has " +
        (next_ < entries_.size()
             ? "'" + entries_[next_].name + "' (" + std::to_string(entries_[next_].bytes) + " bytes)"
             : std::string("nothing")));
  const Entry& e = entries_[next_++];
  return Buf(e.name, e.base, e.bytes);
}

void MarsPlan::place(DeviceMemory& mem) {
  for (Entry& e : entries_) e.base = mem.alloc<uint8_t>(e.name, e.bytes).base();
  placed_ = true;
  next_ = 0;
}

void Spec::add_input(const void* key, int key_size, const void* val, int val_size) {
  I4 o;
  o.x = int32_t(in_keys.size());
  o.y = key_size;
  o.z = int32_t(in_vals.size());
  o.w = val_size;
  in_offsets.push_back(o);
  in_keys.insert(in_keys.end(), static_cast<const uint8_t*>(key),
                 static_cast<const uint8_t*>(key) + key_size);
  in_vals.insert(in_vals.end(), static_cast<const uint8_t*>(val),
                 static_cast<const uint8_t*>(val) + val_size);
}

// ---- string helpers ----

Int strcmp_lanes(Warp& w, Buf& buf_a, const Int& a, Buf& buf_b, const Int& b, uint32_t pc) {
  Int c1 = buf_a.ld<uint8_t>(w, pc, a).as<int64_t>();
  Int c2 = buf_b.ld<uint8_t>(w, pc + 0x10, b).as<int64_t>();
  Int i = 0;
  w.compute(1);
  w.while_([&] { return c1 == c2 && c1 != int64_t(0) && c2 != int64_t(0); },
           [&] {
             w.compute(5);
             assign(w, i, i + int64_t(1));
             assign(w, c1, buf_a.ld<uint8_t>(w, pc + 0x20, a + i).as<int64_t>());
             assign(w, c2, buf_b.ld<uint8_t>(w, pc + 0x30, b + i).as<int64_t>());
             w.compute(3);
           });
  w.compute(4);
  return select<int64_t>(c1 > c2, int64_t(1), select<int64_t>(c1 < c2, int64_t(-1), int64_t(0)));
}

namespace {
Int hash_step(const Int& h, const Int& c) {
  return detail::zip(h, c, [](int64_t hv, int64_t cv) {
    const int32_t x = int32_t(hv);
    return int64_t(int32_t(uint32_t(x) << 4) ^ (x >> 28) ^ int32_t(int8_t(cv)));
  });
}
}  // namespace

Int hash_lanes(Warp& w, Buf& buf, const Int& str, const Int& len, uint32_t pc) {
  Int h = len;
  const Int quads = len >> int64_t(2), rem = len & int64_t(3);
  w.for_(0, quads, 1, [&](const Int& q) {
    w.compute(3);
    for (int u = 0; u < 4; ++u) {
      const Int c =
          buf.ld<uint8_t>(w, pc + 0x10 * uint32_t(u), str + q * int64_t(4) + int64_t(u)).as<int64_t>();
      assign(w, h, hash_step(h, c));
      w.compute(4);
    }
  });
  const Int tail = str + quads * int64_t(4);
  w.compute(1);
  w.if_(rem > int64_t(0), [&] {
    w.compute(5);
    assign(w, h, hash_step(h, buf.ld<uint8_t>(w, pc + 0x40, tail).as<int64_t>()));
    w.compute(2);
    w.if_(rem > int64_t(1), [&] {
      w.compute(3);
      assign(w, h, hash_step(h, buf.ld<uint8_t>(w, pc + 0x50, tail + int64_t(1)).as<int64_t>()));
      w.compute(2);
      w.if_(rem > int64_t(2), [&] {
        w.compute(3);
        assign(w, h, hash_step(h, buf.ld<uint8_t>(w, pc + 0x60, tail + int64_t(2)).as<int64_t>()));
      });
    });
  });
  w.compute(1);
  return h;
}

int32_t hash_host(const uint8_t* s, int len) {
  int32_t h = len;
  for (int i = 0; i < len; ++i) h = int32_t(uint32_t(h) << 4) ^ (h >> 28) ^ int32_t(int8_t(s[i]));
  return h;
}

Int compare_hash_string(Warp& w, Buf& keys, const Int& a, const Int& b, uint32_t pc, Buf& strings) {
  const Int ha = keys.ld<int32_t>(w, pc, a + int64_t(12)).as<int64_t>();
  const Int hb = keys.ld<int32_t>(w, pc + 0x4, b + int64_t(12)).as<int64_t>();
  Int r = select<int64_t>(ha > hb, int64_t(1), int64_t(-1));
  w.compute(5);
  w.if_(ha == hb, [&] {
    const Lanes<int64_t> fa = keys.ld<int64_t>(w, pc + 0x8, a);
    w.compute(1);
    const Int oa = keys.ld<int32_t>(w, pc + 0xc, a + int64_t(8)).as<int64_t>();
    w.compute(1);
    const Lanes<int64_t> fb = keys.ld<int64_t>(w, pc + 0x10, b);
    w.compute(1);
    const Int ob = keys.ld<int32_t>(w, pc + 0x14, b + int64_t(8)).as<int64_t>();
    w.compute(1);
    const int64_t base = int64_t(strings.base());
    assign(w, r, strcmp_lanes(w, strings, fa - base + oa, strings, fb - base + ob, pc + 0x20));
  });
  return r;
}

const char kMapGroupKernels[] =
    "MapperCount, prescan<*>, uniformAdd, Mapper, initialize_kernel, bitonicKernel / "
    "bitonicSortSingleBlock_kernel, get/setZWArray_kernel, get/setXYArray_kernel, getIntYArray_kernel, "
    "copyChunks_kernel, getChunkBoundary_kernel, writeBoundary_kernel, setBoundaryInt2_kernel";

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// ---- the apps' ports ----

void MarsPort::setup(DeviceMemory& mem) {
  generate();
  FunctionalLauncher f;
  flow(f);  // planning run: the buffers' sizes, in allocation order
  plan_.place(mem);
}

void MarsPort::run(Launcher& host) {
  plan_.rewind();
  flow(host);
}

void MarsPort::keep_output(const Spec& s) {
  groups_ = s.out_diff_keys;
  keys_ = s.out_keys;
  vals_ = s.out_vals;
  offsets_.resize(size_t(s.out_records));
  std::memcpy(offsets_.data(), s.out_offsets.host().data(), sizeof(I4) * offsets_.size());
  range_.resize(size_t(groups_));
  std::memcpy(range_.data(), s.out_key_list_range.host().data(), sizeof(I2) * range_.size());
}

// ---- emits ----

void MapTask::emit_count(Warp& w, int key_size, int val_size, uint32_t pc) {
  const Int at = index * int64_t(4);
  w.compute(1);
  size_k.st<int32_t>(w, pc + 0x10, at, i32(size_k.ld<int32_t>(w, pc, at)) + int64_t(key_size));
  w.compute(1);
  size_v.st<int32_t>(w, pc + 0x30, at, i32(size_v.ld<int32_t>(w, pc + 0x20, at)) + int64_t(val_size));
  count.st<int32_t>(w, pc + 0x50, at, i32(count.ld<int32_t>(w, pc + 0x40, at)) + int64_t(1));
  w.compute(1);
}

void MapTask::copy_record(Warp& w, const Src& key, const Src& val, int key_size, int val_size,
                          const Int& kdst, const Int& vdst, uint32_t pc) {
  w.compute(1);
  for (int i = 0; i < key_size; ++i) {
    const Int b = src_byte(w, key, sbuf, i, pc + 0x100 + 0x20 * uint32_t(i));
    out_keys.st<uint8_t>(w, pc + 0x110 + 0x20 * uint32_t(i), kdst + int64_t(i), b);
  }
  w.compute(1);
  for (int i = 0; i < val_size; ++i) {
    const Int b = src_byte(w, val, sbuf, i, pc + 0x600 + 0x20 * uint32_t(i));
    out_vals.st<uint8_t>(w, pc + 0x610 + 0x20 * uint32_t(i), vdst + int64_t(i), b);
  }
}

void MapTask::emit(Warp& w, const Src& key, const Src& val, int key_size, int val_size, uint32_t pc) {
  w.sync();
  const Int at4 = index * int64_t(4), at8 = index * int64_t(8);
  const Lanes<I2> kvo = kv_off.ld<I2>(w, pc, at8);
  const Int pk = i32(ps_k.ld<int32_t>(w, pc + 0x10, at4));
  w.compute(3);
  const Int pv = i32(ps_v.ld<int32_t>(w, pc + 0x20, at4));
  const Int kdst = pk + i2x(kvo), vdst = pv + i2y(kvo);
  copy_record(w, key, val, key_size, val_size, kdst, vdst, pc);
  w.compute(2);
  kv_off.st<I2>(w, pc + 0xa00, at8, make_i2(i2x(kvo) + int64_t(key_size), i2y(kvo) + int64_t(val_size)));
  const Int psc = i32(ps_c.ld<int32_t>(w, pc + 0xa10, at4));
  const Int ci = i32(cur.ld<int32_t>(w, pc + 0xa20, at4));
  w.compute(3);
  const Int cur_ps = ci + psc;
  const Lanes<I4> o1 = out_offsets.ld<I4>(w, pc + 0xa30, cur_ps * int64_t(16));
  Int x = field<int64_t>(o1, [](const I4& a) { return a.x; });
  Int z = field<int64_t>(o1, [](const I4& a) { return a.z; });
  w.compute(1);
  w.if_(ci != int64_t(0), [&] {
    const Lanes<I4> o2 = out_offsets.ld<I4>(w, pc + 0xa40, (cur_ps - int64_t(1)) * int64_t(16));
    assign(w, x, field<int64_t>(o2, [](const I4& a) { return int64_t(a.x) + a.y; }));
    assign(w, z, field<int64_t>(o2, [](const I4& a) { return int64_t(a.z) + a.w; }));
  });
  w.compute(4);
  out_offsets.st<I4>(w, pc + 0xa50, cur_ps * int64_t(16), make_i4(x, Int(key_size), z, Int(val_size)));
  w.compute(1);
  cur.st<int32_t>(w, pc + 0xa60, at4, ci + int64_t(1));
}

void MapTask::emit_reduce(Warp& w, const Src& key, const Src& val, int key_size, int val_size, uint32_t pc) {
  w.sync();
  const Int at4 = index * int64_t(4), at8 = index * int64_t(8);
  const Int pk = i32(ps_k.ld<int32_t>(w, pc, at4));
  const Lanes<I2> kvo = kv_off.ld<I2>(w, pc + 0x10, at8);
  w.compute(3);
  const Int pv = i32(ps_v.ld<int32_t>(w, pc + 0x20, at4));
  const Int kdst = pk + i2x(kvo), vdst = pv + i2y(kvo);
  copy_record(w, key, val, key_size, val_size, kdst, vdst, pc);
  const Lanes<I2> kvo2 = kv_off.ld<I2>(w, pc + 0xa00, at8);
  w.compute(2);
  kv_off.st<I2>(w, pc + 0xa10, at8, make_i2(i2x(kvo2) + int64_t(key_size), i2y(kvo2) + int64_t(val_size)));
  const Int ci = i32(cur.ld<int32_t>(w, pc + 0xa20, at4));
  w.compute(1);
  w.if_(ci != int64_t(0), [&] {
    const Int psc = i32(ps_c.ld<int32_t>(w, pc + 0xa30, at4));
    w.compute(4);
    const Lanes<I2> prev = out_offsets.ld<I2>(w, pc + 0xa40, (psc + ci - int64_t(1)) * int64_t(16));
    w.compute(3);
    out_offsets.st<int32_t>(w, pc + 0xa50, (psc + ci) * int64_t(16), i2x(prev) + i2y(prev));
    const Int psc2 = i32(ps_c.ld<int32_t>(w, pc + 0xa60, at4));
    const Int ci2 = i32(cur.ld<int32_t>(w, pc + 0xa70, at4));
    w.compute(4);
    const Lanes<I2> prev2 =
        out_offsets.ld<I2>(w, pc + 0xa80, (psc2 + ci2 - int64_t(1)) * int64_t(16) + int64_t(8));
    w.compute(3);
    out_offsets.st<int32_t>(w, pc + 0xa90, (psc2 + ci2) * int64_t(16) + int64_t(8), i2x(prev2) + i2y(prev2));
    cur.ld<int32_t>(w, pc + 0xaa0, at4);
  });
  const Int psc3 = i32(ps_c.ld<int32_t>(w, pc + 0xab0, at4));
  const Int ci3 = i32(cur.ld<int32_t>(w, pc + 0xab8, at4));
  w.compute(4);
  out_offsets.st<int32_t>(w, pc + 0xac0, (psc3 + ci3) * int64_t(16) + int64_t(4), Int(key_size));
  const Int ci4 = i32(cur.ld<int32_t>(w, pc + 0xad0, at4));
  const Int psc4 = i32(ps_c.ld<int32_t>(w, pc + 0xae0, at4));
  w.compute(4);
  out_offsets.st<int32_t>(w, pc + 0xaf0, (psc4 + ci4) * int64_t(16) + int64_t(12), Int(val_size));
  const Int ci5 = i32(cur.ld<int32_t>(w, pc + 0xb00, at4));
  w.compute(1);
  cur.st<int32_t>(w, pc + 0xb10, at4, ci5 + int64_t(1));
}

// ---- map ----

namespace {
// The Mapper / Reducer threads' prologue: `if (index * recordsPerTask >= recordNum) return;` and the loop
// `for (i = recordBase + tid; i < terminate; i += blockDim.x)`.
template <class Pre, class Body>
void task_loop(Warp& w, int record_num, uint32_t gap, Pre&& pre, Body&& body) {
  const Int index = tid_of(w);
  const Int bid = block_id(w);
  w.compute(gap);
  w.return_if(index * int64_t(kRecPerTask) >= int64_t(record_num));
  const int64_t per_block = int64_t(kRecPerTask) * w.block_dim().x;
  const Int base = bid * per_block;
  const Int term = min(base + per_block, int64_t(record_num));
  pre(index);
  w.compute(2);
  w.for_(base + w.thread_idx_x(), term, Int(int64_t(w.block_dim().x)), [&](const Int& i) { body(index, i); });
}
}  // namespace

// What the map and reduce sides differ in (MarsLib.cu writes the two sides out twice: MapperCount, prefix
// sums, Mapper / ReducerCount, prefix sums, Reducer, the same steps over other arrays).
struct Runtime::Side {
  const char* prefix;                  // "inter" / "output": the per-task size and output arrays' names
  const char* count_kernel;            // MapperCount / ReducerCount
  const char* kernel;                  // Mapper / Reducer
  uint32_t regs_count, regs;           // their registers
  uint32_t count_gap, count_body_gap;  // the count kernel's entry gap and loop body's gap
  uint32_t gap, body_gap;              // the same for the emitting kernel
  AppFn MarsApp::*count_fn;            // the app's map_count / reduce_count
  AppFn MarsApp::*fn;                  // the app's map / reduce
  // The emitting kernel's stores of the thread's first output offsets, before its loop (all_c: records).
  std::function<void(MapTask&, Warp&, const Int& index, int all_c)> prologue;
  bool stop_if_empty;  // map: no record emitted, no output arrays and no Mapper
};

bool Runtime::run_side(const Side& side, MapTask& t, int n, int& all_k, int& all_v, int& all_c) {
  const Dim3 grid = thread_conf(ceil_div(ceil_div(n, kRecPerTask), int(kBlock)));
  const int threads = int(grid.x * grid.y * kBlock);
  const std::string prefix = side.prefix;
  t.size_k = alloc(prefix + "KeysSizePerTask", 4 * size_t(threads));
  t.size_v = alloc(prefix + "ValsSizePerTask", 4 * size_t(threads));
  t.count = alloc(prefix + "CountPerTask", 4 * size_t(threads));
  {
    KernelLaunch k;
    k.name = side.count_kernel;
    k.grid = grid;
    k.block = {kBlock, 1, 1};
    k.regs_per_thread = side.regs_count;
    k.body = [this, proto = t, n, gap = side.count_gap, body_gap = side.count_body_gap,
              fn = side.count_fn](Warp& w) {
      MapTask t = proto;
      task_loop(
          w, n, gap, [](const Int&) {},
          [&](const Int& index, const Int& i) {
            t.index = index;
            w.compute(body_gap);
            (app_.*fn)(t, w, i);
          });
    };
    host_.launch(std::move(k));
  }
  t.ps_k = alloc("psKeySizes", 4 * size_t(threads));
  all_k = prefix_sum(t.size_k, t.ps_k, threads);
  t.ps_v = alloc("psValSizes", 4 * size_t(threads));
  all_v = prefix_sum(t.size_v, t.ps_v, threads);
  t.ps_c = alloc("psCounts", 4 * size_t(threads));
  all_c = prefix_sum(t.count, t.ps_c, threads);
  if (side.stop_if_empty && all_c == 0) return false;
  t.out_keys = alloc(prefix + "Keys", size_t(all_k));
  t.out_vals = alloc(prefix + "Vals", size_t(all_v));
  t.out_offsets = alloc(prefix + "OffsetSizes", sizeof(I4) * size_t(all_c));
  t.kv_off = alloc("keyValOffsets", 8 * size_t(threads));
  t.cur = alloc("curIndex", 4 * size_t(threads));
  {
    KernelLaunch k;
    k.name = side.kernel;
    k.grid = grid;
    k.block = {kBlock, 1, 1};
    k.regs_per_thread = side.regs;
    k.shmem_per_cta = kBlock * 5 * 4;
    k.body = [this, proto = t, n, all_c, gap = side.gap, body_gap = side.body_gap, fn = side.fn,
              prologue = side.prologue](Warp& w) {
      MapTask t = proto;
      t.sbuf = &w.shared<uint8_t>(0, kBlock * 20);
      task_loop(
          w, n, gap, [&](const Int& index) { prologue(t, w, index, all_c); },
          [&](const Int& index, const Int& i) {
            t.index = index;
            w.compute(body_gap);
            (app_.*fn)(t, w, i);
          });
    };
    host_.launch(std::move(k));
  }
  return true;
}

int Runtime::start_map(Spec& s) {
  const int n = int(s.in_offsets.size());
  if (n == 0) throw std::invalid_argument("mars: no map input");
  const I4 last = s.in_offsets.back();
  Buf in_keys = alloc("inputKeys", size_t(last.x + last.y));
  std::copy(s.in_keys.begin(), s.in_keys.end(), in_keys.host().begin());
  Buf in_vals = alloc("inputVals", size_t(last.z + last.w));
  std::copy(s.in_vals.begin(), s.in_vals.end(), in_vals.host().begin());
  Buf in_off = alloc("inputOffsetSizes", sizeof(I4) * size_t(n));
  std::memcpy(in_off.host().data(), s.in_offsets.data(), sizeof(I4) * size_t(n));

  MapTask t;
  t.keys = in_keys;
  t.vals = in_vals;
  t.offsets = in_off;
  // interOffsetSizes[psCounts[index]].x/.z = the thread's prefix sums (a thread that emits nothing at the
  // very end would write one record past the array: left out).
  auto prologue = [](MapTask& t, Warp& w, const Int& index, int all_c) {
    w.compute(7);
    const Int psc = i32(t.ps_c.ld<int32_t>(w, 0x200, index * int64_t(4)));
    w.if_(psc < int64_t(all_c), [&] {
      w.compute(2);
      const Lanes<I4> o = t.out_offsets.ld<I4>(w, 0x210, psc * int64_t(16));
      w.compute(4);
      const Int pv = i32(t.ps_v.ld<int32_t>(w, 0x220, index * int64_t(4)));
      const Int pk = i32(t.ps_k.ld<int32_t>(w, 0x230, index * int64_t(4)));
      t.out_offsets.st<I4>(w, 0x240, psc * int64_t(16),
                           make_i4(pk, field<int64_t>(o, [](const I4& a) { return a.y; }), pv,
                                   field<int64_t>(o, [](const I4& a) { return a.w; })));
    });
  };
  const Side map{"inter",
                 "MapperCount",
                 "Mapper",
                 app_.regs.map_count,
                 app_.regs.map,
                 18,
                 5,
                 27,
                 13,
                 &MarsApp::map_count,
                 &MarsApp::map,
                 prologue,
                 true};
  int all_k = 0, all_v = 0, all_c = 0;
  if (!run_side(map, t, n, all_k, all_v, all_c)) return 1;
  s.inter_keys = t.out_keys;
  s.inter_vals = t.out_vals;
  s.inter_offsets = t.out_offsets;
  s.inter_records = all_c;
  s.inter_diff_keys = all_c;
  s.inter_all_key = all_k;
  s.inter_all_val = all_v;
  return 0;
}

// ---- group ----

void Runtime::start_group(Spec& s) {
  Buf ok = alloc("outputKeys", size_t(s.inter_all_key));
  Buf ov = alloc("outputVals", size_t(s.inter_all_val));
  Buf oo = alloc("outputOffsetSizes", sizeof(I4) * size_t(s.inter_records));
  initial_prefix_sum(s.inter_records);
  std::vector<I2> range;
  const int diff = sort_gpu(s.inter_keys, s.inter_all_key, s.inter_vals, s.inter_all_val, s.inter_offsets,
                            s.inter_records, ok, ov, oo, range);
  s.inter_keys = ok;
  s.inter_vals = ov;
  s.inter_offsets = oo;
  s.inter_diff_keys = diff;
  s.inter_key_list_range = alloc("interKeyListRange", sizeof(I2) * size_t(diff));
  std::memcpy(s.inter_key_list_range.host().data(), range.data(), sizeof(I2) * size_t(diff));
}

// ---- reduce ----

void Runtime::start_reduce(Spec& s) {
  ReduceTask t;
  t.keys = s.inter_keys;
  t.vals = s.inter_vals;
  t.offsets = s.inter_offsets;
  t.ranges = s.inter_key_list_range;
  // outputOffsetSizes[psCounts[index]].x and .z = the thread's prefix sums, field by field.
  auto prologue = [](MapTask& t, Warp& w, const Int& index, int all_c) {
    const Int at = index * int64_t(4);
    w.compute(7);
    const Int pk = i32(t.ps_k.ld<int32_t>(w, 0x380, at));
    w.compute(2);
    const Int psc = i32(t.ps_c.ld<int32_t>(w, 0x390, at));
    w.compute(2);
    w.if_(psc < int64_t(all_c), [&] {
      t.out_offsets.st<int32_t>(w, 0x3a0, psc * int64_t(16), pk);
      w.compute(2);
      const Int pv = i32(t.ps_v.ld<int32_t>(w, 0x3b0, at));
      const Int psc2 = i32(t.ps_c.ld<int32_t>(w, 0x3c0, at));
      w.compute(2);
      t.out_offsets.st<int32_t>(w, 0x3d0, psc2 * int64_t(16) + int64_t(8), pv);
    });
  };
  const Side reduce{"output",
                    "ReducerCount",
                    "Reducer",
                    app_.regs.reduce_count,
                    app_.regs.reduce,
                    16,
                    7,
                    26,
                    14,
                    &MarsApp::reduce_count,
                    &MarsApp::reduce,
                    prologue,
                    false};
  int all_k = 0, all_v = 0, all_c = 0;
  run_side(reduce, t, s.inter_diff_keys, all_k, all_v, all_c);
  s.out_keys = t.out_keys;
  s.out_vals = t.out_vals;
  s.out_offsets = t.out_offsets;
  s.out_records = all_c;
  s.out_all_key = all_k;
  s.out_all_val = all_v;
}

void Runtime::map_reduce(Spec& s) {
  if (start_map(s)) return;
  if (s.workflow == MAP_ONLY || s.workflow == MAP_GROUP) {
    if (s.workflow == MAP_GROUP) start_group(s);
    s.out_keys = s.inter_keys;
    s.out_vals = s.inter_vals;
    s.out_offsets = s.inter_offsets;
    s.out_records = s.inter_records;
    s.out_all_key = s.inter_all_key;
    s.out_all_val = s.inter_all_val;
    s.out_diff_keys = s.inter_diff_keys;
    s.out_key_list_range = s.inter_key_list_range;
    return;
  }
  start_group(s);
  start_reduce(s);
}

// ---- MarsScan: the CUDA SDK's work-efficient prescan with block sums ----

void Runtime::prealloc_block_sums(int n) {
  elts_allocated_ = n;
  int elts = n;
  sums_.clear();
  do {
    const int blocks = std::max(1, ceil_div(elts, int(2 * kScanBlock)));
    if (blocks > 1) sums_.push_back(alloc("g_scanBlockSums", 4 * size_t(blocks)));
    elts = blocks;
  } while (elts > 1);
}

void Runtime::initial_prefix_sum(int n) {
  if (elts_allocated_ == 0)
    prealloc_block_sums(n);
  else if (elts_allocated_ > n) {
    dealloc_block_sums();
    prealloc_block_sums(n);
  }
}

int Runtime::prefix_sum(Buf& in, Buf& out, int n) {
  prealloc_block_sums(n);
  prescan_array(out, in, n);
  dealloc_block_sums();
  return out.get<int32_t>(4 * size_t(n - 1)) + in.get<int32_t>(4 * size_t(n - 1));
}

void Runtime::prescan_array(Buf& out, Buf& in, int n) {
  prescan_recursive(out, in, n, 0);
}

namespace {
// prescan<storeSum, isNP2>(g_odata, g_idata, g_blockSums, n, blockIndex, baseIndex).
KernelLaunch prescan_launch(bool store_sum, bool np2, Buf out, Buf in, Buf sums, int n, int block_index,
                            int base_index, uint32_t grid, uint32_t threads, uint32_t shmem) {
  KernelLaunch k;
  k.name = std::string("prescan<") + (store_sum ? "true" : "false") + "," + (np2 ? "true" : "false") + ">";
  k.grid = {grid, 1, 1};
  k.block = {threads, 1, 1};
  k.regs_per_thread = kRegsPrescan;
  k.shmem_per_cta = shmem;
  k.body = [=](Warp& w) mutable {
    std::vector<int32_t>& sd = w.shared<int32_t>(0, shmem / 4);
    const int64_t bd = w.block_dim().x;
    const Int thid = w.thread_idx_x();
    const int64_t base = base_index == 0 ? int64_t(w.block_idx().x) * (bd << 1) : base_index;
    const Int mem_ai = thid + base, mem_bi = mem_ai + bd;
    const Int ai = thid, bi = thid + bd;
    const Int sa = ai + (ai >> int64_t(4)), sb = bi + (bi >> int64_t(4));
    w.compute(18);
    w.shared_store(sd, sa, i32(in.ld<int32_t>(w, 0x400, mem_ai * int64_t(4))));
    w.compute(3);
    if (np2) {
      Int vb = 0;
      w.if_(bi < int64_t(n), [&] { assign(w, vb, i32(in.ld<int32_t>(w, 0x410, mem_bi * int64_t(4)))); });
      w.shared_store(sd, sb, vb);
    } else {
      w.shared_store(sd, sb, i32(in.ld<int32_t>(w, 0x410, mem_bi * int64_t(4))));
    }
    // buildSum
    int64_t stride = 1;
    for (int64_t d = bd; d > 0; d >>= 1) {
      w.sync();
      w.if_(thid < d, [&] {
        w.compute(14);
        Int a = thid * (2 * stride) + (stride - 1), b = a + stride;
        a = a + (a >> int64_t(4));
        b = b + (b >> int64_t(4));
        const Int vb = i32(w.shared_load(sd, b)), va = i32(w.shared_load(sd, a));
        w.shared_store(sd, b, vb + va);
      });
      stride *= 2;
      w.compute(3);
    }
    // clearLastElement
    w.if_(thid == int64_t(0), [&] {
      int64_t index = (bd << 1) - 1;
      index += index >> 4;
      w.compute(6);
      const Int v = i32(w.shared_load(sd, Int(index)));
      if (store_sum) {
        w.compute(7);
        sums.st<int32_t>(w, 0x420, Int(int64_t(block_index == 0 ? int(w.block_idx().x) : block_index) * 4),
                         v);
      }
      w.shared_store(sd, Int(index), Int(0));
    });
    // scanRootToLeaves
    for (int64_t d = 1; d <= bd; d *= 2) {
      stride >>= 1;
      w.sync();
      w.if_(thid < d, [&] {
        w.compute(10);
        Int a = thid * (2 * stride) + (stride - 1), b = a + stride;
        a = a + (a >> int64_t(4));
        b = b + (b >> int64_t(4));
        const Int t = i32(w.shared_load(sd, a));
        w.shared_store(sd, a, i32(w.shared_load(sd, b)));
        w.shared_store(sd, b, i32(w.shared_load(sd, b)) + t);
      });
      w.compute(2);
    }
    // storeSharedChunkToMem
    w.sync();
    out.st<int32_t>(w, 0x430, mem_ai * int64_t(4), i32(w.shared_load(sd, sa)));
    w.compute(2);
    if (np2)
      w.if_(bi < int64_t(n),
            [&] { out.st<int32_t>(w, 0x440, mem_bi * int64_t(4), i32(w.shared_load(sd, sb))); });
    else
      out.st<int32_t>(w, 0x440, mem_bi * int64_t(4), i32(w.shared_load(sd, sb)));
  };
  return k;
}

// uniformAdd(g_data, uniforms, n, blockOffset, baseIndex). Its second add touches address + blockDim.x
// unguarded; past the array's end (the np2 last block) that lane is left out.
KernelLaunch uniform_add_launch(Buf data, Buf uniforms, int n, int block_offset, int base_index,
                                uint32_t grid, uint32_t threads) {
  KernelLaunch k;
  k.name = "uniformAdd";
  k.grid = {grid, 1, 1};
  k.block = {threads, 1, 1};
  k.regs_per_thread = kRegsUniformAdd;
  k.shmem_per_cta = 16;
  k.body = [=](Warp& w) mutable {
    std::vector<int32_t>& uni = w.shared<int32_t>(1, 1);
    const Int tid = w.thread_idx_x();
    const int64_t bd = w.block_dim().x;
    w.compute(8);
    w.if_(tid == int64_t(0), [&] {
      w.compute(5);
      w.shared_store(
          uni, Int(0),
          i32(uniforms.ld<int32_t>(w, 0x480, Int(int64_t(w.block_idx().x + uint32_t(block_offset)) * 4))));
    });
    const Int address = tid + (int64_t(w.block_idx().x) * (bd << 1) + base_index);
    w.compute(9);
    w.sync();
    w.compute(2);
    const Int a = i32(data.ld<int32_t>(w, 0x490, address * int64_t(4)));
    const Int u = i32(w.shared_load(uni, Int(0)));
    data.st<int32_t>(w, 0x4a0, address * int64_t(4), a + u);
    w.compute(6);
    const Int a2 = address + bd;
    w.if_(a2 * int64_t(4) < int64_t(data.size()), [&] {
      const Int b = i32(data.ld<int32_t>(w, 0x4b0, a2 * int64_t(4)));
      w.compute(1);
      data.st<int32_t>(w, 0x4c0, a2 * int64_t(4), b + select<int64_t>(tid + bd < int64_t(n), u, int64_t(0)));
    });
  };
  return k;
}
}  // namespace

void Runtime::prescan_recursive(Buf& out, Buf& in, int n, int level) {
  const int blocks = std::max(1, ceil_div(n, int(2 * kScanBlock)));
  int threads;
  if (blocks > 1)
    threads = int(kScanBlock);
  else if (pow2(n))
    threads = n / 2;
  else
    threads = floor_pow2(n);
  const int per_block = threads * 2;
  const int last_elts = n - (blocks - 1) * per_block;
  int last_threads = std::max(1, last_elts / 2);
  int np2_last = 0;
  uint32_t shmem_last = 0;
  if (last_elts != per_block) {
    np2_last = 1;
    if (!pow2(last_elts)) last_threads = floor_pow2(last_elts);
    shmem_last = uint32_t(4 * (2 * last_threads + (2 * last_threads) / 16));
  }
  const uint32_t shmem = uint32_t(4 * (per_block + per_block / 16));
  const uint32_t grid = uint32_t(std::max(1, blocks - np2_last));
  if (blocks > 1) {
    Buf sums = sums_.at(size_t(level));
    host_.launch(
        prescan_launch(true, false, out, in, sums, threads * 2, 0, 0, grid, uint32_t(threads), shmem));
    if (np2_last)
      host_.launch(prescan_launch(true, true, out, in, sums, last_elts, blocks - 1, n - last_elts, 1,
                                  uint32_t(last_threads), shmem_last));
    prescan_recursive(sums, sums, blocks, level + 1);
    host_.launch(uniform_add_launch(out, sums, n - last_elts, 0, 0, grid, uint32_t(threads)));
    if (np2_last)
      host_.launch(
          uniform_add_launch(out, sums, last_elts, blocks - 1, n - last_elts, 1, uint32_t(last_threads)));
  } else {
    // One block: a power of two, or not (np2). Both with threads = numThreads, n as the source passes it.
    const bool np2 = !pow2(n);
    host_.launch(prescan_launch(false, np2, out, in, Buf(), np2 ? n : threads * 2, 0, 0, grid,
                                uint32_t(threads), shmem));
  }
}

// ---- MarsSort: bitonic sort of the intermediate index, key/value copies, key boundaries ----

namespace {
// getCompareValue: a record with x == -1 (padding) is smaller than any other.
Int compare_value(Warp& w, const MarsApp& app, Buf& raw, const Int& v1, const Int& v2, uint32_t pc) {
  Int r = 0;
  w.if_else(
      v1 == int64_t(-1) || v2 == int64_t(-1),
      [&] {
        assign(w, r,
               select<int64_t>(v1 == v2, int64_t(0),
                               select<int64_t>(v1 == int64_t(-1), int64_t(-1), int64_t(1))));
      },
      [&] { assign(w, r, app.compare(w, raw, v1, v2, pc)); });
  return r;
}
Int i4x(const Lanes<I4>& a) {
  return field<int64_t>(a, [](const I4& v) { return v.x; });
}
}  // namespace

void Runtime::chunked(const std::string& name, int n, uint32_t threads, uint32_t regs,
                      const std::function<void(Warp&, const Int& pos)>& body) {
  const int chunk = 512 * int(threads);
  const int chunks = ceil_div(n, chunk);
  for (int c = 0; c < chunks; ++c) {
    KernelLaunch k;
    k.name = name;
    k.grid = {512, 1, 1};
    k.block = {threads, 1, 1};
    k.regs_per_thread = regs;
    const int64_t start = int64_t(c) * chunk;
    k.body = [body, start](Warp& w) {
      const Int pos = w.thread_idx_x() + (start + int64_t(w.block_idx().x) * w.block_dim().x);
      w.compute(16);
      body(w, pos);
    };
    host_.launch(std::move(k));
  }
}

void Runtime::bitonic_sort(Buf& raw, Buf& in, int n, Buf& out) {
  if (n <= int(kSortThreads)) {  // bitonicSortSingleBlock
    KernelLaunch k;
    k.name = "bitonicSortSingleBlock_kernel";
    k.grid = {1, 1, 1};
    k.block = {kSortThreads, 1, 1};
    k.regs_per_thread = app_.regs.single;
    k.shmem_per_cta = kSortThreads * sizeof(I4);
    k.body = [this, raw, in, out, n](Warp& w) mutable {
      std::vector<I4>& sh = w.shared<I4>(2, kSortThreads);
      const Int tid = w.thread_idx_x();
      w.compute(13);
      w.if_else(
          tid < int64_t(n), [&] { w.shared_store(sh, tid, in.ld<I4>(w, 0x600, tid * int64_t(16))); },
          [&] {
            Lanes<I4> pad;
            for (auto& v : pad.v) v.x = -1;
            w.shared_store(sh, tid, pad);
          });
      w.sync();
      for (int64_t k2 = 2; k2 <= int64_t(kSortThreads); k2 *= 2)
        for (int64_t j = k2 / 2; j > 0; j /= 2) {
          const Int ixj = tid ^ j;
          w.compute(5);
          w.if_(ixj > tid, [&] {
            const Lanes<I4> a = w.shared_load(sh, tid), b = w.shared_load(sh, ixj);
            w.compute(6);
            w.if_else((tid & k2) == int64_t(0),
                      [&] {
                        const Int c = compare_value(w, app_, raw, i4x(a), i4x(b), 0x6000);
                        w.compute(3);
                        w.if_(c > int64_t(0), [&] {
                          const Lanes<I4> x = w.shared_load(sh, tid), y = w.shared_load(sh, ixj);
                          w.shared_store(sh, tid, y);
                          w.shared_store(sh, ixj, x);
                        });
                      },
                      [&] {
                        const Int c = compare_value(w, app_, raw, i4x(a), i4x(b), 0x6800);
                        w.compute(3);
                        w.if_(c < int64_t(0), [&] {
                          const Lanes<I4> x = w.shared_load(sh, tid), y = w.shared_load(sh, ixj);
                          w.shared_store(sh, tid, y);
                          w.shared_store(sh, ixj, x);
                        });
                      });
          });
          w.sync();
          w.compute(4);
        }
      const int64_t start_copy = int64_t(kSortThreads) - n;
      w.compute(5);
      w.if_(tid >= start_copy,
            [&] { out.st<I4>(w, 0x610, (tid - start_copy) * int64_t(16), w.shared_load(sh, tid)); });
    };
    host_.launch(std::move(k));
    return;
  }
  if (n > kSortMaxRecords)
    throw std::invalid_argument(
        "mars: more than 256K intermediate records (the chunked bitonic path is not ported)");
  int level = 0;
  for (int size = n; size != 1; size /= 2) ++level;
  if ((1 << level) < n) ++level;
  const int records = std::max(1 << level, int(kSortThreads));
  Buf r = alloc("d_R", sizeof(I4) * size_t(records));
  chunked("initialize_kernel", records, 512, kRegsInitialize, [r, records](Warp& w, const Int& pos) mutable {
    w.if_(pos < int64_t(records), [&] {
      Lanes<I4> v;
      for (auto& x : v.v) x = I4{-1, -1, 0, 0};
      w.compute(3);
      r.st<I4>(w, 0x700, pos * int64_t(16), v);
    });
  });
  std::memcpy(r.host().data(), in.host().data(), sizeof(I4) * size_t(n));  // cudaMemcpy device to device
  const uint32_t blocks = uint32_t(records) / kSortThreads;
  for (int64_t k2 = 2; k2 <= records; k2 *= 2)
    for (int64_t j = k2 / 2; j > 0; j /= 2) {
      KernelLaunch k;
      k.name = "bitonicKernel";
      k.grid = {blocks, 1, 1};
      k.block = {kSortThreads, 1, 1};
      k.regs_per_thread = app_.regs.bitonic;
      k.body = [this, raw, r, k2, j](Warp& w) mutable {
        const Int data_idx = w.thread_idx_x() + (int64_t(w.block_idx().y) * w.grid_dim().x * w.block_dim().x +
                                                 int64_t(w.block_idx().x) * w.block_dim().x);
        const Int ixj = data_idx ^ j;
        w.compute(14);
        w.if_(ixj > data_idx, [&] {
          w.compute(4);
          const Lanes<I4> a = r.ld<I4>(w, 0x500, data_idx * int64_t(16));
          w.compute(2);
          const Lanes<I4> b = r.ld<I4>(w, 0x510, ixj * int64_t(16));
          w.compute(9);
          auto side = [&](uint32_t pc, int64_t want) {
            const Int c = compare_value(w, app_, raw, i4x(a), i4x(b), pc);
            w.compute(3);
            w.if_(c == want, [&] {
              r.st<I4>(w, pc + 0x700, data_idx * int64_t(16), b);
              r.st<I4>(w, pc + 0x710, ixj * int64_t(16), a);
            });
          };
          w.if_else((data_idx & k2) == int64_t(0), [&] { side(0x5000, 1); }, [&] { side(0x5800, -1); });
        });
      };
      host_.launch(std::move(k));
    }
  std::memcpy(out.host().data(), r.host().data() + sizeof(I4) * size_t(records - n), sizeof(I4) * size_t(n));
}

void Runtime::copy_chunks(Buf& src, Buf& pa, int n, Buf& dst) {
  Buf size = alloc("d_size", 4 * size_t(n));
  chunked("getIntYArray_kernel", n, 512, kRegsGetIntY, [pa, size, n](Warp& w, const Int& pos) mutable {
    w.if_(pos < int64_t(n), [&] {
      w.compute(3);
      const Int y = i32(pa.ld<int32_t>(w, 0x710, pos * int64_t(8) + int64_t(4)));
      w.compute(3);
      size.st<int32_t>(w, 0x714, pos * int64_t(4), y);
    });
  });
  Buf sum = alloc("d_sum", 4 * size_t(n));
  initial_prefix_sum(n);
  prescan_array(sum, size, n);
  chunked("copyChunks_kernel", n, 128, kRegsCopyChunks,
          [pa, sum, src, dst, n](Warp& w, const Int& pos) mutable {
            w.compute(4);
            w.if_(pos < int64_t(n), [&] {
              w.compute(3);
              const Lanes<I2> v = pa.ld<I2>(w, 0x760, pos * int64_t(8));
              w.compute(3);
              const Int wr = i32(sum.ld<int32_t>(w, 0x764, pos * int64_t(4)));
              const Int off = i2x(v), sz = i2y(v);
              w.compute(5);
              w.for_(0, sz >> int64_t(2), 1, [&](const Int& q) {
                w.compute(5);
                for (int u = 0; u < 4; ++u) {
                  const Int b = src.ld<uint8_t>(w, 0x768 + 8 * uint32_t(u), off + q * int64_t(4) + int64_t(u))
                                    .as<int64_t>();
                  dst.st<uint8_t>(w, 0x76c + 8 * uint32_t(u), wr + q * int64_t(4) + int64_t(u), b);
                }
              });
              const Int done = (sz >> int64_t(2)) * int64_t(4);
              w.compute(1);
              w.for_(done, sz, 1, [&](const Int& i) {
                w.compute(7);
                const Int b = src.ld<uint8_t>(w, 0x790, off + i).as<int64_t>();
                dst.st<uint8_t>(w, 0x794, wr + i, b);
              });
              w.compute(1);
              pa.st<I2>(w, 0x798, pos * int64_t(8), make_i2(wr, sz));
            });
          });
}

int Runtime::chunk_boundary(Buf& keys, Buf& ptr, int n, std::vector<I2>& range) {
  Buf start = alloc("d_startArray", 4 * size_t(n));
  chunked("getChunkBoundary_kernel", n, 512, app_.regs.boundary,
          [this, keys, ptr, start, n](Warp& w, const Int& pos) mutable {
            w.compute(1);
            w.if_(pos < int64_t(n), [&] {
              Int result = 1;
              w.compute(1);
              w.if_(pos != int64_t(0), [&] {
                w.compute(4);
                const Int cur = i32(ptr.ld<int32_t>(w, 0x7a0, pos * int64_t(16)));
                const Int left = i32(ptr.ld<int32_t>(w, 0x7a4, (pos - int64_t(1)) * int64_t(16)));
                w.compute(3);
                assign(w, result,
                       select<int64_t>(compare_value(w, app_, keys, cur, left, 0x7000) != int64_t(0),
                                       int64_t(1), int64_t(0)));
              });
              w.compute(7);
              start.st<int32_t>(w, 0x7a8, pos * int64_t(4), result);
            });
          });
  Buf sum = alloc("d_startSumArray", 4 * size_t(n));
  initial_prefix_sum(n);
  prescan_array(sum, start, n);
  const int num = start.get<int32_t>(4 * size_t(n - 1)) + sum.get<int32_t>(4 * size_t(n - 1));
  Buf boundary = alloc("d_boundary", 4 * size_t(num));
  chunked("writeBoundary_kernel", n, 512, kRegsWriteBoundary,
          [start, sum, boundary, n](Warp& w, const Int& pos) mutable {
            w.compute(1);
            w.if_(pos < int64_t(n), [&] {
              w.compute(4);
              const Int flag = i32(start.ld<int32_t>(w, 0x7b0, pos * int64_t(4)));
              w.compute(1);
              w.if_(flag == int64_t(1), [&] {
                w.compute(3);
                const Int at = i32(sum.ld<int32_t>(w, 0x7b4, pos * int64_t(4)));
                w.compute(3);
                boundary.st<int32_t>(w, 0x7b8, at * int64_t(4), pos);
              });
            });
          });
  Buf ranges = alloc("d_outputKeyListRange", sizeof(I2) * size_t(num));
  chunked("setBoundaryInt2_kernel", num, 512, kRegsSetBoundary,
          [boundary, ranges, num, n](Warp& w, const Int& pos) mutable {
            w.compute(1);
            w.if_(pos < int64_t(num), [&] {
              w.compute(4);
              const Int x = i32(boundary.ld<int32_t>(w, 0x7c0, pos * int64_t(4)));
              Int y = int64_t(n);
              w.compute(2);
              w.if_(pos + int64_t(1) != int64_t(num), [&] {
                assign(w, y, i32(boundary.ld<int32_t>(w, 0x7c4, pos * int64_t(4) + int64_t(4))));
              });
              w.compute(3);
              ranges.st<I2>(w, 0x7c8, pos * int64_t(8), make_i2(x, y));
            });
          });
  range.resize(size_t(num));
  std::memcpy(range.data(), ranges.host().data(), sizeof(I2) * size_t(num));
  return num;
}

int Runtime::sort_gpu(Buf& keys, int, Buf& vals, int, Buf& ptr_in, int n, Buf& out_keys, Buf& out_vals,
                      Buf& ptr_out, std::vector<I2>& key_list_range) {
  bitonic_sort(keys, ptr_in, n, ptr_out);
  Buf pa = alloc("d_PA", sizeof(I2) * size_t(n));
  auto get = [&](const char* name, bool zw) {
    chunked(name, n, 512, kRegsGetXY, [ptr_out, pa, n, zw](Warp& w, const Int& pos) mutable {
      w.if_(pos < int64_t(n), [&] {
        w.compute(6);
        const Lanes<I4> v = ptr_out.ld<I4>(w, zw ? 0x730 : 0x720, pos * int64_t(16));
        pa.st<I2>(w, zw ? 0x734 : 0x724, pos * int64_t(8),
                  zw ? make_i2(field<int64_t>(v, [](const I4& a) { return a.z; }),
                               field<int64_t>(v, [](const I4& a) { return a.w; }))
                     : make_i2(field<int64_t>(v, [](const I4& a) { return a.x; }),
                               field<int64_t>(v, [](const I4& a) { return a.y; })));
      });
    });
  };
  auto set = [&](const char* name, bool zw) {
    chunked(name, n, 512, zw ? kRegsSetZW : kRegsSetXY,
            [ptr_out, pa, n, zw](Warp& w, const Int& pos) mutable {
              w.if_(pos < int64_t(n), [&] {
                w.compute(6);
                const Lanes<I2> p = pa.ld<I2>(w, zw ? 0x750 : 0x740, pos * int64_t(8));
                const Lanes<I4> v = ptr_out.ld<I4>(w, zw ? 0x754 : 0x744, pos * int64_t(16));
                Lanes<I4> r = v;
                for (unsigned l = 0; l < kWarpSize; ++l) {
                  if (zw)
                    r.v[l].z = p.v[l].x, r.v[l].w = p.v[l].y;
                  else
                    r.v[l].x = p.v[l].x, r.v[l].y = p.v[l].y;
                }
                r.deps |= p.deps;
                ptr_out.st<I4>(w, zw ? 0x758 : 0x748, pos * int64_t(16), r);
              });
            });
  };
  get("getZWArray_kernel", true);
  copy_chunks(vals, pa, n, out_vals);
  set("setZWArray_kernel", true);
  get("getXYArray_kernel", false);
  copy_chunks(keys, pa, n, out_keys);
  set("setXYArray_kernel", false);
  return chunk_boundary(out_keys, ptr_out, n, key_list_range);
}

}  // namespace gms::kernels::mars
