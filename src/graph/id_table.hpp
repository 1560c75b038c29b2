// A read-only table of vertex ids that several maps may share: on a grid of one column the row set
// is the owned block, so the row maps are the owned maps (likewise the column maps on one row),
// and one process holds each table once instead of three times.
#pragma once
#include <cstddef>
#include <memory>

#include "graph/distribution.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class IdTable {
 public:
  IdTable() = default;
  explicit IdTable(util::LargeArray<LocalId> ids)
      : ids_(std::make_shared<const util::LargeArray<LocalId>>(std::move(ids))) {}

  const LocalId* data() const { return ids_ ? ids_->data() : nullptr; }
  size_t size() const { return ids_ ? ids_->size() : 0; }
  bool empty() const { return size() == 0; }
  LocalId operator[](size_t i) const { return (*ids_)[i]; }
  const util::LargeArray<LocalId>& ids() const { return ids_ ? *ids_ : kNone; }
  bool shares_with(const IdTable& other) const { return ids_ == other.ids_; }

 private:
  static inline const util::LargeArray<LocalId> kNone{};
  std::shared_ptr<const util::LargeArray<LocalId>> ids_;
};

}  // namespace g500::graph
