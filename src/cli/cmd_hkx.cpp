// `navlab hkx check|types|dump|rewrite`: Havok TAG0 tagfiles, read strictly from their own type
// table (src/havok).
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "cli/commands.h"
#include "cli/output_guard.h"
#include "cli/progress.h"
#include "container/binder_file.h"
#include "container/bnd4.h"
#include "havok/object.h"
#include "havok/tagfile.h"
#include "havok/writer.h"
#include "io/error.h"
#include "io/file.h"
#include "io/json_text.h"
#include "io/parallel.h"
#include "io/report.h"
#include "io/text.h"

namespace navlab::cli {
namespace {

using havok::Kind;
using Json = nlohmann::ordered_json;

/// Reads the tagfile of `e`, opened from FILE `path`, strictly. The tagfile keeps its bytes alive.
/// A whole binder (no --entry) is refused with the option to use, not read as a tagfile.
havok::Tagfile read(const container::Entry& e, const std::string& path) {
    if (!e.in_binder && bnd4::is_bnd4(e.data))
        throw Error("a binder, not a tagfile: name a member with --entry NAME or INDEX (`navlab ls " + path +
                    "` lists them)")
            .set_file(path);
    try {
        return container::read_entry(e, [](const SharedBytes& bytes) { return havok::read_tagfile(bytes); });
    } catch (Error& err) {
        throw err.set_file(path);
    }
}

/// Reads FILE strictly (decompressed when it is a DCX); with `entry`, that entry (name or
/// index) of the binder FILE.
havok::Tagfile load(const std::string& path, const std::string& entry) { return read(container::open_entry(path, entry), path); }

/// The tagfile's warnings in the shape `hkx check` has always printed them:
/// "FILE: warning: offset 0x..: MESSAGE" and {"offset", "message"}.
const FindingStyle kWarningStyle{true, {"offset", "message"}};

std::string kind_name(Kind k) {
    static const char* names[] = {"void", "opaque", "bool", "string", "int", "float", "pointer", "record", "array"};
    auto i = static_cast<unsigned>(k);
    return i < 9 ? names[i] : "?";
}

// ---- dump ----------------------------------------------------------------------------------

struct DumpOptions {
    bool full = false;
    std::size_t summary_elements = 3;  ///< elements shown of a summarised array
};

class Dumper {
public:
    Dumper(const havok::Tagfile& file, DumpOptions options) : file_(file), options_(options) {}

    Json object(havok::ItemIndex item) {
        const havok::ObjectView obj = file_.object(item);
        Json j;
        j["item"] = item;
        j["class"] = obj.type_name();
        if (!seen_.insert(item).second) return j;  // shared: printed where first met
        if (depth_ >= kMaxDepth) {
            j["truncated"] = "pointer chain deeper than 256 objects";
            return j;
        }
        ++depth_;
        j["fields"] = record(obj);
        --depth_;
        return j;
    }

private:
    Json record(const havok::ObjectView& obj) {
        Json fields = Json::object();
        for (const havok::Member& m : file_.types.all_members(obj.type_index())) {
            if (!m.serialized()) continue;
            fields[m.name] = value(havok::Value(file_, m.type, obj.offset() + m.offset));
        }
        return fields;
    }

    Json value(const havok::Value& v) {
        const havok::Type& t = v.type();
        switch (t.kind()) {
            case Kind::Bool:
            case Kind::Int:
                return (t.resolved_format & havok::kFormatSigned) ? Json(v.as_int()) : Json(v.as_uint());
            case Kind::Float:
                return v.as_float();
            case Kind::String:
                return v.is_null() ? Json(nullptr) : Json(std::string(v.as_string()));
            case Kind::Pointer: {
                const havok::ItemIndex i = v.item();
                return i ? object(i) : Json(nullptr);
            }
            case Kind::Record:
                return record(v.as_object());
            case Kind::Array:
                if (t.is_inline_array() || t.is_hk_array()) return array(v.as_array(), t.is_inline_array());
                return Json(nullptr);
            default:
                return Json(nullptr);
        }
    }

    Json array(const havok::ArrayView& a, bool inline_array) {
        const bool summarise = !options_.full && !inline_array && a.size() > options_.summary_elements;
        const std::uint32_t shown = summarise ? static_cast<std::uint32_t>(options_.summary_elements) : a.size();
        Json elements = Json::array();
        for (std::uint32_t i = 0; i < shown; ++i) elements.push_back(value(a[i]));
        if (inline_array || !summarise) return elements;
        Json j;
        j["count"] = a.size();
        j["elementType"] = file_.types.full_name(a.element_type());
        j["first"] = std::move(elements);
        // Pointers inside the hidden elements still lead to objects: list them so nothing is lost.
        Json more = Json::array();
        for (std::uint32_t i = shown; i < a.size(); ++i) collect_pointers(a[i], more);
        if (!more.empty()) j["objects"] = std::move(more);
        return j;
    }

    void collect_pointers(const havok::Value& v, Json& out) {
        const havok::Type& t = v.type();
        if (t.kind() == Kind::Pointer) {
            if (havok::ItemIndex i = v.item()) out.push_back(object(i));
        } else if (t.kind() == Kind::Record) {
            const havok::ObjectView o = v.as_object();
            for (const havok::Member& m : file_.types.all_members(o.type_index()))
                if (m.serialized()) collect_pointers(havok::Value(file_, m.type, o.offset() + m.offset), out);
        }
    }

    static constexpr int kMaxDepth = 256;  // bounds the recursion on long pointer chains
    const havok::Tagfile& file_;
    DumpOptions options_;
    std::set<havok::ItemIndex> seen_;
    int depth_ = 0;
};

/// Text rendering of the dump: one line per scalar, indented by depth.
void print_text(const Json& j, const std::string& key, int depth, std::string& out) {
    std::string pad(depth * 2, ' ');
    std::string head = pad + (key.empty() ? "" : key + ": ");
    if (j.is_object() && j.contains("class") && j.contains("item")) {
        out += fmt::format("{}{} (item {}){}\n", head, j["class"].get<std::string>(), j["item"].get<int>(),
                           j.contains("fields") ? "" : j.contains("truncated") ? " (too deep, not shown)" : " (shown above)");
        if (j.contains("fields"))
            for (auto& [k, v] : j["fields"].items()) print_text(v, k, depth + 1, out);
    } else if (j.is_object()) {
        out += head.empty() ? "" : head + "\n";
        for (auto& [k, v] : j.items()) print_text(v, k, depth + 1, out);
    } else if (j.is_array()) {
        bool scalars = std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_primitive(); });
        if (scalars) {
            out += head + json_text(j) + "\n";
        } else {
            out += head + "\n";
            for (std::size_t i = 0; i < j.size(); ++i) print_text(j[i], fmt::format("[{}]", i), depth + 1, out);
        }
    } else {
        out += head + json_text(j) + "\n";
    }
}

// ---- types ---------------------------------------------------------------------------------

/// Type and member names are the file's bytes: each line is printed through escape_non_utf8.
void print_types(const havok::Tagfile& file) {
    const havok::TypeTable& types = file.types;
    auto print = [](const std::string& line) { fmt::print("{}\n", escape_non_utf8(line)); };
    print(fmt::format("SDK {} — {} types, {} items", file.sdk_version, types.size(), file.items.size() - 1));
    for (havok::TypeIndex t = 1; t <= types.size(); ++t) {
        const havok::Type& type = types[t];
        std::string line = fmt::format("{:4} {} [{} {}/{}", t, types.full_name(t), kind_name(type.kind()),
                                       type.resolved_size, type.resolved_alignment);
        if (type.parent) line += fmt::format(", parent {}", types.full_name(type.parent));
        if (type.resolved_subtype) line += fmt::format(", subtype {}", types.full_name(type.resolved_subtype));
        if (type.optionals & havok::kOptVersion) line += fmt::format(", v{}", type.version);
        if (type.flags) line += fmt::format(", flags {}", type.flags);
        if (type.hash) line += fmt::format(", hash {}", *type.hash);
        print(line + "]");
        for (const havok::Member& m : type.members)
            print(fmt::format("       +{:<4} {} : {}{}", m.offset, m.name, types.full_name(m.type),
                              m.serialized() ? "" : " (not serialized)"));
        for (const havok::Interface& i : type.interfaces)
            print(fmt::format("       interface {} @ {}", types.full_name(i.type), i.offset));
    }
}

}  // namespace

void add_hkx_commands(CLI::App& app) {
    auto* hkx = app.add_subcommand("hkx", "Havok TAG0 tagfiles: check, list types, dump objects, rewrite");
    hkx->require_subcommand(1);

    struct Options {
        std::vector<std::string> check_files;
        std::string entry, types_file, dump_file, rewrite_in, rewrite_out;
        bool json = false, full = false, force = false;
    };
    auto o = std::make_shared<Options>();
    auto* check = hkx->add_subcommand("check", "Strictly read tagfiles; exit 0 only when all pass");
    check->footer(
        "  Inputs: tagfiles (TAG0). Every section, type record, item, reference, PTCH and THSH entry is\n"
        "  verified (docs/havok.md). Errors name the file, the byte offset and what was expected;\n"
        "  warnings (ordering, non-minimal integers) are printed but do not fail. Read from a binder\n"
        "  (--entry) or a DCX, offsets count from the entry's or the payload's first byte, and errors,\n"
        "  warnings and the \"ok\" line of an entry say so (\"entry 3 (NAME)\", \"DCX payload\").\n"
        "Example: navlab hkx check n10_01_00_00_001700.hkx\n"
        "Example: navlab hkx check m10_00_00_00.nvmhktbnd.dcx --entry n10_00_00_00_001000.hkx");
    check->add_option("files", o->check_files, "Tagfiles")->required();
    check->add_option("--entry", o->entry, "Binder entry (name or index) to read instead of a plain tagfile");
    check->add_flag("--json", o->json, "Print one JSON object per file");
    check->callback([o] {
        std::vector<std::string> reports(o->check_files.size());
        std::vector<char> failed(o->check_files.size(), 0);
        Progress progress("check", o->check_files.size());
        parallel_for(o->check_files.size(), 0, [&](std::size_t i) {
            Json j;
            j["file"] = o->check_files[i];
            try {
                const container::Entry entry = container::open_entry(o->check_files[i], o->entry);
                // Where the offsets count from: in the JSON whether the read passes or fails, on
                // each warning as errors say it (the field path), on the "ok" line of an entry.
                if (entry.in_binder) j["entry"] = Json{{"index", entry.index}, {"name", escape_non_utf8(entry.name)}};
                if (entry.in_dcx) j["dcx_payload"] = true;
                const havok::Tagfile t = read(entry, o->check_files[i]);
                const std::string context = escape_non_utf8(container::entry_context(entry));
                j["ok"] = true;
                j["sdk"] = t.sdk_version;
                j["types"] = t.types.size();
                j["items"] = t.items.size() - 1;
                Report warnings;
                for (Finding w : t.warnings) {
                    w.file = o->check_files[i];
                    if (!context.empty()) w.field = w.field.empty() ? context : context + ": " + w.field;
                    warnings.add(std::move(w));
                }
                j["warnings"] = findings_json(warnings, kWarningStyle);
                const std::string what = entry.in_binder ? o->check_files[i] + ": " + context : o->check_files[i];
                reports[i] = o->json ? json_text(j) + "\n"
                                     : fmt::format("{}: ok (SDK {}, {} types, {} items, {} warnings)\n{}", what,
                                                   t.sdk_version, t.types.size(), t.items.size() - 1, t.warnings.size(),
                                                   findings_text(warnings, t.warnings.size(), kWarningStyle));
            } catch (const Error& e) {
                failed[i] = 1;
                j["ok"] = false;
                j["error"] = e.what();
                reports[i] = o->json ? json_text(j) + "\n" : fmt::format("navlab: {}\n", e.what());  // as main() prints errors
            }
            progress.tick();
        });
        // Text: a failure is an error message (stderr). JSON: one object per file, every one on
        // stdout, so `> report.jsonl` keeps the failures too.
        for (std::size_t i = 0; i < reports.size(); ++i)
            std::fputs(reports[i].c_str(), failed[i] && !o->json ? stderr : stdout);
        if (std::count(failed.begin(), failed.end(), 1)) set_exit(kFailed);
    });

    auto* types = hkx->add_subcommand("types", "List a tagfile's type table");
    types->footer(
        "  Input: one tagfile. Output: every type with kind, size/alignment, parent, subtype, version,\n"
        "  flags, hash, its declared members (offset, name, type) and interfaces.\n"
        "Example: navlab hkx types n10_01_00_00_001700.hkx");
    types->add_option("file", o->types_file, "Tagfile")->required();
    types->add_option("--entry", o->entry, "Binder entry (name or index)");
    types->callback([o] { print_types(load(o->types_file, o->entry)); });

    auto* dump = hkx->add_subcommand("dump", "Print the object tree of a tagfile");
    dump->footer(
        "  Input: one tagfile. Output: the objects from the root hkRootLevelContainer, with class and\n"
        "  field names; shared objects are printed once. Arrays show their first 3 elements unless --full.\n"
        "Example: navlab hkx dump n10_01_00_00_001700.hkx --json > mesh.json\n"
        "Example: navlab hkx dump m10_01_00_00.nvmhktbnd.dcx --entry n10_01_00_00_001700.hkx");
    dump->add_option("file", o->dump_file, "Tagfile")->required();
    dump->add_option("--entry", o->entry, "Binder entry (name or index)");
    dump->add_flag("--json", o->json, "JSON output");
    dump->add_flag("--full", o->full, "Print every array element");
    dump->callback([o] {
        const havok::Tagfile tagfile = load(o->dump_file, o->entry);
        try {
            Dumper dumper(tagfile, DumpOptions{o->full});
            Json root = dumper.object(1);
            if (o->json) {
                fmt::print("{}\n", json_text(root, 2));
            } else {
                std::string out;
                print_text(root, "", 0, out);
                fmt::print("{}", escape_non_utf8(out));  // member names are the file's bytes
            }
        } catch (Error& e) {
            e.set_file(o->dump_file);
            throw;
        }
    });

    auto* rewrite = hkx->add_subcommand("rewrite", "Read a tagfile and write it again with navlab's writer");
    rewrite->footer(
        "  Input: a tagfile; output: the same objects written by the round-trip writer (DATA layout, item\n"
        "  numbering, PTCH, THSH and type order derived again). Reports whether the bytes are identical.\n"
        "Example: navlab hkx rewrite n10_01_00_00_001700.hkx /tmp/out.hkx");
    rewrite->add_option("input", o->rewrite_in, "Tagfile")->required();
    rewrite->add_option("output", o->rewrite_out, "Output tagfile")->required();
    rewrite->add_option("--entry", o->entry, "Binder entry (name or index)");
    rewrite->add_flag("--force", o->force, "Allow the output to be the input file itself (replaced atomically)");
    rewrite->callback([o] {
        refuse_overwriting_input(o->rewrite_in, o->rewrite_out, o->force);
        const havok::Tagfile tagfile = load(o->rewrite_in, o->entry);
        std::vector<std::uint8_t> out;
        try {
            out = havok::write_tagfile(tagfile);
        } catch (Error& e) {
            e.set_file(o->rewrite_in);
            throw;
        }
        write_file_atomic(o->rewrite_out, out);
        const bool same = std::equal(out.begin(), out.end(), tagfile.file.begin(), tagfile.file.end());
        fmt::print("{} -> {}: {} bytes, {}\n", o->rewrite_in, o->rewrite_out, out.size(),
                   same ? "byte-identical" : "differs from the input");
    });
}

}  // namespace navlab::cli
