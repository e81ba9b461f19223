#include "havok/tagfile.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fmt/format.h>
#include <string_view>
#include <unordered_map>

#include "havok/layout.h"
#include "havok/object.h"
#include "havok/sections.h"
#include "havok/varint.h"
#include "io/file.h"

namespace navlab::havok {
namespace {

/// A string table (TSTR/FSTR): NUL-terminated strings, then up to 3 zero bytes.
std::vector<std::string> parse_strings(const Section& s) {
    ByteReader r(s.payload, s.payload_offset());
    r.set_context(s.tag);
    std::size_t end = s.payload.size();
    while (end > 0 && s.payload[end - 1] == 0) --end;
    // `end` is the last non-zero byte + 1; the string there needs its NUL.
    std::vector<std::string> out;
    if (end == 0) {
        if (s.payload.size() >= 4) r.fail_at(0, "string table is empty but its payload holds 4 or more zero bytes");
        return out;
    }
    const std::size_t content = end + 1;
    if (s.payload.size() - content > 3)
        r.fail_at(content, fmt::format("{} zero bytes after the last string; expected at most 3 bytes of padding",
                                       s.payload.size() - content));
    std::size_t pos = 0;
    while (pos < content) {
        out.push_back(r.cstring_at(pos, "string"));
        pos += out.back().size() + 1;
    }
    return out;
}

/// What parse_type_section produces from a TYPE section's bytes alone.
struct ParsedTypeSection {
    std::vector<std::uint8_t> bytes;  ///< the whole section, header included: the key
    std::size_t hash = 0;             ///< of `bytes`, to skip most byte compares
    TypeTable types;                  ///< shares its records with every tagfile served
    SectionStyle style;
    std::vector<TypeHash> hashes;
    std::uint64_t thsh_from_type = kNoOffset;  ///< THSH header offset minus the TYPE offset
};

/// The last few TYPE sections parsed on this thread. Every tagfile carries its own type table,
/// but the tagfiles of one game and SDK carry the same bytes: parsing was a fifth of an audit.
/// Only sections that parsed without warnings are kept, so a cached read reports exactly what
/// a full parse would (errors never reach the cache).
class TypeSectionCache {
public:
    static TypeSectionCache& of_this_thread() {
        thread_local TypeSectionCache cache;
        return cache;
    }
    static std::size_t hash_of(Bytes bytes) {
        return std::hash<std::string_view>{}(
            std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    const ParsedTypeSection* find(Bytes bytes, std::size_t hash) const {
        for (const ParsedTypeSection& e : entries_)
            if (e.hash == hash && e.bytes.size() == bytes.size() &&
                std::memcmp(e.bytes.data(), bytes.data(), bytes.size()) == 0)
                return &e;
        return nullptr;
    }
    void add(ParsedTypeSection entry) { entries_[next_++ % entries_.size()] = std::move(entry); }

private:
    std::array<ParsedTypeSection, 4> entries_;
    std::size_t next_ = 0;
};

/// Parsing state shared by the steps of read_tagfile.
class Reader {
public:
    Reader(Bytes file, const ReadOptions& options, Tagfile& out) : file_(file), options_(options), out_(out) {}

    void run() {
        out_.file = file_;
        if (file_.size() < 8) throw Error(fmt::format("file of {} bytes is too small for a TAG0 header", file_.size()), 0, "TAG0");
        // Only the first section's extent: bytes after TAG0 are reported as a size mismatch.
        const std::size_t tag0_size = ByteReader(file_, 0, Endian::Big).peek_at<std::uint32_t>(0, "TAG0 header") & 0x3FFFFFFF;
        auto top = parse_sections(file_.first(std::min(file_.size(), std::max<std::size_t>(tag0_size, 8))), 0, "file");
        if (top.size() != 1 || top[0].tag != "TAG0")
            throw Error(fmt::format("expected one TAG0 section, found {}", top.empty() ? "none" : top[0].tag), 0, "TAG0");
        if (top[0].leaf) throw Error("TAG0 must be a container (bit 30 clear)", 0, "TAG0");
        if (top[0].size != file_.size())
            throw Error(fmt::format("TAG0 size {} differs from the file size {}", hex(top[0].size), hex(file_.size())), 0, "TAG0");
        auto children = parse_sections(top[0].payload, 8, "TAG0");
        expect_order(children, {"SDKV", "DATA", "TYPE|TCRF", "INDX"}, "TAG0", 8);
        parse_sdkv(children[0]);
        expect_leaf(children[1], true);
        out_.data = children[1].payload;
        out_.data_offset = children[1].payload_offset();
        if (children[2].tag == "TCRF")
            throw Error("the file has no TYPE section: its types live in a compendium (TCRF), and reading with a "
                        "compendium is not supported yet", children[2].offset, "TCRF");
        parse_type_section(children[2]);
        parse_index(children[3]);
        if (options_.verify_objects) verify_objects();
    }

private:
    void warn(std::uint64_t offset, std::string message) { out_.warnings.push_back(warning_at(offset, {}, std::move(message))); }

    void expect_leaf(const Section& s, bool leaf) {
        if (s.leaf != leaf)
            throw Error(fmt::format("section {} must be a {} (bit 30 {})", s.tag, leaf ? "leaf" : "container",
                                    leaf ? "set" : "clear"),
                        s.offset, s.tag);
    }

    /// Checks that `got` has exactly the tags of `want` in order ("A|B" accepts either).
    void expect_order(const std::vector<Section>& got, std::vector<std::string> want, const std::string& parent,
                      std::uint64_t parent_payload) {
        for (std::size_t i = 0; i < want.size(); ++i) {
            if (i >= got.size())
                throw Error(fmt::format("{} ends after {} sections; expected {} next", parent, got.size(), want[i]),
                            parent_payload, parent);
            bool ok = false;
            std::string_view w = want[i];
            for (std::size_t p = 0; p <= w.size();) {
                std::size_t bar = w.find('|', p);
                if (bar == std::string_view::npos) bar = w.size();
                if (w.substr(p, bar - p) == got[i].tag) ok = true;
                p = bar + 1;
            }
            if (!ok)
                throw Error(fmt::format("expected section {} here, found {}", want[i], got[i].tag), got[i].offset, parent);
        }
        if (got.size() > want.size())
            throw Error(fmt::format("unexpected section {} after {}", got[want.size()].tag, want.back()),
                        got[want.size()].offset, parent);
    }

    void parse_sdkv(const Section& s) {
        expect_leaf(s, true);
        if (s.payload.size() != 8)
            throw Error(fmt::format("SDKV payload is {} bytes; expected 8 ASCII digits", s.payload.size()), s.offset, "SDKV");
        out_.sdk_version.assign(s.payload.begin(), s.payload.end());
        for (char c : out_.sdk_version)
            if (c < '0' || c > '9')
                throw Error(fmt::format("SDKV \"{}\" is not 8 ASCII digits", out_.sdk_version), s.offset, "SDKV");
    }

    // ---- TYPE ----------------------------------------------------------------------------

    std::uint64_t varint(ByteReader& r, std::string_view field) {
        bool minimal = true;
        const std::size_t at = r.pos();
        std::uint64_t v = read_varint(r, field, &minimal);
        if (!minimal) ++nonminimal_, nonminimal_at_ = std::min(nonminimal_at_, r.absolute(at));
        return v;
    }
    std::uint32_t varint32(ByteReader& r, std::string_view field) {
        const std::size_t at = r.pos();
        std::uint64_t v = varint(r, field);
        if (v > 0xFFFFFFFFu) r.fail_at(at, fmt::format("{} {} does not fit 32 bits", field, v));
        return static_cast<std::uint32_t>(v);
    }
    TypeIndex type_ref(ByteReader& r, std::string_view field, bool allow_null = true) {
        const std::size_t at = r.pos();
        std::uint64_t v = varint(r, field);
        if ((v == 0 && !allow_null) || v > out_.types.size())
            r.fail_at(at, fmt::format("{} {} is not a type index (expected {}..{})", field, v, allow_null ? 0 : 1,
                                      out_.types.size()));
        return static_cast<TypeIndex>(v);
    }
    void finish_section(ByteReader& r, const Section& s) {
        for (std::size_t i = r.pos(); i < r.size(); ++i)
            if (s.payload[i] != 0) r.fail_at(i, fmt::format("{}: expected zero padding after the last record", s.tag));
        if (nonminimal_)
            warn(nonminimal_at_, fmt::format("{}: {} packed integers are not in their shortest form", s.tag, nonminimal_));
        nonminimal_ = 0, nonminimal_at_ = kNoOffset;
    }

    /// The TYPE section from the thread's cache when these exact bytes were parsed before.
    void parse_type_section(const Section& type) {
        expect_leaf(type, false);
        const Bytes bytes = file_.subspan(type.offset, type.size);
        const std::size_t hash = TypeSectionCache::hash_of(bytes);
        TypeSectionCache& cache = TypeSectionCache::of_this_thread();
        if (const ParsedTypeSection* hit = cache.find(bytes, hash)) {
            out_.types = hit->types;
            out_.style = hit->style;
            out_.hashes = hit->hashes;
            thsh_offset_ = hit->thsh_from_type == kNoOffset ? kNoOffset : type.offset + hit->thsh_from_type;
            return;
        }
        const std::size_t warnings = out_.warnings.size();
        parse_type_records(type);
        if (out_.warnings.size() != warnings) return;
        cache.add({std::vector<std::uint8_t>(bytes.begin(), bytes.end()), hash, out_.types, out_.style, out_.hashes,
                   thsh_offset_ == kNoOffset ? kNoOffset : thsh_offset_ - type.offset});
    }

    void parse_type_records(const Section& type) {
        auto subs = parse_sections(type.payload, type.payload_offset(), "TYPE");
        std::vector<std::string> want = {"TPTR", "TSTR", "TNA1|TNAM", "FSTR", "TBDY|TBOD"};
        std::size_t optional = 0;
        if (subs.size() > want.size() && subs[want.size()].tag == "THSH") want.push_back("THSH"), ++optional;
        if (subs.size() > want.size() && subs[want.size()].tag == "TPAD") want.push_back("TPAD"), ++optional;
        expect_order(subs, want, "TYPE", type.payload_offset());
        for (const Section& s : subs) expect_leaf(s, true);
        out_.style.tna1 = subs[2].tag == "TNA1";
        if ((subs[4].tag == "TBDY") != out_.style.tna1)
            warn(subs[4].offset, fmt::format("{} with {}: name and body tags come from different SDK versions", subs[2].tag, subs[4].tag));
        out_.style.thsh = std::find(want.begin(), want.end(), "THSH") != want.end();
        out_.style.tpad = std::find(want.begin(), want.end(), "TPAD") != want.end();
        if (!out_.style.thsh) warn(type.offset, "no THSH section (type hashes are optional on read)");

        const auto tstr = parse_strings(subs[1]);
        const auto fstr = parse_strings(subs[3]);
        parse_names(subs[2], tstr);
        const Section& tptr = subs[0];
        if (tptr.payload.size() != 8 * (out_.types.size() + 1))
            throw Error(fmt::format("TPTR payload is {} bytes; expected 8 x (types + 1) = {}", tptr.payload.size(),
                                    8 * (out_.types.size() + 1)),
                        tptr.offset, "TPTR");
        for (std::size_t i = 0; i < tptr.payload.size(); ++i)
            if (tptr.payload[i]) throw Error("TPTR byte is not zero", tptr.payload_offset() + i, "TPTR");
        parse_bodies(subs[4], fstr);
        if (out_.style.thsh) parse_hashes(subs[5]), thsh_offset_ = subs[5].offset;
        if (out_.style.tpad && !subs.back().payload.empty())
            warn(subs.back().offset, "TPAD is not empty");
        resolve_types(subs[4]);
    }

    void parse_names(const Section& s, const std::vector<std::string>& tstr) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context(s.tag);
        const std::uint64_t count = varint(r, "type count");
        // Each entry takes at least 2 bytes (name, parameter count).
        if (count == 0 || count - 1 > r.remaining() / 2)
            r.fail_at(0, fmt::format("type count {} (types + 1) does not fit the {} bytes of {}", count, s.payload.size(), s.tag));
        out_.types.resize(count - 1);
        auto string_at = [&](std::size_t at, std::uint64_t index) -> const std::string& {
            if (index >= tstr.size())
                r.fail_at(at, fmt::format("type-name string index {} out of range (TSTR has {})", index, tstr.size()));
            return tstr[index];
        };
        for (TypeIndex t = 1; t < count; ++t) {
            Type& type = out_.types.at(t);
            std::size_t at = r.pos();
            type.name = string_at(at, varint(r, "name index"));
            const std::uint64_t params = varint(r, "parameter count");
            if (params > r.remaining() / 2) r.fail(fmt::format("type {}: {} template parameters do not fit", t, params));
            for (std::uint64_t p = 0; p < params; ++p) {
                TemplateParam param;
                at = r.pos();
                param.name = string_at(at, varint(r, "parameter name index"));
                if (param.name.empty() || (param.name[0] != 't' && param.name[0] != 'v'))
                    r.fail_at(at, fmt::format("type {} parameter \"{}\": expected a name starting with 't' or 'v'", t, param.name));
                at = r.pos();
                param.value = varint(r, "parameter value");
                if (param.is_type() && param.value > out_.types.size())
                    r.fail_at(at, fmt::format("type {} parameter {} names type {} (only {} types)", t, param.name, param.value, out_.types.size()));
                type.params.push_back(std::move(param));
            }
        }
        finish_section(r, s);
    }

    void parse_bodies(const Section& s, const std::vector<std::string>& fstr) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context(s.tag);
        body_offset_.assign(out_.types.size() + 1, kNoOffset);
        while (!r.at_end()) {
            const std::size_t at = r.pos();
            const std::uint64_t index = varint(r, "type index");
            if (index == 0) break;  // padding
            if (index > out_.types.size())
                r.fail_at(at, fmt::format("body for type {} but there are only {} types", index, out_.types.size()));
            const TypeIndex t = static_cast<TypeIndex>(index);
            if (body_offset_[t] != kNoOffset)
                r.fail_at(at, fmt::format("second body for type {} ({}); the first is at {}", t, out_.types[t].name, hex(body_offset_[t])));
            body_offset_[t] = r.absolute(at);
            out_.types.body_order.push_back(t);
            r.set_context(fmt::format("{}: type {} ({})", s.tag, t, out_.types[t].name));
            parse_body(r, out_.types.at(t), fstr);
            r.set_context(s.tag);
        }
        finish_section(r, s);
        for (TypeIndex t = 1; t <= out_.types.size(); ++t)
            if (body_offset_[t] == kNoOffset)
                throw Error(fmt::format("type {} ({}) has no body; every type needs exactly one", t, out_.types[t].name),
                            s.offset, s.tag);
    }

    void parse_body(ByteReader& r, Type& type, const std::vector<std::string>& fstr) {
        type.parent = type_ref(r, "parent");
        const std::size_t opt_at = r.pos();
        type.optionals = varint32(r, "optionals");
        if (type.optionals & ~0x7Fu)
            r.fail_at(opt_at, fmt::format("optional bits {} include attributes (0x80) or unknown bits", hex(type.optionals)));
        if (type.optionals & kOptFormat) type.format = varint32(r, "format");
        if (type.optionals & kOptSubtype) type.subtype = type_ref(r, "subtype");
        if (type.optionals & kOptVersion) type.version = varint32(r, "version");
        if (type.optionals & kOptSizeAlign) {
            type.size = varint32(r, "size");
            const std::size_t at = r.pos();
            type.alignment = varint32(r, "alignment");
            // DSR hkpConstraintAtom stores 0xF010: bits 12+ of unknown meaning (spec gap), kept.
            const std::uint32_t low = type.alignment & 0xFFF;
            if (low & (low - 1))
                warn(r.absolute(at), fmt::format("type {}: alignment {} is not a power of two (kept verbatim)", type.name, hex(type.alignment)));
        }
        if (type.optionals & kOptFlags) type.flags = varint32(r, "type flags");
        if (type.optionals & kOptMembers) {
            const std::uint32_t count = varint32(r, "member count");
            const std::uint32_t fields = count & 0xFFFF;
            type.property_count = count >> 16;
            if (fields > r.remaining() / 4) r.fail(fmt::format("{} members do not fit the remaining {} bytes", fields, r.remaining()));
            for (std::uint32_t i = 0; i < fields; ++i) {
                Member m;
                const std::size_t at = r.pos();
                const std::uint64_t name = varint(r, "member name index");
                if (name >= fstr.size())
                    r.fail_at(at, fmt::format("member name index {} out of range (FSTR has {})", name, fstr.size()));
                m.name = fstr[name];
                m.flags = varint32(r, "member flags");
                m.offset = varint32(r, "member offset");
                m.type = type_ref(r, "member type", false);
                type.members.push_back(std::move(m));
            }
        }
        if (type.optionals & kOptInterfaces) {
            const std::uint64_t count = varint(r, "interface count");
            if (count > r.remaining() / 2) r.fail(fmt::format("{} interfaces do not fit", count));
            for (std::uint64_t i = 0; i < count; ++i) {
                Interface itf;
                itf.type = type_ref(r, "interface type", false);
                itf.offset = varint32(r, "interface offset");
                type.interfaces.push_back(itf);
            }
        }
    }

    void parse_hashes(const Section& s) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context(s.tag);
        const std::uint64_t count = varint(r, "hash count");
        if (count > r.remaining() / 5) r.fail_at(0, fmt::format("{} hashes do not fit the {} bytes of THSH", count, s.payload.size()));
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::size_t at = r.pos();
            TypeHash h;
            h.type = type_ref(r, "hashed type", false);
            h.hash = r.u32("hash");
            Type& type = out_.types.at(h.type);
            if (type.hash) r.fail_at(at, fmt::format("second hash for type {} ({})", h.type, type.name));
            type.hash = h.hash;
            out_.hashes.push_back(h);
        }
        finish_section(r, s);
    }

    void resolve_types(const Section& tbdy) {
        TypeTable& types = out_.types;
        try {
            types.resolve();
        } catch (Error& e) {
            throw Error(e.message(), tbdy.offset, tbdy.tag);
        }
        // Sizes against kinds and members: a value must hold what it declares.
        for (TypeIndex t = 1; t <= types.size(); ++t) {
            const Type& type = types[t];
            auto fail = [&](const std::string& what) {
                throw Error(fmt::format("type {} ({}): {}", t, types.full_name(t), what), body_offset_[t], tbdy.tag);
            };
            const std::uint32_t size = type.resolved_size;
            switch (type.kind()) {
                case Kind::Pointer:
                case Kind::String:
                    if (size != 8) fail(fmt::format("a pointer or string must be 8 bytes, not {}", size));
                    break;
                case Kind::Bool:
                case Kind::Int:
                    if (size != 1 && size != 2 && size != 4 && size != 8) fail(fmt::format("integer size {} is not 1, 2, 4 or 8", size));
                    break;
                case Kind::Float:
                    if (size != 2 && size != 4 && size != 8) fail(fmt::format("float size {} is not 2, 4 or 8", size));
                    break;
                case Kind::Array:
                    if (type.is_inline_array()) {
                        const TypeIndex elem = type.resolved_subtype;
                        if (elem == 0) fail("inline array without an element type");
                        if (std::uint64_t{types[elem].resolved_size} * type.inline_count() > size)
                            fail(fmt::format("size {} does not hold {} elements of {} bytes", size, type.inline_count(),
                                             types[elem].resolved_size));
                    }
                    break;
                default:
                    break;
            }
            if (type.kind() > Kind::Array) fail(fmt::format("format kind {} is not 0..8", type.resolved_format & 0xF));
            for (const Member& m : type.members) {
                const std::uint32_t msize = types[m.type].resolved_size;
                if (std::uint64_t{m.offset} + msize > size)
                    fail(fmt::format("size {} does not hold member {} (offset {}, {} bytes)", size, m.name, m.offset, msize));
            }
        }
    }

    // ---- INDX ----------------------------------------------------------------------------

    void parse_index(const Section& indx) {
        expect_leaf(indx, false);
        auto subs = parse_sections(indx.payload, indx.payload_offset(), "INDX");
        expect_order(subs, {"ITEM", "PTCH"}, "INDX", indx.payload_offset());
        for (const Section& s : subs) expect_leaf(s, true);
        parse_items(subs[0]);
        parse_patches(subs[1]);
    }

    void parse_items(const Section& s) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context("ITEM");
        if (s.payload.size() % 12)
            r.fail_at(0, fmt::format("ITEM payload of {} bytes is not a multiple of 12", s.payload.size()));
        const std::size_t n = s.payload.size() / 12;
        if (n < 2) r.fail_at(0, "ITEM needs the null item and the root item");
        out_.items.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = r.pos();
            const std::uint32_t word = r.u32("type and kind");
            Item item;
            item.offset = r.u32("DATA offset");
            item.count = r.u32("count");
            item.type = word & 0xFFFFFF;
            const std::uint32_t kind = word >> 24;
            r.set_context(fmt::format("ITEM {}", i));
            if (i == 0) {
                if (word || item.offset || item.count) r.fail_at(at, "item 0 must be all zero");
                r.set_context("ITEM");
                continue;
            }
            if (kind != 0x10 && kind != 0x20)
                r.fail_at(at, fmt::format("kind {} is neither 0x10 (pointer) nor 0x20 (array)", hex(kind)));
            item.kind = static_cast<ItemKind>(kind);
            if (!out_.types.valid(item.type))
                r.fail_at(at, fmt::format("type {} is not a type index (1..{})", item.type, out_.types.size()));
            if (item.kind == ItemKind::Pointer && item.count != 1)
                r.fail_at(at + 8, fmt::format("pointer item count is {}; expected 1", item.count));
            const std::uint64_t esize = out_.types[item.type].resolved_size;
            if (esize == 0 && item.count)
                r.fail_at(at, fmt::format("item type {} ({}) has size 0", item.type, out_.types.full_name(item.type)));
            if (item.offset > out_.data.size() || esize * item.count > out_.data.size() - item.offset)
                r.fail_at(at + 4, fmt::format("{} x {} bytes at DATA offset {} run past the end of DATA ({} bytes)",
                                              item.count, esize, hex(item.offset), hex(out_.data.size())));
            out_.items[i] = item;
            r.set_context("ITEM");
        }
        const Item& root = out_.items[1];
        if (root.kind != ItemKind::Pointer || out_.types[root.type].name != "hkRootLevelContainer")
            throw Error(fmt::format("item 1 is {} of {}; expected a pointer item of hkRootLevelContainer",
                                    root.kind == ItemKind::Pointer ? "a pointer item" : "an array item",
                                    out_.types.full_name(root.type)),
                        s.payload_offset() + 12, "ITEM 1");
    }

    void parse_patches(const Section& s) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context("PTCH");
        TypeIndex last = 0;
        while (!r.at_end()) {
            const std::size_t at = r.pos();
            PatchGroup g;
            g.type = r.u32("patch type");
            const std::uint32_t count = r.u32("patch count");
            if (!out_.types.valid(g.type)) r.fail_at(at, fmt::format("patch type {} is not a type index", g.type));
            if (count > r.remaining() / 4) r.fail_at(at + 4, fmt::format("{} offsets do not fit the rest of PTCH", count));
            if (g.type <= last) warn(r.absolute(at), fmt::format("PTCH group of type {} is not in ascending type order", g.type));
            last = std::max(last, g.type);
            g.offsets.resize(count);
            for (std::uint32_t i = 0; i < count; ++i) {
                g.offsets[i] = r.u32("patch offset");
                if (std::uint64_t{g.offsets[i]} + 8 > out_.data.size())
                    r.fail_at(r.pos() - 4, fmt::format("patch offset {} is outside DATA ({} bytes)", hex(g.offsets[i]), hex(out_.data.size())));
                if (i && g.offsets[i] <= g.offsets[i - 1])
                    warn(r.absolute(r.pos() - 4), fmt::format("PTCH offsets of type {} are not ascending", g.type));
            }
            out_.patches.push_back(std::move(g));
        }
    }

    // ---- object walk ---------------------------------------------------------------------

    std::uint64_t data_abs(std::uint64_t offset) const { return out_.data_offset + offset; }

    [[noreturn]] void fail_data(std::uint64_t offset, ItemIndex item, std::string message) const {
        throw Error(std::move(message), data_abs(offset),
                    fmt::format("DATA item {} ({})", item, out_.types.full_name(out_.items[item].type)));
    }

    void verify_objects() {
        const TypeTable& types = out_.types;
        Layouts layouts(types);
        std::vector<std::uint32_t> refcount(out_.items.size(), 0);
        std::unordered_map<TypeIndex, std::vector<std::uint32_t>> found;
        const Bytes data = out_.data;
        // Placement first: overlapping items would make the walk revisit bytes without bound.
        check_item_placement();
        for (ItemIndex i = 1; i < out_.items.size(); ++i) {
            const Item& item = out_.items[i];
            const std::uint32_t esize = types[item.type].resolved_size;
            const Layout* layout;
            try {
                layout = &layouts.of(item.type);
            } catch (Error& e) {
                fail_data(item.offset, i, e.message());
            }
            if (layout->plain()) continue;
            for (std::uint32_t e = 0; e < item.count; ++e) {
                const std::uint32_t base = item.offset + e * esize;
                for (const RefLeaf& leaf : layout->refs) check_ref(i, e, base + leaf.offset, leaf, refcount, found);
                for (const ZeroRange& z : layout->zeros) {
                    const std::uint8_t* p = data.data() + base + z.offset;
                    for (std::uint32_t k = 0; k < z.size; ++k)
                        if (p[k])
                            fail_data(base + z.offset + k, i,
                                      fmt::format("element {}: byte {} of a gap or non-serialized member is {}; expected 0",
                                                  e, z.offset + k, hex(p[k])));
                }
            }
        }
        check_references(refcount);
        compare_patches(found);
        compare_hashes(found);
    }

    void check_ref(ItemIndex owner, std::uint32_t element, std::uint32_t at, const RefLeaf& leaf,
                   std::vector<std::uint32_t>& refcount, std::unordered_map<TypeIndex, std::vector<std::uint32_t>>& found) {
        const TypeTable& types = out_.types;
        std::uint64_t index;
        std::memcpy(&index, out_.data.data() + at, 8);
        if (leaf.kind == Kind::Array) {
            std::uint64_t size_cap;
            std::memcpy(&size_cap, out_.data.data() + at + 8, 8);
            if (size_cap)
                fail_data(at + 8, owner, fmt::format("element {}: {} size/capacity words are {}; expected 0 (the item count gives the length)",
                                                     element, types.full_name(leaf.field_type), hex(size_cap)));
        }
        if (index == 0) return;
        const Type& ftype = types[leaf.field_type];
        auto what = [&] { return fmt::format("element {}: {} field", element, types.full_name(leaf.field_type)); };
        if (index >= out_.items.size())
            fail_data(at, owner, fmt::format("{} references item {} (only {} items)", what(), index, out_.items.size() - 1));
        const Item& target = out_.items[index];
        switch (leaf.kind) {
            case Kind::Pointer: {
                if (target.kind != ItemKind::Pointer)
                    fail_data(at, owner, fmt::format("{} references item {}, an array item; expected a pointer item", what(), index));
                const TypeIndex want = ftype.resolved_subtype;
                if (want && types[want].kind() != Kind::Void && !types.derives_from(target.type, want))
                    fail_data(at, owner, fmt::format("{} references item {} of type {}, which does not derive from {}", what(),
                                                     index, types.full_name(target.type), types.full_name(want)));
                break;
            }
            case Kind::String: {
                if (target.kind != ItemKind::Array || types[target.type].name != "char")
                    fail_data(at, owner, fmt::format("{} references item {}; expected an array item of char", what(), index));
                if (target.count == 0 || out_.data[target.offset + target.count - 1] != 0)
                    fail_data(at, owner, fmt::format("string item {} does not end with a NUL", index));
                break;
            }
            default: {
                if (target.kind != ItemKind::Array)
                    fail_data(at, owner, fmt::format("{} references item {}, a pointer item; expected an array item", what(), index));
                if (target.type != ftype.resolved_subtype)
                    fail_data(at, owner, fmt::format("{} references item {} of {}; expected elements of {}", what(), index,
                                                     types.full_name(target.type), types.full_name(ftype.resolved_subtype)));
                break;
            }
        }
        ++refcount[index];
        found[leaf.field_type].push_back(at);
    }

    /// Every item but the root referenced; arrays once (§13).
    void check_references(const std::vector<std::uint32_t>& refcount) {
        const TypeTable& types = out_.types;
        for (ItemIndex i = 2; i < out_.items.size(); ++i) {
            const Item& item = out_.items[i];
            if (refcount[i] == 0) fail_data(item.offset, i, fmt::format("item {} is not referenced by any field", i));
            if (item.kind == ItemKind::Array && refcount[i] > 1 && types[item.type].name != "char")
                warn(data_abs(item.offset), fmt::format("array item {} is referenced {} times", i, refcount[i]));
        }
        if (refcount[1]) warn(data_abs(out_.items[1].offset), "the root item 1 is referenced by a field");
    }

    /// Items against each other: no overlap, zero gaps, alignment (§5.5), end padding.
    void check_item_placement() {
        const TypeTable& types = out_.types;
        std::vector<ItemIndex> order(out_.items.size() - 1);
        for (ItemIndex i = 1; i < out_.items.size(); ++i) order[i - 1] = i;
        std::stable_sort(order.begin(), order.end(), [&](ItemIndex a, ItemIndex b) { return out_.items[a].offset < out_.items[b].offset; });
        std::uint64_t pos = 0;
        bool misaligned = false;
        for (ItemIndex i : order) {
            const Item& item = out_.items[i];
            const std::uint64_t bytes = std::uint64_t{types[item.type].resolved_size} * item.count;
            if (item.offset < pos)
                fail_data(item.offset, i, fmt::format("item {} overlaps the item before it in DATA (which ends at {})", i, hex(pos)));
            check_zero(pos, item.offset, "gap between items");
            const std::uint32_t align = item_alignment(item);
            if (!misaligned && align > 1 && item.offset % align) {
                warn(data_abs(item.offset), fmt::format("item {} at DATA offset {} is not aligned to {} (spec §5.5)", i, hex(item.offset), align));
                misaligned = true;
            }
            pos = item.offset + bytes;
        }
        check_zero(pos, out_.data.size(), "DATA after the last item");
        if (out_.data.size() - pos >= 16 || out_.data.size() % 16)
            warn(data_abs(pos), fmt::format("DATA is {} bytes; the writer pads the last item's end ({}) to 16", hex(out_.data.size()), hex(pos)));
    }

    std::uint32_t item_alignment(const Item& item) const {
        const Type& t = out_.types[item.type];
        if (item.kind == ItemKind::Pointer) return t.resolved_alignment;
        if (t.name == "char") return 2;
        return std::max<std::uint32_t>(16, t.resolved_alignment);
    }

    void check_zero(std::uint64_t from, std::uint64_t to, const char* what) const {
        for (std::uint64_t k = from; k < to; ++k)
            if (out_.data[k])
                throw Error(fmt::format("{}: byte is {}; expected 0", what, hex(out_.data[k])), data_abs(k), "DATA");
    }

    void compare_patches(std::unordered_map<TypeIndex, std::vector<std::uint32_t>>& found) {
        std::unordered_map<TypeIndex, const PatchGroup*> file;
        for (const PatchGroup& g : out_.patches) {
            if (file.count(g.type))
                throw Error(fmt::format("two PTCH groups for type {}", out_.types.full_name(g.type)), kNoOffset, "PTCH");
            file[g.type] = &g;
        }
        for (auto& [type, offsets] : found) {
            std::sort(offsets.begin(), offsets.end());
            auto it = file.find(type);
            std::vector<std::uint32_t> listed;
            if (it != file.end()) listed = it->second->offsets, std::sort(listed.begin(), listed.end());
            if (listed != offsets) {
                std::vector<std::uint32_t> missing;
                std::set_difference(offsets.begin(), offsets.end(), listed.begin(), listed.end(), std::back_inserter(missing));
                if (!missing.empty())
                    throw Error(fmt::format("PTCH does not list the {} field at DATA offset {} ({} of {} missing)",
                                            out_.types.full_name(type), hex(missing[0]), missing.size(), offsets.size()),
                                data_abs(missing[0]), "PTCH");
                std::vector<std::uint32_t> extra;
                std::set_difference(listed.begin(), listed.end(), offsets.begin(), offsets.end(), std::back_inserter(extra));
                throw Error(fmt::format("PTCH lists DATA offset {} for {}, which holds no such non-null reference",
                                        hex(extra.empty() ? 0 : extra[0]), out_.types.full_name(type)),
                            data_abs(extra.empty() ? 0 : extra[0]), "PTCH");
            }
        }
        for (const PatchGroup& g : out_.patches)
            if (!found.count(g.type))
                throw Error(fmt::format("PTCH group of {} lists {} offsets, but no such reference field is set",
                                        out_.types.full_name(g.type), g.offsets.size()),
                            g.offsets.empty() ? kNoOffset : data_abs(g.offsets[0]), "PTCH");
    }

    void compare_hashes(const std::unordered_map<TypeIndex, std::vector<std::uint32_t>>& found) {
        if (!out_.style.thsh) return;
        std::vector<bool> want(out_.types.size() + 1, false);
        for (ItemIndex i = 1; i < out_.items.size(); ++i) want[out_.items[i].type] = true;
        for (const auto& [type, offsets] : found) want[type] = true;
        for (TypeIndex t = 1; t <= out_.types.size(); ++t) {
            const bool has = out_.types[t].hash.has_value();
            if (want[t] && !has)
                throw Error(fmt::format("THSH has no hash for {}, an item or patch type", out_.types.full_name(t)), thsh_offset_, "THSH");
            if (!want[t] && has)
                throw Error(fmt::format("THSH hashes {}, which is neither an item nor a patch type", out_.types.full_name(t)),
                            thsh_offset_, "THSH");
        }
    }

    Bytes file_;
    const ReadOptions& options_;
    Tagfile& out_;
    std::vector<std::uint64_t> body_offset_;
    std::uint64_t thsh_offset_ = kNoOffset;
    std::size_t nonminimal_ = 0;
    std::uint64_t nonminimal_at_ = kNoOffset;
};

}  // namespace

Tagfile read_tagfile(Bytes bytes, const ReadOptions& options) {
    Tagfile out;
    Reader(bytes, options, out).run();
    return out;
}

Tagfile read_tagfile(const SharedBytes& bytes, const ReadOptions& options) {
    Tagfile out = read_tagfile(bytes.span(), options);
    out.owner = bytes;
    return out;
}

Tagfile load_tagfile(const std::filesystem::path& path, const ReadOptions& options) {
    const SharedBytes file = SharedBytes::map_file(path);
    try {
        return read_tagfile(file, options);
    } catch (Error& e) {
        e.set_file(path.string());
        throw;
    }
}

bool looks_like_tagfile(Bytes bytes) noexcept {
    return bytes.size() >= 8 && std::memcmp(bytes.data() + 4, "TAG0", 4) == 0;
}

}  // namespace navlab::havok
