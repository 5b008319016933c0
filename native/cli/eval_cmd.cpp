// eval_cmd.cpp — `gpuplan eval SCENARIO.json`: the same scenario document the browser app
// uses (schema gpuplan.scenario/1, docs/scenario.md), evaluated by the core, printed as JSON.
#include <memory>

#include "commands.hpp"
#include "gpuplan/scenario/scenario_result.hpp"

namespace gpuplan::cli {

namespace {

struct EvalOptions {
    std::string path;
};

std::string run_eval(const Catalog& catalog, const EvalOptions& o, std::vector<std::string>& notes) {
    // The shell reads the file (with the size check first); the core only sees text.
    const std::string text = read_input_file(o.path, "SCENARIO");
    const Scenario scenario = parse_scenario(text, o.path, catalog);
    notes.insert(notes.end(), scenario.notes.begin(), scenario.notes.end());
    try {
        return dump_json(evaluate_scenario(scenario, catalog));
    } catch (const InputError& e) {
        // A result refused for its size names the section ("$.fleet, ..."); say which file, as
        // the parser's messages do.
        if (e.where().rfind("$.", 0) != 0) throw;
        throw InputError(o.path + ": " + e.where(), e.value(), e.expected());
    }
}

}  // namespace

Command register_eval(CLI::App& parent) {
    auto o = std::make_shared<EvalOptions>();
    CLI::App* app = parent.add_subcommand("eval", "Evaluate a scenario file and print the result as JSON (schema gpuplan.result/1)");
    app->add_option("SCENARIO", o->path, "Scenario JSON file (schema gpuplan.scenario/1, docs/scenario.md)")->required()->type_name("FILE");
    app->footer(R"(The scenario is the document the browser app keeps in its URL, so a link reproduces exactly here.
Every section (price, fleet, idle, storage, token_costs, video) is optional; each present one is
evaluated and returned with its explanations. Files over 16 MiB are refused before reading.
Examples:
  gpuplan eval scenario.json
  gpuplan eval scenario.json --catalog my-prices.json)");
    Command command{app, nullptr};
    command.run = [o, notes = command.notes](const Catalog& c) { return run_eval(c, *o, *notes); };
    return command;
}

}  // namespace gpuplan::cli
