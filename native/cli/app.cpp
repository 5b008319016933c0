// app.cpp — the `gpuplan` command line: app setup, subcommand registration, error handling.
//
// Flow: parse the arguments (CLI11) → load the built-in catalog plus any --catalog files →
// run the chosen subcommand, which returns its whole output as a string → hand it back. Nothing
// reaches `out` before the command has succeeded, so an error never leaves partial output.
//
// Exit codes: 0 ok; 1 internal error (a bug: please report); 2 bad input (InputError from
// the core or a command, CLI11 parse/validation errors, unreadable or oversized files).
// Commands may define more (CommandFailure): `bench decode` exits 3 without a usable GPU and 4
// when a run fails verification or I/O.
#include "app.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <new>
#include <sstream>

#include "commands.hpp"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

namespace gpuplan::cli {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

// Every subcommand, in the order `gpuplan --help` lists them. The one list: add a command here.
using Registrar = Command (*)(CLI::App&);
constexpr Registrar kRegistrars[] = {
    register_catalog, register_show, register_price, register_prices, register_fleet, register_spot_fleet, register_idle, register_serve_plan, register_usage, register_eval, register_devices,
    register_models, register_fit, register_infer, register_recommend, register_train, register_simulate, register_bench, register_calibrate,
    register_collective, register_topology, register_validate,
    register_gui,
};

// Control characters written as escapes ("\r", "\x1b"): a bad-input message echoes what the
// user gave, and a raw CR would print the rest of the message over its start, an escape
// sequence would reach the terminal, a newline would split the one-line message.
std::string printable(const std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) out += c;
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    }
    return out;
}

int fail(std::string& err, int code, const std::string& message) {
    err += "gpuplan: error: " + message + "\n";
    return code;
}

// gpuplan's only one-dash option is -h, and CLI11 reads "-hours 5" as -h -o -u -r -s: help,
// exit 0, the typo unseen (issue 34). A one-dash word starting with a letter is refused with
// the two-dash spelling; "-1" and "-" (a negative number, stdin) are values and pass.
void refuse_one_dash_long_options(const std::vector<std::string>& args) {
    for (const std::string& a : args) {
        if (a == "--") return;  // what follows is positional
        // "-inf" and "-nan" read as numbers: a flag's value, refused by that flag's own rule.
        char* end = nullptr;
        (void)std::strtod(a.c_str(), &end);
        const bool number = end != a.c_str() && *end == '\0';
        if (a.size() > 2 && a[0] == '-' && std::isalpha(static_cast<unsigned char>(a[1])) && !number)
            throw InputError(a, "a one-dash long option", "-" + a + " (two dashes; -h alone is help)");
    }
}

// The first argument that is neither an option nor the value of the global --catalog.
std::string first_word(const std::vector<std::string>& args) {
    for (std::size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
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
  gpuplan prices import eu-west-2/index.json --out prices.json
  gpuplan --catalog prices.json price p5.48xlarge --region eu-west-2

Run `gpuplan COMMAND --help` for a command's options; full guide: docs/cli.md.
Figures marked "*" rest on a documented default assumption (docs/pricing.md).
)";

int run(const std::vector<std::string>& args, std::string& out, std::string& err) {
    CLI::App app{"gpuplan " GPUPLAN_VERSION " — plan AWS EC2 GPU instances: catalog facts, purchase options, fleets, idle cost\n"
                 "and unit costs, each figure with the math behind it.",
                 "gpuplan"};
    app.set_version_flag("--version", "gpuplan " GPUPLAN_VERSION);
    app.require_subcommand(1);
    app.footer(std::string(kMainFooter) + "\n" + std::string(kExitCodes));
    std::vector<std::string> global_files;
    add_catalog_option(app, global_files);

    // Each subcommand has its own --catalog too, so it may follow the subcommand name.
    struct Registered {
        Command command;
        std::vector<std::string> files;
    };
    std::vector<std::unique_ptr<Registered>> commands;
    for (auto registrar : kRegistrars) {
        auto r = std::make_unique<Registered>();
        r->command = registrar(app);
        r->command.app->footer(r->command.app->get_footer() + "\n\n" + std::string(kExitCodes));
        add_catalog_option(*r->command.app, r->files);
        commands.push_back(std::move(r));
    }

    try {
        // CLI11 takes a vector in reverse order (it pops arguments from the back).
        refuse_one_dash_long_options(args);
        std::vector<std::string> reversed(args.rbegin(), args.rend());
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --version
            std::ostringstream help_out, help_err;
            app.exit(e, help_out, help_err);
            out += help_out.str();
            return kExitOk;
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
            if (const std::string word = first_word(args); !word.empty()) {
                std::vector<std::string> names;  // the top-level commands, as registered
                for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
                return fail(err, kExitBadInput,
                            "unknown command '" + word + "'; expected one of: " + join(names, ", ") + " (see `" + hint + "`)");
            }
        return fail(err, kExitBadInput, std::string(e.what()) + " (see `" + hint + "`)");
    }

    for (const auto& r : commands) {
        if (!r->command.app->parsed()) continue;
        std::vector<std::string> files = global_files;
        files.insert(files.end(), r->files.begin(), r->files.end());
        const Catalog catalog = r->command.needs_catalog ? load_catalog_with_files(files) : Catalog{};
        const std::string output = r->command.run(catalog);
        // A user file that replaces built-in records is worth knowing about: say so.
        for (const auto& note : catalog.overrides) err += "gpuplan: note: " + note + "\n";
        for (const auto& note : *r->command.notes) err += "gpuplan: note: " + note + "\n";
        out += output;
        return kExitOk;
    }
    return fail(err, kExitInternal, "no subcommand ran");
}

}  // namespace

namespace {
std::vector<std::string>& arguments_now() {
    static std::vector<std::string> args;
    return args;
}
}  // namespace

const std::vector<std::string>& invocation_arguments() { return arguments_now(); }

int run_gpuplan(const std::vector<std::string>& args, std::string& out, std::string& err) {
    arguments_now() = args;
    // `gpuplan --version` alone answers before the ~25 commands and their options are built:
    // building them is most of what the program did to print one line (docs/performance.md).
    // The text is the one CLI11's version flag prints (tests/cli: version).
    if (args.size() == 1 && args[0] == "--version") {
        out += "gpuplan " GPUPLAN_VERSION "\n";
        return kExitOk;
    }
    try {
        return run(args, out, err);
    } catch (const InputError& e) {
        return fail(err, kExitBadInput, printable(e.what()));
    } catch (const CommandFailure& e) {  // a command's own exit code (bench: 3 no GPU, 4 run failed)
        out += e.output();
        return fail(err, e.exit_code(), e.what());
    } catch (const std::bad_alloc&) {
        return fail(err, kExitInternal, "out of memory");
    } catch (const std::exception& e) {
        return fail(err, kExitInternal, std::string("internal error (please report): ") + e.what());
    }
}

}  // namespace gpuplan::cli
