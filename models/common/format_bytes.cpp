#include "models/common/format_bytes.h"

#include <cstdio>

namespace gms {

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  unsigned u = 0;
  while (v >= 1024 && u + 1 < sizeof units / sizeof *units) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

}  // namespace gms
