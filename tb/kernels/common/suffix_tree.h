// MUMmerGPU's suffix tree (ispass/mum: MUMmerGPU 1.0; rodinia/mummergpu: 2.0, the same construction): the
// tree of "s" + reference + "$" with the edge labels Ukkonen's construction leaves, the suffix links of the
// internal nodes and the ids renumberTree gives. Each port lays the nodes out in its own textures.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/lanes.h"

namespace gms::kernels::mummer {

constexpr int64_t kTexWidth = 4096;  // MAX_TEXTURE_DIMENSION: the node and children textures' width
constexpr int64_t kTexColumn = 32;   // TEXBLOCKSIZE: ids per column block (id2addr)

// A, C, G, T -> 0..3, anything else ('$') -> 4: the children's order.
int base_index(char c);

// id2addr with REORDER_TREE: a node id's texel (x in the low 16 bits, y in the high ones) in a 4096-wide
// texture, 32 consecutive ids down a column.
uint32_t tex_address(uint32_t id);

// One texel of the node and children textures (uint4); byte access for MUMmerGPU 2.0's packed fields.
struct Texel {
  uint32_t w[4];
  uint32_t byte(int i) const;
  void set(int i, uint32_t b);
};

// The element of a node id's texel in a 4096-wide texture: y * 4096 + x (the row-major layout
// cudaMemcpyToArray copies), on the host.
size_t texel_of(uint32_t id);

// The same from a TextureAddress, per lane (the kernels' node and children fetches).
Int texel_index(const Int& addr);

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
  // Node v's TextureAddress (tex_address of its id); 0 for no node (v < 0).
  uint32_t address(int32_t v) const;

 private:
  void suffix_array(const std::string& text, int n);
  void renumber();
  std::vector<int> sa_, lcp_;
};

}  // namespace gms::kernels::mummer
