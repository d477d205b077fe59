#include "tb/traces/native_format.h"
#include "models/common/text_excerpt.h"

#include <cstring>
#include <fstream>

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

NativeKind sniff_native(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buf[16] = {};
  in.read(buf, sizeof buf);
  const size_t n = size_t(in.gcount());
  if (n >= sizeof kBinaryMagic && std::memcmp(buf, kBinaryMagic, sizeof kBinaryMagic) == 0)
    return NativeKind::Binary;
  const size_t m = std::strlen(kTextMagic);
  if (n > m && std::memcmp(buf, kTextMagic, m) == 0 && (buf[m] == ' ' || buf[m] == '\t'))
    return NativeKind::Text;
  return NativeKind::None;
}

std::unique_ptr<NativeTraceSource> open_native_trace(const std::string& path) {
  switch (sniff_native(path)) {
    case NativeKind::Text:
      return open_text_trace(path);
    case NativeKind::Binary:
      return open_binary_trace(path);
    default:
      break;
  }
  std::ifstream probe(path);
  if (!probe) throw ConfigError(path + ": cannot open trace");
  throw ConfigError(path + ":1: not a native trace (expected a first line 'gmstrace 1' or the binary magic)");
}

std::unique_ptr<NativeTraceSink> open_native_sink(const std::string& path, TraceFormat format,
                                                  TraceCompression compression) {
  return format == TraceFormat::Binary ? open_binary_sink(path, compression) : open_text_sink(path);
}

}  // namespace gms
