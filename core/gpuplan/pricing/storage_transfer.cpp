#include "gpuplan/pricing/storage_transfer.hpp"

namespace gpuplan {

StorageRates default_storage_rates() {
    auto rate = [](double v, const char* what) {
        return Param{v, InputOrigin::assumption,
                     std::string("default ") + what + " (us-east-1 list rate; not in the reference sheet, verify: docs/pricing.md)"};
    };
    return {rate(0.023, "S3 Standard, first 50 TB"), rate(0.08, "EBS gp3 storage"), rate(0.14, "FSx for Lustre scratch SSD"),
            rate(0.0, "transfer within one AZ over private IPs"), rate(0.01, "transfer across AZs, each direction"),
            rate(0.02, "transfer across regions"), rate(0.09, "transfer out to the internet, first 10 TB")};
}

StorageResult evaluate_storage(const StorageRequest& q) {
    StorageResult r;
    const FigureInput in_months = input("months", "month", {q.months, InputOrigin::user, ""});
    double total = 0;
    std::string worked;
    std::vector<FigureInput> inputs;
    auto stored = [&](const char* name, double gb, const Param& rate) {
        if (gb <= 0) return;
        const double cost = gb * rate.value * q.months;
        r.lines.push_back({std::string(name) + "_usd", cost, "USD", "gb x usd_per_gb_month x months",
                           format_number(gb) + " x " + format_number(rate.value) + " x " + format_number(q.months) + " = " + format_number(cost),
                           {input(std::string(name) + "_gb", "GB", {gb, InputOrigin::user, ""}), input("usd_per_gb_month", "USD/GB-month", rate), in_months},
                           ""});
    };
    auto moved = [&](const char* name, double gb, const Param& rate) {
        if (gb <= 0) return;
        const double cost = gb * rate.value;
        r.lines.push_back({std::string(name) + "_usd", cost, "USD", "gb x usd_per_gb",
                           format_number(gb) + " x " + format_number(rate.value) + " = " + format_number(cost),
                           {input(std::string(name) + "_gb", "GB", {gb, InputOrigin::user, ""}), input("usd_per_gb", "USD/GB", rate)}, ""});
    };
    stored("s3_standard", q.s3_gb, q.rates.s3_standard_usd_per_gb_month);
    stored("ebs_gp3", q.ebs_gb, q.rates.ebs_gp3_usd_per_gb_month);
    stored("fsx_lustre", q.fsx_lustre_gb, q.rates.fsx_lustre_usd_per_gb_month);
    moved("transfer_same_az", q.same_az_gb, q.rates.transfer_same_az_usd_per_gb);
    moved("transfer_cross_az", q.cross_az_gb, q.rates.transfer_cross_az_usd_per_gb);
    moved("transfer_cross_region", q.cross_region_gb, q.rates.transfer_cross_region_usd_per_gb);
    moved("transfer_internet", q.internet_gb, q.rates.transfer_internet_usd_per_gb);
    for (const auto& line : r.lines) {
        total += *line.value;
        worked += (worked.empty() ? "" : " + ") + format_number(*line.value);
        inputs.push_back(line.as_input());
    }
    r.total_usd = {.name = "total_usd", .value = total, .unit = "USD", .formula = "sum of storage and transfer lines",
                   .worked = (worked.empty() ? "0" : worked) + " = " + format_number(total), .inputs = inputs};
    return r;
}

}  // namespace gpuplan
