// http_download.cpp — libcurl downloads with retries and resumption (see the header).
#include "http_download.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <thread>

#include <curl/curl.h>
#include <dlfcn.h>

#include "gpuplan/text.hpp"

namespace gpuplan::net {

namespace {

using Clock = std::chrono::steady_clock;

// libcurl, opened by the first download (dlopen) rather than linked: linked, its ~30 libraries
// (TLS, Kerberos, LDAP, ...) were loaded and initialised by every command, ~5 ms of each start
// against ~1.5 ms for `true` (docs/performance.md, "The CLI's start"). curl.h still gives the
// types and constants; these are the seven functions a download calls.
struct CurlApi {
    CURLcode (*global_init)(long flags) = nullptr;
    CURL* (*easy_init)() = nullptr;
    void (*easy_cleanup)(CURL* curl) = nullptr;
    CURLcode (*easy_setopt)(CURL* curl, CURLoption option, ...) = nullptr;
    CURLcode (*easy_perform)(CURL* curl) = nullptr;
    CURLcode (*easy_getinfo)(CURL* curl, CURLINFO info, ...) = nullptr;
    const char* (*easy_strerror)(CURLcode code) = nullptr;
};

template <class Function>
void bind_symbol(void* library, const char* name, Function& function, std::string& missing) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (!function) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

// Opens libcurl and calls curl_global_init once per process (not thread-safe, so from the first
// download, before any other thread uses curl). A DownloadError naming what is missing when
// libcurl cannot be opened: Debian's and Ubuntu's libcurl4 package provides it.
const CurlApi& curl() {
    static const CurlApi api = [] {
        // The soname of libcurl 7 and 8 alike (ABI 4); the unversioned name is only in -dev packages.
        void* library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (!library)
            throw DownloadError(std::string("cannot download: libcurl could not be opened (") + dlerror() +
                                    "); install the libcurl4 package (Debian, Ubuntu) or your system's libcurl",
                                false);
        CurlApi a;
        std::string missing;
        bind_symbol(library, "curl_global_init", a.global_init, missing);
        bind_symbol(library, "curl_easy_init", a.easy_init, missing);
        bind_symbol(library, "curl_easy_cleanup", a.easy_cleanup, missing);
        bind_symbol(library, "curl_easy_setopt", a.easy_setopt, missing);
        bind_symbol(library, "curl_easy_perform", a.easy_perform, missing);
        bind_symbol(library, "curl_easy_getinfo", a.easy_getinfo, missing);
        bind_symbol(library, "curl_easy_strerror", a.easy_strerror, missing);
        if (!missing.empty()) throw DownloadError("cannot download: the libcurl found lacks " + missing, false);
        a.global_init(CURL_GLOBAL_DEFAULT);
        return a;
    }();
    return api;
}

std::string with_thousands(std::uint64_t n) { return group_thousands(std::to_string(n)); }

// One try at the file, from byte `resume_from` on.
struct Attempt {
    const DownloadCallbacks* callbacks = nullptr;
    CURL* curl = nullptr;
    Clock::time_point started_at;
    Clock::time_point last_progress;
    std::uint64_t* delivered = nullptr;   // bytes handed to the sink so far, over all attempts
    std::uint64_t* total = nullptr;       // the file's announced length (0 = not known yet)
    std::string* first_etag = nullptr;    // the ETag of the first answer that sent bytes
    std::uint64_t resume_from = 0;
    std::uint64_t skip = 0;               // bytes to drop: the server sent the file from its start
    bool answered = false;                // the first body byte of this attempt seen
    bool sink_stopped = false, etag_changed = false;
    std::string etag;                     // of the answer now arriving (reset at each status line)
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
    auto& a = *static_cast<Attempt*>(user);
    const std::string_view line(data, size * count);
    auto starts_with_nocase = [&](std::string_view prefix) {
        if (line.size() < prefix.size()) return false;
        for (std::size_t i = 0; i < prefix.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(line[i])) != prefix[i]) return false;
        return true;
    };
    if (starts_with_nocase("http/")) a.etag.clear();  // a new answer (after a redirect)
    if (starts_with_nocase("etag:")) {
        std::string_view value = line.substr(5);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
        while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.remove_suffix(1);
        a.etag = value;
    }
    return size * count;
}

// The first body bytes of an attempt: what the answer covers.
bool on_first_body(Attempt& a) {
    long status = 0;
    curl().easy_getinfo(a.curl, CURLINFO_RESPONSE_CODE, &status);
    curl_off_t length = -1;
    curl().easy_getinfo(a.curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (!a.first_etag->empty() && !a.etag.empty() && a.etag != *a.first_etag) {
        a.etag_changed = true;
        return false;
    }
    if (a.first_etag->empty()) *a.first_etag = a.etag;
    const bool partial = status == 206;
    // A server that ignored the Range header sends the whole file again: skip what was delivered.
    a.skip = partial ? 0 : a.resume_from;
    if (length >= 0) *a.total = static_cast<std::uint64_t>(length) + (partial ? a.resume_from : 0);
    return true;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
    auto& a = *static_cast<Attempt*>(user);
    const std::size_t n = size * count;
    if (!a.answered) {
        a.answered = true;
        if (!on_first_body(a)) return 0;  // 0 aborts the transfer (CURLE_WRITE_ERROR)
    }
    std::string_view bytes(data, n);
    const std::uint64_t dropped = std::min<std::uint64_t>(a.skip, bytes.size());
    bytes.remove_prefix(dropped);
    a.skip -= dropped;
    if (!bytes.empty()) {
        if (!a.callbacks->chunk(bytes)) {
            a.sink_stopped = true;
            return 0;
        }
        *a.delivered += bytes.size();
    }
    const auto now = Clock::now();
    if (a.callbacks->progress && now - a.last_progress > std::chrono::milliseconds(100)) {
        a.last_progress = now;
        a.callbacks->progress({*a.delivered, *a.total, std::chrono::duration<double>(now - a.started_at).count()});
    }
    return n;
}

// Whether a failed attempt is worth another: the network or the server's temporary state.
bool retryable(CURLcode rc, long status) {
    switch (rc) {
        case CURLE_HTTP_RETURNED_ERROR: return status >= 500 || status == 429 || status == 408;
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_CONNECT:
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_GOT_NOTHING:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM: return true;
        default: return false;
    }
}

bool no_connection(CURLcode rc) {
    return rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY || rc == CURLE_COULDNT_CONNECT;
}

std::string http_reason(long status) {
    switch (status) {
        case 403: return "HTTP 403 (Forbidden)";
        case 404: return "HTTP 404 (Not Found)";
        case 408: return "HTTP 408 (Request Timeout)";
        case 429: return "HTTP 429 (Too Many Requests)";
        case 500: return "HTTP 500 (Internal Server Error)";
        case 502: return "HTTP 502 (Bad Gateway)";
        case 503: return "HTTP 503 (Service Unavailable)";
        case 504: return "HTTP 504 (Gateway Timeout)";
        default: return "HTTP " + std::to_string(status);
    }
}

struct CurlHandle {
    CURL* handle = curl().easy_init();
    ~CurlHandle() { curl().easy_cleanup(handle); }
};

// One attempt's transfer options: HTTP(S) only, redirects followed, HTTP errors as errors, the
// stall limit, and from the second attempt on the rest of the file only.
void set_options(CURL* c, const std::string& url, const DownloadPolicy& policy, Attempt& a, char* error_text, const std::string& range) {
    const auto setopt = curl().easy_setopt;
    setopt(c, CURLOPT_URL, url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85: the string form; the bitmask is deprecated there
    setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else  // Ubuntu 22.04's 7.81 (the bench preset's oldest target)
    setopt(c, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    setopt(c, CURLOPT_REDIR_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    setopt(c, CURLOPT_MAXREDIRS, 5L);
    setopt(c, CURLOPT_FAILONERROR, 1L);
    setopt(c, CURLOPT_NOSIGNAL, 1L);
    setopt(c, CURLOPT_USERAGENT, "gpuplan-prices-update");
    setopt(c, CURLOPT_CONNECTTIMEOUT, policy.connect_timeout_s);
    setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    setopt(c, CURLOPT_LOW_SPEED_TIME, policy.stall_timeout_s);
    setopt(c, CURLOPT_ERRORBUFFER, error_text);
    setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    setopt(c, CURLOPT_HEADERDATA, &a);
    setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    setopt(c, CURLOPT_WRITEDATA, &a);
    // CURLOPT_RANGE, not CURLOPT_RESUME_FROM: the latter fails outright when a server answers
    // 200 with the whole file; on_first_body skips the bytes already delivered instead.
    if (a.resume_from > 0) setopt(c, CURLOPT_RANGE, range.c_str());
}

}  // namespace

DownloadReport download(const std::string& url, const DownloadPolicy& policy, const DownloadCallbacks& callbacks) {
    (void)curl();  // opened and initialised before the first handle
    DownloadReport report{url};
    std::uint64_t delivered = 0, total = 0;
    std::string first_etag, cause;
    bool ever_connected = false, stopped_by_sink = false;
    const auto started_at = Clock::now();
    double pause_s = policy.retry_delay_s;
    for (int attempt = 1; attempt <= policy.attempts; ++attempt) {
        if (attempt > 1) {
            if (callbacks.retry) callbacks.retry(attempt, cause, delivered);
            std::this_thread::sleep_for(std::chrono::duration<double>(pause_s));
            pause_s *= 2;
        }
        report.attempts = attempt;
        CurlHandle handle;
        if (!handle.handle) throw DownloadError("cannot download " + url + ": libcurl could not start a transfer", false);
        Attempt a;
        a.callbacks = &callbacks;
        a.curl = handle.handle;
        a.started_at = started_at;
        a.delivered = &delivered;
        a.total = &total;
        a.first_etag = &first_etag;
        a.resume_from = delivered;
        char error_text[CURL_ERROR_SIZE] = "";
        const std::string range = std::to_string(delivered) + "-";
        CURL* c = handle.handle;
        set_options(c, url, policy, a, error_text, range);
        const CURLcode rc = curl().easy_perform(c);
        long status = 0;
        curl().easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        ever_connected = ever_connected || status != 0 || !no_connection(rc);
        report.resumed += a.resume_from > 0 && a.answered;
        if (a.sink_stopped) {
            stopped_by_sink = true;
            break;
        }
        if (a.etag_changed)
            throw DownloadError("cannot download " + url + ": the file changed on the server during the download (ETag " + first_etag +
                                    ", now " + a.etag + "); run the command again",
                                false);
        if (rc == CURLE_OK && (total == 0 || delivered == total)) {
            report.bytes = delivered;
            report.seconds = std::chrono::duration<double>(Clock::now() - started_at).count();
            if (callbacks.progress) callbacks.progress({delivered, total, report.seconds});
            return report;
        }
        if (rc == CURLE_OK) {
            cause = "the server stopped at byte " + with_thousands(delivered) + " of the " + with_thousands(total) + " it announced";
            continue;
        }
        cause = rc == CURLE_HTTP_RETURNED_ERROR ? http_reason(status)
              : rc == CURLE_PARTIAL_FILE && total
                  ? "the connection closed at byte " + with_thousands(delivered) + " of " + with_thousands(total)
                  : std::string(error_text[0] ? error_text : curl().easy_strerror(rc));
        if (!retryable(rc, status))
            throw DownloadError("cannot download " + url + ": " + cause, false);
    }
    report.bytes = delivered;
    report.seconds = std::chrono::duration<double>(Clock::now() - started_at).count();
    if (stopped_by_sink) return report;  // abandoned: the reader's error says why
    throw DownloadError("cannot download " + url + ": " + cause + " (" + std::to_string(report.attempts) + " attempt" +
                            (report.attempts == 1 ? "" : "s") + ")",
                        !ever_connected);
}

std::string download_text(const std::string& url, const DownloadPolicy& policy, std::size_t max_bytes, const RetrySink& retry) {
    std::string text;
    bool too_large = false;
    DownloadCallbacks callbacks;
    callbacks.chunk = [&](std::string_view bytes) {
        if (text.size() + bytes.size() > max_bytes) return !(too_large = true);
        text.append(bytes);
        return true;
    };
    callbacks.retry = retry;
    download(url, policy, callbacks);
    if (too_large)
        throw DownloadError("cannot download " + url + ": larger than " + std::to_string(max_bytes / (1024 * 1024)) +
                                " MiB, which no Price List index is",
                            false);
    return text;
}

}  // namespace gpuplan::net
