// Per-vertex result files (--output-parents, --output-depths; SSSP: distances) in the input
// file's vertex ids. Text, one "id value" line per vertex (every vertex 0..n-1 of the graph,
// unreached ones with value -1), in increasing new-id order (= increasing file id order for
// relabelled and mtx input), after one '#' comment line. Written in parallel: each rank writes the
// lines of its id-map slice (util/output_file.hpp: atomically for a file, through rank 0 for a
// stream).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph/local_graph.hpp"
#include "io/edge_input.hpp"
#include "util/output_file.hpp"

namespace g500::io {

// Collective: moves owned per-vertex values (BFS distribution, graph.dist.block entries) to the
// id map's slices: result[k] is the value of new id ids.local_begin() + k.
std::vector<int64_t> to_map_slices(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                   const VertexIdMap& ids, const std::vector<int64_t>& owned_values);
// The same for real values (SSSP distances); vertices without a value get +infinity.
std::vector<double> to_map_slices(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                  const VertexIdMap& ids, const std::vector<double>& owned_values);

// Collective: writes "file_id value" lines; `values` are the slice values (from to_map_slices).
// With values_are_vertices, values >= 0 are new ids and are written as file ids (parents).
void write_vertex_file(util::OutputFile& file, const VertexIdMap& ids, const std::vector<int64_t>& values,
                       bool values_are_vertices, const std::string& comment);
// The same for real values (SSSP distances; unreached written as "inf"), each in the shortest text
// that reads back as the same value (as a float when the value is one).
void write_vertex_file(util::OutputFile& file, const VertexIdMap& ids, const std::vector<double>& values,
                       const std::string& comment);

}  // namespace g500::io
