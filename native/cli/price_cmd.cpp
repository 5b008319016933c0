// price_cmd.cpp — `gpuplan price`: every purchase option of one instance side by side.
//
// The figures, unit costs included, come from the core (quote_purchase_options); the table
// reads the same JSON the --format json output prints, so the two can never disagree.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/purchase_options.hpp"
#include "gpuplan/pricing/spot_advisor.hpp"
#include "gpuplan/scenario/scenario.hpp"
#include "region_ranking_view.hpp"

namespace gpuplan::cli {

namespace {

// A flag that overrides one documented default (docs/pricing.md).
struct DefaultFlag {
    const char* flag;
    NumberRule rule;
    const char* help;
    Param* (*slot)(QuoteRequest&);
};

const DefaultFlag kDefaultFlags[] = {
    {"--reserved-1y-discount", NumberRule::discount, "Reserved 1-year discount off on-demand", [](QuoteRequest& q) { return &q.assumptions.reserved_discount[0]; }},
    {"--reserved-3y-discount", NumberRule::discount, "Reserved 3-year discount off on-demand", [](QuoteRequest& q) { return &q.assumptions.reserved_discount[1]; }},
    {"--instance-sp-1y-discount", NumberRule::discount, "EC2 Instance Savings Plan 1-year discount",
     [](QuoteRequest& q) { return &q.assumptions.instance_savings_plan_discount[0]; }},
    {"--instance-sp-3y-discount", NumberRule::discount, "EC2 Instance Savings Plan 3-year discount",
     [](QuoteRequest& q) { return &q.assumptions.instance_savings_plan_discount[1]; }},
    {"--compute-sp-1y-discount", NumberRule::discount, "Compute Savings Plan 1-year discount",
     [](QuoteRequest& q) { return &q.assumptions.compute_savings_plan_discount[0]; }},
    {"--compute-sp-3y-discount", NumberRule::discount, "Compute Savings Plan 3-year discount",
     [](QuoteRequest& q) { return &q.assumptions.compute_savings_plan_discount[1]; }},
    {"--capacity-block-discount", NumberRule::discount, "Capacity Block discount off on-demand",
     [](QuoteRequest& q) { return &q.assumptions.capacity_block_discount; }},
    {"--partial-upfront-share", NumberRule::fraction, "Share of the term's cost paid upfront with \"partial upfront\"",
     [](QuoteRequest& q) { return &q.assumptions.partial_upfront_share; }},
    {"--mtbi-hours", NumberRule::positive, "Spot: mean hours between interruptions",
     [](QuoteRequest& q) { return &q.spot_risk.mean_hours_between_interruptions; }},
    {"--checkpoint-minutes", NumberRule::positive, "Spot: minutes to write one checkpoint", [](QuoteRequest& q) { return &q.spot_risk.checkpoint_minutes; }},
    {"--restart-minutes", NumberRule::non_negative, "Spot: minutes lost restarting after an interruption",
     [](QuoteRequest& q) { return &q.spot_risk.restart_minutes; }},
};

struct PriceOptions {
    std::string instance, region = "us-east-1";
    double hours = kHoursPerMonth, instances = 1;
    double tokens_per_second = 0, rtf = 0, training_hours = 0, spot_discount = 0, checkpoint_interval_hours = 0;
    std::string interruption_bucket, spot_advisor;
    std::vector<std::string> regions;  // --regions: rank these (or "all") against --region
    std::vector<std::string> quotas;   // --quota CLASS=N
    std::map<std::string, double> overrides;  // by flag
    bool explain = false;
    Format format = Format::table;
    CLI::App* app = nullptr;
    bool given(const char* flag) const { return app->count(flag) > 0; }
};

bool spot_risk_assumed(const SpotRisk& r) {
    return r.mean_hours_between_interruptions.origin == InputOrigin::assumption || r.checkpoint_minutes.origin == InputOrigin::assumption ||
           r.restart_minutes.origin == InputOrigin::assumption;
}

// Columns: [figure name in JSON, header, CSV key, formatter]. Unit costs only when asked for.
struct PriceColumn {
    std::string figure, header;
    std::string (*format)(double);
};

// "8.33%": the share of the billed term hours the usage fills (the core's term_utilization).
std::string term_share(const std::vector<Quote>& quotes, Term term) {
    for (const Quote& quote : quotes)
        if (quote.available && quote.option.term == term && quote.term_utilization) return percent(*quote.term_utilization->value);
    return "-";
}

// A row of the table: the quote it shows and its label there.
struct ShownRow {
    std::size_t index;
    std::string label;
};

std::vector<ShownRow> every_row(const std::vector<Quote>& quotes) {
    std::vector<ShownRow> rows;
    for (std::size_t k = 0; k < quotes.size(); ++k) rows.push_back({k, quotes[k].label});
    return rows;
}

// "Reserved 1-year" from "Reserved 1-year, no upfront"; "Reserved" for a kind not offered at all.
std::string label_before_comma(const std::string& label) { return label.substr(0, label.find(',')); }
std::string kind_label(const std::string& label) {
    const std::string head = label_before_comma(label);
    const auto term = head.find(" 1-year");
    return term != std::string::npos ? head.substr(0, term) : head.substr(0, head.find(" 3-year"));
}

// The table a person reads: the options with a listed price first; then each kind not offered
// as one row (one reason for every term and payment); then each assumed commitment as one row
// per kind and term, showing no upfront (the payments differ only in when the assumed price is
// paid; csv and json list each).
std::vector<ShownRow> grouped_rows(const std::vector<Quote>& quotes) {
    std::vector<ShownRow> rows;
    std::set<std::string> seen;
    for (std::size_t k = 0; k < quotes.size(); ++k)
        if (quotes[k].status == OptionStatus::listed) rows.push_back({k, quotes[k].label});
    for (std::size_t k = 0; k < quotes.size(); ++k) {
        const Quote& q = quotes[k];
        if (q.status != OptionStatus::not_offered) continue;
        const std::string label = is_commitment(q.option.kind) ? kind_label(q.label) + " (every term and payment)" : q.label;
        if (seen.insert(label).second) rows.push_back({k, label});
    }
    for (std::size_t k = 0; k < quotes.size(); ++k) {
        const Quote& q = quotes[k];
        if (q.status != OptionStatus::assumed) continue;
        if (!is_commitment(q.option.kind)) {
            rows.push_back({k, q.label});
            continue;
        }
        // Unknown for want of an on-demand price to take the discount off: one row per kind.
        if (!q.available) {
            const std::string label = kind_label(q.label) + " (every term and payment)";
            if (seen.insert(label).second) rows.push_back({k, label});
            continue;
        }
        if (seen.insert(label_before_comma(q.label) + " assumed").second) rows.push_back({k, q.label + " (assumed)"});
    }
    return rows;
}

// Whether an assumed option of the table rests on this flag's default (a flag for an option
// that is listed or not offered everywhere in the table is not offered as an override).
bool default_used(std::string_view flag, const std::vector<Quote>& quotes) {
    const auto assumed = [&](auto&& pred) {
        return std::any_of(quotes.begin(), quotes.end(), [&](const Quote& q) { return q.status == OptionStatus::assumed && q.available && pred(q); });
    };
    const auto term_of = [](std::string_view f) { return f.find("-1y-") != std::string_view::npos ? Term::one_year : Term::three_year; };
    if (flag == "--capacity-block-discount") return assumed([](const Quote& q) { return q.option.kind == PurchaseKind::capacity_block; });
    if (flag == "--partial-upfront-share") return assumed([](const Quote& q) { return q.option.payment == Payment::partial_upfront; });
    const PurchaseKind kind = flag.rfind("--reserved", 0) == 0      ? PurchaseKind::reserved
                              : flag.rfind("--instance-sp", 0) == 0 ? PurchaseKind::instance_savings_plan
                                                                    : PurchaseKind::compute_savings_plan;
    return assumed([&](const Quote& q) { return q.option.kind == kind && q.option.term == term_of(flag); });
}

std::string run_price(const Catalog& catalog, const PriceOptions& o) {
    const Instance& inst = require_instance(catalog, o.instance, "INSTANCE");
    require_region(catalog, o.region, "--region");
    // The Advisor's bucket is one region's: a ranking takes one for every region, or none.
    if (!o.regions.empty() && o.given("--spot-advisor"))
        throw InputError("--spot-advisor", "'" + o.spot_advisor + "' with --regions",
                         "one region's file without --regions; with --regions, --interruption-bucket or --mtbi-hours (every region)");
    QuoteRequest q;
    q.instance = inst.name;
    q.region = o.region;
    q.hours = o.hours;
    q.count = o.instances;
    for (const auto& d : kDefaultFlags)
        if (o.given(d.flag)) *d.slot(q) = {o.overrides.at(d.flag), InputOrigin::user, ""};
    if (o.given("--spot-discount")) q.assumptions.spot_discount = Param{o.spot_discount, InputOrigin::user, ""};
    // Spot interruptions from the Spot Advisor's bucket (given, or looked up in its data file).
    std::optional<InterruptionBucket> bucket;
    std::string bucket_from;
    if (o.given("--interruption-bucket")) {
        bucket = interruption_bucket_named(o.interruption_bucket);
        if (!bucket) throw InputError("--interruption-bucket", "'" + o.interruption_bucket + "'", interruption_bucket_labels());
        bucket_from = "--interruption-bucket";
    }
    if (o.given("--spot-advisor")) {
        const SpotAdvisorData advisor = parse_spot_advisor(read_input_file(o.spot_advisor, "--spot-advisor"), o.spot_advisor);
        const SpotAdvisorEntry* entry = advisor.find(q.region, inst.name);
        if (!entry)
            throw InputError("--spot-advisor", "'" + inst.name + "' in " + q.region,
                             "a type and region the file lists for Linux (" + o.spot_advisor + " has no such entry)");
        bucket = entry->bucket;
        bucket_from = "the Spot Advisor data " + o.spot_advisor + " (" + inst.name + " in " + q.region + ", saving " +
                      format_number(entry->saving_percent) + "%)";
    }
    if (bucket) q.spot_risk.mean_hours_between_interruptions = interruption_param(*bucket, bucket_from);
    if (o.given("--checkpoint-interval-hours")) q.spot_risk.checkpoint_interval_hours = Param{o.checkpoint_interval_hours, InputOrigin::user, ""};
    if (o.given("--tokens-per-second")) q.unit_costs.tokens_per_second = o.tokens_per_second;
    if (o.given("--rtf")) q.unit_costs.real_time_factor = o.rtf;
    if (o.given("--training-hours")) q.unit_costs.training_hours = o.training_hours;

    if (!o.regions.empty()) {
        const std::vector<std::string> regions = ranked_regions(catalog, o.regions, o.region);
        return render_region_ranking(rank_regions_for_price(catalog, q, regions, o.region), kPriceRankingNote,
                                     inst.name + ": the cheapest way to buy " + format_number(q.hours) + " h x " + format_number(q.count) + " instance" +
                                         (q.count == 1 ? "" : "s") + " in each of " + std::to_string(regions.size()) + " regions\n\n",
                                     "cost " + format_number(q.hours) + " h x " + format_number(q.count), money, o.format, o.explain);
    }
    std::vector<Quote> quotes;
    try {
        quotes = quote_purchase_options(catalog, q);
    } catch (const InputError& e) {
        rethrow_for_flag(e, {{"instance", "INSTANCE"}, {"region", "--region"}});
    }
    nlohmann::json options = nlohmann::json::array();
    for (const auto& quote : quotes) options.push_back(to_json(quote));
    // The zones behind the typical spot price (a catalog fact, shown as it is).
    const Price* spot_price = inst.find_price(q.region, PriceKind::spot_typical);
    const std::optional<SpotZones> zones = spot_price && spot_price->usd_per_hour ? spot_price->zones : std::nullopt;
    // Launching needs the vCPUs of the instances in their quota class: the on-demand class (every
    // commitment runs against it) and the spot one.
    const AccountQuotas account = account_quotas(o.quotas);
    const QuotaLine quota_on_demand = quota_line(inst, q.count, PriceKind::on_demand, account), quota_spot = quota_line(inst, q.count, PriceKind::spot_typical, account);
    if (o.format == Format::json) {
        nlohmann::json doc = {{"instance", q.instance}, {"region", q.region}, {"hours", q.hours}, {"instances", q.count}, {"options", options},
                              {"quota", {{"on_demand", to_json(quota_on_demand)}, {"spot", to_json(quota_spot)}}}};
        if (zones)
            doc["spot_zones"] = {{"count", zones->count}, {"min_usd_per_hour", zones->min_usd_per_hour}, {"max_usd_per_hour", zones->max_usd_per_hour},
                                 {"median_usd_per_hour", *spot_price->usd_per_hour}, {"at_on_demand", zones->at_on_demand}};
        return dump_json(doc);
    }

    std::vector<PriceColumn> cols = {{"effective_usd_per_hour", "$/h effective", rate},
                                     {"upfront_usd", "upfront $", money},
                                     {"recurring_usd_per_hour", "recurring $/h", rate},
                                     {"cost_usd", "cost " + format_number(q.hours) + " h x " + format_number(q.count), money},
                                     {"attributable_cost_usd", "if term shared $", money},
                                     {"saving_vs_on_demand", "saving", percent},
                                     {"break_even_utilization", "break-even util.", percent},
                                     {"spot_usd_per_useful_hour", "$/useful-h", rate}};
    if (q.unit_costs.tokens_per_second) cols.push_back({"usd_per_million_tokens", "$/1M tokens", rate});
    if (q.unit_costs.real_time_factor) cols.push_back({"usd_per_video_hour", "$/video-h", rate});
    if (q.unit_costs.training_hours) cols.push_back({"training_run_usd", "training run $", money});

    Table t;
    t.columns.push_back({"option", "key", false});
    if (o.format == Format::csv) t.columns.push_back({"label", "label", false});
    for (const auto& c : cols) t.columns.push_back({c.header, c.figure, true});
    if (o.format == Format::csv) t.columns.push_back({"assumption", "assumption", false});
    bool any_star = false;
    std::string notes;
    const std::vector<ShownRow> shown = o.format == Format::csv ? every_row(quotes) : grouped_rows(quotes);
    for (const ShownRow& shown_row : shown) {
        const std::size_t k = shown_row.index;
        const Quote& quote = quotes[k];
        const nlohmann::json& figs = options[k].contains("figures") ? options[k]["figures"] : nlohmann::json::object();
        std::vector<Cell> row = {o.format == Format::csv ? text_cell(quote.key) : text_cell(shown_row.label)};
        if (o.format == Format::csv) row.push_back(text_cell(quote.label));
        // The core flags a figure whose own inputs include a default; a figure computed from
        // an assumed price rests on it too, so the flag is carried along the quote here.
        const bool price_assumed = quote.available && quote.effective_usd_per_hour.rests_on_assumption();
        bool row_star = false;
        for (const auto& c : cols) {
            if (!quote.available) {
                const bool first = &c == &cols.front();
                const std::string word = quote.status == OptionStatus::not_offered ? "not offered" : std::string(missing_text(quote.unavailable_reason));
                row.push_back(text_cell(first ? word : std::string(kNotApplicable)));
                continue;
            }
            if (!figs.contains(c.figure)) {
                row.push_back(none_cell());
                continue;
            }
            const nlohmann::json& f = figs[c.figure];
            // Upfront and recurring parts that are zero by the payment choice rest on nothing.
            const bool constant_zero = (c.figure == "upfront_usd" || c.figure == "recurring_usd_per_hour") && f["value"] == 0.0;
            const bool star = f.value("assumption", false) || (price_assumed && !constant_zero) ||
                              (c.figure == "spot_usd_per_useful_hour" && spot_risk_assumed(q.spot_risk));
            const std::optional<double> v = f["value"].is_number() ? std::optional<double>(f["value"].get<double>()) : std::nullopt;
            row.push_back(number_cell(v, c.format, f.value("unknown", ""), star));
            row_star = row_star || star;
        }
        if (o.format == Format::csv) row.push_back(text_cell(row_star ? "true" : "false"));
        any_star = any_star || row_star;
        if (!quote.available)
            notes += shown_row.label + ": " +
                     (quote.status == OptionStatus::not_offered ? quote.unavailable_reason : missing_with_reason(quote.unavailable_reason)) + "\n";
        t.rows.push_back(std::move(row));
    }
    if (o.format == Format::csv) return render_csv(t);

    const Quote& on_demand = quotes.front();  // the catalog on-demand price, or why it is unknown
    std::string out = inst.name + " in " + q.region + ": " + format_number(q.hours) + " h x " + format_number(q.count) + " instance" +
                      (q.count == 1 ? "" : "s") + "; on-demand " +
                      (on_demand.available ? rate(on_demand.effective_usd_per_hour.inputs.front().value) + "/h (" +
                                                 on_demand.effective_usd_per_hour.inputs.front().source + ")"
                                           : on_demand.unavailable_reason) +
                      "\n\n";
    out += render_table(t, o.format);
    std::string after = "\n" + notes;
    const CheckpointPlan plan = plan_checkpoints(q.spot_risk);
    const bool any_commitment = std::any_of(quotes.begin(), quotes.end(), [](const Quote& x) { return x.available && is_commitment(x.option.kind); });
    if (any_commitment)
        after += "cost: what is billed. A commitment is billed every hour of its term (1-year: 8,760 h; 3-year: 26,280 h),\n"
                 "  renewed while the hours need more; " + format_number(q.hours) + " h fill " + term_share(quotes, Term::one_year) +
                 " of the 1-year terms they need and " + term_share(quotes, Term::three_year) + " of the 3-year.\n"
                 "if term shared $: a commitment's cost for the hours used alone, if other work uses the rest of its term.\n"
                 "break-even util.: used less than this share of the term's hours, on-demand would cost less.\n";
    else
        after += "cost: what is billed for the hours and instances asked.\n";
    // Options priced from the catalog's listed prices (a shipped or imported overlay), with their source.
    std::map<std::string, std::vector<std::string>> listed;  // source citation -> labels
    for (const Quote& quote : quotes)
        if (quote.status == OptionStatus::listed && quote.option.kind != PurchaseKind::on_demand && quote.option.kind != PurchaseKind::spot)
            listed["source " + quote.status_source].push_back(quote.label);
    for (const auto& [source, labels] : listed)
        after += "Listed prices, not an assumed discount (" + source + "): " + join(labels, "; ") + ".\n";
    const bool any_assumed_commitment = std::any_of(quotes.begin(), quotes.end(), [](const Quote& x) {
        return x.status == OptionStatus::assumed && is_commitment(x.option.kind) && x.available;
    });
    const auto multiplier = [](Term term, Payment payment) { return format_number(payment_multiplier(PurchaseKind::reserved, term, payment).value); };
    if (any_assumed_commitment && o.format != Format::csv)
        after += "(assumed): no price data either way for that option here: priced at a default discount off on-demand (below), one row\n"
                 "  per kind and term (its first payment not listed); partial and all upfront cost " + multiplier(Term::one_year, Payment::partial_upfront) +
                 " and " + multiplier(Term::one_year, Payment::all_upfront) + " times the no-upfront\n  rate for 1 year, " +
                 multiplier(Term::three_year, Payment::partial_upfront) + " and " + multiplier(Term::three_year, Payment::all_upfront) +
                 " for 3 years (Compute Savings Plans " +
                 format_number(payment_multiplier(PurchaseKind::compute_savings_plan, Term::three_year, Payment::all_upfront).value) +
                 "), the median ratios in AWS's price list\n  for GPU types (docs/pricing.md); --format csv or json lists each payment.\n";
    const bool spot_priced =
        std::any_of(quotes.begin(), quotes.end(), [](const Quote& x) { return x.option.kind == PurchaseKind::spot && x.available; });
    if (zones)
        after += "Spot (typical): the median over " + format_number(zones->count) + " " + q.region + " zone" + (zones->count == 1 ? "" : "s") +
                 " in one snapshot; the cheapest zone " + rate(zones->min_usd_per_hour) + "/h, the dearest " + rate(zones->max_usd_per_hour) +
                 "/h (spot moves hourly: request the cheapest zone, or several)" +
                 (zones->at_on_demand > 0 ? "; " + format_number(zones->at_on_demand) + " more zone" + (zones->at_on_demand == 1 ? "" : "s") +
                                                " listed at the on-demand price left out (the snapshot's placeholder for a zone with no spot price)"
                                          : std::string()) +
                 ".\n";
    if (spot_priced)
        after += "$/useful-h: spot price x (1 + " + percent(*plan.overhead_fraction.value) + " rework):\n  checkpoints every " +
                 decimals(*plan.interval_hours.value, 4) + " h, interruptions every " +
                 format_number(q.spot_risk.mean_hours_between_interruptions.value) + " h on average, " +
                 format_number(q.spot_risk.checkpoint_minutes.value) + " min per checkpoint, " +
                 format_number(q.spot_risk.restart_minutes.value) + " min per restart (Young 1974 / Daly 2006).\n";
    if (spot_priced && q.spot_risk.mean_hours_between_interruptions.origin == InputOrigin::user &&
        !q.spot_risk.mean_hours_between_interruptions.source.empty())
        after += "  " + q.spot_risk.mean_hours_between_interruptions.source + ".\n";
    if (any_star) {
        std::vector<KeyValue> used;
        for (const auto& d : kDefaultFlags) {
            const Param& p = *d.slot(q);
            const bool spot_risk = &p == &q.spot_risk.mean_hours_between_interruptions || &p == &q.spot_risk.checkpoint_minutes ||
                                   &p == &q.spot_risk.restart_minutes;
            if (p.origin == InputOrigin::assumption && (spot_risk ? spot_priced : default_used(d.flag, quotes)))
                used.push_back({d.flag, fmt::format("{:<9} {}", format_number(p.value), p.source)});
        }
        for (const auto& quote : quotes)
            for (const auto& in : quote.effective_usd_per_hour.inputs)
                if (in.name == "spot_discount" && in.origin == InputOrigin::assumption)
                    used.push_back({"--spot-discount", fmt::format("{:<9} {}", format_number(in.value), in.source)});
        after += assumption_footnote(used);
    }
    if (o.explain) {
        after += "\nHow each figure was computed:\n";
        for (std::size_t k = 0; k < quotes.size(); ++k) {
            if (!quotes[k].available) continue;
            after += "\n" + quotes[k].label + " [" + quotes[k].key + "]\n";
            for (const auto& [name, fig] : options[k]["figures"].items()) after += "  " + name + "\n" + explain_figure_json(fig, "    ");
        }
    }
    after += "\n" + quota_on_demand.words + " (on-demand, reserved and savings plans)\n" + quota_spot.words + " (spot)\n";
    out += notes_block(after, o.format);
    return out;
}

}  // namespace

Command register_price(CLI::App& parent) {
    auto o = std::make_shared<PriceOptions>();
    CLI::App* app = parent.add_subcommand("price", "Every purchase option of one instance type side by side");
    o->app = app;
    app->add_option("INSTANCE", o->instance, "Instance type, e.g. p5.48xlarge (see `gpuplan catalog`)")->required();
    add_region_option(*app, o->region);
    app->add_option("--hours", o->hours, "Usage hours to price (730 = a month)")->capture_default_str()->check(number_rule(NumberRule::positive));
    app->add_option("--instances", o->instances, "Number of instances")->capture_default_str()->check(number_rule(NumberRule::positive));
    add_quota_option(*app, o->quotas);
    app->add_option("--tokens-per-second", o->tokens_per_second, "Adds $ per 1M tokens at this throughput (all instances together)")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--rtf", o->rtf, "Adds $ per hour of video at this real-time factor (decode time / video duration)")
        ->check(number_rule(NumberRule::positive));
    app->add_option("--training-hours", o->training_hours, "Adds the cost of a training run of this many hours on all instances")
        ->check(number_rule(NumberRule::positive));
    const PricingAssumptions defaults = default_pricing_assumptions();
    const SpotRisk risk = default_spot_risk();
    QuoteRequest defaults_request;
    defaults_request.assumptions = defaults;
    defaults_request.spot_risk = risk;
    for (const auto& d : kDefaultFlags)
        app->add_option(d.flag, o->overrides[d.flag], std::string(d.help) + " (default " + format_number(d.slot(defaults_request)->value) + ")")
            ->check(number_rule(d.rule));
    app->add_option("--spot-discount", o->spot_discount,
                    "Spot discount, used only where the catalog has no spot price for the type and region "
                    "(default: the catalog's median spot discount in the region)")
        ->check(number_rule(NumberRule::discount));
    app->add_option("--checkpoint-interval-hours", o->checkpoint_interval_hours, "Spot: hours between checkpoints (default: the Young/Daly optimum)")
        ->check(number_rule(NumberRule::positive));
    CLI::Option* bucket = app->add_option("--interruption-bucket", o->interruption_bucket,
                                          "Spot: the Spot Instance Advisor's frequency of interruption (<5%, 5-10%, 10-15%, 15-20%, >20% a month), "
                                          "for the mean hours between interruptions")
                              ->type_name("BUCKET");
    CLI::Option* advisor = app->add_option("--spot-advisor", o->spot_advisor,
                                           "Spot: the Spot Advisor data file (spot-advisor-data.json as downloaded): the type's bucket in the region")
                               ->type_name("FILE");
    bucket->excludes(advisor)->excludes("--mtbi-hours");
    advisor->excludes("--mtbi-hours");
    app->add_option("--regions", o->regions,
                    "Rank regions instead: 'all' or a comma-separated list; each region's cheapest option for --hours x --instances, with the "
                    "saving against --region")
        ->delimiter(',')
        ->type_name("all|REGION,...");
    app->add_flag("--explain", o->explain, "After the table, show each figure's formula, worked line and inputs with their origins");
    add_format_option(*app, o->format, {Format::table, Format::json, Format::csv, Format::md});
    app->footer(R"(Options: on-demand and spot (catalog prices), Reserved Instances, EC2 Instance and Compute Savings
Plans (1 and 3 years, no / partial / all upfront) and Capacity Blocks. Each is listed (a published
price with its source: Capacity Blocks from AWS's Capacity Blocks page, 1-year no-upfront Reserved
rates from AWS's price list, both shipped with dates; other commitments from `prices import`), not
offered (a source shows AWS does not sell it for the type and region), or assumed: priced as a
documented default discount off on-demand (docs/pricing.md) that the flags above override; a flag
given replaces the listed price too. Figures marked "*" rest on such a default.
Examples:
  gpuplan price p5.48xlarge
  gpuplan price g6e.xlarge --hours 8760 --reserved-1y-discount 0.35 --explain
  gpuplan price g6e.xlarge --tokens-per-second 1000 --format json
  gpuplan price g7e.2xlarge --region us-east-2 --rtf 3.21
  gpuplan price p5.48xlarge --regions all --hours 8760
  gpuplan price p5.48xlarge --mtbi-hours 2 --checkpoint-minutes 5 --restart-minutes 10
  gpuplan price g6e.12xlarge --interruption-bucket 10-15%
  gpuplan price g6e.12xlarge --spot-advisor spot-advisor-data.json)");
    return {app, [o](const Catalog& c) { return run_price(c, *o); }};
}

}  // namespace gpuplan::cli
