// unit_cost.hpp — what a unit of work costs: tokens, hours of video, a training run.
//
//   USD per 1M tokens      = usd_per_hour / (tokens_per_second x 3600) x 1e6
//   USD per video hour     = usd_per_hour x real_time_factor      (RTF = decode time / video duration)
//   training run           = usd_per_hour x hours x instances
#pragma once

#include "gpuplan/explain.hpp"

namespace gpuplan {

Figure usd_per_million_tokens(const Param& usd_per_hour, const Param& tokens_per_second);
Figure usd_per_video_hour(const Param& usd_per_hour, const Param& real_time_factor);
Figure training_run_usd(const Param& usd_per_hour, const Param& hours, const Param& instances);

// A token rate priced per million and per billion tokens (the scenario's token_costs rows).
struct TokenCost {
    Figure usd_per_million_tokens, usd_per_billion_tokens;  // per billion = per million x 1000
};
TokenCost token_cost(const Param& usd_per_hour, const Param& tokens_per_second);

// Two ways of decoding the same video (e.g. a synchronous and an asynchronous pipeline),
// known by their decode times and the first one's real-time factor.
struct VideoPipelineComparison {
    Figure video_seconds;                 // decode_seconds_a / rtf_a
    Figure rtf_b;                         // decode_seconds_b / video_seconds
    Figure gpu_hours_per_1000_video_hours_a, gpu_hours_per_1000_video_hours_b;
    Figure saving_usd_per_1000_video_hours;
};

VideoPipelineComparison compare_video_pipelines(const Param& usd_per_hour, const Param& decode_seconds_a,
                                                const Param& decode_seconds_b, const Param& rtf_a);

}  // namespace gpuplan
