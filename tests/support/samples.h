// Finding the real (copyrighted, never committed) sample files from tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

namespace navlab::test {

/// The samples folder: $NAVLAB_SAMPLES, else ../shared/samples beside the source tree.
/// A NAVLAB_SAMPLES that names no folder gives nullopt here; samples_required() then
/// holds, so every test that wanted a sample fails instead of skipping.
std::optional<std::filesystem::path> samples_dir();

/// Path of a sample below the samples folder, or nullopt when it is absent.
std::optional<std::filesystem::path> sample(const std::string& relative);

/// True when a missing sample is a failure rather than a skip: NAVLAB_REQUIRE_SAMPLES=1
/// (CI sets it), or NAVLAB_SAMPLES is set but is not a folder (a typo must not turn the
/// sample tests into quiet skips).
bool samples_required();

/// Why a sample is missing, with the fix: one message for skips and failures alike.
std::string missing_sample_message(const std::string& relative);

/// For tests that loop over several samples: the sample's path, or nullopt after reporting
/// its absence — a non-fatal failure when samples_required(), else a line on stderr — so
/// the loop goes on with the next sample (a skip per sample, not of the whole test).
std::optional<std::filesystem::path> sample_or_report(const std::string& relative);

/// The navlab command built beside the tests.
std::string navlab_binary();

/// Runs a shell command, returns its exit status and captures stdout+stderr into `output`.
int run_command(const std::string& command, std::string* output = nullptr);

/// A fresh empty scratch folder for one test. Removed when the test process's tests have all
/// passed (kept, and named on stderr, when one failed or NAVLAB_KEEP_SCRATCH=1).
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace navlab::test

/// Skips the current test with a clear message when a sample is missing, or fails it when
/// samples are required (see samples_required()).
#define NAVLAB_REQUIRE_SAMPLE(var, relative)                                                   \
    auto var##_opt = ::navlab::test::sample(relative);                                         \
    if (!var##_opt) {                                                                          \
        if (::navlab::test::samples_required()) FAIL() << ::navlab::test::missing_sample_message(relative); \
        GTEST_SKIP() << ::navlab::test::missing_sample_message(relative);                      \
    }                                                                                          \
    const std::filesystem::path var = *var##_opt
