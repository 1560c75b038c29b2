#include "coll/ompi_tuned.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdint>
#include <optional>

#include "util/error.hpp"

namespace g500::coll {

namespace {

// Reads an integer or boolean control variable; nullopt when the library has no such variable.
// The buffer is zeroed first because booleans are written as a single byte.
std::optional<std::int64_t> read_cvar(const std::string& name, std::string* enum_item = nullptr) {
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return std::nullopt;
  std::optional<std::int64_t> value;
  int index = 0;
  if (MPI_T_cvar_get_index(name.c_str(), &index) == MPI_SUCCESS) {
    MPI_T_cvar_handle handle;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) == MPI_SUCCESS) {
      std::int64_t buffer[4] = {0, 0, 0, 0};
      if (count == 1 && MPI_T_cvar_read(handle, buffer) == MPI_SUCCESS) {
        value = static_cast<std::int32_t>(buffer[0] & 0xffffffff);
        if (enum_item) {
          char cvar_name[256], description[1024];
          int name_length = sizeof cvar_name, description_length = sizeof description, verbosity = 0, bind = 0,
              scope = 0;
          MPI_Datatype type;
          MPI_T_enum enumtype = MPI_T_ENUM_NULL;
          MPI_T_cvar_get_info(index, cvar_name, &name_length, &verbosity, &type, &enumtype, description,
                              &description_length, &bind, &scope);
          int items = 0;
          char item_name[256];
          if (enumtype != MPI_T_ENUM_NULL &&
              MPI_T_enum_get_info(enumtype, &items, item_name, &name_length) == MPI_SUCCESS) {
            for (int i = 0; i < items; ++i) {
              int item_value = 0, item_length = sizeof item_name;
              MPI_T_enum_get_item(enumtype, i, &item_value, item_name, &item_length);
              if (item_value == *value) *enum_item = item_name;
            }
          }
        }
      }
      MPI_T_cvar_handle_free(&handle);
    }
  }
  MPI_T_finalize();
  return value;
}

}  // namespace

TunedSelection read_tuned_selection(CollOp op) {
  TunedSelection selection;
  const std::string prefix = "coll_tuned_" + op_name(op) + "_algorithm";
  auto rules = read_cvar("coll_tuned_use_dynamic_rules");
  auto algorithm = read_cvar(prefix, &selection.algorithm_name);
  if (!rules || !algorithm) return selection;
  selection.visible = true;
  selection.dynamic_rules = *rules != 0;
  selection.algorithm = static_cast<int>(*algorithm);
  if (auto segment = read_cvar(prefix + "_segmentsize")) selection.segment_bytes = static_cast<int>(*segment);
  return selection;
}

std::string describe_mpi_choice(CollOp op) {
  const TunedSelection s = read_tuned_selection(op);
  if (!s.visible || !s.dynamic_rules || s.algorithm == 0) return "mpi:library-choice";
  std::string text = fmt::format("ompi-tuned:{}_algorithm={}({})", op_name(op), s.algorithm, s.algorithm_name);
  if (s.segment_bytes > 0) text += fmt::format(";segmentsize={}", s.segment_bytes);
  return text;
}

std::string tuned_mpiexec_flags(CollOp op, int algorithm) {
  return fmt::format("--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_{}_algorithm {}", op_name(op), algorithm);
}

void require_tuned_algorithm(CollOp op, int algorithm) {
  const TunedSelection s = read_tuned_selection(op);
  if (!s.visible)
    throw util::UsageError("--algo ompi:N needs Open MPI's coll/tuned component (its MPI_T variables are not visible)");
  if (!s.dynamic_rules || s.algorithm != algorithm)
    throw util::UsageError(
        fmt::format("--algo ompi:{} is not in force (coll_tuned_use_dynamic_rules={}, coll_tuned_{}_algorithm={}). "
                    "Open MPI reads these at start-up: run as mpiexec {} ... g500 coll ...",
                    algorithm, s.dynamic_rules ? 1 : 0, op_name(op), s.algorithm, tuned_mpiexec_flags(op, algorithm)));
}

}  // namespace g500::coll
