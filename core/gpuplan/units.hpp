// units.hpp — the unit conversions every module uses, in one place.
//
// Sizes: GB is 10^9 bytes (what we print by default), GiB is 2^30 bytes (what EC2 and the
// CUDA runtime report for GPU memory). Keep the two apart by name: `_gb` and `_gib`.
#pragma once

namespace gpuplan {

inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1073741824.0;  // 2^30

constexpr double gib_to_gb(double gib) { return gib * kBytesPerGiB / kBytesPerGB; }
constexpr double gb_to_gib(double gb) { return gb * kBytesPerGB / kBytesPerGiB; }

}  // namespace gpuplan
