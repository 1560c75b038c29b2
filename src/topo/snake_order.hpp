// The snake (boustrophedon) order of Nakao et al. 2021, section 5.6 / Fig. 11: the assigned axes are unfolded in
// two dimensions, the first axis horizontal and the remaining axes vertical, and walked so that
// consecutive members are physical neighbours. Over several axes this is the reflected mixed-radix
// Gray code with the first axis fastest: consecutive indices differ by one step on one axis.
#pragma once
#include <cstdint>
#include <vector>

namespace g500::topo {

// Digits (one per axis, axis 0 fastest) of position `index` along the snake over `sizes`.
std::vector<int> snake_digits(int64_t index, const std::vector<int>& sizes);
// Inverse of snake_digits.
int64_t snake_index(const std::vector<int>& digits, const std::vector<int>& sizes);

}  // namespace g500::topo
