#include "gpuplan/catalog/option_listings.hpp"

#include <algorithm>

#include "gpuplan/calendar.hpp"
#include "gpuplan/input_error.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan::catalog_detail {

bool looks_like_region(const std::string& s) {
    if (s.empty() || s.front() == '-' || s.back() == '-') return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

// A date that exists, "YYYY-MM-DD" or "YYYY-MM" (calendar.hpp): 2026-02-31 is refused.
bool looks_like_date(const std::string& s) { return date_or_month_days(s).has_value(); }

namespace {

std::string read_region(ObjectReader& r) {
    const std::string region = r.name("region");
    if (!looks_like_region(region)) throw InputError(r.child_path("region"), "\"" + region + "\"", "an AWS region name such as \"us-east-1\"");
    return region;
}

std::string read_as_of(ObjectReader& r) {
    const std::string as_of = r.string("as_of");
    if (!looks_like_date(as_of)) throw InputError(r.child_path("as_of"), "\"" + as_of + "\"", "a date \"YYYY-MM-DD\" or \"YYYY-MM\"");
    return as_of;
}

}  // namespace

void apply_capacity_block_entry(Catalog& catalog, Instance& instance, ObjectReader& r, const std::string& origin) {
    CapacityBlockPrice p;
    p.origin = origin;
    p.region = read_region(r);
    // A block's hourly price is never zero: AWS charges the block's hours upfront at booking.
    p.usd_per_hour = r.number("usd_per_hour", NumberRule::positive);
    p.as_of = read_as_of(r);
    p.source = r.string("source");
    p.note = r.optional_string("note").value_or("");
    r.finish();
    auto old = std::find_if(instance.capacity_block_prices.begin(), instance.capacity_block_prices.end(),
                            [&](const CapacityBlockPrice& q) { return q.region == p.region; });
    if (old == instance.capacity_block_prices.end()) {
        instance.capacity_block_prices.push_back(std::move(p));
        return;
    }
    if (old->usd_per_hour != p.usd_per_hour)
        catalog.overrides.push_back(instance.name + " " + p.region + " capacity-block: " + rate(old->usd_per_hour) + " (" + old->source +
                                    ") replaced by " + rate(p.usd_per_hour) + " (" + p.source + ", " + origin + ")");
    *old = std::move(p);
}

void apply_not_offered(Catalog& catalog, ObjectReader& root, const std::string& origin) {
    const Json* list = root.optional_value("not_offered");
    if (!list) return;
    const std::string list_path = root.child_path("not_offered");
    if (!list->is_array()) throw InputError(list_path, json_preview(*list), "an array of {instance, option, region?, as_of, source, note}");
    for (std::size_t k = 0; k < list->size(); ++k) {
        ObjectReader r((*list)[k], index_path(list_path, k));
        const std::string name = r.name("instance");
        auto it = std::find_if(catalog.instances.begin(), catalog.instances.end(), [&](const Instance& i) { return i.name == name; });
        if (it == catalog.instances.end())
            throw InputError(r.child_path("instance"), "\"" + name + "\"", "an instance type in the catalog or in an earlier --catalog file");
        OptionNotOffered n;
        n.origin = origin;
        const std::string option = r.string("option");
        if (option == "capacity-block")
            n.kind = PurchaseKind::capacity_block;
        else if (option == "reserved")
            n.kind = PurchaseKind::reserved;
        else
            throw InputError(r.child_path("option"), "\"" + option + "\"", "\"capacity-block\" or \"reserved\"");
        if (r.has("region")) n.region = read_region(r);
        n.as_of = read_as_of(r);
        n.source = r.string("source");
        if (!catalog.sources.count(n.source)) throw InputError(r.child_path("source"), "\"" + n.source + "\"", "a key of \"sources\"");
        n.note = r.string("note");
        r.finish();
        auto old = std::find_if(it->options_not_offered.begin(), it->options_not_offered.end(),
                                [&](const OptionNotOffered& o) { return o.kind == n.kind && o.region == n.region; });
        if (old != it->options_not_offered.end())
            *old = std::move(n);
        else
            it->options_not_offered.push_back(std::move(n));
    }
}

}  // namespace gpuplan::catalog_detail
