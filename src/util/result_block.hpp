// The Graph500 reference 3.0 result block, shared by the BFS (kernel 2) and SSSP (kernel 3)
// reports: same field names, formulas and layout; the kernel's lines carry its prefix
// ("bfs  " or "sssp ") as in the reference.
#pragma once
#include <cstdio>
#include <vector>

#include "comm/phase_profile.hpp"

namespace g500 {

struct ResultBlockInput {
  int scale = 0;
  int edgefactor = 0;
  int ranks = 0;
  double generation_seconds = 0;
  double construction_seconds = 0;
  std::vector<double> times, nedges, validate_times;  // one entry per root
};

void print_reference_result_block(FILE* out, const char* kernel_prefix, const ResultBlockInput& input);
// Time per phase summed over the runs, with shares (001 Figs. 8 and 12).
void print_phase_table(FILE* out, const char* kernel_name, const comm::PhaseProfile& total, size_t runs);

}  // namespace g500
