// Link loads of the BFS's patterns by routing (pattern_loads.hpp).
#include "model/pattern_loads.hpp"

#include <vector>

#include "topo/segment_loads.hpp"

namespace g500::model {

namespace {

enum class Shape { kAlltoall, kRing, kExchange };

// Routes `shape` over the groups of one side: groups along the column (members: the rows of one
// column) or along the row. Returns the busiest link's load; adds the messages to `routes`.
double route_side(const topo::Topology& box, const topo::Placement& nodes, bool along_column, Shape shape,
                  bool all_groups, int64_t& routes) {
  const int members = along_column ? nodes.rows : nodes.cols;
  const int groups = along_column ? nodes.cols : nodes.rows;
  if (members < 2) return 0;
  auto node = [&](int group, int member) {
    return along_column ? nodes.node_of_rank[static_cast<size_t>(member) * nodes.cols + group]
                        : nodes.node_of_rank[static_cast<size_t>(group) * nodes.cols + member];
  };
  topo::WeightedSegmentLoads loads(box);
  const double share = 1.0 / (members - 1);  // alltoall: one unit per node, split over the others
  for (int g = 0; g < (all_groups ? groups : 1); ++g)
    for (int k = 0; k < members; ++k) {
      const int64_t from = node(g, k);
      switch (shape) {
        case Shape::kAlltoall:
          for (int j = 0; j < members; ++j)
            if (j != k) {
              loads.add_route(from, node(g, j), share);
              ++routes;
            }
          break;
        case Shape::kRing:
          loads.add_route(from, node(g, (k + 1) % members), 1.0);
          ++routes;
          break;
        case Shape::kExchange:
          loads.add_route(from, node(g, (k + 1) % members), 1.0);
          loads.add_route(from, node(g, (k + members - 1) % members), 1.0);
          routes += 2;
          break;
      }
    }
  return loads.max_count();
}

int64_t alltoall_routes(const topo::Placement& nodes) {
  const int64_t r = nodes.rows, c = nodes.cols;
  return r * c * (r - 1) + r * c * (c - 1);
}

}  // namespace

PatternLoads route_patterns(const topo::Topology& box, const topo::Placement& nodes, Groups groups) {
  PatternLoads p;
  p.all_groups = groups == Groups::kAll || (groups == Groups::kAuto && alltoall_routes(nodes) <= kMaxRoutesAllGroups);
  for (bool along_column : {true, false}) {
    GroupLoads& side = along_column ? p.column : p.row;
    side.alltoall = route_side(box, nodes, along_column, Shape::kAlltoall, p.all_groups, p.routes);
    side.ring = route_side(box, nodes, along_column, Shape::kRing, p.all_groups, p.routes);
    side.exchange = route_side(box, nodes, along_column, Shape::kExchange, p.all_groups, p.routes);
  }
  return p;
}

}  // namespace g500::model
