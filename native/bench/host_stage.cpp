// host_stage.cpp — see host_stage.hpp.
#include "host_stage.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "decode_backend.hpp"
#include "host_memory.hpp"

namespace gpuplan::bench {

namespace {

std::string gb(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
    return text;
}

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    float v;
    if (exponent == 0)
        v = std::ldexp(static_cast<float>(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? NAN : INFINITY;
    else
        v = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
    return sign ? -v : v;
}

unsigned char to_uint8(float x) {
    const float scaled = x * 255.0f + 0.5f;
    return scaled <= 0 ? 0 : scaled >= 255 ? 255 : static_cast<unsigned char>(scaled);
}

int open_flags(HostStageKind kind) { return O_WRONLY | O_CREAT | O_TRUNC | (kind == HostStageKind::odirect ? O_DIRECT : 0); }

}  // namespace

std::string_view to_string(HostStageKind kind) {
    switch (kind) {
    case HostStageKind::none: return "none";
    case HostStageKind::memcpy: return "memcpy";
    case HostStageKind::convert: return "convert";
    case HostStageKind::write: return "write";
    case HostStageKind::odirect: return "odirect";
    }
    return "?";
}

bool writes_files(HostStageKind kind) { return kind == HostStageKind::write || kind == HostStageKind::odirect; }

std::uint64_t bytes_written_per_video(HostStageKind kind, const FrameLayout& layout, std::uint64_t chunks) {
    if (!writes_files(kind)) return 0;
    const std::uint64_t per_frame = kind == HostStageKind::odirect ? layout.frame_pitch() : layout.frame_bytes();
    return per_frame * layout.frames_per_chunk * chunks;
}

std::uint64_t staging_bytes(HostStageKind kind, const FrameLayout& layout) {
    if (kind == HostStageKind::memcpy) return layout.chunk_payload_bytes();
    if (kind == HostStageKind::convert) return layout.elements() * layout.frames_per_chunk;
    return 0;
}

std::optional<std::string> probe_output_dir(HostStageKind kind, const std::string& dir, std::uint64_t bytes_per_video) {
    if (!writes_files(kind)) return std::nullopt;
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (!fs::exists(st)) throw BenchError(BenchError::Kind::bad_input, "--output-dir: got '" + dir + "'; expected an existing folder (it does not exist)");
    if (!fs::is_directory(st)) throw BenchError(BenchError::Kind::bad_input, "--output-dir: got '" + dir + "'; expected a folder, not a file");
    const bool direct = kind == HostStageKind::odirect;
    const std::string probe = (fs::path(dir) / (".gpuplan-probe-" + std::to_string(getpid()))).string();
    const auto refused = [&](const char* call, int err) -> std::string {
        return std::string("O_DIRECT refused by the file system holding ") + dir + " (" + call + ": " + std::strerror(err) +
               "); tmpfs on older kernels and some network file systems do not support direct I/O";
    };
    const auto cannot_write = [&](const char* call, int err) {
        return BenchError(BenchError::Kind::failed, "cannot write to --output-dir " + dir + " (" + call + ": " + std::strerror(err) +
                                                        "): 0 frames were written, nothing was measured");
    };
    const int fd = ::open(probe.c_str(), open_flags(kind), 0644);
    if (fd < 0) {
        const int err = errno;
        if (direct && err == EINVAL) return refused("open", err);
        throw cannot_write("open", err);
    }
    std::byte* block = allocate_aligned(kBufferAlign, -1, nullptr);
    const ssize_t n = block != nullptr ? ::pwrite(fd, block, kBufferAlign, 0) : -1;
    const int err = block != nullptr ? errno : ENOMEM;
    free_aligned(block);
    ::close(fd);
    ::unlink(probe.c_str());
    if (n != static_cast<ssize_t>(kBufferAlign)) {
        if (direct && err == EINVAL) return refused("write", err);
        throw cannot_write("write", n < 0 ? err : ENOSPC);
    }
    struct statvfs fsinfo {};
    if (::statvfs(dir.c_str(), &fsinfo) == 0) {
        const std::uint64_t free_bytes = static_cast<std::uint64_t>(fsinfo.f_bavail) * fsinfo.f_frsize;
        if (free_bytes < bytes_per_video)
            throw BenchError(BenchError::Kind::failed, "--output-dir " + dir + " has " + gb(free_bytes) + " free but one video writes " +
                                                           gb(bytes_per_video) + " (the file is rewritten for each video): 0 frames were written");
    }
    return std::nullopt;
}

HostStage::HostStage(HostStageKind kind, const FrameLayout& layout, std::string output_dir, std::uint64_t fail_at_frame)
    : kind_(kind), layout_(layout), output_dir_(std::move(output_dir)), fail_at_frame_(fail_at_frame) {
    staging_.resize(staging_bytes(kind, layout));
    if (writes_files(kind))
        path_ = (std::filesystem::path(output_dir_) / ("gpuplan-bench-decode-" + std::to_string(getpid()) + ".raw")).string();
}

HostStage::~HostStage() {
    end_video();
    if (!path_.empty()) ::unlink(path_.c_str());
}

void HostStage::begin_video() {
    if (!writes_files(kind_)) return;
    end_video();
    fd_ = ::open(path_.c_str(), open_flags(kind_), 0644);
    if (fd_ < 0)
        throw BenchError(BenchError::Kind::failed, "host stage '" + std::string(to_string(kind_)) + "': cannot create " + path_ + ": " +
                                                       std::strerror(errno) + "; " + std::to_string(frames_written_.load()) +
                                                       " frames were written in this run before the failure, the run stopped");
    // The file is only ever written through fd_, so its name goes at once: the data lands on
    // disk as before (the page cache, or the device with O_DIRECT), and the kernel frees it
    // when the descriptor closes, also when a signal ends the process before any cleanup code
    // runs (issue 34, D3: SIGINT left 113 MB in --output-dir). unlink(2): "If the name was the
    // last link to a file but any processes still have the file open, the file will remain in
    // existence until the last file descriptor referring to it is closed."
    ::unlink(path_.c_str());
}

void HostStage::end_video() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void HostStage::write_frame(const std::byte* data, std::uint64_t bytes, std::uint64_t offset, std::uint64_t frame) {
    const bool injected = fail_at_frame_ > 0 && frames_written_.load() + 1 == fail_at_frame_;
    int err = injected ? ENOSPC : 0;
    for (std::uint64_t done = 0; err == 0 && done < bytes;) {
        const ssize_t n = ::pwrite(fd_, data + done, bytes - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) err = n < 0 ? errno : ENOSPC;  // 0 bytes written: nothing more fits
        else done += static_cast<std::uint64_t>(n);
    }
    if (err != 0)
        throw BenchError(BenchError::Kind::failed,
                         "host stage '" + std::string(to_string(kind_)) + "': writing chunk " + std::to_string(frame / layout_.frames_per_chunk) +
                             " frame " + std::to_string(frame % layout_.frames_per_chunk) + " (the run's frame #" +
                             std::to_string(frames_written_.load() + 1) + ") to " + path_ + " failed: " + std::strerror(err) + (injected ? " (injected by --inject-write-failure-at-frame)" : "") + "; " +
                             std::to_string(frames_written_.load()) + " frames were written in this run before the failure, the run stopped");
    ++frames_written_;
}

void HostStage::process(const std::byte* buffer, std::uint64_t chunk) {
    const std::uint64_t F = layout_.frames_per_chunk, bytes = layout_.frame_bytes(), pitch = layout_.frame_pitch();
    for (std::uint64_t f = 0; f < F; ++f) {
        const std::byte* frame = buffer + f * pitch;
        const std::uint64_t g = chunk * F + f;
        switch (kind_) {
        case HostStageKind::none: break;
        case HostStageKind::memcpy: std::memcpy(staging_.data() + f * bytes, frame, bytes); break;
        case HostStageKind::convert: {
            unsigned char* out = staging_.data() + f * layout_.elements();
            if (layout_.dtype_bytes == 4) {
                for (std::uint64_t e = 0, n = layout_.elements(); e < n; ++e) {
                    float x;
                    std::memcpy(&x, frame + 4 * e, 4);
                    out[e] = to_uint8(x);
                }
            } else {  // fp16 (uint8 input is refused before the run)
                for (std::uint64_t e = 0, n = layout_.elements(); e < n; ++e) {
                    std::uint16_t h;
                    std::memcpy(&h, frame + 2 * e, 2);
                    out[e] = to_uint8(half_to_float(h));
                }
            }
            break;
        }
        case HostStageKind::write: write_frame(frame, bytes, g * bytes, g); break;
        case HostStageKind::odirect: write_frame(frame, pitch, g * pitch, g); break;  // aligned buffer, size and offset
        }
        ++frames_processed_;
    }
}

}  // namespace gpuplan::bench
