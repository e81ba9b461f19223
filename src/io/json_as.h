// Typed reads of JSON values a user wrote (BUILD.json, GRAPH.json, pack manifests).
//
// nlohmann's get<T>() converts any number to any arithmetic type with a plain cast: 1e20 read
// as an int is undefined behaviour (UBSan stops there; a Release build reads INT_MIN), 2.5
// becomes 2 and 300 read as a byte becomes 44, all without a word. json_as<T>() takes only
// values that T holds exactly and names what it refused; json_field<T>() reads one member of
// an object with its key in the error, and json_parse() names the byte where text stops
// being JSON (nlohmann's own exceptions name neither).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/error.h"

namespace navlab {

/// A JSON value as text for a message, cut to 40 characters (at a character boundary).
template <class Json>
std::string json_shown(const Json& v) {
    std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (s.size() <= 40) return s;
    std::size_t cut = 37;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    return s.substr(0, cut) + "...";
}

namespace json_as_detail {
template <class T> struct is_std_array : std::false_type {};
template <class U, std::size_t N> struct is_std_array<std::array<U, N>> : std::true_type {};
template <class T> struct is_std_vector : std::false_type {};
template <class U, class A> struct is_std_vector<std::vector<U, A>> : std::true_type {};

}  // namespace json_as_detail

/// `v` (a nlohmann::json or ordered_json value) as T:
/// - an integral T (not bool) takes only a JSON integer inside T's range: 1e20, 2.5 and, for
///   an unsigned T, -1 are refused;
/// - a floating-point T takes any JSON number that is finite in T (1e39 is refused for float);
/// - std::array<U, N> takes an array of exactly N values, std::vector<U> an array of any
///   length, each element checked as a U;
/// - std::string takes only a JSON string, bool only true or false;
/// - anything else is nlohmann's own get<T>(), which throws json::exception on a wrong type.
/// Throws navlab::Error without a field (the caller knows the key) for a refused value.
template <class T, class Json>
T json_as(const Json& v) {
    using namespace json_as_detail;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        constexpr auto lo = std::numeric_limits<T>::min();
        constexpr auto hi = std::numeric_limits<T>::max();
        const auto range = [&] { return fmt::format("an integer in {} .. {}", lo, hi); };
        if (v.is_number_unsigned()) {
            const auto u = v.template get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(hi)) throw Error(fmt::format("{} is not {}", u, range()));
            return static_cast<T>(u);
        }
        if (v.is_number_integer()) {
            const auto i = v.template get<std::int64_t>();
            if (i < 0 ? (std::is_unsigned_v<T> || i < static_cast<std::int64_t>(lo))
                      : static_cast<std::uint64_t>(i) > static_cast<std::uint64_t>(hi))
                throw Error(fmt::format("{} is not {}", i, range()));
            return static_cast<T>(i);
        }
        throw Error(fmt::format("{} is not {}", json_shown(v), range()));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.is_number()) throw Error(fmt::format("{} is not a number", json_shown(v)));
        const double d = v.template get<double>();
        if (!std::isfinite(d) || std::abs(d) > static_cast<double>(std::numeric_limits<T>::max()))
            throw Error(fmt::format("{} is outside the range of a {}-byte float", json_shown(v), sizeof(T)));
        return static_cast<T>(d);
    } else if constexpr (is_std_array<T>::value || is_std_vector<T>::value) {
        if (!v.is_array()) throw Error(fmt::format("{} is not an array", json_shown(v)));
        T out{};
        if constexpr (is_std_array<T>::value) {
            if (v.size() != out.size()) throw Error(fmt::format("array of {} values, {} expected", v.size(), out.size()));
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = json_as<typename T::value_type>(v[i]);
        } else {
            out.reserve(v.size());
            for (const auto& element : v) out.push_back(json_as<typename T::value_type>(element));
        }
        return out;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) throw Error(fmt::format("{} is not a string", json_shown(v)));
        return v.template get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean()) throw Error(fmt::format("{} is not true or false", json_shown(v)));
        return v.template get<bool>();
    } else {
        return v.template get<T>();
    }
}

/// `object[key]` as T (json_as), or `fallback` when the object has no such key. A refused
/// value's error names the key in its field path; `object` must be a JSON object.
template <class T, class Json>
T json_field(const Json& object, const std::string& key, T fallback) {
    if (!object.is_object()) throw Error(fmt::format("{} is not an object", json_shown(object)));
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    try {
        return json_as<T>(*it);
    } catch (Error& e) {
        throw e.in(key);
    }
}

/// `object[key]` as T; a missing key is an error naming it.
template <class T, class Json>
T json_field(const Json& object, const std::string& key) {
    if (object.is_object() && !object.contains(key)) throw Error("is missing", kNoOffset, key);
    return json_field<T>(object, key, T{});
}

/// `text` parsed as JSON. Throws navlab::Error "not valid JSON: …" at the byte where parsing
/// stopped (nlohmann's reason, line and column, without its exception tag); a number too large
/// for a double ("1e400") is refused the same way, without an offset.
template <class Json>
Json json_parse(std::string_view text) {
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const typename Json::exception& e) {  // parse_error, or out_of_range for 1e400
        std::string reason = e.what();
        if (const auto tag = reason.find("] "); reason.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
            reason.erase(0, tag + 2);
        // nlohmann counts bytes from 1; 0 and the end of the text stay in range. A number too
        // large for a double has no position.
        const auto* parse = dynamic_cast<const typename Json::parse_error*>(&e);
        const std::uint64_t at =
            !parse ? kNoOffset : parse->byte > 0 ? std::min<std::uint64_t>(parse->byte - 1, text.size()) : 0;
        throw Error("not valid JSON: " + reason, at);
    }
}

}  // namespace navlab
