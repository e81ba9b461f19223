// Finding the real (copyrighted, never committed) sample files from tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

namespace navlab::test {

/// The samples folder: $NAVLAB_SAMPLES, else ../shared/samples beside the source tree.
std::optional<std::filesystem::path> samples_dir();

/// Path of a sample below the samples folder, or nullopt when it is absent.
std::optional<std::filesystem::path> sample(const std::string& relative);

/// The navlab command built beside the tests.
std::string navlab_binary();

/// Runs a shell command, returns its exit status and captures stdout+stderr into `output`.
int run_command(const std::string& command, std::string* output = nullptr);

/// A fresh empty scratch folder for one test, removed by the caller's discretion.
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace navlab::test

/// Skips the current test with a clear message when a sample is missing.
#define NAVLAB_REQUIRE_SAMPLE(var, relative)                                                        \
    auto var##_opt = ::navlab::test::sample(relative);                                              \
    if (!var##_opt)                                                                                 \
        GTEST_SKIP() << "sample " << (relative)                                                     \
                     << " not found: set NAVLAB_SAMPLES to the shared samples folder to run this test"; \
    const std::filesystem::path var = *var##_opt
