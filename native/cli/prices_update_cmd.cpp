// prices_update_cmd.cpp — `gpuplan prices update`: every price refreshed from AWS's public Price
// List in one command.
//
// The service index names EC2's region index and the Savings Plans region index; those name each
// region's files (core: pricing/price_list_index.hpp). Each file is downloaded with retries and
// resumption (native/net/http_download.hpp) and parsed while it arrives: the download pushes its
// chunks into a bounded pipe (net/chunk_pipe.hpp) that the importer reads on a second thread, so
// a several-hundred-MB offer file is never held whole and the refresh is bound by the network,
// not the parser. The overlay is written only when every file arrived whole and parsed, through
// a temporary file renamed into place: a failed refresh leaves the previous overlay untouched.
#include "prices_update_cmd.hpp"

#include <unistd.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "chunk_pipe.hpp"
#include "gpuplan/json_reader.hpp"
#include "gpuplan/pricing/price_list_import.hpp"
#include "gpuplan/pricing/price_list_index.hpp"
#include "gpuplan/text.hpp"
#include "http_download.hpp"
#include "output_file.hpp"

namespace gpuplan::cli {

namespace {

// The pipe between download and parser: enough to keep both busy, small beside the 50 MB the
// import may use (issue 33).
constexpr std::size_t kPipeBytes = 8u * 1024u * 1024u;
// The largest index AWS publishes is well under 1 MiB; anything over this is not an index.
constexpr std::size_t kMaxIndexBytes = 16u * 1024u * 1024u;

struct PriceFile {
    std::string region, url;
    bool savings_plans = false;
    std::string label() const { return region + (savings_plans ? " Savings Plans rates" : " EC2 prices"); }
};

// Progress on stderr: a line per file (and per retry); on a terminal, the current file's bytes
// and rate rewritten in place as they arrive.
class UpdateProgress {
public:
    UpdateProgress(bool on, bool terminal, int attempts) : on_(on), terminal_(terminal), attempts_(attempts) {}
    void start(std::size_t index, std::size_t count, const PriceFile& file) {
        prefix_ = fmt::format("[{}/{}] {}", index + 1, count, file.label());
    }
    void bytes(const net::DownloadProgress& p) {
        if (!on_ || !terminal_) return;
        const std::string of = p.total ? fmt::format(" of {} ({:.0f}%)", size_text(p.total), 100.0 * static_cast<double>(p.bytes) / static_cast<double>(p.total)) : "";
        std::cerr << fmt::format("\r{}: {}{}, {}/s   ", prefix_, size_text(p.bytes), of, size_text(rate(p.bytes, p.seconds)))
                  << std::flush;
    }
    void retry(int attempt, const std::string& cause, std::uint64_t resume_from) {
        if (!on_) return;
        std::cerr << (terminal_ ? "\r" : "")
                  << fmt::format("{}: {}; attempt {} of {}{}{}\n", prefix_, cause, attempt, attempts_,
                                 resume_from ? ", resuming at byte " + group_thousands(std::to_string(resume_from)) : std::string(), pad())
                  << std::flush;
    }
    void done(const net::DownloadReport& r) {
        if (!on_) return;
        std::cerr << (terminal_ ? "\r" : "")
                  << fmt::format("{}: {} in {:.1f} s ({}/s){}{}\n", prefix_, size_text(r.bytes), r.seconds,
                                 size_text(rate(r.bytes, r.seconds)),
                                 r.attempts > 1 ? fmt::format(", {} attempts", r.attempts) : std::string(), pad())
                  << std::flush;
    }
    void note(const std::string& line) {
        if (on_) std::cerr << line << "\n" << std::flush;
    }

private:
    // Spaces that clear the end of a longer in-place line before it, on a terminal only.
    std::string pad() const { return terminal_ ? "          " : ""; }
    static std::uint64_t rate(std::uint64_t bytes, double seconds) {
        return seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds) : 0;
    }
    bool on_, terminal_;
    int attempts_;
    std::string prefix_;
};

net::DownloadPolicy policy_of(const PricesUpdateOptions& o) {
    net::DownloadPolicy p;
    p.attempts = o.attempts;
    p.retry_delay_s = o.retry_delay_s;
    p.stall_timeout_s = std::max(1L, static_cast<long>(o.stall_timeout_s));
    return p;
}

// A failed download as the CLI reports it: exit 3, one line, nothing written.
[[noreturn]] void fail_download(const net::DownloadError& e, const std::string& out) {
    std::error_code ec;
    const bool kept = std::filesystem::exists(out, ec);
    throw CommandFailure(3, std::string(e.what()) + (e.unreachable() ? "; no network, or the host is down" : "") + "; nothing written" +
                                (kept ? " (" + out + " is as it was)" : ""));
}

Json fetch_index(const std::string& url, const net::DownloadPolicy& policy, UpdateProgress& progress) {
    progress.note("reading " + url);
    const std::string text = net::download_text(url, policy, kMaxIndexBytes, [&](int attempt, const std::string& cause, std::uint64_t) {
        progress.note(fmt::format("{}: {}; attempt {} of {}", url, cause, attempt, policy.attempts));
    });
    return parse_json_document(text, url);
}

// The header the importer read must be the file the index promised: the right service, and no
// region but the one asked for.
void check_offer(const OfferHeader& offer, const PriceFile& file) {
    const std::string expected = file.savings_plans ? "AWSSavingsPlans" : "AmazonEC2";
    if (offer.offer_code != expected)
        throw InputError(file.url + ": $.offerCode", "\"" + offer.offer_code + "\"",
                         "\"" + expected + "\", the file AWS's region index lists for " + file.region);
    for (const std::string& r : offer.regions)
        if (r != file.region)
            throw InputError(file.url + ": regionCode", "\"" + r + "\"", "\"" + file.region + "\" only: the index lists this file for " + file.region);
}

// Downloads one file and streams it through the importer on a second thread.
net::DownloadReport import_price_file(PriceListImport& import, const PriceFile& file, const net::DownloadPolicy& policy,
                                      UpdateProgress& progress, std::size_t& peak_pipe_bytes) {
    net::ChunkPipe pipe(kPipeBytes);
    std::exception_ptr parse_error;
    const std::size_t offers_before = import.offers().size();
    std::thread parser([&] {
        std::istream in(&pipe);
        try {
            import.add_offer_file(in, file.url);
        } catch (...) {
            parse_error = std::current_exception();
        }
        pipe.stop_reading();
    });
    net::DownloadReport report;
    std::exception_ptr download_error;
    try {
        net::DownloadCallbacks callbacks;
        callbacks.chunk = [&](std::string_view bytes) { return pipe.push(bytes); };
        callbacks.progress = [&](const net::DownloadProgress& p) { progress.bytes(p); };
        callbacks.retry = [&](int attempt, const std::string& cause, std::uint64_t from) { progress.retry(attempt, cause, from); };
        report = net::download(file.url, policy, callbacks);
    } catch (...) {
        download_error = std::current_exception();
    }
    pipe.close();
    parser.join();
    peak_pipe_bytes = std::max(peak_pipe_bytes, pipe.peak_queued_bytes());
    if (download_error) std::rethrow_exception(download_error);  // a broken download explains a truncated parse
    if (parse_error) std::rethrow_exception(parse_error);
    if (import.offers().size() == offers_before) throw InputError(file.url, "nothing read", "a Price List offer file");
    check_offer(import.offers().back(), file);
    progress.done(report);
    return report;
}

// The files to fetch: each asked region's EC2 file, then its Savings Plans file where listed.
std::vector<PriceFile> files_to_fetch(const PricesUpdateOptions& o, const Catalog& catalog, const net::DownloadPolicy& policy,
                                      UpdateProgress& progress, std::vector<std::string>& warnings) {
    const std::string index_url = resolve_price_list_url(o.base_url, kPriceListServiceIndexPath);
    const PriceListIndexUrls urls = read_service_index(fetch_index(index_url, policy, progress), index_url);
    const auto ec2 = read_region_index(fetch_index(urls.ec2_region_index, policy, progress), urls.ec2_region_index);
    std::map<std::string, std::string> plans;
    if (!urls.savings_plans_region_index.empty())
        plans = read_region_index(fetch_index(urls.savings_plans_region_index, policy, progress), urls.savings_plans_region_index);
    else
        warnings.push_back(index_url + " names no Savings Plans region index (offers.AmazonEC2.currentSavingsPlanIndexUrl): no Savings Plans rates fetched");
    const std::vector<std::string> known_list = catalog.regions();
    const std::set<std::string> known(known_list.begin(), known_list.end());
    std::vector<PriceFile> files;
    for (const std::string& region : price_list_regions_to_fetch(o.regions, ec2, known)) {
        files.push_back({region, ec2.at(region), false});
        if (const auto sp = plans.find(region); sp != plans.end())
            files.push_back({region, sp->second, true});
        else if (!plans.empty())
            warnings.push_back("the Savings Plans region index lists no file for " + region + ": no Savings Plans rates there");
    }
    return files;
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    return b >= 1e9 ? fmt::format("{:.2f} GB", b / 1e9)
         : b >= 1e6 ? fmt::format("{:.1f} MB", b / 1e6)
         : b >= 1e3 ? fmt::format("{:.1f} kB", b / 1e3)
                    : fmt::format("{} bytes", bytes);
}

OverlayCounts count_overlay(const Json& overlay) {
    OverlayCounts c;
    for (const auto& p : overlay["prices"]) {
        const std::string option = p["option"].get<std::string>();
        c.prices += 1;
        c.commitments += option != to_string(PriceKind::on_demand);
        c.reserved += option.rfind("reserved-", 0) == 0;
    }
    return c;
}

std::string run_prices_update(const PricesUpdateOptions& o, const Catalog& catalog) {
    if (const std::string why = check_output_path(o.out); !why.empty()) throw InputError("--out: cannot write '" + o.out + "': " + why);
    const net::DownloadPolicy policy = policy_of(o);
    UpdateProgress progress(o.progress, isatty(STDERR_FILENO) != 0, policy.attempts);
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> warnings;
    std::vector<PriceFile> files;
    std::vector<net::DownloadReport> reports;
    std::size_t peak_pipe_bytes = 0;
    const std::vector<std::string> regions = catalog.regions();
    std::set<std::string> types;
    for (const Instance& i : catalog.instances) types.insert(i.name);
    PriceListImport import(types, {regions.begin(), regions.end()});
    try {
        files = files_to_fetch(o, catalog, policy, progress, warnings);
        for (std::size_t i = 0; i < files.size(); ++i) {
            progress.start(i, files.size(), files[i]);
            reports.push_back(import_price_file(import, files[i], policy, progress, peak_pipe_bytes));
        }
    } catch (const net::DownloadError& e) {
        fail_download(e, o.out);
    }
    if (import.price_count() == 0)
        throw InputError(o.base_url, std::to_string(files.size()) + " file(s) with no price for a catalog instance type",
                         "EC2 offer files listing Linux, shared-tenancy prices of the catalog's types (nothing was written)");
    const Json overlay = import.overlay();
    if (const std::string why = write_output_file(o.out, overlay.dump(2) + "\n"); !why.empty())
        throw InputError("--out: cannot write '" + o.out + "': " + why);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    std::uint64_t bytes = 0;
    int retries = 0, resumed = 0;
    for (const auto& r : reports) {
        bytes += r.bytes;
        retries += r.attempts - 1;
        resumed += r.resumed;
    }
    for (const std::string& w : import.warnings()) warnings.push_back(w);
    const OverlayCounts counts = count_overlay(overlay);
    if (o.format == Format::json) {
        Json downloads = Json::array();
        for (std::size_t i = 0; i < reports.size(); ++i)
            downloads.push_back({{"region", files[i].region},
                                 {"kind", files[i].savings_plans ? "savings-plans" : "ec2"},
                                 {"url", reports[i].url},
                                 {"bytes", reports[i].bytes},
                                 {"attempts", reports[i].attempts},
                                 {"resumed", reports[i].resumed},
                                 {"seconds", reports[i].seconds}});
        Json regions_done = Json::array();
        for (const PriceFile& f : files)
            if (!f.savings_plans) regions_done.push_back(f.region);
        return Json{{"out", o.out},
                    {"base_url", o.base_url},
                    {"regions", regions_done},
                    {"downloads", downloads},
                    {"bytes_downloaded", bytes},
                    {"seconds", seconds},
                    {"peak_buffered_bytes", peak_pipe_bytes},
                    {"prices", counts.prices},
                    {"commitment_prices", counts.commitments},
                    {"reserved_prices", counts.reserved},
                    {"savings_plans_prices", counts.commitments - counts.reserved},
                    {"sources", overlay["sources"]},
                    {"warnings", warnings}}
                   .dump(2) +
               "\n";
    }
    std::string text = fmt::format("wrote {}: {} prices ({} on-demand, {} reserved, {} Savings Plans)\n", o.out, counts.prices,
                                   counts.prices - counts.commitments, counts.reserved, counts.commitments - counts.reserved);
    text += fmt::format("  downloaded {} in {} file{} from {} in {:.1f} s ({}/s)", size_text(bytes), reports.size(),
                        reports.size() == 1 ? "" : "s", o.base_url, seconds,
                        size_text(seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds) : 0));
    text += retries ? fmt::format("; {} retr{}, {} resumed where it broke\n", retries, retries == 1 ? "y" : "ies", resumed) : "\n";
    for (const OfferHeader& h : import.offers())
        text += fmt::format("  {}: {} version {}, published {}\n",
                            h.regions.empty() ? std::string("(no row kept)") : join({h.regions.begin(), h.regions.end()}, ", "),
                            h.offer_code == "AWSSavingsPlans" ? "Savings Plans file" : "EC2 offer", h.version, h.publication_date);
    for (const std::string& w : warnings) text += "warning: " + w + "\n";
    text += "use it: gpuplan --catalog " + o.out + " price INSTANCE --region REGION\n";
    return text;
}

CLI::App* add_prices_update(CLI::App& prices, const std::shared_ptr<PricesUpdateOptions>& o) {
    o->base_url = kPriceListBaseUrl;
    CLI::App* app = prices.add_subcommand("update", "Download AWS's current Price List files and write a catalog price overlay (every price in one command)");
    app->fallthrough();
    app->add_option("--regions", o->regions, "Regions to refresh: all (default: every region AWS lists and gpuplan knows), or codes")
        ->delimiter(',')
        ->type_name("all|R1,R2");
    app->add_option("--out", o->out, "Overlay file to write (gpuplan.catalog/1); written whole or not at all")->required()->type_name("FILE");
    app->add_option("--base-url", o->base_url, "Where the Price List files are (a mirror, or a test server)")
        ->type_name("URL")
        ->check([](const std::string& url) {
            return url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0
                       ? std::string()
                       : "got '" + value_shown(url) + "'; expected an http:// or https:// URL such as " + kPriceListBaseUrl;
        })
        ->capture_default_str();
    app->add_option("--attempts", o->attempts, "Tries per file before giving up (a retry resumes where the download broke)")
        ->check(CLI::Range(1, 20))
        ->capture_default_str();
    app->add_option("--retry-delay", o->retry_delay_s, "Seconds before the first retry; doubled for each next one")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
    app->add_option("--stall-timeout", o->stall_timeout_s, "Seconds without a byte before an attempt counts as broken")
        ->check(CLI::Range(1.0, 3600.0))
        ->capture_default_str();
    app->add_flag("--progress", o->progress, "Each file's size, time and rate on stderr (default when stderr is a terminal)");
    add_format_option(*app, o->format, {Format::table, Format::json});
    app->footer(std::string(R"(Reads AWS's public Price List Bulk API: the service index (/offers/v1.0/aws/index.json),
EC2's region index and the Savings Plans region index, then each region's EC2 offer file and
Savings Plans file, and keeps what `gpuplan prices import` keeps from them (see its --help). Each
file is parsed while it downloads and never held whole; a broken download is retried, resuming
where it broke. The overlay is written only when every file arrived whole and parsed: on any
failure the previous --out file is untouched. A large region's EC2 file is several hundred MB.
Examples:
  gpuplan prices update --regions us-east-1,eu-west-2 --out prices.json
  gpuplan --catalog prices.json price p5.48xlarge --region eu-west-2
Exit codes: 0 ok; 1 internal error; 2 bad input (a flag, or a file not in AWS's layout); 3 the
price server could not be reached, or a download failed after every attempt. On 2 and 3 nothing
is written. Errors are one line on stderr, "gpuplan: error: ...".)"));
    return app;
}

}  // namespace gpuplan::cli
