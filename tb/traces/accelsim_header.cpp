#include "tb/traces/accelsim_header.h"
#include "models/common/text_excerpt.h"

#include <cstdio>

#include "tb/traces/compressed_input.h"

namespace gms {

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

uint64_t number(const LineReader& r, const std::string& key, const std::string& v, bool hex, uint64_t max) {
  uint64_t x = 0;
  const bool ok = hex ? parse_hex_u64(v, x) : parse_dec_u64(v, x);
  if (!ok || x > max) r.fail("-" + key + ": bad value " + quote_excerpt(v));
  return x;
}

std::array<uint32_t, 3> dim3(const LineReader& r, const std::string& key, const std::string& v) {
  std::array<uint32_t, 3> d{};
  unsigned long long x, y, z;
  int used = 0;
  if (std::sscanf(v.c_str(), "(%llu,%llu,%llu)%n", &x, &y, &z, &used) != 3 || size_t(used) != v.size() ||
      x == 0 || y == 0 || z == 0 || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
    r.fail("-" + key + ": bad value " + quote_excerpt(v) + " (expected (x,y,z), each at least 1)");
  d = {uint32_t(x), uint32_t(y), uint32_t(z)};
  return d;
}

}  // namespace

AccelKernelHeader read_accelsim_header(LineReader& r) {
  AccelKernelHeader h;
  bool have_name = false, have_grid = false, have_block = false, have_version = false;
  std::string line;
  for (;;) {
    if (!r.next(line)) r.fail("unexpected end of file: the kernel trace has no thread block (#BEGIN_TB)");
    const std::string t = trim(line);
    if (t.empty()) continue;
    if (t == "#BEGIN_TB") break;
    if (t[0] == '#') continue;
    if (t[0] != '-') r.fail("expected a header line '-key = value' or #BEGIN_TB, got " + quote_excerpt(t));
    const size_t eq = t.find('=');
    if (eq == std::string::npos) r.fail("header line without '=': " + quote_excerpt(t));
    const std::string key = trim(t.substr(1, eq - 1));
    const std::string v = trim(t.substr(eq + 1));
    if (key == "kernel name") {
      h.name = v;
      have_name = true;
    } else if (key == "kernel id") {
      h.kernel_id = number(r, key, v, false, UINT64_MAX);
    } else if (key == "grid dim") {
      h.grid = dim3(r, key, v);
      have_grid = true;
    } else if (key == "block dim") {
      h.block = dim3(r, key, v);
      have_block = true;
    } else if (key == "shmem") {
      h.shmem = uint32_t(number(r, key, v, false, UINT32_MAX));
    } else if (key == "nregs") {
      h.nregs = uint32_t(number(r, key, v, false, 65535));
    } else if (key == "binary version") {
      h.binary_version = uint32_t(number(r, key, v, false, UINT32_MAX));
    } else if (key == "cuda stream id") {
      h.cuda_stream = number(r, key, v, false, UINT64_MAX);
    } else if (key == "shmem base_addr") {
      h.shmem_base = number(r, key, v, true, UINT64_MAX);
    } else if (key == "local mem base_addr") {
      h.local_base = number(r, key, v, true, UINT64_MAX);
    } else if (key == "nvbit version") {
      h.nvbit_version = v;
    } else if (key == "accelsim tracer version") {
      uint64_t version = 0;
      if (!parse_dec_u64(v, version) || version < kAccelMinVersion || version > kAccelMaxVersion)
        r.fail("-accelsim tracer version " + quote_excerpt(v) + " is not supported (this importer reads " +
               "versions " + std::to_string(kAccelMinVersion) + " to " + std::to_string(kAccelMaxVersion) +
               ")");
      h.format.version = unsigned(version);
      have_version = true;
    } else if (key == "enable lineinfo") {
      h.format.lineinfo = number(r, key, v, false, 1) != 0;
    } else {
      r.fail("unknown header key " + quote_excerpt("-" + key));
    }
  }
  const char* missing = !have_name      ? "-kernel name"
                        : !have_grid    ? "-grid dim"
                        : !have_block   ? "-block dim"
                        : !have_version ? "-accelsim tracer version"
                                        : nullptr;
  if (missing) r.fail(std::string("the header lacks '") + missing + "' before the first thread block");
  if (h.threads_per_cta() > 1024) r.fail("block dim gives more than 1024 threads per thread block");
  if (h.num_ctas() > UINT32_MAX) r.fail("grid dim gives more than 2^32-1 thread blocks");
  return h;
}

}  // namespace gms
