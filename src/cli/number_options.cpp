#include "cli/number_options.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace navlab::cli {

CLI::Validator whole_number(std::uint64_t most, bool hex) {
    return CLI::Validator(
        [most, hex](std::string& text) -> std::string {
            const bool is_hex = hex && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
            const char* first = text.data() + (is_hex ? 2 : 0);
            const char* last = text.data() + text.size();
            std::uint64_t value = 0;
            const auto [end, ec] = std::from_chars(first, last, value, is_hex ? 16 : 10);
            if (first != last && ec == std::errc() && end == last && value <= most) {
                text = std::to_string(value);  // CLI11 reads "010" as octal: hand it plain decimal
                return {};
            }
            return fmt::format("a whole number from 0 to {}{}, not {}", most, hex ? fmt::format(" (0x{:X})", most) : "",
                               text);
        },
        "");
}

CLI::Validator positive_number(const std::string& example) {
    return CLI::Validator(
        [example](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (!text.empty() && *end == 0 && std::isfinite(v) && v > 0) return {};
            return "a positive number (" + example + "), not " + text;
        },
        "");
}

}  // namespace navlab::cli
