#include "fuzz/mutator.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace gms::fuzz {

namespace {

// Boundaries that readers range-check: zero, sign and width limits of 8, 16, 32 and 64 bits.
const uint64_t kInteresting[] = {0,
                                 1,
                                 2,
                                 3,
                                 7,
                                 16,
                                 31,
                                 32,
                                 33,
                                 64,
                                 127,
                                 128,
                                 255,
                                 256,
                                 1023,
                                 1024,
                                 4096,
                                 65535,
                                 65536,
                                 0x7fffffff,
                                 0x80000000,
                                 0xffffffff,
                                 0x100000000ull,
                                 1ull << 48,
                                 ~0ull >> 1,
                                 ~0ull};
const char* const kInterestingText[] = {
    "-1",  "-0", "18446744073709551616", "99999999999999999999999", "0x", "1e308",
    "nan", "",   "0x10000000000000000"};

}  // namespace

Mutator::Mutator(uint64_t seed, std::vector<Bytes> corpus, std::vector<Bytes> dictionary, size_t max_len)
    : rng_(seed), corpus_(std::move(corpus)), dict_(std::move(dictionary)), max_len_(max_len) {
  if (corpus_.empty()) corpus_.emplace_back();
}

Bytes Mutator::next() {
  Bytes b = corpus_[rng_.below(corpus_.size())];
  const uint64_t n = 1 + rng_.below(8);
  for (uint64_t i = 0; i < n; ++i) mutate_once(b);
  if (b.size() > max_len_) b.resize(max_len_);
  return b;
}

void Mutator::mutate_once(Bytes& b) {
  switch (rng_.below(b.empty() ? 3 : 10)) {
    case 0:
      insert_bytes(b);
      break;
    case 1:
      splice(b);
      break;
    case 2:
      dictionary_token(b);
      break;
    case 3:
      flip_bit(b);
      break;
    case 4:
      set_byte(b);
      break;
    case 5:
      erase_bytes(b);
      break;
    case 6:
      duplicate_chunk(b);
      break;
    case 7:
      text_integer(b);
      break;
    case 8:
      binary_integer(b);
      break;
    default:
      insert_bytes(b);
      break;
  }
}

size_t Mutator::pos(const Bytes& b, bool end_ok) {
  return size_t(rng_.below(b.size() + (end_ok ? 1 : 0)));
}

void Mutator::flip_bit(Bytes& b) {
  b[pos(b, false)] ^= uint8_t(1u << rng_.below(8));
}

void Mutator::set_byte(Bytes& b) {
  static const uint8_t special[] = {0, 0xff, 0x7f, 0x80, '\n', '\r', ' ', '\t', ':', '-', '#', '0', '9', '"'};
  b[pos(b, false)] = rng_.below(2) ? uint8_t(rng_.next()) : special[rng_.below(sizeof special)];
}

void Mutator::insert_bytes(Bytes& b) {
  const size_t at = pos(b, true), n = 1 + rng_.below(rng_.below(4) ? 4 : 64);
  Bytes ins(n);
  const uint8_t fill = uint8_t(rng_.next());
  const bool same = rng_.below(2);
  for (uint8_t& c : ins) c = same ? fill : uint8_t(rng_.next());
  b.insert(b.begin() + long(at), ins.begin(), ins.end());
}

void Mutator::erase_bytes(Bytes& b) {
  const size_t at = pos(b, false), n = 1 + rng_.below(std::min<size_t>(b.size() - at, 64));
  b.erase(b.begin() + long(at), b.begin() + long(at + n));
}

void Mutator::duplicate_chunk(Bytes& b) {
  const size_t from = pos(b, false), n = 1 + rng_.below(std::min<size_t>(b.size() - from, 256));
  const Bytes chunk(b.begin() + long(from), b.begin() + long(from + n));
  const size_t at = pos(b, true);
  b.insert(b.begin() + long(at), chunk.begin(), chunk.end());
}

void Mutator::splice(Bytes& b) {
  const Bytes& other = corpus_[rng_.below(corpus_.size())];
  if (other.empty()) return;
  const size_t from = rng_.below(other.size()),
               n = 1 + rng_.below(std::min<size_t>(other.size() - from, 512));
  const size_t at = pos(b, true);
  if (rng_.below(2) && at < b.size())
    b.erase(b.begin() + long(at), b.begin() + long(std::min(b.size(), at + n)));
  b.insert(b.begin() + long(at), other.begin() + long(from), other.begin() + long(from + n));
}

// Replaces a run of decimal digits (or inserts at a random place when there is none near) with an
// interesting number written in decimal or hex.
void Mutator::text_integer(Bytes& b) {
  size_t at = pos(b, true);
  size_t i = at;
  while (i < b.size() && !(b[i] >= '0' && b[i] <= '9') && i - at < 64) ++i;
  size_t end = i;
  if (i < b.size() && b[i] >= '0' && b[i] <= '9') {
    while (end < b.size() && ((b[end] >= '0' && b[end] <= '9') || b[end] == 'x' || b[end] == 'X' ||
                              (b[end] >= 'a' && b[end] <= 'f')))
      ++end;
    at = i;
  } else {
    end = at;
  }
  std::string s;
  const uint64_t r = rng_.below(8);
  if (r == 0) {
    s = kInterestingText[rng_.below(sizeof kInterestingText / sizeof *kInterestingText)];
  } else {
    uint64_t v = kInteresting[rng_.below(sizeof kInteresting / sizeof *kInteresting)];
    if (r == 1) v += 1;
    if (r == 2) v -= 1;
    char buf[32];
    std::snprintf(buf, sizeof buf, r == 3 ? "0x%llx" : "%llu", (unsigned long long)v);
    s = buf;
  }
  b.erase(b.begin() + long(at), b.begin() + long(end));
  b.insert(b.begin() + long(at), s.begin(), s.end());
}

void Mutator::binary_integer(Bytes& b) {
  static const unsigned widths[] = {1, 2, 4, 8};
  const unsigned w = widths[rng_.below(4)];
  uint64_t v = kInteresting[rng_.below(sizeof kInteresting / sizeof *kInteresting)];
  if (rng_.below(4) == 0) v = ~v + 1;  // negative
  const size_t at = pos(b, false);
  for (unsigned k = 0; k < w && at + k < b.size(); ++k) b[at + k] = uint8_t(v >> (8 * k));
}

void Mutator::dictionary_token(Bytes& b) {
  if (dict_.empty()) return insert_bytes(b);
  const Bytes& t = dict_[rng_.below(dict_.size())];
  const size_t at = pos(b, true);
  b.insert(b.begin() + long(at), t.begin(), t.end());
}

std::vector<Bytes> read_dictionary(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open dictionary");
  std::vector<Bytes> out;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t q = line.find('"'), last = line.rfind('"');
    if (q == std::string::npos || last == q)
      throw std::runtime_error(path + ":" + std::to_string(no) + ": no \"value\"");
    Bytes tok;
    for (size_t i = q + 1; i < last; ++i) {
      if (line[i] != '\\') {
        tok.push_back(uint8_t(line[i]));
      } else if (i + 1 < last && (line[i + 1] == '\\' || line[i + 1] == '"')) {
        tok.push_back(uint8_t(line[++i]));
      } else if (i + 3 < last && line[i + 1] == 'x') {
        tok.push_back(uint8_t(std::stoi(line.substr(i + 2, 2), nullptr, 16)));
        i += 3;
      } else {
        throw std::runtime_error(path + ":" + std::to_string(no) + ": bad escape");
      }
    }
    out.push_back(std::move(tok));
  }
  return out;
}

}  // namespace gms::fuzz
