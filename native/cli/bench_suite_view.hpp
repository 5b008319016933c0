// bench_suite_view.hpp — how `gpuplan bench run` shows a suite run: a header naming the backend,
// host and mode, one row per record, then waivers, errors, notes and the verification count.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "output.hpp"
#include "suite.hpp"

namespace gpuplan::cli {

// fp: the run's fingerprint as written to the results file; json_file: where the results went
// ("" = nowhere); backend_note: why --backend auto chose what it did ("" = nothing to say).
std::string render_suite_run(const bench::SuiteRun& run, const nlohmann::json& fp, const bench::SuiteOptions& o, Format format,
                             const std::string& json_file, const std::string& backend_note);

}  // namespace gpuplan::cli
