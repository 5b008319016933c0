// The catalog against the reference sheets it was written from (shared/reference/*.csv):
// every row is present, and every fact agrees with its CSV cell (an empty cell must be an
// unknown). Reads the CSVs itself, so it checks the JSON and the loader independently of
// scripts/catalog_from_reference.py. Native only (reads files). The project's own sheets in the
// same columns (assets/catalog/additions/: inf1, g5g, g4ad, dl1, dl2q, g7) are checked alike.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gpuplan/catalog/catalog.hpp"

using namespace gpuplan;

namespace {

// RFC 4180 CSV: quoted fields may hold commas and doubled quotes.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    char c;
    while (in.get(c)) {
        if (quoted) {
            if (c == '"') {
                if (in.peek() == '"') field += static_cast<char>(in.get());
                else quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(field), field.clear();
        } else if (c == '\n') {
            row.push_back(field), field.clear();
            rows.push_back(row), row.clear();
        } else if (c != '\r') {
            field += c;
        }
    }
    if (!field.empty() || !row.empty()) row.push_back(field), rows.push_back(row);
    std::vector<std::map<std::string, std::string>> out;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        REQUIRE(rows[r].size() == rows[0].size());
        std::map<std::string, std::string> m;
        for (std::size_t k = 0; k < rows[0].size(); ++k) m[rows[0][k]] = rows[r][k];
        out.push_back(m);
    }
    return out;
}

void check_number(const std::string& what, const std::string& cell, const std::optional<double>& value) {
    INFO(what << ": CSV '" << cell << "'");
    if (cell.empty()) {
        CHECK_FALSE(value.has_value());
    } else {
        REQUIRE(value.has_value());
        CHECK(*value == std::stod(cell));
    }
}

// A sheet cell as the JSON a correction records it with: "" is null, yes/no are booleans,
// numbers are numbers, anything else a string.
std::string cell_json(const std::string& cell) {
    if (cell.empty()) return "null";
    if (cell == "yes" || cell == "no") return cell == "yes" ? "true" : "false";
    char* end = nullptr;
    const double v = std::strtod(cell.c_str(), &end);
    if (end && *end == '\0') return nlohmann::json(v).dump();
    return nlohmann::json(cell).dump();
}

// The cell the catalog must agree with: the sheet's, unless the record corrects that field
// (scripts/catalog_from_reference.py SHEET_CORRECTIONS), in which case the correction must
// name the sheet's cell as the claimed value, and its checked value is what the catalog holds.
std::string expected_cell(const std::vector<Correction>& corrections, const std::string& field, const std::string& cell) {
    for (const Correction& c : corrections) {
        if (c.field != field || c.claimed_by.rfind("reference sheet", 0) != 0) continue;
        INFO(field << " corrected: claimed " << c.claimed << ", sheet cell '" << cell << "'");
        CHECK(nlohmann::json::parse(c.claimed) == nlohmann::json::parse(cell_json(cell)));
        CHECK_FALSE(c.verdict.empty());
        const nlohmann::json v = nlohmann::json::parse(c.aws);
        if (v.is_null()) return "";
        if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
        if (v.is_string()) return v.get<std::string>();
        return v.dump();
    }
    return cell;
}

}  // namespace

TEST_CASE("every instance row of aws-gpu-instances.csv is in the catalog with the same facts", "[reference]") {
    const Catalog catalog = load_builtin_catalog();
    auto rows = read_csv(GPUPLAN_REFERENCE_DIR "/aws-gpu-instances.csv");
    CHECK(rows.size() == 67);
    // The project's own sheet, in the same columns, for the families the reference lacks.
    for (auto& row : read_csv(GPUPLAN_ADDITIONS_DIR "/aws-gpu-instances-added.csv")) rows.push_back(std::move(row));
    CHECK(rows.size() == 67 + 23);
    CHECK(rows.size() == catalog.instances.size());
    for (const auto& row : rows) {
        const std::string name = row.at("instance_type");
        INFO(name);
        const Instance* i = catalog.find_instance(name);
        REQUIRE(i);
        const auto cell = [&](const char* column, const char* field) { return expected_cell(i->corrections, field, row.at(column)); };
        CHECK(i->family == row.at("family"));
        if (!row.at("accelerator").empty()) CHECK(i->accelerator == row.at("accelerator"));
        check_number(name + " accelerator_count", cell("accelerator_count", "accelerator_count"), i->accelerator_count);
        check_number(name + " accelerator_memory_gib_each", cell("accelerator_memory_gib_each", "accelerator_memory_gib_each"), i->accelerator_memory_gib_each);
        check_number(name + " vcpus", row.at("vcpus"), i->vcpus);
        check_number(name + " memory_gib", row.at("memory_gib"), i->memory_gib);
        check_number(name + " network", row.at("network_gbps"), i->network_gbit_per_s);
        check_number(name + " efa", row.at("efa_interfaces"), i->efa_interfaces);
        check_number(name + " p2p", cell("gpu_p2p_gbps_per_gpu", "peer_gbit_per_s_per_accelerator"), i->peer_gbit_per_s_per_accelerator);
        check_number(name + " nvme", row.at("local_nvme_gb"), i->local_nvme_gb);
        check_number(name + " ebs", row.at("ebs_gbps"), i->ebs_gbit_per_s);
        const std::string rdma = cell("gpudirect_rdma", "gpudirect_rdma");
        if (rdma == "yes") CHECK(i->gpudirect_rdma == true);
        else if (rdma == "no") CHECK(i->gpudirect_rdma == false);
        else CHECK_FALSE(i->gpudirect_rdma.has_value());
        const std::string interconnect = cell("gpu_interconnect", "interconnect");
        if (interconnect.empty()) CHECK_FALSE(i->interconnect.has_value());
        else CHECK(std::string(to_string(*i->interconnect)) == interconnect);
        const Price* od = i->find_price("us-east-1", PriceKind::on_demand);
        const Price* spot = i->find_price("us-east-1", PriceKind::spot_typical);
        check_number(name + " on-demand", row.at("price_on_demand_usd_hr_us_east_1"), od ? od->usd_per_hour : std::nullopt);
        // Spot rows the sheet did not read come from regional-prices.csv (checked below).
        // SKY-ZONES: the zones of one snapshot, recomputed in "spot from one snapshot's zones".
        if (!(row.at("price_spot_typical_usd_hr_us_east_1").empty() && spot && spot->source == "SKY-REGIONS") &&
            !(spot && spot->source == "SKY-ZONES"))
            check_number(name + " spot", row.at("price_spot_typical_usd_hr_us_east_1"), spot ? spot->usd_per_hour : std::nullopt);
        CHECK(i->source_notes == row.at("source_notes"));
    }
}

TEST_CASE("every accelerator row of accelerators.csv is in the catalog with the same facts", "[reference]") {
    const Catalog catalog = load_builtin_catalog();
    auto rows = read_csv(GPUPLAN_REFERENCE_DIR "/accelerators.csv");
    for (auto& row : read_csv(GPUPLAN_ADDITIONS_DIR "/accelerators-added.csv")) rows.push_back(std::move(row));
    CHECK(rows.size() == 17 + 7);
    CHECK(rows.size() == catalog.accelerators.size());
    for (const auto& row : rows) {
        const std::string name = row.at("accelerator");
        INFO(name);
        const Accelerator* a = catalog.find_accelerator(name);
        REQUIRE(a);
        const auto cell = [&](const char* column, const char* field) { return expected_cell(a->corrections, field, row.at(column)); };
        CHECK(a->vendor == row.at("vendor"));
        CHECK(a->architecture == row.at("architecture"));
        if (row.at("compute_capability").empty()) CHECK_FALSE(a->compute_capability.has_value());
        else CHECK(a->compute_capability == row.at("compute_capability"));
        check_number(name + " memory", row.at("memory_gib"), a->memory_gib);
        check_number(name + " bandwidth", cell("memory_bandwidth_gb_s", "memory_bandwidth_gb_per_s"), a->memory_bandwidth_gb_per_s);
        check_number(name + " fp32", cell("fp32_tflops", "dense_tflops.fp32"), a->dense_tflops.fp32);
        check_number(name + " tf32", cell("tf32_tflops_dense", "dense_tflops.tf32"), a->dense_tflops.tf32);
        check_number(name + " bf16", cell("bf16_tflops_dense", "dense_tflops.bf16"), a->dense_tflops.bf16);
        check_number(name + " fp16", cell("fp16_tflops_dense", "dense_tflops.fp16"), a->dense_tflops.fp16);
        check_number(name + " fp8", cell("fp8_tflops_dense", "dense_tflops.fp8"), a->dense_tflops.fp8);
        check_number(name + " fp4", cell("fp4_tflops_dense", "dense_tflops.fp4"), a->dense_tflops.fp4);
        check_number(name + " link", row.at("nvlink_gb_s_per_gpu"), a->peer_link_gb_per_s);
        check_number(name + " pcie gen", row.at("pcie_gen"), a->pcie_gen);
        check_number(name + " tdp", cell("tdp_w", "tdp_w"), a->tdp_w);
        CHECK(a->flops_basis == row.at("flops_basis"));
    }
}

TEST_CASE("regional-prices.csv: every region of every catalog type, and no other", "[reference]") {
    const Catalog catalog = load_builtin_catalog();
    std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>> sheet;
    for (const auto& row : read_csv(GPUPLAN_REFERENCE_DIR "/regional-prices.csv")) sheet[{row.at("instance_type"), row.at("region")}] = row;
    CHECK(sheet.size() == 853);
    std::map<std::pair<std::string, std::string>, std::vector<std::map<std::string, std::string>>> added;
    for (const auto& row : read_csv(GPUPLAN_ADDITIONS_DIR "/regional-prices-added.csv")) added[{row.at("instance_type"), row.at("region")}].push_back(row);
    std::size_t checked = 0, added_checked = 0;
    for (const Instance& i : catalog.instances) {
        for (const std::string& region : i.offered_regions()) {
            INFO(i.name << " in " << region);
            const auto it = sheet.find({i.name, region});
            if (region == "us-east-1") {  // from aws-gpu-instances.csv, except spot rows it did not read
                const Price* spot = i.find_price(region, PriceKind::spot_typical);
                if (spot && spot->source == "SKY-REGIONS") {  // (SKY-ZONES: checked in the next test case)
                    REQUIRE(it != sheet.end());
                    check_number(i.name + " us-east-1 spot", it->second.at("spot_usd_per_hour_median"), spot->usd_per_hour);
                }
                continue;
            }
            if (added.count({i.name, region})) {  // a region no snapshot covers: regional-prices-added.csv
                const Price* od = i.find_price(region, PriceKind::on_demand);
                const Price* spot = i.find_price(region, PriceKind::spot_typical);
                REQUIRE(od);
                REQUIRE(spot);
                CHECK(it == sheet.end());
                // Karpenter's GovCloud file (dated as us-east-1's) where it prices the pair, else the vantage-derived one.
                const auto& rows = added.at({i.name, region});
                const auto gov = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.at("source") == "KARP-PRICE-GOV"; });
                const auto& row = gov != rows.end() ? *gov : rows.front();
                check_number(i.name + " on-demand", row.at("on_demand_usd_per_hour"), od->usd_per_hour);
                CHECK(od->source == (gov != rows.end() ? "KARP-PRICE-GOV" : "VANTAGE-OD"));
                CHECK_FALSE(spot->usd_per_hour);  // no spot snapshot covers these regions
                ++added_checked;
                continue;
            }
            REQUIRE(it != sheet.end());  // offered only where the sheet lists the type
            const std::map<std::string, std::string>& row = it->second;
            const Price* od = i.find_price(region, PriceKind::on_demand);
            const Price* spot = i.find_price(region, PriceKind::spot_typical);
            REQUIRE(od);
            REQUIRE(spot);
            check_number(i.name + " on-demand", row.at("on_demand_usd_per_hour"), od->usd_per_hour);
            const std::string median = row.at("spot_usd_per_hour_median");
            if (spot->source == "SKY-ZONES") {
                // Recomputed from the same snapshot's zones: the next test case checks it.
            } else if (od->usd_per_hour && !median.empty() && std::stod(median) > *od->usd_per_hour) {
                // SkyPilot rounds SpotPrice to 4 places: a zone whose spot is the on-demand price.
                CHECK(std::fabs(std::stod(median) - *od->usd_per_hour) < 0.00005 + 1e-12);
                CHECK(spot->usd_per_hour == od->usd_per_hour);
                REQUIRE(spot->zones);
                CHECK(spot->zones->max_usd_per_hour == od->usd_per_hour);
            } else if (const auto at = spot->note.find("'s " + region + " on-demand price (SkyPilot's placeholder"); at != std::string::npos) {
                // A two-zone row whose dearer zone is another type's on-demand price (p5e.48xlarge
                // us-east-2: 63.296 = p5en.48xlarge's): the typical spot is the one real zone.
                const std::string other = spot->note.substr(spot->note.rfind("it is ", at) + 6, at - spot->note.rfind("it is ", at) - 6);
                const Instance* sibling = catalog.find_instance(other);
                REQUIRE(sibling);
                CHECK(row.at("spot_zone_count") == "2");
                CHECK(sibling->find_price(region, PriceKind::on_demand)->usd_per_hour == std::stod(row.at("spot_usd_per_hour_max")));
                check_number(i.name + " spot", row.at("spot_usd_per_hour_min"), spot->usd_per_hour);
                REQUIRE(spot->zones);
                CHECK(spot->zones->count == 1);
                CHECK_FALSE(od->usd_per_hour);
            } else {
                check_number(i.name + " spot", median, spot->usd_per_hour);
                if (spot->usd_per_hour) {  // and the zones around the median
                    REQUIRE(spot->zones);
                    CHECK(spot->zones->count == std::stod(row.at("spot_zone_count")));
                    CHECK(spot->zones->min_usd_per_hour == std::stod(row.at("spot_usd_per_hour_min")));
                    CHECK(spot->zones->max_usd_per_hour == std::stod(row.at("spot_usd_per_hour_max")));
                }
            }
            ++checked;
        }
        // And the other way: a type the sheet lists in a region is offered there.
        for (const auto& [key, row] : sheet)
            if (key.first == i.name) CHECK(i.offered_in(key.second));
    }
    CHECK(added_checked == added.size());  // every pair of regional-prices-added.csv is in the catalog
    CHECK(checked == 853 - 77);  // every row of the sheet (all its types are in the catalog now), less the 77 us-east-1 rows
}

// Issue 33: every region's typical spot price from one snapshot's zones (spot-zones.csv, SkyPilot
// at 3e9a175), with the zones SkyPilot lists at the on-demand price (its placeholder for a zone
// with no spot price) left out and counted apart, recomputed here from the zone rows.
TEST_CASE("spot from one snapshot's zones: the median of the real spot zones, placeholders apart", "[reference]") {
    const Catalog catalog = load_builtin_catalog();
    std::map<std::pair<std::string, std::string>, std::vector<std::map<std::string, std::string>>> zones;
    std::map<std::string, std::set<double>> on_demand_in_region;
    for (const auto& row : read_csv(GPUPLAN_ADDITIONS_DIR "/spot-zones.csv")) {
        zones[{row.at("instance_type"), row.at("region")}].push_back(row);
        if (!row.at("on_demand_usd_per_hour").empty()) on_demand_in_region[row.at("region")].insert(std::stod(row.at("on_demand_usd_per_hour")));
    }
    CHECK(zones.size() == 853);
    // SkyPilot writes SpotPrice to 4 places: a zone "at on-demand" is within half of the last place.
    const auto at_on_demand = [](double spot, const std::set<double>& od) {
        return std::any_of(od.begin(), od.end(), [&](double p) { return std::fabs(spot - p) <= 0.00005 + 1e-12; });
    };
    std::size_t checked = 0, placeholders = 0, all_placeholders = 0;
    for (const auto& [key, rows] : zones) {
        const Instance* i = catalog.find_instance(key.first);
        if (!i) continue;
        INFO(key.first << " in " << key.second);
        std::set<double> own;
        for (const auto& r : rows)
            if (!r.at("on_demand_usd_per_hour").empty()) own.insert(std::stod(r.at("on_demand_usd_per_hour")));
        const std::set<double>& candidates = own.empty() ? on_demand_in_region[key.second] : own;
        std::vector<double> real;
        std::size_t left_out = 0, priced = 0;
        for (const auto& r : rows) {
            if (r.at("spot_usd_per_hour").empty()) continue;
            ++priced;
            const double spot = std::stod(r.at("spot_usd_per_hour"));
            if (at_on_demand(spot, candidates)) ++left_out;
            else real.push_back(spot);
        }
        if (priced == 0) continue;
        const Price* spot = i->find_price(key.second, PriceKind::spot_typical);
        REQUIRE(spot);
        CHECK(spot->source == "SKY-ZONES");  // one snapshot for every region, us-east-1 too
        placeholders += left_out > 0;
        if (real.empty()) {
            ++all_placeholders;
            CHECK_FALSE(spot->usd_per_hour);
            CHECK(spot->note.find("no spot price") == 0);
            continue;
        }
        std::sort(real.begin(), real.end());
        const std::size_t n = real.size();
        const double median = n % 2 ? real[n / 2] : (real[n / 2 - 1] + real[n / 2]) / 2;
        REQUIRE(spot->usd_per_hour);
        CHECK(*spot->usd_per_hour == Approx(median).epsilon(1e-12));
        REQUIRE(spot->zones);
        CHECK(spot->zones->count == static_cast<double>(n));
        CHECK(spot->zones->min_usd_per_hour == real.front());
        CHECK(spot->zones->max_usd_per_hour == real.back());
        CHECK(spot->zones->at_on_demand == static_cast<double>(left_out));
        ++checked;
    }
    CHECK(checked > 700);
    // The snapshot as read on 2026-11-29 (a changed spot-zones.csv must be looked at, not absorbed):
    // 64 (type, region) pairs have a zone at the on-demand price (63 at their own, p5e.48xlarge
    // us-east-2 at p5en's), and in 22 every zone is one, so those regions have no spot price.
    CHECK(placeholders == 64);
    CHECK(all_placeholders == 22);
}
