// frame_layout.hpp — how one chunk of decoded frames sits in a buffer, the deterministic
// pattern every backend writes, and the per-frame checksum that proves it arrived intact.
//
// Shared by the CPU backend, the CUDA kernels and the host-side verification, so all three
// agree bit for bit. Plain C++17 (nvcc compiles it too); functions are __host__ __device__
// only when nvcc sees them (GPUPLAN_HD), so ordinary C++ callers see ordinary inline code.
//
// Buffer layout (device and host buffers are identical, one D2H copy moves both parts):
//   [frame 0 | pad][frame 1 | pad]...[frame F-1 | pad][trailer | pad]
// Each frame starts on a 4096-byte boundary (frame_pitch), which O_DIRECT writes need.
// The trailer is written by the producer: magic, the chunk's sequence number in the run
// (video x chunks + chunk) and one checksum per frame, computed from the data it produced.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GPUPLAN_HD __host__ __device__ inline
#else
#define GPUPLAN_HD inline
#endif

namespace gpuplan::bench {

inline constexpr std::uint64_t kBufferAlign = 4096;               // O_DIRECT and page size
inline constexpr std::uint64_t kTrailerMagic = 0x43446e616c707067ull;  // "gpplanDC", little endian
inline constexpr std::uint64_t kTrailerHeaderWords = 2;            // magic, sequence

GPUPLAN_HD std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

struct FrameLayout {
    std::uint32_t frames_per_chunk = 4;
    std::uint32_t height = 720, width = 1280, channels = 3;
    std::uint32_t dtype_bytes = 4;  // 4 fp32, 2 fp16, 1 uint8

    GPUPLAN_HD std::uint64_t elements() const { return std::uint64_t{height} * width * channels; }
    GPUPLAN_HD std::uint64_t frame_bytes() const { return elements() * dtype_bytes; }
    GPUPLAN_HD std::uint64_t frame_words() const { return (frame_bytes() + 7) / 8; }  // 8-byte words, last one padded
    GPUPLAN_HD std::uint64_t frame_pitch() const { return round_up(frame_bytes(), kBufferAlign); }
    GPUPLAN_HD std::uint64_t trailer_offset() const { return frame_pitch() * frames_per_chunk; }
    GPUPLAN_HD std::uint64_t trailer_words() const { return kTrailerHeaderWords + frames_per_chunk; }
    GPUPLAN_HD std::uint64_t buffer_bytes() const { return trailer_offset() + round_up(trailer_words() * 8, kBufferAlign); }
    GPUPLAN_HD std::uint64_t chunk_payload_bytes() const { return frame_bytes() * frames_per_chunk; }
};

// ---- the pattern ---------------------------------------------------------------------------
// Element e of global frame g (g = chunk x frames_per_chunk + frame) is a hash of (g, e):
// fp32 values in [0, 1) with 24 random bits (exact in float), fp16 values in [0.5, 1),
// uint8 any byte. Frames differ from each other everywhere, so data from the wrong chunk or
// from a previous video never checks out.

GPUPLAN_HD std::uint32_t pattern_hash(std::uint64_t frame, std::uint64_t element) {
    std::uint64_t x = element * 0x9E3779B97F4A7C15ull + frame * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return static_cast<std::uint32_t>(x);
}

GPUPLAN_HD std::uint64_t element_bits(std::uint32_t dtype_bytes, std::uint64_t frame, std::uint64_t element) {
    const std::uint32_t h = pattern_hash(frame, element);
    if (dtype_bytes == 4) {
        const float v = static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    if (dtype_bytes == 2) return 0x3800u | (h & 0x3FFu);  // fp16 bit pattern in [0.5, 1)
    return h & 0xFFu;
}

// Word k (8 bytes, little endian) of global frame g; elements past the frame's end are 0.
GPUPLAN_HD std::uint64_t frame_word(const FrameLayout& layout, std::uint64_t frame, std::uint64_t word) {
    const std::uint32_t per_word = 8 / layout.dtype_bytes;
    const std::uint64_t first = word * per_word, n = layout.elements();
    std::uint64_t w = 0;
    for (std::uint32_t j = 0; j < per_word; ++j)
        if (first + j < n) w |= element_bits(layout.dtype_bytes, frame, first + j) << (8u * layout.dtype_bytes * j);
    return w;
}

// ---- the checksum --------------------------------------------------------------------------
// sum over words k of word_k x (2k + 1), mod 2^64. Order-independent (GPU threads add their
// parts atomically) yet position-sensitive (an odd weight per word): changing any one word
// always changes the sum, and moved or swapped words change it too.

GPUPLAN_HD std::uint64_t checksum_term(std::uint64_t word_value, std::uint64_t word_index) {
    return word_value * (2 * word_index + 1);
}

// The checksum of frame_bytes bytes of data as stored (host side; the tail word is read
// zero-padded, so padding after the frame never counts).
inline std::uint64_t checksum_bytes(const void* data, std::uint64_t frame_bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    const std::uint64_t whole = frame_bytes / 8;
    std::uint64_t sum = 0;
    for (std::uint64_t k = 0; k < whole; ++k) {
        std::uint64_t w;
        std::memcpy(&w, p + 8 * k, 8);
        sum += checksum_term(w, k);
    }
    if (const std::uint64_t tail = frame_bytes % 8; tail != 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p + 8 * whole, tail);
        sum += checksum_term(w, whole);
    }
    return sum;
}

// What the checksum of global frame g must be, from the pattern alone (no buffer).
inline std::uint64_t expected_checksum(const FrameLayout& layout, std::uint64_t frame) {
    std::uint64_t sum = 0;
    for (std::uint64_t k = 0, n = layout.frame_words(); k < n; ++k) sum += checksum_term(frame_word(layout, frame, k), k);
    return sum;
}

}  // namespace gpuplan::bench
