#include "havok/tagfile.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <string_view>

#include "havok/object.h"
#include "havok/sections.h"
#include "havok/varint.h"
#include "havok/verify.h"

namespace navlab::havok {
namespace {

/// A string table (TSTR/FSTR): NUL-terminated strings, then up to 3 zero bytes. The strings
/// view the section's payload (the reader's copy of the TYPE section, which the type table
/// holds), so a table of hundreds of names costs one vector.
std::vector<std::string_view> parse_strings(const Section& s) {
    ByteReader r(s.payload, s.payload_offset());
    r.set_context(std::string(s.tag()));
    std::size_t end = s.payload.size();
    while (end > 0 && s.payload[end - 1] == 0) --end;
    // `end` is the last non-zero byte + 1; the string there needs its NUL.
    std::vector<std::string_view> out;
    if (end == 0) {
        if (s.payload.size() >= 4) r.fail_at(0, "string table is empty but its payload holds 4 or more zero bytes");
        return out;
    }
    const std::size_t content = end + 1;
    if (s.payload.size() - content > 3)
        r.fail_at(content, fmt::format("{} zero bytes after the last string; expected at most 3 bytes of padding",
                                       s.payload.size() - content));
    // Every NUL before `content` ends one string (empty ones too): that many strings. Counted
    // with memchr, not a byte loop: the fuzz build traces every comparison of a loop.
    std::size_t strings = 0;
    for (const auto* p = s.payload.data(); (p = static_cast<const std::uint8_t*>(
                                                std::memchr(p, 0, s.payload.data() + content - p))) != nullptr;
         ++p)
        ++strings;
    out.reserve(strings);
    // The NUL at `end` ends every string that starts before it, so the one failure left is
    // ByteReader::cstring_at's length limit: that case goes to cstring_at, which throws it.
    constexpr std::size_t kMaxString = std::size_t{1} << 20;  // cstring_at's default limit
    const char* chars = reinterpret_cast<const char*>(s.payload.data());
    std::size_t pos = 0;
    while (pos < content) {
        const std::size_t length = std::strlen(chars + pos);
        if (length >= kMaxString) (void)r.cstring_at(pos, "string", kMaxString);
        out.emplace_back(chars + pos, length);
        pos += length + 1;
    }
    return out;
}

/// A copy of a TYPE section (header included): the names of the table parsed from it view
/// these bytes, and the table holds them (TypeTable::hold_names).
using HeldTypeSection = std::shared_ptr<const std::vector<std::uint8_t>>;

/// What parse_type_section produces from a TYPE section's bytes alone.
struct ParsedTypeSection {
    HeldTypeSection bytes;            ///< the whole section, header included: the key (shared with `types`)
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
    /// The entry parsed from exactly these bytes. Compared byte for byte, size first (the
    /// sections of one corpus differ in size more often than not): hashing every section
    /// to skip the compares cost more than the compares.
    const ParsedTypeSection* find(Bytes bytes) const {
        for (const ParsedTypeSection& e : entries_)
            if (e.bytes && e.bytes->size() == bytes.size() && std::memcmp(e.bytes->data(), bytes.data(), bytes.size()) == 0)
                return &e;
        return nullptr;
    }
    void add(ParsedTypeSection entry) { entries_[next_++ % entries_.size()] = std::move(entry); }
    bool holds(const TypeTable& types) const {
        for (const ParsedTypeSection& e : entries_)
            if (e.types.shares_records_with(types)) return true;
        return false;
    }

private:
    std::array<ParsedTypeSection, kTypeTablesKept> entries_;
    std::size_t next_ = 0;
};

}  // namespace

bool type_table_is_kept(const TypeTable& types) { return TypeSectionCache::of_this_thread().holds(types); }

namespace {

/// Parsing state shared by the steps of read_tagfile: sections, type table, index. The object
/// walk of the strict checks is verify_objects (verify.h).
class Reader {
public:
    Reader(Bytes file, const ReadOptions& options, Tagfile& out) : file_(file), options_(options), out_(out) {}

    void run() {
        out_.file = file_;
        if (file_.size() < 8) throw Error(fmt::format("file of {} bytes is too small for a TAG0 header", file_.size()), 0, "TAG0");
        // The tag before the size: a file of another kind (an .emevd, a binder read as a
        // tagfile) would otherwise be refused for whatever its first word says as a size.
        if (!looks_like_tagfile(file_))
            throw Error(fmt::format("not a Havok tagfile: bytes 4-7 are \"{}\" ({:02X}), where a tagfile has the tag TAG0",
                                    printable_tag(file_.subspan(4, 4)), fmt::join(file_.subspan(4, 4), " ")),
                        4, "TAG0");
        // Only the first section's extent: bytes after TAG0 are reported as a size mismatch.
        const std::size_t tag0_size = ByteReader(file_, 0, Endian::Big).peek_at<std::uint32_t>(0, "TAG0 header") & 0x3FFFFFFF;
        // Exactly one section, TAG0: its tag is checked above, and its size spans these bytes.
        auto top = parse_sections(file_.first(std::min(file_.size(), std::max<std::size_t>(tag0_size, 8))), 0, "file");
        if (top[0].leaf) throw Error("TAG0 must be a container (bit 30 clear)", 0, "TAG0");
        if (top[0].size != file_.size())
            throw Error(fmt::format("TAG0 size {} differs from the file size {}", hex(top[0].size), hex(file_.size())), 0, "TAG0");
        auto children = parse_sections(top[0].payload, 8, "TAG0");
        constexpr std::string_view kTag0[] = {"SDKV", "DATA", "TYPE|TCRF", "INDX"};
        expect_order(children, kTag0, "TAG0", 8);
        parse_sdkv(children[0]);
        expect_leaf(children[1], true);
        out_.data = children[1].payload;
        out_.data_offset = children[1].payload_offset();
        if (children[2].tag() == "TCRF")
            throw Error("the file has no TYPE section: its types live in a compendium (TCRF), and reading with a "
                        "compendium is not supported yet", children[2].offset, "TCRF");
        parse_type_section(children[2]);
        parse_index(children[3]);
        if (options_.verify_objects) verify_objects(out_, thsh_offset_, ptch_offset_);
    }

private:
    void warn(std::uint64_t offset, std::string message) { out_.warnings.push_back(warning_at(offset, {}, std::move(message))); }

    void expect_leaf(const Section& s, bool leaf) {
        if (s.leaf != leaf)
            throw Error(fmt::format("section {} must be a {} (bit 30 {})", s.tag(), leaf ? "leaf" : "container",
                                    leaf ? "set" : "clear"),
                        s.offset, std::string(s.tag()));
    }

    /// Checks that `got` has exactly the tags of `want` in order ("A|B" accepts either).
    void expect_order(const SectionList& got, std::span<const std::string_view> want, std::string_view parent,
                      std::uint64_t parent_payload) {
        for (std::size_t i = 0; i < want.size(); ++i) {
            if (i >= got.size())
                throw Error(fmt::format("{} ends after {} sections; expected {} next", parent, got.size(), want[i]),
                            parent_payload, std::string(parent));
            if (!tag_is_one_of(got[i].tag(), want[i]))
                throw Error(fmt::format("expected section {} here, found {}", want[i], got[i].tag()), got[i].offset,
                            std::string(parent));
        }
        if (got.size() > want.size())
            throw Error(fmt::format("unexpected section {} after {}", got[want.size()].tag(), want.back()),
                        got[want.size()].offset, std::string(parent));
    }

    /// Whether `tag` is one of `alternatives`, 4-character tags joined by '|' (every tag is 4
    /// characters). Compared 4 bytes at a time: splitting at the bars with find and comparing
    /// the pieces was ≈ 360 instructions a container (1.1 M on Sekiro).
    static bool tag_is_one_of(std::string_view tag, std::string_view alternatives) {
        for (std::size_t p = 0; p + 4 <= alternatives.size(); p += 5)
            if (std::memcmp(alternatives.data() + p, tag.data(), 4) == 0) return true;
        return false;
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
            if (s.payload[i] != 0) r.fail_at(i, fmt::format("{}: expected zero padding after the last record", s.tag()));
        if (nonminimal_)
            warn(nonminimal_at_, fmt::format("{}: {} packed integers are not in their shortest form", s.tag(), nonminimal_));
        nonminimal_ = 0, nonminimal_at_ = kNoOffset;
    }

    /// The TYPE section from the thread's cache when these exact bytes were parsed before.
    void parse_type_section(const Section& type) {
        expect_leaf(type, false);
        const Bytes bytes = file_.subspan(type.offset, type.size);
        TypeSectionCache& cache = TypeSectionCache::of_this_thread();
        if (const ParsedTypeSection* hit = cache.find(bytes)) {
            out_.types = hit->types;
            out_.style = hit->style;
            out_.hashes = hit->hashes;
            thsh_offset_ = hit->thsh_from_type == kNoOffset ? kNoOffset : type.offset + hit->thsh_from_type;
            return;
        }
        // Parsed from a copy the table keeps, so that names can view it (types.h); the same
        // copy is the cache's key. Offsets stay those of the file.
        const auto held = std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
        Section copy = type;
        copy.payload = Bytes(*held).subspan(8);
        const std::size_t warnings = out_.warnings.size();
        parse_type_records(copy, held);
        if (out_.warnings.size() != warnings) return;
        cache.add({held, out_.types, out_.style, out_.hashes,
                   thsh_offset_ == kNoOffset ? kNoOffset : thsh_offset_ - type.offset});
    }

    void parse_type_records(const Section& type, const HeldTypeSection& held) {
        auto subs = parse_sections(type.payload, type.payload_offset(), "TYPE");
        std::array<std::string_view, 7> all = {"TPTR", "TSTR", "TNA1|TNAM", "FSTR", "TBDY|TBOD"};
        std::size_t wanted = 5;
        if (subs.size() > wanted && subs[wanted].tag() == "THSH") all[wanted++] = "THSH";
        if (subs.size() > wanted && subs[wanted].tag() == "TPAD") all[wanted++] = "TPAD";
        const std::span<const std::string_view> want(all.data(), wanted);
        expect_order(subs, want, "TYPE", type.payload_offset());
        for (const Section& s : subs) expect_leaf(s, true);
        out_.style.tna1 = subs[2].tag() == "TNA1";
        if ((subs[4].tag() == "TBDY") != out_.style.tna1)
            warn(subs[4].offset, fmt::format("{} with {}: name and body tags come from different SDK versions", subs[2].tag(), subs[4].tag()));
        out_.style.thsh = std::find(want.begin(), want.end(), "THSH") != want.end();
        out_.style.tpad = std::find(want.begin(), want.end(), "TPAD") != want.end();
        if (!out_.style.thsh) warn(type.offset, "no THSH section (type hashes are optional on read)");

        const auto tstr = parse_strings(subs[1]);
        const auto fstr = parse_strings(subs[3]);
        parse_names(subs[2], tstr, held);
        const Section& tptr = subs[0];
        if (tptr.payload.size() != 8 * (out_.types.size() + 1))
            throw Error(fmt::format("TPTR payload is {} bytes; expected 8 x (types + 1) = {}", tptr.payload.size(),
                                    8 * (out_.types.size() + 1)),
                        tptr.offset, "TPTR");
        for (std::size_t i = 0; i < tptr.payload.size(); ++i)
            if (tptr.payload[i]) throw Error("TPTR byte is not zero", tptr.payload_offset() + i, "TPTR");
        parse_bodies(subs[4], fstr);
        if (out_.style.thsh) parse_hashes(subs[5]), thsh_offset_ = subs[5].offset;
        if (out_.style.tpad && !subs[wanted - 1].payload.empty())
            warn(subs[wanted - 1].offset, "TPAD is not empty");
        resolve_types(subs[4]);
    }

    /// The types with their names and template parameters; the names view `held`.
    void parse_names(const Section& s, const std::vector<std::string_view>& tstr, const HeldTypeSection& held) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context(std::string(s.tag()));
        const std::uint64_t count = varint(r, "type count");
        // Each entry takes at least 2 bytes (name, parameter count).
        if (count == 0 || count - 1 > r.remaining() / 2)
            r.fail_at(0, fmt::format("type count {} (types + 1) does not fit the {} bytes of {}", count, s.payload.size(), s.tag()));
        out_.types.resize(count - 1);
        out_.types.hold_names(held);
        auto string_at = [&](std::size_t at, std::uint64_t index) -> std::string_view {
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
            type.params.reserve(static_cast<std::size_t>(params));
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
                type.params.push_back(param);
            }
        }
        finish_section(r, s);
    }

    void parse_bodies(const Section& s, const std::vector<std::string_view>& fstr) {
        ByteReader r(s.payload, s.payload_offset());
        r.set_context(std::string(s.tag()));
        body_offset_.assign(out_.types.size() + 1, kNoOffset);
        out_.types.body_order.reserve(out_.types.size());
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
            // The type goes into the field path of a body's errors only when there is one:
            // formatting it for every body was a string per type.
            try {
                parse_body(r, out_.types.at(t), fstr);
            } catch (const Error& e) {
                throw Error(e.message(), e.offset(), fmt::format("{}: type {} ({})", s.tag(), t, out_.types[t].name));
            }
        }
        finish_section(r, s);
        for (TypeIndex t = 1; t <= out_.types.size(); ++t)
            if (body_offset_[t] == kNoOffset)
                throw Error(fmt::format("type {} ({}) has no body; every type needs exactly one", t, out_.types[t].name),
                            s.offset, std::string(s.tag()));
    }

    void parse_body(ByteReader& r, Type& type, const std::vector<std::string_view>& fstr) {
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
            type.members.reserve(fields);
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
                type.members.push_back(m);
            }
        }
        if (type.optionals & kOptInterfaces) {
            const std::uint64_t count = varint(r, "interface count");
            if (count > r.remaining() / 2) r.fail(fmt::format("{} interfaces do not fit", count));
            type.interfaces.reserve(static_cast<std::size_t>(count));
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
        r.set_context(std::string(s.tag()));
        const std::uint64_t count = varint(r, "hash count");
        if (count > r.remaining() / 5) r.fail_at(0, fmt::format("{} hashes do not fit the {} bytes of THSH", count, s.payload.size()));
        out_.hashes.reserve(static_cast<std::size_t>(count));
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
            throw Error(e.message(), tbdy.offset, std::string(tbdy.tag()));
        }
        // Sizes against kinds and members: a value must hold what it declares.
        for (TypeIndex t = 1; t <= types.size(); ++t) {
            const Type& type = types[t];
            auto fail = [&](const std::string& what) {
                throw Error(fmt::format("type {} ({}): {}", t, types.full_name(t), what), body_offset_[t], std::string(tbdy.tag()));
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
        constexpr std::string_view kIndx[] = {"ITEM", "PTCH"};
        expect_order(subs, kIndx, "INDX", indx.payload_offset());
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
        // Each record's three words loaded at once: n × 12 bytes are the payload, so no read
        // can fail (three bounds-checked reads a record were ≈ 15 of its ≈ 45 instructions).
        static_assert(std::endian::native == std::endian::little, "ITEM words are little-endian");
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = 12 * i;
            std::uint32_t words[3];
            std::memcpy(words, s.payload.data() + at, 12);
            const std::uint32_t word = words[0];
            Item item;
            item.offset = words[1];
            item.count = words[2];
            item.type = word & 0xFFFFFF;
            const std::uint32_t kind = word >> 24;
            // The item's number joins the field path only when it fails: formatting it for
            // every item cost more than checking the item.
            const auto fail_at = [&](std::size_t pos, std::string message) {
                r.set_context(fmt::format("ITEM {}", i));
                r.fail_at(pos, std::move(message));
            };
            if (i == 0) {
                if (word || item.offset || item.count) fail_at(at, "item 0 must be all zero");
                continue;
            }
            if (kind != 0x10 && kind != 0x20)
                fail_at(at, fmt::format("kind {} is neither 0x10 (pointer) nor 0x20 (array)", hex(kind)));
            item.kind = static_cast<ItemKind>(kind);
            if (!out_.types.valid(item.type))
                fail_at(at, fmt::format("type {} is not a type index (1..{})", item.type, out_.types.size()));
            if (item.kind == ItemKind::Pointer && item.count != 1)
                fail_at(at + 8, fmt::format("pointer item count is {}; expected 1", item.count));
            const std::uint64_t esize = out_.types[item.type].resolved_size;
            if (esize == 0 && item.count)
                fail_at(at, fmt::format("item type {} ({}) has size 0", item.type, out_.types.full_name(item.type)));
            if (item.offset > out_.data.size() || esize * item.count > out_.data.size() - item.offset)
                fail_at(at + 4, fmt::format("{} x {} bytes at DATA offset {} run past the end of DATA ({} bytes)",
                                        item.count, esize, hex(item.offset), hex(out_.data.size())));
            out_.items[i] = item;
        }
        const Item& root = out_.items[1];
        if (root.kind != ItemKind::Pointer || out_.types[root.type].name != "hkRootLevelContainer")
            throw Error(fmt::format("item 1 is {} of {}; expected a pointer item of hkRootLevelContainer",
                                    root.kind == ItemKind::Pointer ? "a pointer item" : "an array item",
                                    out_.types.full_name(root.type)),
                        s.payload_offset() + 12, "ITEM 1");
    }

    void parse_patches(const Section& s) {
        ptch_offset_ = s.payload_offset();
        ByteReader r(s.payload, s.payload_offset());
        r.set_context("PTCH");
        TypeIndex last = 0;
        // Groups are filled in place: out_.patches may hold a former read's (TagfileStorage),
        // whose offsets keep their capacity; those past the last group are dropped below.
        std::size_t groups = 0;
        while (!r.at_end()) {
            const std::size_t at = r.pos();
            if (groups == out_.patches.size()) out_.patches.emplace_back();
            PatchGroup& g = out_.patches[groups++];
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
        }
        out_.patches.resize(groups);
    }

    Bytes file_;
    const ReadOptions& options_;
    Tagfile& out_;
    std::vector<std::uint64_t> body_offset_;
    std::uint64_t thsh_offset_ = kNoOffset;
    std::uint64_t ptch_offset_ = kNoOffset;  ///< file offset of PTCH's first group
    std::size_t nonminimal_ = 0;
    std::uint64_t nonminimal_at_ = kNoOffset;
};

}  // namespace

Tagfile read_tagfile(Bytes bytes, const ReadOptions& options) {
    TagfileStorage none;
    return read_tagfile(bytes, options, none);
}

Tagfile read_tagfile(Bytes bytes, const ReadOptions& options, TagfileStorage& storage) {
    Tagfile out;
    auto take = [](auto& to, auto& from) {
        to = std::move(from);
        to.clear();
        from = {};
    };
    take(out.items, storage.items);
    out.patches = std::move(storage.patches);  // parse_patches refills the groups in place
    storage.patches = {};
    take(out.hashes, storage.hashes);
    take(out.types.body_order, storage.body_order);
    take(out.warnings, storage.warnings);
    Reader(bytes, options, out).run();
    return out;
}

void TagfileStorage::keep(Tagfile&& file) {
    items = std::move(file.items);
    patches = std::move(file.patches);
    hashes = std::move(file.hashes);
    body_order = std::move(file.types.body_order);
    warnings = std::move(file.warnings);
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
