#include "rdmacheck/text_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rdmacheck {

namespace {

// Walks the sequences that start in text[from, to): the offset of the first
// bad byte (bad = true), else where the walk stopped (at or just past `to`).
size_t scan(const std::string& text, size_t from, size_t to, bool& bad) {
    size_t i = from;
    while (i < to) {
        const size_t n = text[i] == '\0' ? 0 : utf8Length(text, i);
        if (n == 0) {
            bad = true;
            return i;
        }
        i += n;
    }
    bad = false;
    return i;
}

SourceLoc locationOf(const std::string& file, const std::string& text, size_t at) {
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < at; ++i)
        if (text[i] == '\n') ++line, lineStart = i + 1;
    return SourceLoc{file, line, static_cast<int>(at - lineStart + 1)};
}

std::string withArticle(const std::string& noun) { return (noun.find_first_of("aeiou") == 0 ? "an " : "a ") + noun; }

// What a file that is not a regular file is, for messages.
const char* kindOf(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "a special file";
}

// Problems with the file as a whole: at `cite` naming the file, else at the file.
class FileProblems {
public:
    FileProblems(const std::string& path, const std::string& what, const SourceLoc& cite, size_t maxBytes)
        : path_(path), what_(what), cite_(cite), maxBytes_(maxBytes) {}

    size_t maxBytes() const { return maxBytes_; }

    [[noreturn]] void cannotOpen(int error) const {
        if (cite_.file.empty()) throw InputError(SourceLoc{path_, 0, 0}, std::string("cannot open file: ") + std::strerror(error));
        throw InputError(cite_, "cannot open " + what_ + " " + path_ + ": " + std::strerror(error));
    }
    [[noreturn]] void notRegular(mode_t mode) const {
        if (S_ISDIR(mode)) fail(cite_.file.empty() ? "is a directory, not " + withArticle(what_) : "is a directory");
        fail(std::string("is ") + kindOf(mode) + ", not a regular file");
    }
    [[noreturn]] void tooLarge() const {
        fail("is larger than " + std::to_string(maxBytes_ >> 20) + " MiB, the most rdmacheck reads from one " +
             (maxBytes_ == kMaxFileBytes ? std::string("file") : what_));
    }

private:
    const std::string& path_;
    const std::string& what_;
    const SourceLoc& cite_;
    size_t maxBytes_;

    [[noreturn]] void fail(const std::string& problem) const {
        if (cite_.file.empty()) throw InputError(SourceLoc{path_, 0, 0}, problem);
        throw InputError(cite_, what_ + " " + path_ + " " + problem);
    }
};

struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) ::close(fd);
    }
};

// Reads fd to its end or past kMaxFileBytes, checking the bytes as they come.
std::string readBounded(int fd, const std::string& name, const std::string& what, const FileProblems& problems,
                        size_t expected) {
    std::string text;
    text.reserve(std::min(expected, problems.maxBytes()));
    size_t checked = 0;  // text[0, checked) holds whole, good sequences
    bool bad = false;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(SourceLoc{name, 0, 0}, std::string("cannot read: ") + std::strerror(errno));
        if (n == 0) break;
        text.append(buffer, static_cast<size_t>(n));
        if (text.size() > problems.maxBytes()) problems.tooLarge();
        // A sequence cut by the end of the buffer is checked once the rest has come.
        checked = scan(text, checked, text.size() >= 3 ? text.size() - 3 : 0, bad);
        if (bad) break;
    }
    if (!bad) checked = scan(text, checked, text.size(), bad);
    if (bad) throw InputError(locationOf(name, text, checked), badByteMessage(text, checked, what));
    return text;
}

}  // namespace

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
size_t utf8Length(const std::string& text, size_t i) {
    auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    auto continues = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
    const unsigned c = byte(i);
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return continues(i + 1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return continues(i + 1, lo, hi) && continues(i + 2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return continues(i + 1, lo, hi) && continues(i + 2) && continues(i + 3) ? 4 : 0;
    }
    return 0;
}

size_t firstBadByte(const std::string& text, size_t from, size_t to) {
    bool bad = false;
    const size_t at = scan(text, from, to, bad);
    return bad ? at : std::string::npos;
}

void checkUtf8Text(const std::string& text, const std::string& file, const std::string& what) {
    const size_t bad = firstBadByte(text, 0, text.size());
    if (bad != std::string::npos) throw InputError(locationOf(file, text, bad), badByteMessage(text, bad, what));
}

std::string badByteMessage(const std::string& text, size_t at, const std::string& what) {
    if (text[at] == '\0') return "NUL byte in the file: " + withArticle(what) + " is text";
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[at]));
    return std::string("invalid UTF-8 (byte ") + hex + "): " + withArticle(what) + " is UTF-8 text";
}

namespace {

// Opens the regular file `path` (refusing anything else before it could block
// or cost anything); its size goes to `size`.
int openRegularFile(const std::string& path, const FileProblems& problems, size_t& size) {
    // The type first, from the name: opening a device may do something, and a FIFO would block.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) problems.cannotOpen(errno);
    if (!S_ISREG(st.st_mode)) problems.notRegular(st.st_mode);
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) problems.cannotOpen(errno);
    FdCloser closer{fd};
    // Again on what was opened: the name may have been replaced in between.
    if (::fstat(fd, &st) != 0) problems.cannotOpen(errno);
    if (!S_ISREG(st.st_mode)) problems.notRegular(st.st_mode);
    if (static_cast<unsigned long long>(st.st_size) > problems.maxBytes()) problems.tooLarge();
    size = static_cast<size_t>(st.st_size);
    closer.fd = -1;
    return fd;
}

}  // namespace

std::string readTextFile(const std::string& path, const std::string& what, const SourceLoc& cite, size_t maxBytes) {
    const FileProblems problems(path, what, cite, maxBytes);
    size_t size = 0;
    const FdCloser closer{openRegularFile(path, problems, size)};
    return readBounded(closer.fd, path, what, problems, size);
}

std::string readStandardInput(const std::string& what, const std::string& name) {
    const FileProblems problems(name, what, SourceLoc{}, kMaxFileBytes);
    return readBounded(0, name, what, problems, 0);
}

size_t commentEnd(const std::string& text, size_t start) {
    int depth = 0;
    for (size_t i = start; i + 1 < text.size(); ++i) {
        if (text[i] == '(' && text[i + 1] == '*') {
            ++depth;
            ++i;
        } else if (text[i] == '*' && text[i + 1] == ')') {
            ++i;
            if (--depth == 0) return i + 1;
        }
    }
    return std::string::npos;
}

}  // namespace rdmacheck
