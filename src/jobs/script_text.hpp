// What text from the command line may go into a batch script, and how: `g500 jobscript` writes
// option values into shell command lines, comments and scheduler directives (#SBATCH, #PJM), so a
// value must not be able to end a line, leave its quotes or add an option of its own.
//   - No value may hold a control character (below 0x20, or 0x7f): a newline or carriage return
//     would start a new line of the script, i.e. a command of the user's choosing.
//   - A word on a command line is single-quoted unless it is made of characters the shell takes
//     as they are (util/shell_word.hpp), and must not start with '-' where the program before it would read an option.
//   - A value inside a directive (the queue) is a plain name: sbatch splits #SBATCH lines at
//     spaces and reads quotes and '#'; PJM's -L "..." list is split at commas and ends at a quote.
#pragma once
#include <string>

namespace g500::jobs {

// Throws UsageError naming the option and showing the value with its control characters escaped
// (\n, \r, \t, \xNN), e.g. "--queue 'x\nrm -rf d' has a control character (\n), which would
// break the batch script".
void refuse_control_characters(const std::string& option, const std::string& value);

// Throws UsageError when `value`, a word given to `program` (e.g. "srun"), starts with '-'.
void refuse_leading_dash(const std::string& option, const std::string& value, const std::string& program);

// Throws UsageError unless `value` is a name of letters, digits, '.', '_' and '-', or with
// commas_allowed also ',' between names (Slurm's list of partitions). `what` names it in the message.
void check_directive_name(const std::string& option, const std::string& value, const std::string& what,
                          bool commas_allowed);

}  // namespace g500::jobs
