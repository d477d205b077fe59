// A small deterministic mutator for the replay driver (fuzz/replay_main.cpp), where libFuzzer is not
// available (the gcc test build): bit flips, byte insert/delete/duplicate, chunk splices between corpus
// inputs, interesting integers (as text and as little-endian bytes) and dictionary tokens. Its PRNG is its
// own (SplitMix64), so a seed gives the same inputs on every machine and library.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gms::fuzz {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for n > 0 (n is tiny next to 2^64).
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t s_;
};

using Bytes = std::vector<uint8_t>;

class Mutator {
 public:
  Mutator(uint64_t seed, std::vector<Bytes> corpus, std::vector<Bytes> dictionary, size_t max_len);
  // A corpus input with 1 to 8 stacked mutations, at most max_len bytes.
  Bytes next();

 private:
  void mutate_once(Bytes& b);
  void flip_bit(Bytes& b);
  void set_byte(Bytes& b);
  void insert_bytes(Bytes& b);
  void erase_bytes(Bytes& b);
  void duplicate_chunk(Bytes& b);
  void splice(Bytes& b);
  void text_integer(Bytes& b);
  void binary_integer(Bytes& b);
  void dictionary_token(Bytes& b);
  size_t pos(const Bytes& b, bool end_ok);

  SplitMix64 rng_;
  std::vector<Bytes> corpus_, dict_;
  size_t max_len_;
};

// Tokens of a libFuzzer dictionary file (lines `name="value"` or `"value"`, escapes \\ \" \xNN, # comments).
// Throws std::runtime_error naming the file and line when malformed.
std::vector<Bytes> read_dictionary(const std::string& path);

}  // namespace gms::fuzz
