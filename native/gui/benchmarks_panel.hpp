// benchmarks_panel.hpp — the desktop-only Benchmarks panel of `gpuplan gui`: runs the bench
// suite (native/bench/suite.hpp, `gpuplan bench run`'s cases) on a background thread with live
// progress, then imports the gpuplan.bench/1 document into the planner's Measurements view.
//
// The CUDA backend is used when a GPU is usable; without one the panel says why (the reason
// `gpuplan bench run` would give) and offers the CPU backend, which exercises the same cases
// on host memory. Its single-GPU cases have run on one H200; NCCL and P2P have not.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ui/app.hpp"

namespace gpuplan::gui {

class BenchmarksPanel {
public:
    BenchmarksPanel();
    ~BenchmarksPanel();  // stops waiting for the worker: joins it (a case stops within its timeout)
    BenchmarksPanel(const BenchmarksPanel&) = delete;
    BenchmarksPanel& operator=(const BenchmarksPanel&) = delete;

    // True while a run is in progress (the main loop keeps drawing to show progress).
    bool running() const { return running_.load(); }

    // Draws the panel (a collapsible window); imports the results into `state` when a run ends.
    void draw(ui::AppState& state);

private:
    struct Progress {  // written by the worker, read by draw(); guarded by mutex
        std::mutex mutex;
        std::vector<std::string> lines;
        int cases_done = 0, cases_total = 0;
        std::string document;  // the finished gpuplan.bench/1 text ("" until done)
        std::string error;
    };
    void start(bool cpu_backend);

    std::shared_ptr<Progress> progress_;
    std::thread worker_;
    std::atomic<bool> running_{false};
    bool imported_ = true;
    std::string cuda_unavailable_;  // why the CUDA backend cannot run here ("" = it can)
};

}  // namespace gpuplan::gui
