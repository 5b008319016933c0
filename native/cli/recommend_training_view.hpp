// recommend_training_view.hpp — the text, Markdown and CSV of `gpuplan recommend --training`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/recommend/recommend.hpp"
#include "output.hpp"

namespace gpuplan::cli {

// The picks' names, in the order of TrainingRecommendation::picks.
inline constexpr const char* kTrainingPickNames[] = {"cheapest", "fastest", "balanced"};

// The `gpuplan train` command line that shows one candidate's step in full.
std::string train_command(const TrainingRecommendRequest& q, const TrainingCandidate& c);

// j: the result as JSON (to_json(r), with each pick's train_command), for the explanations.
std::string render_training_recommendation(const TrainingRecommendRequest& q, const TrainingRecommendation& r, const nlohmann::json& j,
                                           Format format, bool explain);

}  // namespace gpuplan::cli
