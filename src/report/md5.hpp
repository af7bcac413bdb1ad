#pragma once
#include <string>

namespace rdmacheck {

// The 16-byte MD5 digest of `data` (RFC 1321).
std::string md5(const std::string& data);
// Bytes as lower-case hexadecimal.
std::string hex(const std::string& bytes);

}  // namespace rdmacheck
