#include "sssp/dijkstra.hpp"

#include <omp.h>

#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "util/timer.hpp"

namespace g500::sssp {

SerialWeightedGraph build_serial_weighted_graph(const gen::KroneckerGenerator& generator) {
  const int64_t m = generator.spec().nedges();
  std::vector<gen::Edge> edges(m);
  std::vector<float> w(m);
  generator.generate_parallel(0, m, edges.data(), w.data());
  return build_serial_weighted_graph(generator.spec().nvertices(), edges, w);
}

SerialWeightedGraph build_serial_weighted_graph(int64_t n, const std::vector<gen::Edge>& edges,
                                                const std::vector<float>& w) {
  SerialWeightedGraph g;
  const int64_t m = static_cast<int64_t>(edges.size());
  g.nvertices = n;
  g.starts.assign(n + 1, 0);
  for (const auto& e : edges)
    if (e.v0 != e.v1) {
      ++g.starts[e.v0 + 1];
      ++g.starts[e.v1 + 1];
    }
  for (int64_t v = 0; v < n; ++v) g.starts[v + 1] += g.starts[v];
  g.targets.resize(g.starts[n]);
  g.weights.resize(g.starts[n]);
  std::vector<int64_t> cursor(g.starts.begin(), g.starts.end() - 1);
  for (int64_t k = 0; k < m; ++k) {
    const auto& e = edges[k];
    if (e.v0 == e.v1) continue;
    int64_t at = cursor[e.v0]++;
    g.targets[at] = static_cast<uint32_t>(e.v1);
    g.weights[at] = w[k];
    at = cursor[e.v1]++;
    g.targets[at] = static_cast<uint32_t>(e.v0);
    g.weights[at] = w[k];
  }
  return g;
}

DijkstraResult dijkstra(const SerialWeightedGraph& g, int64_t root) {
  DijkstraResult r;
  // Float distances, as the reference 3.0's and the delta-stepping's (the same float sums).
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> dist(g.nvertices, inf);
  r.parent.assign(g.nvertices, -1);
  util::Timer timer;
  using Item = std::pair<float, int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[root] = 0;
  r.parent[root] = root;
  heap.push({0.0F, root});
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (d > dist[v]) continue;
    for (int64_t e = g.starts[v]; e < g.starts[v + 1]; ++e) {
      const int64_t u = g.targets[e];
      const float nd = d + g.weights[e];
      if (nd < dist[u]) {
        dist[u] = nd;
        r.parent[u] = v;
        heap.push({nd, u});
      }
    }
  }
  r.seconds = timer.seconds();
  r.dist.assign(dist.begin(), dist.end());
  for (double d : r.dist)
    if (std::isfinite(d)) {
      ++r.reached;
      r.sum_dist += d;
      r.max_dist = std::max(r.max_dist, d);
    }
  return r;
}

}  // namespace g500::sssp
