// http_download.hpp — HTTP(S) downloads with retries and resumption, over libcurl.
//
// Used by `gpuplan prices update` for AWS's Price List files. A download that breaks (the
// connection closes early, a 5xx or 429 answer, a stall) is retried after a pause that doubles
// each time; a retry asks for the rest of the file only (an HTTP Range request) and, if the server
// sends the whole file again, skips what was already delivered — unless the file changed in the
// meantime (another ETag), which is an error. A download is complete only when its length equals
// the length the server announced.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuplan::net {

struct DownloadPolicy {
    int attempts = 4;             // tries per file, the first included
    double retry_delay_s = 2;     // pause before the first retry; doubled each retry
    long connect_timeout_s = 30;
    long stall_timeout_s = 60;    // no byte for this long breaks the attempt (then retried)
};

struct DownloadProgress {
    std::uint64_t bytes = 0;  // delivered so far
    std::uint64_t total = 0;  // announced length; 0 if unknown
    double seconds = 0;       // since the download started
};

struct DownloadReport {
    std::string url;
    std::uint64_t bytes = 0;
    int attempts = 0;  // 1 = no retry
    int resumed = 0;   // retries that continued from a byte offset
    double seconds = 0;
};

// Why a download failed after every attempt, or could not start: names the URL and the cause.
// `unreachable`: no connection could be made at all (no network, no such host, refused).
class DownloadError : public std::runtime_error {
public:
    DownloadError(const std::string& message, bool unreachable) : std::runtime_error(message), unreachable_(unreachable) {}
    bool unreachable() const { return unreachable_; }

private:
    bool unreachable_;
};

// Called with each chunk in order; return false to abandon the download (the reader failed).
using ChunkSink = std::function<bool(std::string_view)>;
// Called after chunks arrive (at most every 100 ms) and once at the end.
using ProgressSink = std::function<void(const DownloadProgress&)>;
// Called before each retry with the attempt about to start and the cause of the last failure.
using RetrySink = std::function<void(int next_attempt, const std::string& cause, std::uint64_t resume_from)>;

struct DownloadCallbacks {
    ChunkSink chunk;
    ProgressSink progress;  // optional
    RetrySink retry;        // optional
};

// Downloads `url`, handing each byte to `callbacks.chunk` exactly once and in order. Throws
// DownloadError when every attempt failed; returns quietly (report.bytes short) if the sink
// abandoned it.
DownloadReport download(const std::string& url, const DownloadPolicy& policy, const DownloadCallbacks& callbacks);

// A whole small document (an index) as text; DownloadError past `max_bytes`.
std::string download_text(const std::string& url, const DownloadPolicy& policy, std::size_t max_bytes,
                          const RetrySink& retry = nullptr);

}  // namespace gpuplan::net
