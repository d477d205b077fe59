// The input both MUMmerGPU ports (ispass/mum: 1.0; rodinia/mummergpu: 2.0) build the same way: the seeded
// reference and reads standing in for the data files, the reads packed as getQueriesTexture packs them, and
// the reference page the suffix tree is built over. Shared so that the two versions draw identical inputs
// from identical code; each port keeps its own texture layouts and kernels.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gms::kernels::mummer {

constexpr int64_t kMaxQueryLen = 8192;  // MAX_QUERY_LEN: the page overlap

// `bases` uniform random bases and `queries` reads of `read_length` bases, each the reference's substring at
// a uniform start in [0, bases - read length], as genreads.py draws them, seeded (splitmix64). genreads.py's
// -m option (a percentage of bases changed A->C->G->T->A) is parsed but not applied there, so its reads are
// exact; `mismatches` applies it here (tests use it to leave the reference mid-edge).
struct Input {
  std::string reference;
  std::vector<std::string> reads;
};
Input make_input(uint32_t bases, uint32_t queries, uint32_t read_length, uint32_t mismatches, uint64_t seed);

// getQueriesTexture: each read as 'q', its bases and a NUL, with its offset and length.
struct Queries {
  std::string text;
  std::vector<int32_t> addrs, lengths;
};
Queries pack_queries(const std::vector<std::string>& reads);

// buildReferenceTexture's one page: "s" + bases + "$", NULs to the page end (half the page overlap past the
// bases) and "$" + NUL. The suffix tree is built over its first bases + 2 characters.
std::string reference_page(const std::string& reference);

// The length of the common prefix of a and b (the checks' reference matchers).
size_t common_prefix(std::string_view a, std::string_view b);

}  // namespace gms::kernels::mummer
