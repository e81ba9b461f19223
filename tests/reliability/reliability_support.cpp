#include "reliability/reliability_support.h"

#include <fstream>

#include "codec/dcx.h"

namespace navlab::test {

std::vector<std::uint8_t> memset_krak_dcx(std::size_t blocks, std::uint8_t value, std::uint64_t declared) {
    std::vector<std::uint8_t> stream;
    for (std::size_t i = 0; i < blocks; ++i) stream.insert(stream.end(), {0x0C, 0x06, 0x07, 0xFF, 0xFF, value});
    // The header of a real DCX_KRAK file (one stored block of one byte), then our stream.
    std::vector<std::uint8_t> file = dcx::compress(std::vector<std::uint8_t>{value}, dcx::Variant::Krak);
    file.resize(0x4C);
    const std::uint64_t usize = declared ? declared : blocks * std::uint64_t{0x40000};
    auto put_be32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) file[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
    };
    put_be32(0x1C, static_cast<std::uint32_t>(usize));
    put_be32(0x20, static_cast<std::uint32_t>(stream.size()));
    file.insert(file.end(), stream.begin(), stream.end());
    file.resize((file.size() + 15) / 16 * 16);  // KRAK pads to 16
    return file;
}

void put_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

bool under_address_sanitizer() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#endif
#endif
    return false;
}

std::string quoted(const std::filesystem::path& p) {
    std::string out = "'";  // appended, not "'" + s (GCC 12's -Wrestrict false positive)
    out += p.string();
    out += '\'';
    return out;
}

}  // namespace navlab::test
