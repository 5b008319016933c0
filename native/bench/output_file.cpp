// output_file.cpp — see output_file.hpp. POSIX calls rather than std::ofstream: an ofstream
// cannot fsync, and the rename is only safe once the bytes are on disk (rename(2), fsync(2)).
#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gpuplan {
namespace {

namespace fs = std::filesystem;

std::string error_text(int err) { return std::strerror(err); }

// Where a new file named `path` goes: a dangling symbolic link's final target (the link stays
// a link). 40 hops, the kernel's own limit (path_resolution(7)).
fs::path new_file_target(const std::string& path) {
    fs::path p(path);
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        const fs::path next = fs::read_symlink(p, ec);
        if (ec) break;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return p;
}

bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = ENOSPC;  // write(2) wrote nothing and set no errno: the device is full
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// A device, FIFO or terminal: written where it is, never replaced.
std::string write_in_place(const fs::path& target, std::string_view bytes) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return error_text(errno);
    const bool written = write_all(fd, bytes);
    const int err = errno;
    if (::close(fd) != 0 && written) return error_text(errno);
    return written ? "" : error_text(err);
}

// The permissions a new file gets (0666 less the umask), or the old file's: mkstemp makes 0600.
mode_t mode_for(const struct stat* existing) {
    if (existing) return existing->st_mode & 07777;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

std::string write_by_rename(const fs::path& target, std::string_view bytes, const struct stat* existing) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string temporary = (folder / ("." + target.filename().string() + ".partial-XXXXXX")).string();
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) return error_text(errno);
    bool ok = ::fchmod(fd, mode_for(existing)) == 0 && write_all(fd, bytes) && ::fsync(fd) == 0;
    int err = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && ::rename(temporary.c_str(), target.c_str()) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        ::unlink(temporary.c_str());
        return error_text(err);
    }
    return "";
}

}  // namespace

// stat(2) follows links, so /dev/stdout (a link to /proc/self/fd/1, itself a link to a pipe or
// a terminal) is seen as what it is and written in place; a regular file behind links is
// renamed over where it really is (realpath), so the links stay links.
std::string write_output_file(const std::string& path, std::string_view bytes) {
    if (path.empty()) return "no file name given";
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "it is a folder";
        if (!S_ISREG(st.st_mode)) return write_in_place(path, bytes);
        std::error_code ec;
        const fs::path real = fs::canonical(path, ec);
        if (ec) return ec.message();
        return write_by_rename(real, bytes, &st);
    }
    if (errno != ENOENT) return error_text(errno);
    return write_by_rename(new_file_target(path), bytes, nullptr);
}

std::string check_output_path(const std::string& path) {
    if (path.empty()) return "no file name given";
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "it is a folder";
        return ::access(path.c_str(), W_OK) == 0 ? "" : error_text(errno);
    }
    if (errno != ENOENT) return error_text(errno);
    // A new regular file: the rename needs to create entries in its folder.
    const fs::path target = new_file_target(path);
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (::stat(folder.c_str(), &st) != 0) return "its folder " + folder.string() + ": " + error_text(errno);
    if (!S_ISDIR(st.st_mode)) return folder.string() + " is not a folder";
    return ::access(folder.c_str(), W_OK | X_OK) == 0 ? "" : "its folder " + folder.string() + ": " + error_text(errno);
}

}  // namespace gpuplan
