// region_names.hpp — AWS's names for its region codes ("us-east-1" is "US East (N. Virginia)"),
// so people choosing where to buy read a place, not only a code (issue 30).
#pragma once

#include <string>
#include <string_view>

namespace gpuplan {

// AWS's name for the region `code`, or "" for a code this table does not know (a newer region
// from a price file: it is then shown by its code alone, never given a made-up name).
std::string_view region_name(std::string_view code);

// "us-east-1 · US East (N. Virginia)", or the code alone when its name is unknown.
std::string region_with_name(std::string_view code);

}  // namespace gpuplan
