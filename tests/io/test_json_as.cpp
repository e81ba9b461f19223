// json_as: JSON values a user wrote, read only when the target type holds them exactly.
// The refused values are those nlohmann's get<T>() converts with a plain cast (undefined for
// 1e20 as an int; silent truncation for 2.5, 300 as a byte, -1 as an unsigned).
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "io/error.h"
#include "io/json_as.h"

using namespace navlab;
using nlohmann::json;

namespace {
template <class T>
std::string refusal(const char* text) {
    try {
        json_as<T>(json::parse(text));
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(JsonAs, IntegersInRangeAreRead) {
    EXPECT_EQ(json_as<std::int32_t>(json::parse("-2147483648")), INT32_MIN);
    EXPECT_EQ(json_as<std::int32_t>(json::parse("2147483647")), INT32_MAX);
    EXPECT_EQ(json_as<std::uint8_t>(json::parse("255")), 255);
    EXPECT_EQ(json_as<std::uint64_t>(json::parse("18446744073709551615")), UINT64_MAX);
    EXPECT_EQ(json_as<std::int64_t>(json::parse("-9223372036854775808")), INT64_MIN);
}

TEST(JsonAs, IntegersOutsideTheTypeAreRefused) {
    EXPECT_EQ(refusal<std::int32_t>("1e20"), "1e+20 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(refusal<std::int32_t>("2.5"), "2.5 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(refusal<std::int32_t>("2147483648"), "2147483648 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(refusal<std::int32_t>("-2147483649"), "-2147483649 is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(refusal<std::uint8_t>("300"), "300 is not an integer in 0 .. 255");
    EXPECT_EQ(refusal<std::uint32_t>("-1"), "-1 is not an integer in 0 .. 4294967295");
    EXPECT_EQ(refusal<std::int64_t>("9223372036854775808"),
              "9223372036854775808 is not an integer in -9223372036854775808 .. 9223372036854775807");
    EXPECT_EQ(refusal<int>("\"7\""), "\"7\" is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(refusal<int>(R"({"a": "a very long value that is cut for the message"})"),
              "{\"a\":\"a very long value that is cut f... is not an integer in -2147483648 .. 2147483647");
}

TEST(JsonAs, FloatsMustBeFiniteInTheirType) {
    EXPECT_EQ(json_as<float>(json::parse("3")), 3.0f);
    EXPECT_EQ(json_as<float>(json::parse("-3.4e38")), -3.4e38f);
    EXPECT_EQ(json_as<double>(json::parse("1e300")), 1e300);
    EXPECT_EQ(refusal<float>("1e39"), "1e+39 is outside the range of a 4-byte float");
    EXPECT_EQ(refusal<float>("true"), "true is not a number");
    // JSON text cannot hold infinity (nlohmann refuses 1e400 while parsing), a value made in
    // code can: refused too.
    EXPECT_THROW(json_as<double>(json(std::numeric_limits<double>::infinity())), Error);
}

TEST(JsonAs, ArraysCheckLengthAndEveryElement) {
    EXPECT_EQ((json_as<std::array<float, 3>>(json::parse("[1, 2.5, -3]"))), (std::array<float, 3>{1, 2.5f, -3}));
    EXPECT_EQ((refusal<std::array<float, 3>>("[1, 2]")), "array of 2 values, 3 expected");
    EXPECT_EQ((refusal<std::array<float, 3>>("[1, 2, 1e39]")), "1e+39 is outside the range of a 4-byte float");
    EXPECT_EQ((refusal<std::array<float, 3>>("7")), "7 is not an array");
    const auto xz = json_as<std::vector<std::array<float, 2>>>(json::parse("[[0, 1], [2, 3], [4, 5]]"));
    ASSERT_EQ(xz.size(), 3u);
    EXPECT_EQ(xz[2][1], 5.0f);
    EXPECT_EQ((refusal<std::vector<std::array<float, 2>>>("[[0, 1], [2]]")), "array of 1 values, 2 expected");
}

// Strings and booleans are refused with a navlab::Error too: nlohmann's type_error named no
// field, and a pack manifest with "file": 42 printed "[json.exception.type_error.302] type must
// be string, but is number" and nothing else.
TEST(JsonAs, StringsAndBooleansTakeOnlyTheirOwnType) {
    EXPECT_EQ(json_as<std::string>(json::parse("\"m10\"")), "m10");
    EXPECT_TRUE(json_as<bool>(json::parse("true")));
    EXPECT_EQ(refusal<bool>("1"), "1 is not true or false");
    EXPECT_EQ(refusal<std::string>("1"), "1 is not a string");
    EXPECT_EQ(refusal<std::string>("null"), "null is not a string");
}

TEST(JsonAs, FieldsNameTheirKey) {
    const json j = json::parse(R"({"name": "n10", "id": "7", "corners": [1, 2]})");
    EXPECT_EQ(json_field<std::string>(j, "name"), "n10");
    EXPECT_EQ(json_field<int>(j, "missing", 5), 5);
    auto error = [](auto read) {
        try {
            read();
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error([&] { json_field<int>(j, "id"); }), "id: \"7\" is not an integer in -2147483648 .. 2147483647");
    EXPECT_EQ(error([&] { json_field<int>(j, "missing"); }), "missing: is missing");
    EXPECT_EQ(error([&] { (json_field<std::array<int, 3>>(j, "corners")); }), "corners: array of 2 values, 3 expected");
    EXPECT_EQ(error([&] { json_field<int>(json::parse("[1]"), "id", 0); }), "[1] is not an object");
}

TEST(JsonAs, ParseErrorsGiveTheByteAndTheReason) {
    EXPECT_EQ(json_parse<json>(R"({"a": 1})").at("a"), 1);
    const std::string text = "{\n \"a\": 1,\n \"b\" 2\n}";
    try {
        json_parse<json>(text);
        ADD_FAILURE() << "parsed";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), text.find('2'));  // the byte nlohmann read last: the 2 where ':' belongs
        EXPECT_EQ(e.message().rfind("not valid JSON: parse error at line 3, column ", 0), 0u) << e.what();
        EXPECT_NE(e.message().find("expected ':'"), std::string::npos) << e.what();
        EXPECT_EQ(e.message().find("[json.exception"), std::string::npos) << e.what();
    }
    try {
        json_parse<json>("");
        ADD_FAILURE() << "parsed";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), 0u);
    }
    // A number beyond a double is nlohmann's out_of_range, not a parse_error: refused the same way.
    try {
        json_parse<json>("[1e400]");
        ADD_FAILURE() << "parsed";
    } catch (const Error& e) {
        EXPECT_EQ(e.offset(), kNoOffset);
        EXPECT_EQ(std::string(e.what()), "not valid JSON: number overflow parsing '1e400'");
    }
}
