// fuzz_usage — the usage-history readers (parse_usage: CSV, CloudWatch, Cost Explorer, Slurm) and
// the plans that run on what they accept (commitment, ephemeral, serving fleets).
// A finding: an exception other than InputError, a crash or hang, an accepted history whose
// times do not increase or whose length is not positive, a non-finite figure in a result.
#include <cstdint>

#include "fuzz_common.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/pricing/fleet_over_time.hpp"
#include "gpuplan/pricing/usage_formats.hpp"

namespace {

gpuplan::Param user(double v) { return {v, gpuplan::InputOrigin::user, ""}; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpuplan;
    const std::string_view text = fuzz::as_text(data, size);
    // The first byte picks the unit the caller asks for (none, or one of the three).
    std::optional<UsageUnit> unit;
    if (!text.empty()) {
        const int pick = static_cast<unsigned char>(text.front()) % 4;
        if (pick > 0) unit = static_cast<UsageUnit>(pick - 1);
    }
    UsageHistory h;
    try {
        h = parse_usage(text, "fuzz", unit);
    } catch (const InputError&) {
        return 0;
    }
    if (h.samples.empty() || !(h.total_hours > 0) || !std::isfinite(h.total_hours)) fuzz::finding("accepted a history with no length");
    for (std::size_t k = 1; k < h.samples.size(); ++k)
        if (!(h.samples[k].hours > h.samples[k - 1].hours)) fuzz::finding("accepted a history whose times do not increase");
    if (!(h.samples.back().hours < h.total_hours)) fuzz::finding("the last sample ends before it starts");
    try {
        if (h.unit == UsageUnit::gpus) {
            CommitmentPlanRequest q;
            q.commit_usd_per_gpu_hour = user(0.96);
            q.burst_usd_per_gpu_hour = user(1.6);
            q.on_demand_usd_per_gpu_hour = user(1.6);
            q.spot = CommitmentPlanRequest::Spot{user(0.8), user(0.16), 0.3};
            fuzz::require_finite(to_json(plan_commitment(h, q), h));
        } else if (h.unit == UsageUnit::instances) {
            fuzz::require_finite(to_json(ephemeral_from_history(h, {user(2), 10, 15})));
        } else if (h.total_hours <= 48) {  // a minute-by-minute simulation: keep each run short
            ServingFleetRequest q;
            q.capacity_requests_per_second = user(10);
            q.usd_per_instance_hour = user(3);
            fuzz::require_finite(to_json(plan_serving_fleets(h, q)));
        }
    } catch (const InputError&) {
    }
    return 0;
}
