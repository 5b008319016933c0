// decode_report_view.hpp — a decode-pipeline report (core/gpuplan/decode/decode_plan.hpp) as
// `gpuplan simulate decode` prints it: the stages, both pipelines' time per video, utilisation
// and RTF, the fit and how close it lands, the cost per hour of video for every purchase option,
// and optionally an ASCII Gantt chart of the first chunks.
#pragma once

#include <cstddef>
#include <string>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/decode/decode_plan.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// The report in words and tables; `gantt_chunks` > 0 adds the Gantt chart of that many chunks.
std::string decode_report_text(const DecodeReport& report, const Catalog& catalog, std::size_t gantt_chunks);
// Every figure of the report by name (for --explain and CSV).
NamedFigures decode_report_figures(const DecodeReport& report);

}  // namespace gpuplan::cli
