// MUMmerGPU's suffix tree (ispass/mum: MUMmerGPU 1.0; rodinia/mummergpu: 2.0, the same construction): the
// tree of "s" + reference + "$" with the edge labels Ukkonen's construction leaves, the suffix links of the
// internal nodes and the ids renumberTree gives. Each port lays the nodes out in its own textures.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gms::kernels::mummer {

// A, C, G, T -> 0..3, anything else ('$') -> 4: the children's order.
int base_index(char c);

// id2addr with REORDER_TREE: a node id's texel (x in the low 16 bits, y in the high ones) in a 4096-wide
// texture, 32 consecutive ids down a column.
uint32_t tex_address(uint32_t id);

// splitmix64: the ports' seeded input generator.
uint64_t splitmix(uint64_t& s);

// The suffix tree of text = "s" + bases + "$" (positions 1..n, n = bases + 1), built from the suffix array
// and its LCP array. Edge labels are the ones Ukkonen's construction leaves: a node's edge starts at the
// smallest suffix below it plus its parent's depth (the suffix whose leaf created the edge); suffix links
// of internal nodes, none (-1) for leaves; ids as renumberTree gives them. (The ispass/mum port compared the
// textures it gives byte for byte with suffix-tree.cpp's on random, two-letter and Fibonacci strings.)
struct SuffixTree {
  struct Node {
    int32_t depth = 0;  // string depth (suffix-tree.cpp's m_depth is this + 1: its root has length 1)
    int32_t parent = -1, minleaf = 0, start = 0, end = 0, link = -1;
    int32_t child[5] = {-1, -1, -1, -1, -1};
    uint32_t id = 0;
    bool leaf() const;  // a leaf's minleaf is its suffix's start (m_leafid)
  };
  std::vector<Node> nodes;  // nodes[0] is the root

  void build(const std::string& text);

 private:
  void suffix_array(const std::string& text, int n);
  void renumber();
  std::vector<int> sa_, lcp_;
};

}  // namespace gms::kernels::mummer
