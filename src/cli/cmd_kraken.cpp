// `navlab kraken decode` / `encode`: raw Oodle Kraken streams (no DCX header) to and from
// files; `navlab kraken info`: what a stream (raw or in a DCX_KRAK file) is made of.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.h"
#include "cli/number_options.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "codec/dcx.h"
#include "codec/kraken/kraken.h"
#include "codec/kraken/stream_info.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
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

/// A Kraken stream inside a file, with its declared output size and where that size was read.
struct StreamInFile {
    std::span<const std::uint8_t> stream;
    std::uint64_t size = 0;                ///< declared output size
    std::uint64_t base = 0;                ///< file offset of the stream's first byte
    std::uint64_t size_at = 0;             ///< file offset of the size field
    const char* size_field = "output size";
};

/// The raw form of a stream file (the layout of the ooz test data): the 4-byte little-endian
/// output size, then the stream.
StreamInFile after_size_prefix(std::span<const std::uint8_t> file) {
    if (file.size() < 4) throw Error("file shorter than its 4-byte size field", 0, "output size");
    const std::uint64_t size = file[0] | file[1] << 8 | file[2] << 16 | std::uint64_t{file[3]} << 24;
    return {file.subspan(4), size, 4};
}

/// Refuses a declared output size that no stream of this length can produce, before anything
/// is allocated for it.
void check_declared_size(const StreamInFile& s) {
    if (s.size > kraken::max_decoded_size(s.stream.size()))
        throw Error(fmt::format("declared output size {} is more than {} compressed bytes can hold", s.size, s.stream.size()),
                    s.size_at, s.size_field);
}

/// `e` with its offset inside the stream made a file offset (the stream starts at `base`).
Error at_file_offset(const Error& e, std::uint64_t base) {
    return Error(e.message(), e.offset() == kNoOffset ? kNoOffset : e.offset() + base, e.field());
}

/// Without --size the input starts with the 4-byte little-endian output size (ooz test data).
int run_decode(const DecodeRequest& req) {
    const SharedBytes file = SharedBytes::map_file(req.input);
    StreamInFile in;
    std::vector<std::uint8_t> out;
    try {  // every error about the input names it (the size field's too)
        in = req.size ? StreamInFile{file, *req.size} : after_size_prefix(file);
        check_declared_size(in);
        out.resize(in.size);
        try {
            kraken::decode(in.stream, out, req.threads);
        } catch (Error& e) {
            throw at_file_offset(e, in.base);
        }
    } catch (Error& e) {
        e.set_file(req.input);
        throw;
    }
    write_file_atomic(req.output, out);
    if (req.json) {
        nlohmann::json j = {{"input", req.input},
                            {"output", req.output},
                            {"compressed_size", in.stream.size()},
                            {"decoded_size", in.size}};
        fmt::print("{}\n", json_text(j, 1));
    } else {
        fmt::print("{}: {} bytes decoded from {} compressed bytes\n", req.output, in.size, in.stream.size());
    }
    return kOk;
}

struct InfoRequest {
    std::string input;
    bool json = false, arrays = false;
};

/// The stream of `file`: a DCX's compressed stream (its output size at 0x1C), or the raw form
/// `decode` reads (4-byte little-endian size, then the stream).
StreamInFile stream_of(std::span<const std::uint8_t> file) {
    if (dcx::form_of(file) != dcx::Form::Dcx) return after_size_prefix(file);
    const dcx::Header h = dcx::read_header(file);
    if (std::string_view(h.codec, 4) != "KRAK")
        throw Error(fmt::format("a DCX of codec {} (only KRAK holds a Kraken stream)", std::string_view(h.codec, 4)), 0x28, "DCX codec");
    const std::span<const std::uint8_t> stream = dcx::compressed_stream(file);
    return {stream, h.uncompressed_size, static_cast<std::uint64_t>(stream.data() - file.data()), 0x1C,
            "DCX uncompressed size (0x1C)"};
}

nlohmann::json info_json(const kraken::StreamInfo& info, std::uint64_t base, bool arrays) {
    using kraken::BlockInfo;
    using kraken::ChunkInfo;
    constexpr const char* kBlockKinds[] = {"stored", "memset", "stored quantum", "compressed"};
    constexpr const char* kChunkKinds[] = {"lz", "entropy-only", "stored"};
    nlohmann::json blocks = nlohmann::json::array();
    for (const BlockInfo& b : info.blocks) {
        nlohmann::json chunks = nlohmann::json::array();
        for (const ChunkInfo& c : b.chunks) {
            nlohmann::json j = {{"offset", base + c.offset}, {"kind", kChunkKinds[static_cast<int>(c.kind)]},
                                {"compressed", c.compressed}, {"decoded", c.decoded}};
            if (c.kind == ChunkInfo::Kind::Lz)
                j.update({{"literal_mode", c.literal_mode == 0 ? "delta" : "raw"}, {"commands", c.commands},
                          {"literals", c.literals}, {"new_distances", c.new_distances}, {"long_lengths", c.long_lengths}});
            nlohmann::json list = nlohmann::json::array();
            for (const kraken::ArrayInfo& a : c.arrays)
                list.push_back({{"offset", base + a.offset}, {"depth", a.depth}, {"type", kraken::array_type_name(a.type)},
                                {"header", a.header}, {"payload", a.payload}, {"decoded", a.decoded}});
            if (arrays) j["arrays"] = std::move(list);
            else j["arrays"] = list.size();
            chunks.push_back(std::move(j));
        }
        blocks.push_back({{"offset", base + b.offset}, {"kind", kBlockKinds[static_cast<int>(b.kind)]}, {"restart", b.restart},
                          {"compressed", b.compressed}, {"decoded", b.decoded}, {"chunks", std::move(chunks)}});
    }
    return {{"compressed", info.compressed}, {"decoded", info.decoded}, {"blocks", std::move(blocks)}};
}

/// Totals over the stream: what the text report prints.
struct InfoTotals {
    std::size_t blocks[4] = {}, restarts = 0, chunks[3] = {}, commands = 0, literals = 0, new_distances = 0, long_lengths = 0;
    std::size_t arrays[6] = {}, array_bytes[6] = {}, array_decoded[6] = {};
};

InfoTotals totals_of(const kraken::StreamInfo& info) {
    InfoTotals t;
    for (const kraken::BlockInfo& b : info.blocks) {
        ++t.blocks[static_cast<int>(b.kind)];
        t.restarts += b.restart;
        for (const kraken::ChunkInfo& c : b.chunks) {
            ++t.chunks[static_cast<int>(c.kind)];
            t.commands += c.commands, t.literals += c.literals;
            t.new_distances += c.new_distances, t.long_lengths += c.long_lengths;
            for (const kraken::ArrayInfo& a : c.arrays) {
                if (a.type > 5) continue;
                ++t.arrays[a.type];
                t.array_bytes[a.type] += a.header + a.payload;
                t.array_decoded[a.type] += a.decoded;
            }
        }
    }
    return t;
}

int run_info(const InfoRequest& req) {
    const SharedBytes file = SharedBytes::map_file(req.input);
    std::uint64_t base = 0;
    kraken::StreamInfo info;
    try {
        const StreamInFile in = stream_of(file);
        base = in.base;
        check_declared_size(in);
        try {
            info = kraken::inspect(in.stream, in.size);
        } catch (Error& e) {
            throw at_file_offset(e, base);
        }
    } catch (Error& e) {
        e.set_file(req.input);
        throw;
    }
    if (req.json) {
        nlohmann::json j = info_json(info, base, req.arrays);
        j["input"] = req.input;
        j["stream_offset"] = base;
        fmt::print("{}\n", json_text(j, 1));
        return kOk;
    }
    const InfoTotals t = totals_of(info);
    fmt::print("{}: Kraken stream of {} bytes at offset {}, decoding to {} bytes ({:.2f}%)\n", req.input, info.compressed,
               base, info.decoded, info.decoded ? 100.0 * info.compressed / info.decoded : 100.0);
    fmt::print("blocks  {} compressed, {} stored, {} stored quanta, {} memset; {} restart the window\n", t.blocks[3],
               t.blocks[0], t.blocks[2], t.blocks[1], t.restarts);
    fmt::print("chunks  {} LZ, {} entropy-only, {} stored\n", t.chunks[0], t.chunks[1], t.chunks[2]);
    fmt::print("LZ      {} commands, {} literal bytes, {} new distances, {} long lengths\n", t.commands, t.literals,
               t.new_distances, t.long_lengths);
    fmt::print("arrays  type       count   coded bytes   decoded bytes\n");
    for (unsigned type = 0; type < 6; ++type)
        if (t.arrays[type] > 0)
            fmt::print("        {:<9} {:>6} {:>13} {:>15}\n", kraken::array_type_name(type), t.arrays[type],
                       t.array_bytes[type], t.array_decoded[type]);
    fmt::print("(arrays inside RLE and split arrays count too; --json lists every block and chunk, --arrays every array)\n");
    return kOk;
}

void add_info_command(CLI::App& kraken) {
    auto req = std::make_shared<InfoRequest>();
    auto* cmd = kraken.add_subcommand("info", "Describe a Kraken stream: blocks, chunks, byte arrays, LZ commands");
    cmd->footer(
        "  IN: a DCX_KRAK file (its stream is read after the DCX header), or a raw stream as\n"
        "      `navlab kraken decode` reads it (4-byte little-endian size, then the stream).\n"
        "  The stream is decoded (checked) on one thread. Prints the blocks and chunks by kind, the\n"
        "  LZ chunks' commands, literal bytes, new distances and long lengths, and the byte arrays\n"
        "  by type (stored, tANS, Huffman, RLE, Huffman-6, split) with their coded and decoded bytes:\n"
        "  what tells two encoders' streams of the same bytes apart (more commands or tANS arrays\n"
        "  decode slower). Offsets are file offsets.\n"
        "Example: navlab kraken info m10_00_00_00.emevd.dcx --json --arrays");
    cmd->add_option("input", req->input, "DCX_KRAK file or raw Kraken stream")->required()->check(CLI::ExistingFile);
    cmd->add_flag("--json", req->json, "Print every block and chunk as JSON");
    cmd->add_flag("--arrays", req->arrays, "Print JSON listing every byte array (--json alone counts them per chunk)");
    cmd->callback([req] {
        req->json = req->json || req->arrays;
        set_exit(run_info(*req));
    });
}

struct EncodeRequest {
    std::string input, output;
    int level = kraken::kDefaultLevel;
    unsigned threads = 0;
    bool json = false;
    bool force = false;
};

/// Writes the 4-byte little-endian input size, then the stream: the form `decode` reads.
int run_encode(const EncodeRequest& req) {
    const SharedBytes file = SharedBytes::map_file(req.input);
    const std::span<const std::uint8_t> data = file;
    if (data.size() > 0xFFFFFFFFu)
        throw Error(fmt::format("{} bytes do not fit the 4-byte size field", data.size()), kNoOffset, req.input);
    std::vector<std::uint8_t> stream;
    {
        Progress progress("kraken encode", kraken::encoded_block_count(data.size()));  // on a terminal only
        progress.set_total_bytes(data.size());
        stream = kraken::encode(data, req.level, req.threads, [&](std::size_t bytes) { progress.tick(1, bytes); });
    }
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
        fmt::print("{}\n", json_text(j, 1));
    } else {
        // The file is the stream after its 4-byte size: "encoded to 0" read as an empty file.
        fmt::print("{}: {} bytes encoded to a {}-byte stream, {} bytes with its size (level {}, {:.2f}%)\n", req.output,
                   data.size(), stream.size(), out.size(), req.level,
                   data.empty() ? 100.0 : 100.0 * stream.size() / data.size());
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
        "  On a terminal: a progress line on stderr (blocks, MB/s, time left) for inputs over 256 KiB.\n"
        "  For DCX files use `navlab dcx compress --variant DCX_KRAK --level N`.\n"
        "Example: navlab kraken encode m10.emevd m10.kraken --level 9");
    cmd->add_option("input", req->input, "File to encode")->required()->check(CLI::ExistingFile);
    cmd->add_option("output", req->output, "Output stream")->required();
    cmd->add_option("-l,--level", req->level, "Compression level 0..9 (default 6)")->check(CLI::Range(0, 9));
    cmd->add_option("-j,--threads", req->threads, "Worker threads (0 = all cores)");
    cmd->add_flag("--json", req->json, "Print a JSON summary");
    cmd->add_flag("--force", req->force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([req] {
        refuse_overwriting_input(req->input, req->output, req->force);
        set_exit(run_encode(*req));
    });
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
    cmd->add_option("--size", req->size, "Output size in bytes (the stream then has no size prefix)")
        ->transform(whole_number(UINT64_MAX));
    cmd->add_option("-j,--threads", req->threads, "Worker threads (0 = all cores)");
    cmd->add_flag("--json", req->json, "Print a JSON summary");
    cmd->add_flag("--force", req->force, "Allow the output to be the input file itself (replaced atomically)");
    cmd->callback([req] {
        refuse_overwriting_input(req->input, req->output, req->force);
        set_exit(run_decode(*req));
    });
    add_encode_command(*kraken);
    add_info_command(*kraken);
}

}  // namespace navlab::cli
