// decode_bench_view.hpp — a `gpuplan bench decode` run as people read it: the set-up, one row
// per mode (median/min/mean/P99 video time, kernel activity, stage times, slowdown under
// overlap, RTF, checksums), and notes comparing the asynchronous modes with the synchronous one.
#pragma once

#include <string>
#include <vector>

#include "bench_results.hpp"  // bench::Fingerprint
#include "decode_pipeline.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// The run as a table (text, Markdown or CSV) with notes; `out_file` the JSON written, if any.
std::string decode_bench_text(const bench::DecodeConfig& config, const bench::DecodeRun& run, const bench::Fingerprint& fingerprint,
                              const std::vector<bench::Mode>& modes, Format format, const std::string& out_file);

}  // namespace gpuplan::cli
