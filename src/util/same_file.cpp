#include "util/same_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "util/agree.hpp"
#include "util/path_names.hpp"

namespace g500::util {
namespace {

// Which file a path names, as far as the clash rules need it.
struct FileIdentity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string spelling;  // a file not there yet: its path once links and the directory are resolved
  bool character_device = false;
  bool stream = false;  // as an output: written in place
};

FileIdentity identify(const std::string& path) {
  FileIdentity id;
  struct stat st {};
  const bool standard_output = path == "-";
  if (standard_output ? ::fstat(STDOUT_FILENO, &st) == 0 : ::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = st.st_dev;
    id.inode = st.st_ino;
    id.character_device = S_ISCHR(st.st_mode);
    id.stream = standard_output || is_stream_output(path, st);
    return id;
  }
  id.stream = standard_output;
  if (standard_output) return id;  // closed: the output itself is refused when it opens
  std::string problem;
  const std::string file = follow_links(path, problem);
  // A link loop or a missing directory: no spelling to compare; opening the file names the problem.
  if (!file.empty()) id.spelling = spelling_in_real_directory(file);
  return id;
}

bool same_file(const FileIdentity& a, const FileIdentity& b) {
  if (a.exists || b.exists) return a.exists && b.exists && a.device == b.device && a.inode == b.inode;
  return !a.spelling.empty() && a.spelling == b.spelling;
}

std::string named(const FileOption& f) { return f.option + " '" + f.path + "'"; }

// The clash of `later` with `earlier` (two options naming one file), or "".
std::string clash(const FileOption& earlier, const FileIdentity& earlier_id, const FileOption& later,
                  const FileIdentity& later_id) {
  const bool earlier_input = earlier.use == FileUse::kInput, later_input = later.use == FileUse::kInput;
  if (earlier_input && later_input) return "";
  if (!same_file(earlier_id, later_id) || earlier_id.character_device) return "";
  if (earlier_input || later_input) {
    const FileOption& output = earlier_input ? later : earlier;
    const FileOption& input = earlier_input ? earlier : later;
    return named(output) + " is the same file as " + named(input) + " (an output must not replace an input of the run)";
  }
  if (earlier_id.stream && later_id.stream) return "";
  return named(later) + " is the same file as " + named(earlier) + " (two outputs cannot share a file)";
}

}  // namespace

std::string same_file_problem(const std::vector<FileOption>& files) {
  std::vector<FileIdentity> ids;
  ids.reserve(files.size());
  for (const FileOption& f : files) ids.push_back(f.path.empty() ? FileIdentity{} : identify(f.path));
  for (size_t later = 0; later < files.size(); ++later) {
    if (files[later].path.empty()) continue;
    for (size_t earlier = 0; earlier < later; ++earlier) {
      if (files[earlier].path.empty()) continue;
      if (std::string problem = clash(files[earlier], ids[earlier], files[later], ids[later]); !problem.empty())
        return problem;
    }
  }
  return "";
}

void refuse_same_files(const std::vector<FileOption>& files, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agree_or_throw(rank == 0 ? same_file_problem(files) : std::string(), comm);
}

}  // namespace g500::util
