// MUMmerGPU's suffix tree, shared by ispass/mum and rodinia/mummergpu (suffix_tree.h).
#include "tb/kernels/common/suffix_tree.h"

#include <algorithm>
#include <deque>
#include <utility>

namespace gms::kernels::mummer {

int base_index(char c) {
  return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4;
}

uint32_t tex_address(uint32_t id) {
  const uint32_t low = id & 0x1FFFF, high = id >> 17;
  return (low >> 5) | (((high << 5) + (low & 0x1F)) << 16);
}

uint32_t Texel::byte(int i) const {
  return (w[i / 4] >> (8 * (i % 4))) & 0xFF;
}

void Texel::set(int i, uint32_t b) {
  w[i / 4] = (w[i / 4] & ~(0xFFu << (8 * (i % 4)))) | ((b & 0xFF) << (8 * (i % 4)));
}

size_t texel_of(uint32_t id) {
  const uint32_t a = tex_address(id);
  return size_t(a >> 16) * size_t(kTexWidth) + (a & 0xFFFF);
}

Int texel_index(const Int& addr) {
  return (addr >> 16 & 0xFFFF) * kTexWidth + (addr & 0xFFFF);
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t SuffixTree::address(int32_t v) const {
  return v < 0 ? 0u : tex_address(nodes[size_t(v)].id);
}

bool SuffixTree::Node::leaf() const {
  return std::all_of(child, child + 5, [](int32_t c) { return c < 0; });
}

void SuffixTree::build(const std::string& text) {
  const int n = int(text.size()) - 1;
  suffix_array(text, n);
  nodes.assign(1, Node{});
  nodes[0].minleaf = n + 1;
  std::vector<int32_t> stack{0};
  auto attach = [&](int32_t p, int32_t c) {
    Node& child = nodes[size_t(c)];
    child.parent = p;
    nodes[size_t(p)].child[base_index(text[size_t(child.minleaf + nodes[size_t(p)].depth)])] = c;
  };
  auto fold = [&](int32_t into, int32_t from) {
    nodes[size_t(into)].minleaf = std::min(nodes[size_t(into)].minleaf, nodes[size_t(from)].minleaf);
  };
  for (int r = 0; r < n; ++r) {
    const int j = sa_[size_t(r)], l = r > 0 ? lcp_[size_t(r)] : 0;
    int32_t popped = -1;
    while (nodes[size_t(stack.back())].depth > l) {
      popped = stack.back();
      stack.pop_back();
      fold(stack.back(), popped);
    }
    if (nodes[size_t(stack.back())].depth < l) {  // the branch point lies inside the popped edge
      Node w;
      w.depth = l;
      w.minleaf = nodes[size_t(popped)].minleaf;
      nodes.push_back(w);
      const int32_t wi = int32_t(nodes.size() - 1);
      attach(stack.back(), wi);
      attach(wi, popped);
      stack.push_back(wi);
    }
    Node leaf;
    leaf.depth = n - j + 1;
    leaf.minleaf = j;
    nodes.push_back(leaf);
    attach(stack.back(), int32_t(nodes.size() - 1));
    stack.push_back(int32_t(nodes.size() - 1));
  }
  for (; stack.size() > 1; stack.pop_back()) fold(stack[stack.size() - 2], stack.back());
  std::vector<int32_t> leaf_of(size_t(n) + 2, -1);
  for (size_t v = 1; v < nodes.size(); ++v) {
    Node& x = nodes[v];
    const int32_t parent_depth = nodes[size_t(x.parent)].depth;
    x.start = x.minleaf + parent_depth;
    x.end = x.start + x.depth - parent_depth - 1;
    if (x.leaf()) leaf_of[size_t(x.minleaf)] = int32_t(v);
  }
  nodes[0].link = 0;
  for (size_t v = 1; v < nodes.size(); ++v) {  // the ancestor of the next suffix's leaf one shallower
    Node& x = nodes[v];
    if (x.leaf()) continue;
    int32_t u = leaf_of[size_t(x.minleaf + 1)];
    while (nodes[size_t(u)].depth > x.depth - 1) u = nodes[size_t(u)].parent;
    x.link = u;
  }
  renumber();
}

// Prefix doubling, characters ranked A < C < G < T < $.
void SuffixTree::suffix_array(const std::string& text, int n) {
  std::vector<int> rank(size_t(n) + 2, -1), next(size_t(n) + 2, 0);
  sa_.resize(size_t(n));
  for (int i = 1; i <= n; ++i) sa_[size_t(i - 1)] = i, rank[size_t(i)] = base_index(text[size_t(i)]);
  for (int k = 1;; k <<= 1) {
    auto key = [&](int i) { return std::make_pair(rank[size_t(i)], i + k <= n ? rank[size_t(i + k)] : -1); };
    std::sort(sa_.begin(), sa_.end(), [&](int a, int b) { return key(a) < key(b); });
    next[size_t(sa_[0])] = 0;
    for (size_t i = 1; i < size_t(n); ++i)
      next[size_t(sa_[i])] = next[size_t(sa_[i - 1])] + (key(sa_[i - 1]) < key(sa_[i]) ? 1 : 0);
    for (int i = 1; i <= n; ++i) rank[size_t(i)] = next[size_t(i)];
    if (rank[size_t(sa_[size_t(n - 1)])] == n - 1) break;
  }
  lcp_.assign(size_t(n), 0);  // Kasai: lcp_[r] = common prefix of sa_[r - 1] and sa_[r]
  for (int i = 1, h = 0; i <= n; ++i) {
    const int r = rank[size_t(i)];
    if (r == 0) {
      h = 0;
      continue;
    }
    const int j = sa_[size_t(r - 1)];
    while (i + h <= n && j + h <= n && text[size_t(i + h)] == text[size_t(j + h)]) ++h;
    lcp_[size_t(r)] = h;
    if (h > 0) --h;
  }
}

// Breadth first to depth 16; below, a node's next four levels depth first and the fifth queued.
void SuffixTree::renumber() {
  uint32_t count = 0;
  std::deque<std::pair<int32_t, int>> queue{{0, 0}};
  auto block = [&](auto&& self, int32_t u, int level, int depth) -> void {
    for (int32_t c : nodes[size_t(u)].child) {
      if (c < 0) continue;
      if (level == 4) {
        queue.emplace_back(c, depth + 5);
        continue;
      }
      nodes[size_t(c)].id = ++count;
      self(self, c, level + 1, depth);
    }
  };
  while (!queue.empty()) {
    const auto [v, depth] = queue.front();
    queue.pop_front();
    nodes[size_t(v)].id = ++count;
    if (depth < 16) {
      for (int32_t c : nodes[size_t(v)].child)
        if (c >= 0) queue.emplace_back(c, depth + 1);
    } else {
      block(block, v, 0, depth);
    }
  }
}

}  // namespace gms::kernels::mummer
