// option_listings.hpp — the parts of a price overlay that say which purchase options exist:
// Capacity Block prices and "not offered" records (docs/catalog.md, "Price overlays").
// Internal to the catalog loader (catalog.cpp).
#pragma once

#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/json_reader.hpp"

namespace gpuplan::catalog_detail {

// "us-east-1": lower-case letters and digits separated by dashes.
bool looks_like_region(const std::string& s);
// "2026-07-20" or "2026-07".
bool looks_like_date(const std::string& s);

// An overlay "prices" entry with option "capacity-block": sets the type's Capacity Block price
// in its region (a replacement that changes the figure is listed in catalog.overrides).
void apply_capacity_block_entry(Catalog& catalog, Instance& instance, ObjectReader& entry, const std::string& origin);

// A document's top-level "not_offered" list: [{instance, option, region?, as_of, source, note}].
void apply_not_offered(Catalog& catalog, ObjectReader& root, const std::string& origin);

}  // namespace gpuplan::catalog_detail
