// benchmarks_panel.cpp — see benchmarks_panel.hpp.
#include "benchmarks_panel.hpp"

#include <SDL.h>

#include "decode_backend.hpp"  // BenchError
#include "imgui.h"
#include "suite.hpp"
#include "suite_json.hpp"
#include "transfer_backend.hpp"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

namespace gpuplan::gui {

namespace {

// Wakes the main loop (asleep in SDL_WaitEvent) so progress appears as it happens.
void wake_main_loop() {
    SDL_Event event{};
    event.type = SDL_USEREVENT;
    SDL_PushEvent(&event);  // thread-safe by SDL's contract
}

}  // namespace

BenchmarksPanel::BenchmarksPanel() : progress_(std::make_shared<Progress>()) {
    try {
        (void)bench::make_cuda_transfer_backend();
    } catch (const std::exception& e) {
        cuda_unavailable_ = e.what();
    }
}

BenchmarksPanel::~BenchmarksPanel() {
    if (worker_.joinable()) worker_.join();
}

void BenchmarksPanel::start(bool cpu_backend) {
    if (worker_.joinable()) worker_.join();
    progress_ = std::make_shared<Progress>();
    running_ = true;
    imported_ = false;
    worker_ = std::thread([progress = progress_, cpu_backend, this] {
        try {
            auto backend = cpu_backend ? bench::make_cpu_transfer_backend() : bench::make_cuda_transfer_backend();
            bench::SuiteOptions options;
            options.depth = bench::Depth::quick;
            {
                std::lock_guard lock(progress->mutex);
                progress->cases_total = static_cast<int>(bench::suite_cases().size());
            }
            options.progress = [progress](const std::string& line) {
                std::lock_guard lock(progress->mutex);
                progress->lines.push_back(line);
                wake_main_loop();
            };
            bench::RunInfo info{"gpuplan gui", GPUPLAN_VERSION, "quick", nlohmann::json::object(), bench::utc_now_iso8601()};
            const nlohmann::json fingerprint = bench::suite_fingerprint(backend.get(), backend->name(), std::nullopt);
            const bench::SuiteRun run = bench::run_suite(*backend, options, [progress](const bench::SuiteRun& partial) {
                std::lock_guard lock(progress->mutex);
                progress->cases_done = static_cast<int>(partial.cases_run.size() + partial.waived.size());
                wake_main_loop();
            });
            const std::string text = bench::suite_document(fingerprint, info, run).dump(2);
            std::lock_guard lock(progress->mutex);
            progress->document = text;
        } catch (const std::exception& e) {
            std::lock_guard lock(progress->mutex);
            progress->error = e.what();
        }
        running_ = false;
        wake_main_loop();
    });
}

void BenchmarksPanel::draw(ui::AppState& state) {
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 32, ImGui::GetFontSize() * 18), ImGuiCond_FirstUseEver);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // Bottom right, just above the app's status line (one frame height plus spacing), so the
    // collapsed title bar never covers the frame-time readout.
    const float above_status = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y;
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - ImGui::GetStyle().WindowPadding.x,
                                   viewport->WorkPos.y + viewport->WorkSize.y - above_status),
                            ImGuiCond_FirstUseEver, ImVec2(1, 1));
    if (!ImGui::Begin("Benchmarks (this machine)")) {
        ImGui::End();
        return;
    }
    if (!cuda_unavailable_.empty()) {
        ImGui::TextWrapped("CUDA benchmarks are unavailable here: %s", cuda_unavailable_.c_str());
        ImGui::TextWrapped("The CPU backend runs the same cases on host memory (no GPU figures).");
    }
    ImGui::BeginDisabled(running());
    if (cuda_unavailable_.empty() && ImGui::Button("Run quick suite (CUDA)")) start(false);
    if (!cuda_unavailable_.empty() && ImGui::Button("Run quick suite (CPU backend)")) start(true);
    ImGui::EndDisabled();

    std::lock_guard lock(progress_->mutex);
    if (progress_->cases_total > 0) {
        const float done = static_cast<float>(progress_->cases_done) / static_cast<float>(progress_->cases_total);
        const std::string label = std::to_string(progress_->cases_done) + " of " + std::to_string(progress_->cases_total) + " cases";
        ImGui::ProgressBar(done, ImVec2(-1, 0), label.c_str());
    }
    if (!progress_->error.empty()) ImGui::TextColored(ImVec4(0.85f, 0.2f, 0.2f, 1), "Run failed: %s", progress_->error.c_str());
    if (!running() && !imported_ && !progress_->document.empty()) {
        ui::set_bench_results(state, progress_->document, "this machine (gpuplan gui benchmarks)");
        if (state.bench_error.empty()) state.view = ui::View::measurements;
        imported_ = true;
    }
    if (imported_ && !progress_->document.empty())
        ImGui::TextWrapped(state.bench_error.empty() ? "Imported into Measurements." : "Not imported: %s", state.bench_error.c_str());
    ImGui::BeginChild("log", ImVec2(0, 0), true);
    for (const std::string& line : progress_->lines) ImGui::TextUnformatted(line.c_str());
    if (running()) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace gpuplan::gui
