// region_ranking_view.cpp — see region_ranking_view.hpp.
#include "region_ranking_view.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "commands.hpp"

namespace gpuplan::cli {

std::vector<std::string> ranked_regions(const Catalog& catalog, const std::vector<std::string>& regions_flag, const std::string& home) {
    if (regions_flag.size() == 1 && regions_flag.front() == "all") return catalog.regions();
    std::vector<std::string> list;
    for (const std::string& r : regions_flag) {
        if (r == "all") throw InputError("--regions", "'all' among other regions", "all alone, or a comma-separated list of regions");
        require_region(catalog, r, "--regions");
        if (std::find(list.begin(), list.end(), r) == list.end()) list.push_back(r);
    }
    if (std::find(list.begin(), list.end(), home) == list.end()) list.insert(list.begin(), home);
    return list;
}

std::string render_region_ranking(const RegionRanking& ranking, const std::string& note, const std::string& heading, const std::string& cost_header,
                                  std::string (*cost_text)(double), Format format, bool explain) {
    if (format == Format::json) return dump_json(to_json(ranking));
    Table t{{{"region", "region", false}, {"cheapest option", "option", false}, {cost_header, "cost"}, {"vs " + ranking.home, "saving_vs_home"}}, {}};
    for (const RegionRank& r : ranking.ranks) {
        const std::string option = r.cheapest ? r.option : r.cost.unknown_reason;
        const Cell cost = r.cost.value ? Cell{cost_text(*r.cost.value), full_precision(*r.cost.value)} : text_cell("unknown");
        Cell saving = text_cell("unknown");
        if (r.saving_vs_home.value) {
            const double pct = *r.saving_vs_home.value * 100;
            saving = {r.region == ranking.home ? std::string("home") : fmt::format("{:.1f}% {}", std::fabs(pct), pct >= 0 ? "cheaper" : "dearer"),
                      full_precision(*r.saving_vs_home.value)};
        }
        t.rows.push_back({text_cell(r.region), text_cell(option), cost, saving});
    }
    if (format == Format::csv) return render_csv(t);
    std::string after = "\n" + note + "\nvs " + ranking.home + ": 1 - cost there / cost in " + ranking.home + " (--region).\n";
    if (explain) {
        after += "\nHow each figure was computed:\n";
        for (const RegionRank& r : ranking.ranks) {
            if (!r.cost.value) continue;
            after += "\n" + r.region + "\n  cost\n" + explain_figure(r.cost, "    ");
            if (r.saving_vs_home.value) after += "  saving_vs_home\n" + explain_figure(r.saving_vs_home, "    ");
        }
    }
    return heading + render_table(t, format) + notes_block(after, format);
}

}  // namespace gpuplan::cli
