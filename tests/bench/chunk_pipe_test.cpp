// The bounded pipe between a download and the importer (native/net/chunk_pipe.hpp), with a
// writer and a reader on two threads as in `gpuplan prices update`: bytes arrive whole and in
// order, a fast writer blocks at the capacity instead of filling memory, and a reader that stops
// early releases a blocked writer (which then abandons the download).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <istream>
#include <iterator>
#include <thread>

#include "chunk_pipe.hpp"

using gpuplan::net::ChunkPipe;

TEST_CASE("every byte pushed is read once, in order", "[chunk-pipe]") {
    ChunkPipe pipe(64);
    std::string expected;
    for (int i = 0; i < 1000; ++i) expected += std::to_string(i) + ",";
    std::thread writer([&] {
        for (std::size_t at = 0; at < expected.size(); at += 7) REQUIRE(pipe.push(std::string_view(expected).substr(at, 7)));
        pipe.close();
    });
    std::istream in(&pipe);
    const std::string read((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    writer.join();
    CHECK(read == expected);
}

TEST_CASE("a writer ahead of the reader blocks at the capacity", "[chunk-pipe]") {
    ChunkPipe pipe(100);
    std::atomic<int> pushed{0};
    std::thread writer([&] {
        for (int i = 0; i < 10; ++i) {
            pipe.push(std::string(50, 'x'));
            ++pushed;
        }
        pipe.close();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(pushed.load() == 2);  // 100 bytes queued; the third push waits for the reader
    std::istream in(&pipe);
    const std::string read((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    writer.join();
    CHECK(read.size() == 500);
    CHECK(pipe.peak_queued_bytes() <= 100);
}

TEST_CASE("a reader that stops releases a blocked writer, whose pushes then fail", "[chunk-pipe]") {
    ChunkPipe pipe(10);
    std::atomic<bool> last_push{true};
    std::thread writer([&] {
        REQUIRE(pipe.push("0123456789"));
        last_push = pipe.push("more");  // blocks: the pipe is full
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pipe.stop_reading();  // the parser failed
    writer.join();
    CHECK_FALSE(last_push.load());
    CHECK_FALSE(pipe.push("after"));
}
