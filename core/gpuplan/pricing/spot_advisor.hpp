// spot_advisor.hpp — spot interruption frequency as AWS's Spot Instance Advisor states it.
//
// The Advisor (aws.amazon.com/ec2/spot/instance-advisor) puts each instance type in a region in
// one of five buckets of "frequency of interruption": the rate at which Spot reclaimed capacity
// during the trailing month — <5%, 5-10%, 10-15%, 15-20%, >20%. Its data file
// (spot-advisor-data.json, as the page downloads it) lists, per region and OS, each type's
// bucket ("r", an index into "ranges") and its saving against on-demand ("s", percent).
//
// The checkpoint model (spot_checkpoint.hpp) needs a mean time between interruptions. Taking a
// bucket's rate f as the chance an instance running the whole month (730 h) is interrupted in
// it, with interruptions a Poisson process (an assumption: AWS states no distribution), the mean
// time between interruptions is  M = 730 / -ln(1 - f). The bucket's midpoint stands for f
// (2.5%, 7.5%, 12.5%, 17.5%), and 25% for ">20%", which has no upper bound: assumptions, shown.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "gpuplan/explain.hpp"

namespace gpuplan {

enum class InterruptionBucket { under_5, from_5_to_10, from_10_to_15, from_15_to_20, over_20 };
inline constexpr InterruptionBucket kInterruptionBuckets[] = {InterruptionBucket::under_5, InterruptionBucket::from_5_to_10,
                                                              InterruptionBucket::from_10_to_15, InterruptionBucket::from_15_to_20,
                                                              InterruptionBucket::over_20};

std::string_view label(InterruptionBucket bucket);  // "<5%", "5-10%", ... as the Advisor writes them
// Accepts the Advisor's labels, with or without "%" ("5-10", "<5"); nullopt otherwise.
std::optional<InterruptionBucket> interruption_bucket_named(std::string_view text);
std::string interruption_bucket_labels();  // "<5%, 5-10%, 10-15%, 15-20% or >20%", for errors

// The monthly interruption rate a bucket stands for (its midpoint; 25% for >20%), with why.
Param bucket_monthly_rate(InterruptionBucket bucket);
// M = 730 / -ln(1 - f): the mean hours between interruptions for the checkpoint model, as a
// figure that shows its bucket, rate and formula. `source` says where the bucket came from.
Figure mean_hours_between_interruptions(InterruptionBucket bucket, const std::string& source);

// The same as a Param for SpotRisk::mean_hours_between_interruptions, citing the bucket, where
// it came from ("--interruption-bucket", "the Spot Advisor data FILE ...") and the formula.
Param interruption_param(InterruptionBucket bucket, const std::string& from);

struct SpotAdvisorEntry {
    InterruptionBucket bucket = InterruptionBucket::under_5;
    double saving_percent = 0;  // the Advisor's "s": saving against on-demand (can be 0 or negative)
};

// The Linux entries of a Spot Advisor data file, keyed by (region, instance type).
struct SpotAdvisorData {
    std::string origin;
    std::map<std::pair<std::string, std::string>, SpotAdvisorEntry, std::less<>> linux_entries;
    const SpotAdvisorEntry* find(std::string_view region, std::string_view instance) const;
};

// Throws InputError naming the file and JSON path for a file that is not the Advisor's (no
// "ranges" or "spot_advisor"), a range label it does not know, or an "r" outside "ranges".
SpotAdvisorData parse_spot_advisor(const std::string& text, const std::string& origin);

}  // namespace gpuplan
