#include "models/common/text_excerpt.h"

#include <cstdio>

namespace gms {

std::string escape_excerpt(std::string_view text, size_t max) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  const size_t n = text.size() < max ? text.size() : max;
  out.reserve(n + 8);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\0':
        out += "\\0";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += char(c);
        } else {
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
        }
    }
  }
  if (n < text.size()) out += "...";
  return out;
}

std::string to_hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

}  // namespace gms
