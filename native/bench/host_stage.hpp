// host_stage.hpp — what the host does with each chunk once it is in host memory: nothing, a
// copy, an fp32/fp16 -> uint8 conversion, a buffered file write or an O_DIRECT write. Runs on
// the launching thread (modes A, B) or the writer thread (C, D); one thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frame_layout.hpp"

namespace gpuplan::bench {

enum class HostStageKind { none, memcpy, convert, write, odirect };
std::string_view to_string(HostStageKind kind);
bool writes_files(HostStageKind kind);  // write, odirect

// Checks --output-dir before any run. Throws BenchError: bad_input when it does not exist or
// is not a folder; failed when nothing can be written there (read-only, full, or with less
// free space than one video writes). Returns a reason when the file system refuses O_DIRECT
// (tmpfs on older kernels, some network file systems): the cases are then WAIVED, not failed.
std::optional<std::string> probe_output_dir(HostStageKind kind, const std::string& dir, std::uint64_t bytes_per_video);

// Bytes one video writes to --output-dir (0 unless the stage writes files).
std::uint64_t bytes_written_per_video(HostStageKind kind, const FrameLayout& layout, std::uint64_t chunks);
// Host memory the stage allocates for itself (the memcpy or convert destination).
std::uint64_t staging_bytes(HostStageKind kind, const FrameLayout& layout);

class HostStage {
public:
    // fail_at_frame > 0 makes the write of that frame (1-based, counted over the whole run)
    // fail with ENOSPC, as a full disk would (--inject-write-failure-at-frame).
    HostStage(HostStageKind kind, const FrameLayout& layout, std::string output_dir, std::uint64_t fail_at_frame);
    ~HostStage();  // closes and removes its file
    HostStage(const HostStage&) = delete;
    HostStage& operator=(const HostStage&) = delete;

    void begin_video();  // (re)creates the output file
    // All frames of `chunk` from a buffer laid out as FrameLayout says. A failed write throws
    // BenchError(failed) saying how many frames were written before it.
    void process(const std::byte* buffer, std::uint64_t chunk);
    void end_video();  // closes the file
    std::uint64_t frames_written() const { return frames_written_.load(); }  // any thread
    std::uint64_t frames_processed() const { return frames_processed_; }

private:
    void write_frame(const std::byte* data, std::uint64_t bytes, std::uint64_t offset, std::uint64_t frame);

    HostStageKind kind_;
    FrameLayout layout_;
    std::string output_dir_, path_;
    std::uint64_t fail_at_frame_ = 0;
    int fd_ = -1;
    std::vector<unsigned char> staging_;  // memcpy / convert destination
    std::atomic<std::uint64_t> frames_written_{0};
    std::uint64_t frames_processed_ = 0;
};

}  // namespace gpuplan::bench
