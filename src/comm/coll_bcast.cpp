// Broadcast algorithms of Hosono et al. 2021 (Open MPI's basic linear, chain, pipeline, binary tree, split
// binary tree, binomial; Fugaku's bintree3d and Trinaryx-style k trees) on one engine that
// forwards a message, optionally cut into segments, down one or more trees at once.
#include <algorithm>
#include <vector>

#include "comm/bcast_trees.hpp"
#include "comm/coll_algorithms.hpp"

namespace g500::comm {

namespace {

// A part of the message travelling down one tree.
struct Stream {
  MPI_Aint first_element = 0;
  int count = 0;
  TreeLinks links;
};

// Elements per segment: the whole stream when segment_bytes is 0.
int segment_elements(int segment_bytes, MPI_Datatype type, int count) {
  if (segment_bytes <= 0) return std::max(count, 1);
  int type_size = 1;
  MPI_Type_size(type, &type_size);
  return std::max(1, segment_bytes / std::max(type_size, 1));
}

// Tree-forwarding engine: every rank posts receives for all segments of every stream from that
// stream's parent, and as each segment arrives sends it on to the stream's children; the root
// sends all segments, round-robin over the streams. Each stream has its own tag.
int forward_streams(void* buf, MPI_Datatype type, const std::vector<Stream>& streams, int segment_bytes,
                    MPI_Comm comm) {
  const MPI_Aint extent = extent_of(type);
  struct Segment {
    int stream;
    MPI_Aint first;
    int count;
  };
  std::vector<Segment> segments;  // segment-major order, interleaving the streams
  std::vector<int> per_stream(streams.size());
  for (std::size_t s = 0; s < streams.size(); ++s)
    per_stream[s] = segment_elements(segment_bytes, type, streams[s].count);
  for (int index = 0;; ++index) {
    bool any = false;
    for (std::size_t s = 0; s < streams.size(); ++s) {
      const MPI_Aint offset = static_cast<MPI_Aint>(index) * per_stream[s];
      if (offset >= streams[s].count) continue;
      any = true;
      const int count = static_cast<int>(std::min<MPI_Aint>(per_stream[s], streams[s].count - offset));
      segments.push_back({static_cast<int>(s), streams[s].first_element + offset, count});
    }
    if (!any) break;
  }
  auto tag_of = [](int stream) { return kCollectiveTag + stream; };
  std::vector<MPI_Request> receives(segments.size(), MPI_REQUEST_NULL), sends;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment& seg = segments[i];
    const TreeLinks& links = streams[seg.stream].links;
    if (links.parent >= 0)
      MPI_Irecv(byte_offset(buf, seg.first * extent), seg.count, type, links.parent, tag_of(seg.stream), comm,
                &receives[i]);
  }
  auto send_on = [&](const Segment& seg) {
    for (int child : streams[seg.stream].links.children) {
      MPI_Request request;
      MPI_Isend(byte_offset(buf, seg.first * extent), seg.count, type, child, tag_of(seg.stream), comm, &request);
      sends.push_back(request);
    }
  };
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (streams[segments[i].stream].links.parent < 0) send_on(segments[i]);
  for (;;) {
    int index = MPI_UNDEFINED;
    int status = MPI_Waitany(static_cast<int>(receives.size()), receives.data(), &index, MPI_STATUS_IGNORE);
    if (status != MPI_SUCCESS) return status;
    if (index == MPI_UNDEFINED) break;
    send_on(segments[index]);
  }
  return MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

int broadcast_down(void* buf, int count, MPI_Datatype type, TreeLinks links, int segment_bytes, MPI_Comm comm) {
  return forward_streams(buf, type, {Stream{0, count, std::move(links)}}, segment_bytes, comm);
}

}  // namespace

// Basic linear bcast: the root sends the whole message to every other rank.
int bcast_linear(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions&) {
  const auto [rank, size] = comm_facts(comm);
  return broadcast_down(buf, count, type, linear_tree(rank, root, size), 0, comm);
}

// Chain bcast: the whole message passes root -> root+1 -> ... in P-1 steps.
int bcast_chain(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions&) {
  const auto [rank, size] = comm_facts(comm);
  return broadcast_down(buf, count, type, chain_tree(rank, root, size), 0, comm);
}

// Pipeline bcast: the chain with the message cut into segments, so every link is busy at once.
int bcast_pipeline(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  return broadcast_down(buf, count, type, chain_tree(rank, root, size), options.segment_bytes, comm);
}

// Binary tree bcast (segmented when --segment is given).
int bcast_binary_tree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  return broadcast_down(buf, count, type, binary_tree(rank, root, size), options.segment_bytes, comm);
}

// Split binary tree bcast: the first half of the message goes down a binary tree over one half of
// the ranks, the second half down a tree over the other half; then rank i of each half swaps
// halves with rank i of the other (an unmatched last left rank gets its missing half from the root).
int bcast_split_binary_tree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                            const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  if (size == 1 || count == 0) return MPI_SUCCESS;
  const SplitHalves halves = split_halves(size);
  const int first_half = (count + 1) / 2, second_half = count - first_half;
  const int v = (rank - root + size) % size;
  const bool left = v >= 1 && v <= halves.left_size;
  std::vector<Stream> streams;
  TreeLinks mine = split_half_tree(rank, root, size);
  if (v == 0) {
    TreeLinks to_left, to_right;
    if (halves.left_size > 0) to_left.children.push_back(mine.children[0]);
    if (halves.right_size > 0) to_right.children.push_back(mine.children[1]);
    streams.push_back(Stream{0, first_half, to_left});
    streams.push_back(Stream{first_half, second_half, to_right});
  } else {
    streams.push_back(left ? Stream{0, first_half, mine} : Stream{first_half, second_half, mine});
    streams.push_back(Stream{0, 0, {}});  // keeps tags aligned with the root's stream numbering
    if (!left) std::swap(streams[0], streams[1]);
  }
  int status = forward_streams(buf, type, streams, options.segment_bytes, comm);
  if (status != MPI_SUCCESS) return status;
  const MPI_Aint extent = extent_of(type);
  char* first = byte_offset(buf, 0);
  char* second = byte_offset(buf, first_half * extent);
  const int unmatched_left = halves.left_size > halves.right_size ? halves.left_size : 0;
  if (v == 0) {
    if (unmatched_left > 0)
      return MPI_Send(second, second_half, type, (unmatched_left + root) % size, kCollectiveTag, comm);
    return MPI_SUCCESS;
  }
  if (v == unmatched_left) return MPI_Recv(second, second_half, type, root, kCollectiveTag, comm, MPI_STATUS_IGNORE);
  const int partner_v = left ? v + halves.left_size : v - halves.left_size;
  const int partner = (partner_v + root) % size;
  return left ? MPI_Sendrecv(first, first_half, type, partner, kCollectiveTag, second, second_half, type, partner,
                             kCollectiveTag, comm, MPI_STATUS_IGNORE)
              : MPI_Sendrecv(second, second_half, type, partner, kCollectiveTag, first, first_half, type, partner,
                             kCollectiveTag, comm, MPI_STATUS_IGNORE);
}

// Binomial tree bcast: ceil(log2 P) rounds, the set of ranks holding the message doubling each round.
int bcast_binomial(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  return broadcast_down(buf, count, type, binomial_tree(rank, root, size), options.segment_bytes, comm);
}

// Bintree3d bcast (Fugaku): binary trees along X, then Y, then Z of the logical shape.
int bcast_bintree3d(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  const Shape3 shape = shape_for(options.shape, size);
  return broadcast_down(buf, count, type, bintree3d_tree(rank, root, shape), options.segment_bytes, comm);
}

// k-tree bcast (the Trinaryx3/x6 idea): the message is split k ways and part j goes down
// dimension-chain tree j of the logical 3D shape, all parts at once, segmented.
int bcast_ktree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options) {
  const auto [rank, size] = comm_facts(comm);
  const Shape3 shape = shape_for(options.shape, size);
  const int trees = std::max(1, options.trees);
  std::vector<Stream> streams;
  MPI_Aint start = 0;
  for (int tree = 0; tree < trees; ++tree) {
    const int part = count / trees + (tree < count % trees ? 1 : 0);
    streams.push_back(Stream{start, part, dimension_chain_tree(rank, root, shape, tree)});
    start += part;
  }
  return forward_streams(buf, type, streams, options.segment_bytes, comm);
}

}  // namespace g500::comm
