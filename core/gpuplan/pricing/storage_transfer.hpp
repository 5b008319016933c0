// storage_transfer.hpp — storage per GB-month and data transfer per GB.
//
// The default rates are us-east-1 list prices as AWS has long published them (S3 Standard
// first 50 TB, EBS gp3 storage, FSx for Lustre scratch SSD, data transfer). They are NOT in
// the reference sheet and were not re-read for this release: every figure built on them is
// flagged as an assumption, and each rate can be overridden (docs/pricing.md).
#pragma once

#include <vector>

#include "gpuplan/explain.hpp"

namespace gpuplan {

struct StorageRates {
    Param s3_standard_usd_per_gb_month;
    Param ebs_gp3_usd_per_gb_month;
    Param fsx_lustre_usd_per_gb_month;
    Param transfer_same_az_usd_per_gb;
    Param transfer_cross_az_usd_per_gb;     // charged in each direction
    Param transfer_cross_region_usd_per_gb;
    Param transfer_internet_usd_per_gb;     // first 10 TB tier
};

StorageRates default_storage_rates();

struct StorageRequest {
    double months = 1;
    double s3_gb = 0, ebs_gb = 0, fsx_lustre_gb = 0;                      // stored, per month
    double same_az_gb = 0, cross_az_gb = 0, cross_region_gb = 0, internet_gb = 0;  // moved, in total
    StorageRates rates = default_storage_rates();
};

struct StorageResult {
    std::vector<Figure> lines;  // one per non-zero line
    Figure total_usd;
};

StorageResult evaluate_storage(const StorageRequest& request);

}  // namespace gpuplan
