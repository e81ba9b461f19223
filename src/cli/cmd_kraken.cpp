// `navlab kraken decode` / `encode`: raw Oodle Kraken streams (no DCX header) to and from files.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "codec/kraken/kraken.h"
#include "io/error.h"
#include "io/file.h"
#include "io/shared_bytes.h"

namespace navlab::cli {
namespace {

struct DecodeRequest {
    std::string input, output;
    std::optional<std::uint64_t> size;
    unsigned threads = 0;
    bool json = false;
    bool force = false;
};

/// Without --size the input starts with the 4-byte little-endian output size (ooz test data).
int run_decode(const DecodeRequest& req) {
    const SharedBytes file = SharedBytes::map_file(req.input);
    std::span<const std::uint8_t> stream = file;
    std::uint64_t size;
    if (req.size) {
        size = *req.size;
    } else {
        if (stream.size() < 4) throw Error("file shorter than its 4-byte size field", 0, "output size");
        size = stream[0] | stream[1] << 8 | stream[2] << 16 | std::uint64_t{stream[3]} << 24;
        stream = stream.subspan(4);
    }
    const std::uint64_t base = req.size ? 0 : 4;
    if (size > kraken::max_decoded_size(stream.size()))
        throw Error(fmt::format("declared output size {} is more than {} compressed bytes can hold", size,
                                stream.size()),
                    0, "output size");
    std::vector<std::uint8_t> out(size);
    try {
        kraken::decode(stream, out, req.threads);
    } catch (Error& e) {
        // Offsets inside the stream become file offsets.
        Error shifted(e.message(), e.offset() == kNoOffset ? kNoOffset : e.offset() + base, e.field());
        shifted.set_file(req.input);
        throw shifted;
    }
    write_file_atomic(req.output, out);
    if (req.json) {
        nlohmann::json j = {{"input", req.input},
                            {"output", req.output},
                            {"compressed_size", stream.size()},
                            {"decoded_size", size}};
        fmt::print("{}\n", j.dump(1));
    } else {
        fmt::print("{}: {} bytes decoded from {} compressed bytes\n", req.output, size, stream.size());
    }
    return kOk;
}

struct EncodeRequest {
    std::string input, output;
    int level = kraken::kDefaultLevel;
    unsigned threads = 0;
    bool json = false;
};

/// Writes the 4-byte little-endian input size, then the stream: the form `decode` reads.
int run_encode(const EncodeRequest& req) {
    const SharedBytes file = SharedBytes::map_file(req.input);
    const std::span<const std::uint8_t> data = file;
    if (data.size() > 0xFFFFFFFFu)
        throw Error(fmt::format("{} bytes do not fit the 4-byte size field", data.size()), kNoOffset, req.input);
    const std::vector<std::uint8_t> stream = kraken::encode(data, req.level, req.threads);
    std::vector<std::uint8_t> out(4);
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(data.size() >> (8 * i));
    out.insert(out.end(), stream.begin(), stream.end());
    write_file_atomic(req.output, out);
    if (req.json) {
        nlohmann::json j = {{"input", req.input},
                            {"output", req.output},
                            {"level", req.level},
                            {"decoded_size", data.size()},
                            {"compressed_size", stream.size()}};
        fmt::print("{}\n", j.dump(1));
    } else {
        fmt::print("{}: {} bytes encoded to {} (level {}, {:.2f}%)\n", req.output, data.size(), stream.size(),
                   req.level, data.empty() ? 100.0 : 100.0 * stream.size() / data.size());
    }
    return kOk;
}

void add_encode_command(CLI::App& kraken) {
    auto req = std::make_shared<EncodeRequest>();
    auto* cmd = kraken.add_subcommand("encode", "Encode a file as a raw Kraken stream");
    cmd->footer(
        "  IN: any file.\n"
        "  OUT: its 4-byte little-endian size, then a Kraken stream in the FromSoftware layout\n"
        "       (256 KiB blocks, each restarting the window) that `navlab kraken decode` and any\n"
        "       conforming Kraken decoder read. Level 0 writes stored blocks, 1 is fastest, 9 smallest.\n"
        "  For DCX files use `navlab dcx compress --variant DCX_KRAK --level N`.\n"
        "Example: navlab kraken encode m10.emevd m10.kraken --level 9");
    cmd->add_option("input", req->input, "File to encode")->required()->check(CLI::ExistingFile);
    cmd->add_option("output", req->output, "Output stream")->required();
    cmd->add_option("-l,--level", req->level, "Compression level 0..9 (default 6)")->check(CLI::Range(0, 9));
    cmd->add_option("-j,--threads", req->threads, "Worker threads (0 = all cores)");
    cmd->add_flag("--json", req->json, "Print a JSON summary");
    cmd->callback([req] { set_exit(run_encode(*req)); });
}

}  // namespace

void add_kraken_commands(CLI::App& app) {
    auto* kraken = app.add_subcommand("kraken", "Oodle Kraken raw streams (the codec of DCX_KRAK)");
    kraken->require_subcommand(1);
    auto req = std::make_shared<DecodeRequest>();
    auto* cmd = kraken->add_subcommand("decode", "Decode a raw Kraken stream to a file");
    cmd->footer(
        "  IN: a raw Kraken stream. Without --size its first 4 bytes are the little-endian output size\n"
        "      (the layout of the ooz test data); with --size the whole file is the stream.\n"
        "  OUT: the decoded bytes. Blocks that restart the window decode in parallel.\n"
        "  For DCX files use `navlab dcx decompress`.\n"
        "Example: navlab kraken decode mr.kraken mr.out");
    cmd->add_option("input", req->input, "Raw Kraken stream")->required()->check(CLI::ExistingFile);
    cmd->add_option("output", req->output, "Output file")->required();
    cmd->add_option("--size", req->size, "Output size in bytes (the stream then has no size prefix)");
    cmd->add_option("-j,--threads", req->threads, "Worker threads (0 = all cores)");
    cmd->add_flag("--json", req->json, "Print a JSON summary");
    cmd->add_flag("--force", req->force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([req] {
        refuse_overwriting_input(req->input, req->output, req->force);
        set_exit(run_decode(*req));
    });
    add_encode_command(*kraken);
}

}  // namespace navlab::cli
