// common.cpp — helpers shared by the subcommands: numeric flag validation, --format,
// --catalog, --region, bounded file reading and catalog look-ups with useful errors.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/purchase_options.hpp"

#include <stdexcept>

namespace gpuplan::cli {

// ---- flags --------------------------------------------------------------------------------

namespace {

std::string_view rule_text(NumberRule rule) {
    switch (rule) {
    case NumberRule::finite: return "a finite number";
    case NumberRule::non_negative: return "a finite number >= 0";
    case NumberRule::positive: return "a finite number > 0";
    case NumberRule::fraction: return "a fraction from 0 to 1 (0.25 = 25%)";
    case NumberRule::discount: return "a discount as a fraction, at least 0 and below 1 (0.30 = 30% off)";
    }
    return "a number";
}

std::string_view rule_type(NumberRule rule) {
    switch (rule) {
    case NumberRule::non_negative: return "NON-NEGATIVE";
    case NumberRule::positive: return "POSITIVE";
    case NumberRule::fraction: return "IN [0,1]";
    case NumberRule::discount: return "IN [0,1)";
    default: return "FINITE";
    }
}

bool obeys(double v, NumberRule rule) {
    switch (rule) {
    case NumberRule::finite: return true;
    case NumberRule::non_negative: return v >= 0;
    case NumberRule::positive: return v > 0;
    case NumberRule::fraction: return v >= 0 && v <= 1;
    case NumberRule::discount: return v >= 0 && v < 1;
    }
    return false;
}

}  // namespace

std::string value_shown(const std::string& text) {
    constexpr std::size_t kMaxShown = 40;
    if (text.size() <= kMaxShown) return text;
    return text.substr(0, 24) + "... (" + group_thousands(std::to_string(text.size())) + " characters)";
}

CLI::Validator number_rule(NumberRule rule) {
    return CLI::Validator(
        [rule](std::string& text) -> std::string {
            const std::string expected = "; expected " + std::string(rule_text(rule));
            char* end = nullptr;
            errno = 0;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end == text.c_str() || *end != '\0') return "got '" + value_shown(text) + "'" + expected;
            // strtod accepts "nan", "inf" and overflows to HUGE_VAL: none is a usable figure.
            if (!std::isfinite(v) || errno == ERANGE) return "got " + value_shown(text) + expected;
            if (!obeys(v, rule)) return "got " + value_shown(text) + expected;
            return "";
        },
        std::string(rule_type(rule)));
}

CLI::Validator efficiency_rule(const std::string& example) {
    return CLI::Validator(
        [example](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            const std::string expected = "; expected a fraction above 0 and at most 1 (" + example + ")";
            if (text.empty() || end == text.c_str() || *end != '\0') return "got '" + value_shown(text) + "'" + expected;
            if (!std::isfinite(v) || v <= 0 || v > 1) return "got " + value_shown(text) + expected;
            return "";
        },
        "IN (0,1]");
}

CLI::Option* add_format_option(CLI::App& app, Format& format, std::vector<Format> allowed) {
    format = allowed.front();
    std::vector<std::string> names;
    for (Format f : allowed) names.emplace_back(to_string(f));
    const std::string list = join(names, "|");
    const auto find = [allowed](const std::string& text) -> const Format* {
        for (const Format& f : allowed)
            if (lower(text) == to_string(f)) return &f;
        return nullptr;
    };
    CLI::Validator known(
        [find, list](std::string& text) -> std::string { return find(text) ? "" : "got '" + text + "'; expected one of " + list; }, list);
    CLI::Option* option = app.add_option_function<std::string>(
                                 "--format", [&format, allowed, find](const std::string& text) { format = *find(text); },
                                 "Output format (default " + names.front() + ")")
                              ->check(known)
                              ->type_name("FORMAT");
    // `--json` is the short spelling of `--format json` where JSON is offered.
    if (find("json"))
        app.add_flag_callback("--json", [&format] { format = Format::json; }, "Same as --format json")->excludes(option);
    return option;
}

void add_catalog_option(CLI::App& app, std::vector<std::string>& files) {
    app.add_option("--catalog", files,
                   "Extra catalog file (gpuplan.catalog/1, docs/catalog.md), loaded after the built-in catalog; "
                   "its records add to or replace built-in ones (each replacement is noted on stderr). Repeatable.")
        ->type_name("FILE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option* add_region_option(CLI::App& app, std::string& region) {
    return app.add_option("--region", region, "AWS region whose catalog prices to use")->capture_default_str()->type_name("REGION");
}

// ---- files and catalog --------------------------------------------------------------------

MachineTopology read_topology_file(const std::string& path, const std::string& where) {
    const std::string text = read_input_file(path, where, kMaxTopologyLogBytes);
    try {
        return import_topology(text, path);
    } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
    }
}

std::string read_input_file(const std::string& path, const std::string& where, std::size_t max_bytes) {
    namespace fs = std::filesystem;
    const std::string mib = format_number(static_cast<double>(max_bytes) / (1024.0 * 1024.0)) + " MiB";
    const std::string limit = fmt::format("a file of at most {} bytes ({})", group_thousands(std::to_string(max_bytes)), mib);
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        throw InputError(where + ": cannot read '" + path + "': " + (ec ? ec.message() : std::string("no such file")));
    if (fs::is_directory(st)) throw InputError(where + ": cannot read '" + path + "': it is a directory, not a file");
    if (fs::is_regular_file(st)) {
        // Refuse a huge file before reading any of it.
        const auto size = fs::file_size(path, ec);
        if (!ec && size > max_bytes)
            throw InputError(where, "'" + path + "' of " + group_thousands(std::to_string(size)) + " bytes", limit);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(where + ": cannot read '" + path + "': " + std::strerror(errno));
    // Pipes and devices have no size to check: read in chunks and stop past the limit.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes) throw InputError(where, "'" + path + "' of more than " + mib, limit);
    }
    if (in.bad()) throw InputError(where + ": cannot read '" + path + "': read error");
    // A UTF-8 byte order mark (Excel's "CSV UTF-8", Notepad) is not part of the text: read with
    // it, a CSV's first header showed as "timestamp" and was refused as another word (RFC 8259
    // §8.1 lets a JSON reader ignore it too).
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    return text;
}

Catalog load_catalog_with_files(const std::vector<std::string>& files) {
    std::vector<CatalogDocument> docs = builtin_catalog_documents();
    for (const auto& f : files) docs.push_back({f, read_input_file(f, "--catalog")});
    Catalog catalog = load_catalog(docs);
    // Prices are judged fresh against today (UTC), or GPUPLAN_TODAY for reproducible output.
    if (const char* fixed = std::getenv("GPUPLAN_TODAY")) {
        if (!price_age_days(fixed, fixed) || std::string_view(fixed).size() != 10)
            throw InputError("GPUPLAN_TODAY (environment)", std::string("'") + fixed + "'", "a date YYYY-MM-DD");
        catalog.today = fixed;
    } else {
        catalog.today = utc_date(static_cast<std::int64_t>(std::time(nullptr)));
    }
    return catalog;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

const Instance& require_instance(const Catalog& catalog, const std::string& name, const std::string& where) {
    if (const Instance* i = catalog.find_instance(name)) return *i;
    std::vector<std::pair<std::size_t, std::string>> close;
    for (const auto& i : catalog.instances) {
        const std::size_t d = edit_distance(lower(name), lower(i.name));
        if (d <= 3) close.emplace_back(d, i.name);
    }
    std::sort(close.begin(), close.end());
    std::vector<std::string> names;
    for (std::size_t k = 0; k < close.size() && k < 3; ++k) names.push_back(close[k].second);
    throw InputError(where + ": unknown instance type '" + name + "'" + (names.empty() ? "" : " (did you mean " + join(names, ", ") + "?)") +
                     "; see `gpuplan catalog` for the list");
}

void require_region(const Catalog& catalog, const std::string& region, const std::string& where) {
    gpuplan::require_region(catalog, region, where, "'" + region + "'");
}

void rethrow_for_flag(const InputError& error, const std::vector<std::pair<std::string, std::string>>& path_to_flag) {
    for (const auto& [path, flag] : path_to_flag)
        if (!error.where().empty() && error.where().rfind(path, 0) == 0) throw InputError(flag, error.value(), error.expected());
    throw error;
}

// ---- pricing helpers (fleet_cmd.cpp, idle_cmd.cpp) -----------------------------------------------

// A catalog on-demand price as a Param, or an InputError naming `flag`.
Param catalog_on_demand(const Catalog& catalog, const Instance& inst, const std::string& region, const std::string& flag) {
    auto p = catalog_price(catalog, inst, region, PriceKind::on_demand);
    if (!p) throw InputError(flag, "'" + inst.name + "' in " + region, "a type with a known on-demand price in the catalog for that region");
    return *p;
}

// Label | value table (text/md) for summary figures; CSV writes every figure in full.
std::string summary_table(const std::vector<std::pair<std::string, Cell>>& lines, Format format) {
    Table t{{{"figure", "figure", false}, {"value", "value", true}}, {}};
    for (const auto& [label, cell] : lines) t.rows.push_back({text_cell(label), cell});
    return format == Format::md ? render_markdown_table(t) : render_key_values([&] {
        std::vector<KeyValue> kv;
        for (const auto& [label, cell] : lines) kv.push_back({label, cell.text});
        return kv;
    }(), "");
}

// A figure's value from its JSON (the figures below always have one).
double figure_value(const NamedFigures& figures, const std::string& name) {
    for (const auto& [n, f] : figures)
        if (n == name) return f.at("value").get<double>();
    throw std::logic_error("no figure " + name);
}

}  // namespace gpuplan::cli
