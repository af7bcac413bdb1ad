// The one reader of the files a user names: litmus tests, models and what they
// include, order tables, index files, logs and --expect files. It reads only
// regular files (or standard input where a command takes `-`), never blocks on
// a FIFO or a device, stops at kMaxFileBytes and at the first byte that is not
// UTF-8 text, so that no file costs more than its bound to refuse.
#pragma once

#include <cstddef>
#include <string>

#include "rdmacheck/diagnostics.hpp"

namespace rdmacheck {

// The most bytes read from one file (doc/user-guide.md, "Limits").
constexpr size_t kMaxFileBytes = size_t{256} << 20;

// The text of the regular file `path`, a `what` ("litmus test", "log", ...).
// Throws InputError: for the file itself (cannot be opened, not a regular
// file, larger than kMaxFileBytes) at `cite` when given (the line that names
// the file), else at the file; for a NUL byte or invalid UTF-8 at its line and column.
// `maxBytes` lowers the bound for a kind of file (models: kMaxModelBytes).
std::string readTextFile(const std::string& path, const std::string& what, const SourceLoc& cite = {},
                         size_t maxBytes = kMaxFileBytes);

// Standard input, read as readTextFile reads a file (a pipe or a terminal too),
// its errors at "-" (or `name`).
std::string readStandardInput(const std::string& what, const std::string& name = "-");

// Length of the UTF-8 sequence starting at text[i], 0 if it is not one.
size_t utf8Length(const std::string& text, size_t i);

// The offset of the first byte in text[from, to) that is NUL or does not start
// a UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF) within `text`; std::string::npos if there is none.
size_t firstBadByte(const std::string& text, size_t from, size_t to);

// Refuses text with a NUL byte or invalid UTF-8, at its line and column in
// `file`, for a `what` ("model", "order table", ...).
void checkUtf8Text(const std::string& text, const std::string& file, const std::string& what);

// The offset just past the comment that opens at text[start] with "(*",
// comments nesting as herd7's (OCaml's) do: "(* a (* b *) c *)" is one
// comment; std::string::npos when it is not closed.
size_t commentEnd(const std::string& text, size_t start);

// Why text[at] (firstBadByte's answer) is refused, for a `what`.
std::string badByteMessage(const std::string& text, size_t at, const std::string& what);

}  // namespace rdmacheck
