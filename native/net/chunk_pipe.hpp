// chunk_pipe.hpp — a bounded byte pipe between a download (writer) and a parser (reader).
//
// `gpuplan prices update` parses each offer file while it downloads: libcurl's write callback
// pushes each chunk here and the importer reads the pipe as a std::istream on another thread.
// The pipe holds at most `capacity_bytes`; a writer that gets ahead of the parser blocks (so a
// several-hundred-MB file never sits in memory), and a reader that stops early (the file is not
// AWS's layout) makes push() return false, so the download is abandoned rather than left to block.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>

namespace gpuplan::net {

class ChunkPipe : public std::streambuf {
public:
    explicit ChunkPipe(std::size_t capacity_bytes) : capacity_(capacity_bytes) {}

    // Writer side. Blocks while the pipe is full; false once the reader has stopped.
    bool push(std::string_view bytes) {
        if (bytes.empty()) return true;
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] { return reader_stopped_ || queued_bytes_ < capacity_; });
        if (reader_stopped_) return false;
        chunks_.emplace_back(bytes);
        queued_bytes_ += bytes.size();
        data_.notify_one();
        return true;
    }
    // Writer side: no more bytes. The reader then sees the end of the stream.
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        data_.notify_one();
    }
    // Reader side: the reader will read no more (done, or failed); unblocks the writer.
    void stop_reading() {
        std::lock_guard lock(mutex_);
        reader_stopped_ = true;
        chunks_.clear();
        queued_bytes_ = 0;
        space_.notify_all();
    }
    // The most bytes ever queued at once (the pipe's share of memory).
    std::size_t peak_queued_bytes() const {
        std::lock_guard lock(mutex_);
        return peak_bytes_;
    }

protected:
    int_type underflow() override {
        std::unique_lock lock(mutex_);
        if (!current_.empty()) {  // the chunk just read is done: its space is free again
            queued_bytes_ -= current_.size();
            current_.clear();
            space_.notify_one();
        }
        data_.wait(lock, [&] { return !chunks_.empty() || closed_ || reader_stopped_; });
        if (chunks_.empty() || reader_stopped_) return traits_type::eof();
        peak_bytes_ = std::max(peak_bytes_, queued_bytes_);
        current_ = std::move(chunks_.front());
        chunks_.pop_front();
        setg(current_.data(), current_.data(), current_.data() + current_.size());
        return traits_type::to_int_type(current_.front());
    }

private:
    const std::size_t capacity_;
    mutable std::mutex mutex_;
    std::condition_variable data_, space_;
    std::deque<std::string> chunks_;
    std::string current_;             // the chunk the reader is on (still counted as queued)
    std::size_t queued_bytes_ = 0, peak_bytes_ = 0;
    bool closed_ = false, reader_stopped_ = false;
};

}  // namespace gpuplan::net
