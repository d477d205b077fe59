// Quoting user input inside an error message: a short, printable, single-line excerpt. A NUL byte would
// cut the message short and a binary file would dump kilobytes of raw bytes into the terminal, so every
// byte outside printable ASCII is escaped (\n, \t, \0, \xNN) and the excerpt is cut at `max` bytes of input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gms {

// The bytes of `text` escaped into printable ASCII, at most `max` input bytes, "..." if cut. No quotes.
std::string escape_excerpt(std::string_view text, size_t max = 40);
// escape_excerpt in single quotes: 'abc\x01...'.
inline std::string quote_excerpt(std::string_view text, size_t max = 40) {
  return "'" + escape_excerpt(text, max) + "'";
}
// An address or size as it appears in messages: 0x1f80.
std::string to_hex(uint64_t v);

}  // namespace gms
