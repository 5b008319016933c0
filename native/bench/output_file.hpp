// output_file.hpp — the one way gpuplan writes a file the user named (--out, --json, an
// overlay, a screenshot), so that a failure never destroys what was there (issue 34, D1-D4).
#pragma once

#include <string>
#include <string_view>

namespace gpuplan {

// Writes `bytes` to `path`:
// - a regular file, or nothing yet: a temporary file beside it is written, fsynced and closed,
//   each step checked, then renamed over it. On any failure (a full disk, a file-size limit,
//   a read-only folder) the target is untouched and the temporary file removed;
// - a symbolic link is followed: its target is written as above and the link stays a link;
// - anything else (a device such as /dev/null, a FIFO, /dev/stdout) is written in place: a
//   rename would replace the device node or the pipe instead of writing to it.
// Returns "" on success, else why not, in words.
std::string write_output_file(const std::string& path, std::string_view bytes);

// Whether write_output_file could write `path`, checked before long work and without creating
// anything (a probe that created the file left a 0-byte file when the work was interrupted).
// Returns "" or why not, in words.
std::string check_output_path(const std::string& path);

}  // namespace gpuplan
