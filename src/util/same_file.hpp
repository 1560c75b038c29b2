// The check, before any work, that no output of a run replaces one of its inputs or another of
// its outputs: every subcommand passes its file options (input or output) to refuse_same_files.
//
// Two paths name the same file when they have the same device and inode (an existing file, so
// symbolic and hard links are caught), or, for a file that does not exist yet, the same spelling
// once the links are followed and the directory is made real ("./g.tsv", "d/../g.tsv").
// Exempt: reading one file twice; writing a character device such as /dev/null (nothing is
// replaced); two outputs that are both streams ("-", /dev/stdout, a FIFO, a device: written in
// place, one after the other, as util/output_file.hpp does).
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace g500::util {

enum class FileUse { kInput, kOutput };

struct FileOption {
  std::string option;  // "--input"
  std::string path;    // as given; "" when the option was not given (skipped)
  FileUse use;
};

// On this process: the first clash as one line, e.g. "--output-depths 'g.tsv' is the same file
// as --input 'g.tsv' (an output must not replace an input of the run)", or "".
std::string same_file_problem(const std::vector<FileOption>& files);

// Collective over comm: rank 0 looks at the files (as rank 0 prepares every output), and every
// rank throws the UsageError when it found a clash.
void refuse_same_files(const std::vector<FileOption>& files, MPI_Comm comm);

}  // namespace g500::util
