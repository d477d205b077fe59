// Rodinia 3.1 dwt2d (CUDA): the forward 5/3 discrete wavelet transform (integer lifting, JPEG 2000) of an
// RGB image, several levels. c_CopySrcToComponents splits the interleaved 8-bit pixels into three int
// components (256 threads per CTA; the first 192 copy the CTA's 768 bytes into shared memory as 4-byte
// words; each thread stores its pixel's three components minus 128). Per component and level,
// fdwt53Kernel (WIN_X threads, WIN_X = 192 / 128 / 64 by the level's width) slides a WIN_X x 8 window down
// `steps` windows of the image: each thread loads its column (the first three threads also one of the
// three boundary columns: two left, one right), 8 rows per window after the 3 carried over, mirroring at the
// image's edges, into a shared transform buffer split into even and odd columns; lifts it vertically
// (predict odd rows, update even rows), then horizontally (all threads over the buffer's rows) between
// barriers, and writes one output column into the four bands (LL, HL, LH, HH stored one after another).
// The host copies the LL band back over the input (cudaMemcpy device to device: no kernel, done on the
// host here) and runs the next level on it. Each CTA runs one of three versions by its distance to the
// image's bottom and right edges (checked loads and writes, checked writes, nothing checked).
#include <cstdint>

#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 -arch=sm_75 -Xptxas -v: registers per thread; static shared memory (the FDWT53 object per
// window width; c_CopySrcToComponents' 768-byte sData).
constexpr uint32_t kRegsComp = 16, kShmemComp = 768, kRegsFdwt = 54;
constexpr uint32_t kShmemFdwt192 = 8728, kShmemFdwt128 = 5912, kShmemFdwt64 = 3096;
// PTX instructions (nvcc --ptx -arch=sm_75) between global accesses and barriers, shared-memory accesses
// not counted (the port's shared accesses add one each). c_CopySrcToComponents<int>: the entry (parameters,
// the x < 192 test, the word index) to the load, the shared address, the pixel test and byte addresses,
// each store's address.
constexpr uint32_t kCompEntry = 17, kCompAfterLoad = 3, kCompAfterSync = 5, kCompStore0 = 5, kCompStore = 3;
// fdwt53Kernel<192, 8> (the unchecked version; the checked ones differ by a few instructions per access and
// are given the same numbers): the entry and the version's choice to the column's first load, the three
// first loads, the boundary column's initialisation, the writer's initialisation, a window's first and
// later column loads, the column's vertical lifting and the boundary test, the boundary column's lifting,
// the first barrier, the two horizontal steps (to their barriers), a store (address, check), the loop.
constexpr uint32_t kFdwtEntry = 85, kFdwtInitLoad = 0, kFdwtBoundaryInit = 37, kFdwtBoundaryLoad = 9;
constexpr uint32_t kFdwtWriterInit = 60, kFdwtFirstLoad = 18, kFdwtLoad = 9, kFdwtAfterColumn = 55;
constexpr uint32_t kFdwtAfterBoundary = 57, kFdwtBeforeSync = 2, kFdwtOdd = 28, kFdwtEven = 36;
constexpr uint32_t kFdwtStore = 7, kFdwtLoop = 7;

constexpr int64_t kThreadsComp = 256;  // components.cu THREADS
constexpr int64_t kWinY = 8;           // WIN_SIZE_Y of every fdwt53 launch
constexpr int64_t kBufRows = kWinY + 3;

int64_t div_up(int64_t n, int64_t d) {
  return n / d + (n % d ? 1 : 0);
}
int64_t win_x_for(int64_t sx) {
  return sx >= 960 ? 192 : sx >= 480 ? 128 : 64;
}

// The TransformBuffer's layout for a window width: rows of stride 2 + WIN_X / 2, even columns first, the
// odd ones ODD_OFFSET later (padded against bank conflicts, 32 banks).
struct Layout {
  int64_t win_x, stride, odd, size;
  explicit Layout(int64_t wx) : win_x(wx), stride(2 + wx / 2) {
    const int64_t buffer = stride * kBufRows, padding = 32 - ((buffer + 16) % 32);
    odd = buffer + padding;
    size = 2 * buffer + padding;
  }
  Int column_offset(const Int& c) const {
    const Int cc = c + 2;
    return cc / 2 + (cc & 1) * odd;
  }
};

// Where writer position (x, y) of an sx x sy level lands in the four bands (VerticalDWTBandIO).
struct BandPos {
  Int start, end, low_to_high, high_to_low;
};
BandPos band_pos(int64_t sx, int64_t sy, const Int& fx, int64_t fy) {
  BandPos b;
  const Bool odd = (fx & 1) != 0;
  const Int vstride = select<int64_t>(odd, sx / 2, sx / 2 + (sx & 1));
  const Int col = fx / 2 + select<int64_t>(odd, div_up(sx, 2) * div_up(sy, 2), 0);
  b.low_to_high = select<int64_t>(odd, (sx * sy) / 2, div_up(sy, 2) * sx);
  b.high_to_low = vstride - b.low_to_high;
  b.end = col + (sy / 2) * vstride + (sy & 1) * b.low_to_high;
  b.start = col + (fy / 2) * vstride + (fy & 1) * b.low_to_high;
  return b;
}

// The sequential reference: 5/3 lifting on columns then rows, whole-sample symmetric extension, the
// coefficients written into the four bands.
void fdwt53_ref(const std::vector<int32_t>& in, int64_t sx, int64_t sy, std::vector<int32_t>& out) {
  std::vector<int64_t> t(in.begin(), in.begin() + sx * sy);
  auto my = [&](int64_t y) { return y < 0 ? -y : y >= sy ? 2 * sy - 2 - y : y; };
  auto mx = [&](int64_t x) { return x < 0 ? -x : x >= sx ? 2 * sx - 2 - x : x; };
  for (int64_t x = 0; x < sx; ++x) {
    for (int64_t y = 1; y < sy; y += 2) t[y * sx + x] -= (t[my(y - 1) * sx + x] + t[my(y + 1) * sx + x]) / 2;
    for (int64_t y = 0; y < sy; y += 2)
      t[y * sx + x] += (t[my(y - 1) * sx + x] + t[my(y + 1) * sx + x] + 2) / 4;
  }
  for (int64_t y = 0; y < sy; ++y) {
    int64_t* r = &t[y * sx];
    for (int64_t x = 1; x < sx; x += 2) r[x] -= (r[mx(x - 1)] + r[mx(x + 1)]) / 2;
    for (int64_t x = 0; x < sx; x += 2) r[x] += (r[mx(x - 1)] + r[mx(x + 1)] + 2) / 4;
  }
  for (int64_t y = 0; y < sy; ++y)
    for (int64_t x = 0; x < sx; ++x) {
      const BandPos b = band_pos(sx, sy, Int(x), y);
      out[size_t(b.start[0])] = int32_t(t[y * sx + x]);
    }
}

class Dwt2d : public KernelPort {
 public:
  Dwt2d(int64_t w, int64_t h, int levels, uint32_t seed) : w_(w), h_(h), levels_(levels), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t n = size_t(w_ * h_);
    // processDWT<int>'s cudaMalloc order, then rgbToComponents' d_src (aligned to 256 pixels, 3 bytes each).
    r_out_ = mem.alloc<int32_t>("c_r_out", n);
    backup_ = mem.alloc<int32_t>("backup", n);
    g_out_ = mem.alloc<int32_t>("c_g_out", n);
    b_out_ = mem.alloc<int32_t>("c_b_out", n);
    r_ = mem.alloc<int32_t>("c_r", n);
    g_ = mem.alloc<int32_t>("c_g", n);
    b_ = mem.alloc<int32_t>("c_b", n);
    const int64_t aligned = div_up(w_ * h_, kThreadsComp) * kThreadsComp * 3;
    src_ = mem.alloc<uint32_t>("d_src", size_t(aligned / 4));
    // The image file's bytes (w * h * 3, read raw), here glibc rand() % 256 after srand(seed).
    LibcRand rng(seed_);
    pixels_.resize(n * 3);
    for (auto& p : pixels_) p = uint8_t(rng.rand() % 256);
    for (size_t i = 0; i < pixels_.size(); ++i) src_[i / 4] |= uint32_t(pixels_[i]) << (8 * (i % 4));
  }

  void run(Launcher& host) override {
    const int64_t pixels = w_ * h_;
    const int64_t aligned = div_up(pixels, kThreadsComp) * kThreadsComp * 3;
    KernelLaunch k;
    k.name = "c_CopySrcToComponents";
    k.grid = {uint32_t(aligned / (kThreadsComp * 3)), 1, 1};
    k.block = {uint32_t(kThreadsComp), 1, 1};
    k.regs_per_thread = kRegsComp;
    k.shmem_per_cta = kShmemComp;
    k.body = [this, pixels](Warp& w) { components(w, pixels); };
    host.launch(std::move(k));
    DeviceArray<int32_t>* ins[3] = {&r_, &g_, &b_};
    DeviceArray<int32_t>* outs[3] = {&r_out_, &g_out_, &b_out_};
    for (int c = 0; c < 3; ++c) {
      backup_.host() = ins[c]->host();  // nStage2dDWT's cudaMemcpy device to device
      fdwt53(host, *ins[c], *outs[c], w_, h_, levels_);
    }
  }

  std::string check() const override {
    const DeviceArray<int32_t>* outs[3] = {&r_out_, &g_out_, &b_out_};
    const size_t n = size_t(w_ * h_);
    for (int c = 0; c < 3; ++c) {
      std::vector<int32_t> in(n), out(n, 0);
      for (size_t i = 0; i < n; ++i) in[i] = int32_t(pixels_[3 * i + size_t(c)]) - 128;
      int64_t sx = w_, sy = h_;
      for (int l = 0; l < levels_; ++l) {
        fdwt53_ref(in, sx, sy, out);
        sx = div_up(sx, 2), sy = div_up(sy, 2);
        std::copy(out.begin(), out.begin() + sx * sy, in.begin());
      }
      for (size_t i = 0; i < n; ++i)
        if ((*outs[c])[i] != out[i])
          return "component " + std::to_string(c) + " out[" + std::to_string(i) +
                 "] = " + std::to_string((*outs[c])[i]) + ", expected " + std::to_string(out[i]);
    }
    return "";
  }

  // Whether every level's windows read inside the image (the source mirrors once at each edge).
  static bool fits(int64_t w, int64_t h, int levels) {
    for (int l = 0; l < levels; ++l) {
      const int64_t wx = win_x_for(w), steps = div_up(h, 15 * kWinY);
      const int64_t gx = div_up(w, wx), gy = div_up(h, kWinY * steps);
      if (w < 3 || h < 3 || gx * wx > 2 * w - 2 || gy * kWinY * steps > 2 * h - 2) return false;
      w = div_up(w, 2), h = div_up(h, 2);
    }
    return true;
  }

 private:
  void components(Warp& w, int64_t pixels) {
    auto& sdata = w.shared<uint32_t>(0, size_t(kThreadsComp * 3 / 4));
    const Int x = w.thread_idx_x();
    const int64_t gx = int64_t(w.block_dim().x) * w.block_idx().x;
    w.compute(kCompEntry);
    w.if_(x * 4 < kThreadsComp * 3, [&] {
      const Lanes<uint32_t> v = w.load(0x10, src_, ((gx * 3) >> 2) + x);
      w.compute(kCompAfterLoad);
      w.shared_store(sdata, x, v);
    });
    w.sync();
    const Int gpos = x + gx;
    w.compute(kCompAfterSync);
    w.if_(gpos < pixels, [&] {
      const Int off = x * 3;
      auto byte = [&](const Int& i) {
        const Lanes<uint32_t> word = w.shared_load(sdata, i / 4);
        return ((word.as<int64_t>() >> ((i % 4) * 8)) & 0xff);
      };
      const Int b2 = byte(off + 2), b1 = byte(off + 1), b0 = byte(off);  // the PTX's order
      w.compute(kCompStore0);
      w.store(0x20, r_, gpos, b0 - 128);
      w.compute(kCompStore);
      w.store(0x30, g_, gpos, b1 - 128);
      w.compute(kCompStore);
      w.store(0x40, b_, gpos, b2 - 128);
    });
  }

  void fdwt53(Launcher& host, DeviceArray<int32_t>& in, DeviceArray<int32_t>& out, int64_t sx, int64_t sy,
              int levels) {
    const int64_t wx = win_x_for(sx);
    const int64_t steps = div_up(sy, 15 * kWinY);
    KernelLaunch k;
    k.name = "fdwt53Kernel";
    k.grid = {uint32_t(div_up(sx, wx)), uint32_t(div_up(sy, kWinY * steps)), 1};
    k.block = {uint32_t(wx), 1, 1};
    k.regs_per_thread = kRegsFdwt;
    k.shmem_per_cta = wx == 192 ? kShmemFdwt192 : wx == 128 ? kShmemFdwt128 : kShmemFdwt64;
    k.body = [this, &in, &out, sx, sy, steps, wx](Warp& w) { transform(w, in, out, sx, sy, steps, wx); };
    host.launch(std::move(k));
    if (levels > 1) {
      const int64_t llx = div_up(sx, 2), lly = div_up(sy, 2);
      std::copy(out.host().begin(), out.host().begin() + llx * lly, in.host().begin());  // memCopy
      fdwt53(host, in, out, llx, lly, levels - 1);
    }
  }

  // A column's loader (VerticalDWTPixelLoader), its buffer offset and the three rows carried over.
  struct Column {
    Int last, end, stride, offset, p0, p1, p2;
  };

  // One fdwt53Kernel CTA warp. `spec` is the version (0: checked loads and writes, 1: checked writes, 2:
  // unchecked), PCs 0x400 apart.
  void transform(Warp& w, DeviceArray<int32_t>& in, DeviceArray<int32_t>& out, int64_t sx, int64_t sy,
                 int64_t steps, int64_t wx) {
    const Layout lay(wx);
    auto& buf = w.shared<int32_t>(0, size_t(lay.size));
    const int64_t bx = w.block_idx().x, by = w.block_idx().y;
    const Int tx = w.thread_idx_x();
    const bool bottom = (by + 1) * kWinY * steps + 1 >= sy, right = (bx + 1) * wx + 1 >= sx;
    const int spec = bottom ? 0 : right ? 1 : 2;
    const bool check_loads = bottom, check_writes = bottom || right;
    const uint32_t base = 0x100 + 0x400 * uint32_t(spec);
    const int64_t S = lay.stride;

    auto init_loader = [&](Column& c, Int fx, int64_t fy) {
      fx = select<int64_t>(fx >= sx, 2 * sx - 2 - fx, select<int64_t>(fx < 0, -fx, fx));
      c.end = check_loads ? sy * sx + fx : Int(0);
      c.stride = Int(sx);
      c.last = fx + sx * fy - sx;
    };
    auto load_from = [&](uint32_t pc, Column& c) {
      c.last = c.last + c.stride;
      if (check_loads) {
        const Bool hit = c.last == c.end;
        c.last = select<int64_t>(hit, c.last - 2 * c.stride, c.last);
        c.stride = select<int64_t>(hit, -c.stride, c.stride);
      }
      return w.load(pc, in, c.last).as<int64_t>();
    };
    const int64_t first_y = by * kWinY * steps;
    // initColumn: the three rows above the window (mirrored at the top), pcs pc..pc + 0x20 (the top row of
    // CTAs runs its own copy, 0x30 further).
    auto init_column = [&](Column& c, const Int& col, uint32_t pc) {
      c.offset = lay.column_offset(col);
      const Int fx = col + bx * wx;
      if (by == 0) {
        init_loader(c, fx, first_y);
        c.p2 = load_from(pc, c);
        w.compute(kFdwtInitLoad);
        c.p1 = load_from(pc + 0x10, c);
        w.compute(kFdwtInitLoad);
        c.p0 = load_from(pc + 0x20, c);
        init_loader(c, fx, first_y + 1);
      } else {
        init_loader(c, fx, first_y - 2);
        c.p0 = load_from(pc + 0x30, c);
        w.compute(kFdwtInitLoad);
        c.p1 = load_from(pc + 0x40, c);
        w.compute(kFdwtInitLoad);
        c.p2 = load_from(pc + 0x50, c);
      }
    };
    // loadAndVerticallyTransform: 8 loads (pcs pc..pc + 0x70), then the lifting in shared memory.
    auto load_column = [&](Column& c, uint32_t pc, uint32_t first_gap) {
      w.shared_store(buf, c.offset + 0 * S, c.p0);
      w.shared_store(buf, c.offset + 1 * S, c.p1);
      w.shared_store(buf, c.offset + 2 * S, c.p2);
      for (int64_t i = 3; i < kBufRows; ++i) {
        w.compute(i == 3 ? first_gap : kFdwtLoad);
        w.shared_store(buf, c.offset + i * S, load_from(pc + 0x10 * uint32_t(i - 3), c));
      }
      c.p0 = w.shared_load(buf, c.offset + kWinY * S).as<int64_t>();
      c.p1 = w.shared_load(buf, c.offset + (kWinY + 1) * S).as<int64_t>();
      c.p2 = w.shared_load(buf, c.offset + (kWinY + 2) * S).as<int64_t>();
      for (int64_t i = 0; i < (kBufRows - 1) / 2; ++i) {  // forEachVerticalOdd, predict
        const int64_t row = 2 * i + 1;
        const Int p = w.shared_load(buf, c.offset + (row - 1) * S).as<int64_t>();
        const Int n = w.shared_load(buf, c.offset + (row + 1) * S).as<int64_t>();
        const Int m = w.shared_load(buf, c.offset + row * S).as<int64_t>();
        w.shared_store(buf, c.offset + row * S, m - (p + n) / 2);
      }
      for (int64_t i = 0; i < kBufRows / 2 - 1; ++i) {  // forEachVerticalEven, update
        const int64_t row = 2 + 2 * i;
        const Int p = w.shared_load(buf, c.offset + (row - 1) * S).as<int64_t>();
        const Int n = w.shared_load(buf, c.offset + (row + 1) * S).as<int64_t>();
        const Int m = w.shared_load(buf, c.offset + row * S).as<int64_t>();
        w.shared_store(buf, c.offset + row * S, m + (p + n + 2) / 4);
      }
    };
    // horizontalStep over numLines = 8 rows from row 2; predict (odd) or update (even).
    auto horizontal = [&](int64_t prev, int64_t mid, int64_t next, bool predict) {
      const int64_t count = kWinY * S - 1, nsteps = count / wx, fin = count % wx, fin_off = count - fin;
      auto one = [&](const Int& i) {
        const Int p = w.shared_load(buf, prev + i).as<int64_t>();
        const Int n = w.shared_load(buf, next + i).as<int64_t>();
        const Int m = w.shared_load(buf, mid + i).as<int64_t>();
        w.shared_store(buf, mid + i, predict ? m - (p + n) / 2 : m + (p + n + 2) / 4);
      };
      for (int64_t i = 0; i < nsteps; ++i) one(tx + i * wx);
      w.if_(tx < fin, [&] { one(tx + fin_off); });
    };

    Column column, boundary;
    w.compute(kFdwtEntry);
    init_column(column, tx, base);
    w.compute(kFdwtBoundaryInit);
    w.if_(tx < 3, [&] {
      const Int col = tx + select<int64_t>(tx == 0, wx, -3);
      init_column(boundary, col, base + 0x60);
    });
    // The writer (VerticalDWTBandWriter) of this thread's output column (parityIdx).
    const Int out_col = tx * 2 - (wx - 1) * (tx / (wx / 2));
    const Int out_off = lay.column_offset(out_col);
    const Int out_fx = out_col + bx * wx;
    BandPos wr = band_pos(sx, sy, out_fx, first_y);
    const Bool inside = out_fx < sx;
    Int next = select<int64_t>(inside, wr.start, 0);
    const Int end = select<int64_t>(inside && check_writes, wr.end, 0);
    wr.low_to_high = select<int64_t>(inside, wr.low_to_high, 0);
    wr.high_to_low = select<int64_t>(inside, wr.high_to_low, 0);
    auto save = [&](uint32_t pc, const Int& v, const Int& stride) {
      w.compute(kFdwtStore);
      auto write = [&] {
        w.store(pc, out, next, v);
        next = next + stride;
      };
      if (check_writes)
        w.if_(next != end, write);
      else
        write();
    };
    w.compute(kFdwtWriterInit);
    for (int64_t s = 0; s < steps; ++s) {
      load_column(column, base + 0xc0, kFdwtFirstLoad);
      w.compute(kFdwtAfterColumn);
      w.if_(tx < 3, [&] {
        load_column(boundary, base + 0x140, kFdwtLoad);
        w.compute(kFdwtAfterBoundary);
      });
      w.compute(kFdwtBeforeSync);
      w.sync();
      horizontal(2 * S, 2 * S + lay.odd, 2 * S + 1, true);  // forEachHorizontalOdd
      w.compute(kFdwtOdd);
      w.sync();
      horizontal(2 * S + lay.odd, 2 * S + 1, 2 * S + lay.odd + 1, false);  // forEachHorizontalEven
      w.compute(kFdwtEven);
      w.sync();
      for (int64_t r = 2; r < 2 + kWinY; r += 2) {
        const uint32_t pc = base + 0x1c0 + 0x20 * uint32_t(r / 2 - 1);
        save(pc, w.shared_load(buf, out_off + r * S).as<int64_t>(), wr.low_to_high);
        save(pc + 0x10, w.shared_load(buf, out_off + (r + 1) * S).as<int64_t>(), wr.high_to_low);
      }
      w.compute(1);
      w.sync();
      w.compute(kFdwtLoop);
    }
  }

  int64_t w_, h_;
  int levels_;
  uint32_t seed_;
  std::vector<uint8_t> pixels_;
  DeviceArray<int32_t> r_out_, backup_, g_out_, b_out_, r_, g_, b_;
  DeviceArray<uint32_t> src_;
};

}  // namespace

void register_rodinia_dwt2d(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/dwt2d";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/dwt2d/main.cu, dwt.cu, components.cu, "
      "dwt_cuda/fdwt53.cu, io.h, transform_buffer.h @ 9c10d3e";
  p.input =
      "the run script's last run: rgb.bmp -d 1024x1024 -f -5 -l 3 (forward 5/3 transform, int components, 3 "
      "components, 3 levels); default the same. The image file (read raw, 1024 x 1024 x 3 bytes) is replaced "
      "by seeded bytes (glibc rand() % 256 after srand(seed)). Footprint 28 MiB (7 component-sized int "
      "buffers and the 3 MiB source), about 0.5 M warp instructions. The device-to-device copies (the "
      "backup, the LL band back to the input) are done on the host (no kernel). Size keys: width, height "
      "(the levels' windows must stay inside one mirroring: each level's grid width x window <= 2 width - 2, "
      "the same down), levels, seed";
  p.papers = "TSC/TSC+ (000, dwt2d), H-Xbar LLC (004, DWT2D)";
  p.kernels = "c_CopySrcToComponents<int>, fdwt53Kernel<192, 8>, fdwt53Kernel<128, 8>, fdwt53Kernel<64, 8>";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t width = s.get_uint("width", 1024, 3, 8192);
    const uint64_t height = s.get_uint("height", 1024, 3, 8192);
    const uint64_t levels = s.get_uint("levels", 3, 1, 8);
    const uint64_t seed = s.get_uint("seed", 1, 0, 0xffffffffu);
    if (!Dwt2d::fits(int64_t(width), int64_t(height), int(levels)))
      throw ConfigError("rodinia/dwt2d: a level's windows would read outside the mirrored image (too small)");
    return std::make_unique<Dwt2d>(int64_t(width), int64_t(height), int(levels), uint32_t(seed));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
