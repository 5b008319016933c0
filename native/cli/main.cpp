// main.cpp — the `gpuplan` command line: app setup, subcommand registration, error handling.
//
// Flow: parse argv (CLI11) → load the built-in catalog plus any --catalog files → run the
// chosen subcommand, which returns its whole output as a string → print it. Nothing reaches
// stdout before the command has succeeded, so an error never leaves partial output.
//
// Exit codes: 0 ok; 1 internal error (a bug: please report); 2 bad input (InputError from
// the core or a command, CLI11 parse/validation errors, unreadable or oversized files).
// Commands may define more (CommandFailure): `bench decode` exits 3 without a usable GPU and 4
// when a run fails verification or I/O.
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>

#include "commands.hpp"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

int fail(int code, const std::string& message) {
    std::cerr << "gpuplan: error: " << message << "\n";
    return code;
}

// Writes everything or reports why not (a closed pipe is not our error to report loudly).
int print(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        return fail(kExitInternal, "could not write the output to stdout");
    return kExitOk;
}

// The first argument that is neither an option nor the value of the global --catalog.
std::string first_word(int argc, char** argv) {
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--catalog") {
            ++k;
            continue;
        }
        if (!a.empty() && a[0] != '-') return a;
    }
    return "";
}

const char* const kMainFooter = R"(Examples:
  gpuplan catalog --family p5,g6e --sort usd_per_dense_bf16_pflop_hour
  gpuplan catalog --compare p5.48xlarge,p5en.48xlarge,p6-b200.48xlarge
  gpuplan show p5.48xlarge --explain
  gpuplan price g6e.xlarge --tokens-per-second 1000
  gpuplan fleet --on-demand-usd-per-gpu-hour 1.60 --tier reserved-3y:4:0.96 --tier spot:6:0.80 --tier on-demand:2:1.60
  gpuplan idle --instance g6.2xlarge --engineers 3
  gpuplan eval scenario.json
  gpuplan devices
  gpuplan models
  gpuplan fit --model llama-3-8b --mode training --gpus 4 --gpu-memory-gib 80 --zero 2
  gpuplan fit --model llama-3.1-70b --mode inference --instance g6e.12xlarge --tp 2 --dtype fp8
  gpuplan infer --model llama-3-8b --instance g6e.xlarge --batch 32 --context 2048
  gpuplan recommend --model llama-3.1-70b --dtype fp8 --tokens-per-second 2000
  gpuplan train --model llama-3-8b --instance p5.48xlarge --nodes 2 --zero 1 --tokens 1e11
  gpuplan recommend --training --model llama-3-8b --tokens 1e11 --deadline-hours 48
  gpuplan simulate decode --scenario assets/scenarios/d1-decode-g7e.json --gantt
  gpuplan bench decode --backend cpu --chunks 8 --videos 3
  gpuplan --catalog my-prices.json price p5.48xlarge

Run `gpuplan COMMAND --help` for a command's options; full guide: docs/cli.md.
Figures marked "*" rest on a documented default assumption (docs/pricing.md).
)";

}  // namespace

int main(int argc, char** argv) {
    using namespace gpuplan;
    CLI::App app{"gpuplan " GPUPLAN_VERSION " — plan AWS EC2 GPU instances: catalog facts, purchase options, fleets, idle cost\n"
                 "and unit costs, each figure with the math behind it.",
                 "gpuplan"};
    app.set_version_flag("--version", "gpuplan " GPUPLAN_VERSION);
    app.require_subcommand(1);
    app.footer(std::string(kMainFooter) + "\n" + std::string(cli::kExitCodes));
    std::vector<std::string> global_files;
    cli::add_catalog_option(app, global_files);

    // Each subcommand has its own --catalog too, so it may follow the subcommand name.
    struct Registered {
        cli::Command command;
        std::vector<std::string> files;
    };
    std::vector<std::unique_ptr<Registered>> commands;
    for (auto registrar : {cli::register_catalog, cli::register_show, cli::register_price, cli::register_fleet,
                           cli::register_idle, cli::register_eval, cli::register_devices, cli::register_models, cli::register_fit,
                           cli::register_infer, cli::register_recommend, cli::register_train, cli::register_simulate,
                           cli::register_bench}) {
        auto r = std::make_unique<Registered>();
        r->command = registrar(app);
        r->command.app->footer(r->command.app->get_footer() + "\n\n" + std::string(cli::kExitCodes));
        cli::add_catalog_option(*r->command.app, r->files);
        commands.push_back(std::move(r));
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --version
            std::ostringstream out, err;
            app.exit(e, out, err);
            return print(out.str());
        }
        std::string hint = "gpuplan --help";
        bool in_subcommand = false;
        for (const auto& r : commands)
            if (r->command.app->parsed()) {
                hint = "gpuplan " + r->command.app->get_name() + " --help";
                in_subcommand = true;
            }
        // CLI11 reports a mistyped command as "A subcommand is required": name it instead.
        if (!in_subcommand)
            if (const std::string word = first_word(argc, argv); !word.empty())
                return fail(kExitBadInput, "unknown command '" + word + "'; expected one of: catalog, show, price, fleet, idle, eval, devices, models, fit, infer, recommend, train, simulate, bench (see `" + hint + "`)");
        return fail(kExitBadInput, std::string(e.what()) + " (see `" + hint + "`)");
    }

    try {
        for (const auto& r : commands) {
            if (!r->command.app->parsed()) continue;
            std::vector<std::string> files = global_files;
            files.insert(files.end(), r->files.begin(), r->files.end());
            const Catalog catalog = cli::load_catalog_with_files(files);
            const std::string output = r->command.run(catalog);
            // A user file that replaces built-in records is worth knowing about: say so.
            for (const auto& note : catalog.overrides) std::cerr << "gpuplan: note: " << note << "\n";
            return print(output);
        }
        return fail(kExitInternal, "no subcommand ran");
    } catch (const InputError& e) {
        return fail(kExitBadInput, e.what());
    } catch (const cli::CommandFailure& e) {  // a command's own exit code (bench: 3 no GPU, 4 run failed)
        return fail(e.exit_code(), e.what());
    } catch (const std::bad_alloc&) {
        return fail(kExitInternal, "out of memory");
    } catch (const std::exception& e) {
        return fail(kExitInternal, std::string("internal error (please report): ") + e.what());
    }
}
