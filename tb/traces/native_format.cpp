#include "tb/traces/native_format.h"
#include "models/common/text_excerpt.h"

#include <cstdio>
#include <cstring>

#include "models/common/bounded_input.h"
#include "models/common/config.h"

namespace gms {

TraceFormat trace_format_for_path(const std::string& path) {
  const std::string ext = ".bin";
  return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0
             ? TraceFormat::Binary
             : TraceFormat::Text;
}

TraceFormat parse_trace_format(const std::string& s, const std::string& what) {
  if (s == "text") return TraceFormat::Text;
  if (s == "binary") return TraceFormat::Binary;
  throw ConfigError(what + ": " + quote_excerpt(s) + " is not one of: binary, text");
}

TraceCompression parse_trace_compression(const std::string& s, const std::string& what) {
  if (s == "none") return TraceCompression::None;
  if (s == "zlib") return TraceCompression::Zlib;
  if (s == "xz") return TraceCompression::Xz;
  throw ConfigError(what + ": " + quote_excerpt(s) + " is not one of: none, xz, zlib");
}

NativeKind sniff_native(std::string_view head) {
  if (head.size() >= sizeof kBinaryMagic && std::memcmp(head.data(), kBinaryMagic, sizeof kBinaryMagic) == 0)
    return NativeKind::Binary;
  const size_t m = std::strlen(kTextMagic);
  if (head.size() > m && head.compare(0, m, kTextMagic) == 0 && (head[m] == ' ' || head[m] == '\t'))
    return NativeKind::Text;
  return NativeKind::None;
}

NativeKind sniff_native(const std::string& path) {
  try {
    InputFile in(path);
    return sniff_native(in.peek(16));
  } catch (const ConfigError&) {
    return NativeKind::None;
  }
}

uint32_t cta_warp_lanes(uint32_t threads_per_cta, uint32_t warp) {
  const uint64_t first = uint64_t(warp) * kWarpSize;
  if (threads_per_cta >= first + kWarpSize) return ~uint32_t(0);
  if (threads_per_cta <= first) return 0;
  return (uint32_t(1) << (threads_per_cta - first)) - 1;
}

std::string inactive_lane_error(uint32_t mask, uint32_t threads_per_cta, uint32_t warp) {
  const uint32_t valid = cta_warp_lanes(threads_per_cta, warp);
  const unsigned lane = unsigned(__builtin_ctz(mask & ~valid));
  char hex[16];
  std::snprintf(hex, sizeof hex, "%x", mask);
  return "mask 0x" + std::string(hex) + ": lane " + std::to_string(lane) +
         " is active, but the CTA has only " + std::to_string(threads_per_cta) + " threads (warp " +
         std::to_string(warp) + " holds lanes 0.." + std::to_string(__builtin_popcount(valid) - 1) + ")";
}

std::unique_ptr<NativeTraceSource> open_native_trace(std::unique_ptr<InputFile> in) {
  switch (sniff_native(in->peek(16))) {
    case NativeKind::Text:
      return open_text_trace(std::move(in));
    case NativeKind::Binary:
      return open_binary_trace(std::move(in));
    default:
      break;
  }
  throw ConfigError(in->path() +
                    ":1: not a native trace (expected a first line 'gmstrace 1' or the binary magic)");
}

std::unique_ptr<NativeTraceSource> open_native_trace(const std::string& path) {
  return open_native_trace(std::make_unique<InputFile>(path));
}

std::unique_ptr<NativeTraceSink> open_native_sink(const std::string& path, TraceFormat format,
                                                  TraceCompression compression) {
  return format == TraceFormat::Binary ? open_binary_sink(path, compression) : open_text_sink(path);
}

}  // namespace gms
