// prices_cmd.cpp — `gpuplan prices import`: AWS Price List offer files → a catalog price overlay.
//
// Flags → core (pricing/price_list_import.hpp streams each file) → the overlay written to --out
// through a temporary file renamed into place (write_output_file, native/bench/output_file.hpp), so a failed import never leaves a partial
// overlay. The overlay is a catalog document: `gpuplan --catalog overlay.json price ...`.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuplan/pricing/price_list_import.hpp"
#include "output_file.hpp"
#include "prices_update_cmd.hpp"
#include "suite_json.hpp"

namespace gpuplan::cli {

namespace {

struct PricesImportOptions {
    std::vector<std::string> files;
    std::string out;
    bool progress = false;
    Format format = Format::table;
};

std::string run_prices_import(const PricesImportOptions& o, const Catalog& catalog) {
    std::set<std::string> types, regions;
    for (const Instance& i : catalog.instances) types.insert(i.name);
    for (const std::string& r : catalog.regions()) regions.insert(r);
    PriceListImport import(types, regions);
    for (const std::string& file : o.files) {
        std::error_code ec;
        if (std::filesystem::is_directory(file, ec)) throw InputError("FILE: cannot read '" + file + "': it is a directory, not a file");
        std::ifstream in(file, std::ios::binary);
        if (!in) throw InputError("FILE: cannot read '" + file + "': " + std::strerror(errno));
        if (o.progress) std::cerr << "gpuplan prices import: reading " << file << "\n" << std::flush;
        import.add_offer_file(in, file);
        if (in.bad()) throw InputError("FILE: cannot read '" + file + "': read error");
    }
    if (import.price_count() == 0)
        throw InputError("FILE", std::to_string(o.files.size()) + " file(s) with no price for a catalog instance type",
                         "an EC2 offer file listing Linux, shared-tenancy prices of the catalog's types (nothing was written)");
    const nlohmann::json overlay = import.overlay();
    if (const std::string why = write_output_file(o.out, overlay.dump(2) + "\n"); !why.empty())
        throw InputError("--out: cannot write '" + o.out + "': " + why);

    const PriceListImportStats& s = import.stats();
    const OverlayCounts counts = count_overlay(overlay);
    const std::size_t commitments = counts.commitments, reserved = counts.reserved;
    if (o.format == Format::json) {
        nlohmann::json j = {{"out", o.out},
                            {"files", o.files},
                            {"bytes_read", s.bytes},
                            {"products", s.products},
                            {"products_kept", s.products_kept},
                            {"prices", import.price_count()},
                            {"commitment_prices", commitments},
                            {"reserved_prices", reserved},
                            {"savings_plans_prices", commitments - reserved},
                            {"convertible_reservations_skipped", s.convertible_skipped},
                            {"sources", overlay["sources"]},
                            {"warnings", import.warnings()}};
        return j.dump(2) + "\n";
    }
    std::string text = fmt::format("wrote {}: {} prices ({} on-demand, {} reserved, {} Savings Plans) from {} in {} file{}\n", o.out,
                                   import.price_count(), import.price_count() - commitments, reserved, commitments - reserved,
                                   size_text(s.bytes), o.files.size(), o.files.size() == 1 ? "" : "s");
    for (const OfferHeader& h : import.offers())
        text += fmt::format("  {}: {} version {}, published {}, regions {}\n", h.file,
                            h.offer_code == "AWSSavingsPlans" ? "Savings Plans file" : "EC2 offer", h.version, h.publication_date,
                            h.regions.empty() ? std::string("none kept") : join({h.regions.begin(), h.regions.end()}, ", "));
    if (s.convertible_skipped)
        text += fmt::format("  {} Convertible Reserved Instance price{} skipped: gpuplan's reserved prices are Standard reservations\n",
                            s.convertible_skipped, s.convertible_skipped == 1 ? "" : "s");
    for (const std::string& w : import.warnings()) text += "warning: " + w + "\n";
    text += "use it: gpuplan --catalog " + o.out + " price INSTANCE --region REGION\n";
    return text;
}

}  // namespace

Command register_prices(CLI::App& parent) {
    auto o = std::make_shared<PricesImportOptions>();
    auto update_options = std::make_shared<PricesUpdateOptions>();
    CLI::App* prices = parent.add_subcommand(
        "prices", "Bring real AWS prices into the catalog (update: download AWS's Price List; import: offer files you have)");
    prices->footer("Run `gpuplan prices update --help` or `gpuplan prices import --help`; the overlay format: docs/catalog.md (\"Price overlays\").");
    CLI::App* app = prices->add_subcommand("import", "Read AWS Price List Bulk API EC2 offer and Savings Plans files and write a catalog price overlay");
    app->fallthrough();  // --catalog after `import` belongs to the main command
    app->add_option("FILE", o->files,
                    "EC2 offer files (offers/v1.0/aws/AmazonEC2/<version>/<region>/index.json) and Savings Plans files "
                    "(savingsPlan/v1.0/aws/AWSComputeSavingsPlan/<version>/<region>/index.json), as downloaded")
        ->required()
        ->type_name("FILE");
    app->add_option("--out", o->out, "Overlay file to write (gpuplan.catalog/1); written whole or not at all")->required()->type_name("FILE");
    app->add_flag("--progress", o->progress, "Name each file on stderr as it is read (default when stderr is a terminal)");
    add_format_option(*app, o->format, {Format::table, Format::json});
    app->footer(R"(Keeps the Linux, shared-tenancy, no-pre-installed-software, "Used" capacity rows of the catalog's
instance types (built-in and --catalog files): the on-demand price and the Standard Reserved
Instance prices (1 and 3 years; no, partial and all upfront), and from Savings Plans files the
Compute and EC2 Instance Savings Plans rates for Linux shared tenancy, each citing the file's
version and publication date. Files are streamed: memory stays small however large they are.
Examples:
  gpuplan prices import eu-west-2/index.json sp-eu-west-2/index.json --out prices.json
  gpuplan --catalog prices.json price p5.48xlarge --region eu-west-2 --hours 106
)" + std::string(kExitCodes));
    CLI::App* update = add_prices_update(*prices, update_options);
    return {prices, [o, app, update_options, update](const Catalog& catalog) {
                if (update->parsed()) {
                    PricesUpdateOptions run = *update_options;
                    run.progress = run.progress || isatty(STDERR_FILENO);
                    return run_prices_update(run, catalog);
                }
                if (!app->parsed())
                    throw InputError("gpuplan prices: name what to do: `gpuplan prices update --out overlay.json` (download AWS's prices) "
                                     "or `gpuplan prices import FILE... --out overlay.json`");
                PricesImportOptions run = *o;
                run.progress = o->progress || isatty(STDERR_FILENO);
                return run_prices_import(run, catalog);
            }};
}

}  // namespace gpuplan::cli
