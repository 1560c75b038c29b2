// The input edges checked by their endpoints' owners ("owner queries"): each rank reads its
// share of the input edges chunk by chunk and sends every edge {a, b} to a's owner, which looks
// up a's depth, marks a's tree edge when b is a's parent, and forwards the edge with a's depth to
// b's owner, which compares the depths and marks b's tree edge when a is b's parent. Every vertex's
// state is read where it is kept, so a process holds one chunk of edges and the two exchanges'
// buffers (8 or 16 bytes per edge each way) and nothing indexed by the row or column set: the
// way for large grids, where every rank holding every vertex's depth would not fit. The owners
// read the owned vertices' words (depth and parent fingerprint, edge_check_parts.hpp: 2 bytes
// per vertex for shallow trees, a quarter of the depths and parents they stand for, so more of
// them stay in cache) and the parent itself only when the fingerprint matches.
#include <omp.h>

#include <atomic>
#include <bit>

#include "comm/exchange.hpp"
#include "util/atomic_ref.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::validate::edge_check {
namespace {

using Depth = uint32_t;  // stored depths as records carry them (edge_check_parts.hpp): 0 unreached, depth + 2 reached

// Records looked ahead of the one answered: their owned vertex's depth and parent are read at random.
constexpr int64_t kAhead = 16;
constexpr int kWordBits = 64;
constexpr int kHalfBits = 32;

// World rank, owned offset and first vertex of any vertex's owner, from one entry per block and
// per rank (R * C of each).
class Owners {
 public:
  Owners(const graph::Distribution& d, const graph::ProcessGrid& grid)
      : by_block_(d.by_block), block_(d.block), rank_(static_cast<size_t>(d.R) * d.C), first_(rank_.size()) {
    for (int i = 0; i < d.R; ++i)
      for (int j = 0; j < d.C; ++j) {
        rank_[d.block_owned_by(i, j)] = grid.world_rank_of(i, j);
        first_[grid.world_rank_of(i, j)] = d.block_owned_by(i, j) * d.block;
      }
  }
  struct Place {
    int rank;
    uint64_t offset;
  };
  Place of(int64_t v) const {
    const uint64_t k = by_block_.divide(static_cast<uint64_t>(v));
    return Place{rank_[k], static_cast<uint64_t>(v) - k * static_cast<uint64_t>(block_)};
  }
  int64_t first_of_rank(int rank) const { return first_[rank]; }

 private:
  util::FastDivisor by_block_;
  int64_t block_;
  std::vector<int> rank_;       // per block
  std::vector<int64_t> first_;  // per world rank
};

// The records of the two exchanges, one 64-bit word each when their fields fit, else two:
//  - to a's owner: a's owned offset and b's global id (one word: offset << id_bits | b);
//  - to b's owner: b's owned offset, a's owned offset (a's owner is the record's source) and a's
//    stored depth (one word: (b's offset << offset_bits | a's offset) << depth_bits | depth; two
//    words: b's offset << 32 | depth, a's offset). Owned offsets fit in 32 bits (B <= 2^32,
//    checked when the graph is built), stored depths too.
// One word halves the bytes moved; it holds up to SCALE 42 on grids whose blocks have at most
// 2^22 vertices for the first record, and for blocks of up to 2^28 vertices in shallow trees for
// the second.
struct RecordLayout {
  int offset_bits, id_bits, depth_bits;
  bool first_in_one_word, second_in_one_word;

  RecordLayout(const graph::Distribution& d, int32_t max_depth, bool one_word_records) {
    const uint64_t vertices = static_cast<uint64_t>(d.block) * d.R * d.C;
    offset_bits = std::bit_width(static_cast<uint64_t>(d.block - 1));
    id_bits = std::bit_width(vertices - 1);
    depth_bits = std::bit_width(static_cast<uint64_t>(stored_depth<Depth>(max_depth)));
    first_in_one_word = one_word_records && offset_bits + id_bits <= kWordBits;
    second_in_one_word = one_word_records && 2 * offset_bits + depth_bits <= kWordBits;
  }
  static uint64_t mask(int bits) { return bits >= kWordBits ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
};

// One chunk's two exchanges; kFirstWords and kSecondWords are the words per record of each,
// Rows the owned vertices' words (NarrowRows or WideRows).
template <class Rows, int kFirstWords, int kSecondWords>
struct OwnerCheck {
  using Row = typename Rows::Row;
  const graph::Distribution& d;
  const Owners& owners;
  const RecordLayout& layout;
  const int64_t* parent;  // owned vertices' parents
  const Row* word;        // owned vertices' words
  uint64_t* seen;         // owned vertices' tree-edge marks
  comm::Exchanger& to_first;
  comm::Exchanger& to_second;
  int64_t reached_entries = 0;
  BadEdge bad{};

  void mark(int64_t k) {
    util::AtomicRef<uint64_t>(seen[k / util::kBitsPerWord])
        .fetch_or(uint64_t{1} << (k % util::kBitsPerWord), std::memory_order_relaxed);
  }

  // The first record's fields: a's owned offset, b.
  uint64_t first_offset(const uint64_t* record) const {
    return kFirstWords == 1 ? record[0] >> layout.id_bits : record[0];
  }
  int64_t first_other(const uint64_t* record) const {
    return static_cast<int64_t>(kFirstWords == 1 ? record[0] & RecordLayout::mask(layout.id_bits) : record[1]);
  }
  // The second record's fields: b's owned offset, a's owned offset, a's stored depth.
  uint64_t second_offset(const uint64_t* record) const {
    return kSecondWords == 1 ? record[0] >> (layout.depth_bits + layout.offset_bits) : record[0] >> kHalfBits;
  }
  uint64_t second_other(const uint64_t* record) const {
    return kSecondWords == 1 ? (record[0] >> layout.depth_bits) & RecordLayout::mask(layout.offset_bits) : record[1];
  }
  Depth second_depth(const uint64_t* record) const {
    return static_cast<Depth>(record[0] & RecordLayout::mask(kSecondWords == 1 ? layout.depth_bits : kHalfBits));
  }

  // Collective: one chunk's edges, both exchanges.
  void operator()(const gen::Edge* edges, int64_t n) {
    comm::ThreadBuckets& first = to_first.start();
#pragma omp parallel
    {
      std::vector<std::vector<uint64_t>>& out = first[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (int64_t k = 0; k < n; ++k) {
        const int64_t a = edges[k].v0, b = edges[k].v1;
        if (a == b) continue;  // self-loops are not edges of the graph
        const Owners::Place at = owners.of(a);
        std::vector<uint64_t>& to = out[at.rank];
        if constexpr (kFirstWords == 1) {
          to.push_back(at.offset << layout.id_bits | static_cast<uint64_t>(b));
        } else {
          to.push_back(at.offset);
          to.push_back(static_cast<uint64_t>(b));
        }
      }
    }
    util::PhaseProfile unused;
    answer_first(to_first.deliver(unused));
    answer_second(to_second.deliver(unused));
  }

  // At a's owner: a's tree edge, a's entry of the edge count, and the edge on to b's owner.
  void answer_first(const std::vector<comm::Exchanger::Piece>& pieces) {
    comm::ThreadBuckets& second = to_second.start();
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      std::vector<std::vector<uint64_t>>& out = second[omp_get_thread_num()];
      for (const comm::Exchanger::Piece& piece : pieces) {
        const uint64_t* records = piece.records;
        const int64_t count = static_cast<int64_t>(piece.count) / kFirstWords;
#pragma omp for schedule(static) nowait
        for (int64_t r = 0; r < count; ++r) {
          if (r + kAhead < count) __builtin_prefetch(word + first_offset(records + kFirstWords * (r + kAhead)));
          const uint64_t* record = records + kFirstWords * r;
          const uint64_t k = first_offset(record);
          const int64_t b = first_other(record);
          const Row wa = word[k];
          const Depth da = Rows::depth(wa);
          reached += da != 0;
          if (Rows::parent_may_be(wa, static_cast<uint64_t>(b)) && parent[k] == b) mark(static_cast<int64_t>(k));
          const Owners::Place at = owners.of(b);
          std::vector<uint64_t>& to = out[at.rank];
          if constexpr (kSecondWords == 1) {
            to.push_back((at.offset << layout.offset_bits | k) << layout.depth_bits | da);
          } else {
            to.push_back(at.offset << kHalfBits | da);
            to.push_back(k);
          }
        }
      }
    }
    reached_entries += reached;
  }

  // At b's owner: the depth rule, b's tree edge and b's entry of the edge count.
  void answer_second(const std::vector<comm::Exchanger::Piece>& pieces) {
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      BadEdge my_bad;
      const int64_t first_owned = d.owned_begin();
      for (const comm::Exchanger::Piece& piece : pieces) {
        const uint64_t* records = piece.records;
        const int64_t count = static_cast<int64_t>(piece.count) / kSecondWords;
        const int64_t first_of_source = owners.first_of_rank(piece.source);
#pragma omp for schedule(static) nowait
        for (int64_t r = 0; r < count; ++r) {
          if (r + kAhead < count) __builtin_prefetch(word + second_offset(records + kSecondWords * (r + kAhead)));
          const uint64_t* record = records + kSecondWords * r;
          const int64_t k = static_cast<int64_t>(second_offset(record));
          const int64_t a = first_of_source + static_cast<int64_t>(second_other(record));
          const Row wb = word[k];
          const Depth da = second_depth(record), db = Rows::depth(wb);
          if (__builtin_expect(depths_bad(da, db), 0))
            my_bad.consider(a, unstored_depth(da), first_owned + k, unstored_depth(db));
          reached += db != 0;
          if (Rows::parent_may_be(wb, static_cast<uint64_t>(a)) && parent[k] == a) mark(k);
        }
      }
#pragma omp critical
      bad.merge(my_bad);
    }
    reached_entries += reached;
  }
};

// Collective: the chunks, each through both exchanges.
template <class Rows, int kFirstWords, int kSecondWords>
EdgeCheck check_chunks(const graph::EdgeSource& source, const graph::Distribution& d, const graph::ProcessGrid& grid,
                       const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                       const RecordLayout& layout, const EdgeCheckOptions& options, util::Bitmap& tree_edge_seen) {
  std::vector<typename Rows::Row> word(d.block);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) word[k] = Rows::word(depth[k], static_cast<uint64_t>(parents[k]));
  const int nthreads = omp_get_max_threads();
  const comm::AlltoallvFn alltoallv = comm::find_alltoallv("mpi");
  comm::Exchanger to_first(grid.world(), nthreads, alltoallv, grid.limits());
  comm::Exchanger to_second(grid.world(), nthreads, alltoallv, grid.limits());
  const Owners owners(d, grid);
  OwnerCheck<Rows, kFirstWords, kSecondWords> check{
      d, owners, layout, parents.data(), word.data(), tree_edge_seen.data(), to_first, to_second};
  for_each_input_chunk(source, options.chunk_edges, grid.world(),
                       [&](const gen::Edge* edges, int64_t count) { check(edges, count); });
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  report(check.bad, result);
  return result;
}

template <class Rows>
EdgeCheck check_with_rows(const graph::EdgeSource& source, const graph::Distribution& d, const graph::ProcessGrid& grid,
                          const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                          const RecordLayout& layout, const EdgeCheckOptions& options, util::Bitmap& seen) {
  if (layout.first_in_one_word && layout.second_in_one_word)
    return check_chunks<Rows, 1, 1>(source, d, grid, parents, depth, layout, options, seen);
  if (layout.second_in_one_word)
    return check_chunks<Rows, 2, 1>(source, d, grid, parents, depth, layout, options, seen);
  if (layout.first_in_one_word) return check_chunks<Rows, 1, 2>(source, d, grid, parents, depth, layout, options, seen);
  return check_chunks<Rows, 2, 2>(source, d, grid, parents, depth, layout, options, seen);
}

}  // namespace

EdgeCheck check_by_owners(const graph::EdgeSource& source, const graph::Distribution& d, const graph::ProcessGrid& grid,
                          const std::vector<int64_t>& parents, const std::vector<int32_t>& depth, int32_t max_depth,
                          bool narrow, const EdgeCheckOptions& options, util::Bitmap& tree_edge_seen) {
  const RecordLayout layout(d, max_depth, options.one_word_records);
  if (narrow) return check_with_rows<NarrowRows>(source, d, grid, parents, depth, layout, options, tree_edge_seen);
  return check_with_rows<WideRows>(source, d, grid, parents, depth, layout, options, tree_edge_seen);
}

double owner_queries_bytes(const graph::Distribution& d, int threads, int64_t chunk_edges) {
  // One chunk of edges read; per exchange, its records in the threads' buckets (grown by doubling:
  // up to three times their size while the last doubling copies them), packed to send and
  // received (about one record per edge of the chunk each: the fullest owner's chunk is smaller by
  // its load, EdgeCheckOptions::fullest_owner_load), and
  // the buckets' headers, one per thread and rank. Measured at SCALE 19 and 20 on a 2x2 grid
  // (validated run against --no-validate): 99 and 88 MiB, estimated 97 and 98.
  // The records' words as laid out for a tree of at most kNarrowMaxDepth levels, and the owned
  // vertices' 2-byte words.
  const RecordLayout layout(d, kNarrowMaxDepth, true);
  const double chunk = static_cast<double>(chunk_edges);
  const double ranks = static_cast<double>(d.R) * d.C;
  const double headers = threads * ranks * sizeof(std::vector<uint64_t>);
  constexpr double kCopies = 3 + 1 + 1;  // buckets, sent, received
  auto exchange = [&](bool one_word) { return chunk * (one_word ? 1 : 2) * sizeof(uint64_t) * kCopies + headers; };
  return static_cast<double>(d.block) * sizeof(NarrowRows::Row) + chunk * sizeof(gen::Edge) +
         exchange(layout.first_in_one_word) + exchange(layout.second_in_one_word);
}

}  // namespace g500::validate::edge_check
