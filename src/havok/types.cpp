#include "havok/types.h"

#include <fmt/format.h>

#include "io/error.h"

namespace navlab::havok {

std::vector<Type>& TypeTable::own() {
    // A count of 1 cannot rise behind our back: a copy would have to be made from this object.
    // The copy shares the name storage (immutable), so the copied names stay valid.
    if (!types_) types_ = std::make_shared<Records>();
    else if (types_.use_count() > 1) types_ = std::make_shared<Records>(*types_);
    return types_->types;
}

void TypeTable::hold_names(std::shared_ptr<const void> bytes) {
    own();
    types_->names.push_back(std::move(bytes));
}

void TypeTable::out_of_range(TypeIndex t) const {
    throw Error(fmt::format("type index {} out of range 1..{}", t, size()));
}

Type& TypeTable::at(TypeIndex t) {
    if (!valid(t)) throw Error(fmt::format("type index {} out of range 1..{}", t, size()));
    return own()[t];
}

TypeIndex TypeTable::add(Type type) {
    std::vector<Type>& types = own();
    if (types.empty()) types.emplace_back();
    types.push_back(std::move(type));
    return static_cast<TypeIndex>(types.size() - 1);
}

void TypeTable::resolve() {
    const std::size_t n = size();
    if (n == 0) return;
    std::vector<Type>& records = own();
    // A parent chain longer than the table means a cycle.
    for (TypeIndex t = 1; t <= n; ++t) {
        Type& type = records[t];
        if (type.parent != 0 && !valid(type.parent))
            throw Error(fmt::format("type {} ({}) has parent index {} out of range 1..{}", t, type.name, type.parent, n));
        bool have_format = false, have_subtype = false, have_size = false;
        TypeIndex x = t;
        for (std::size_t steps = 0; x != 0; ++steps) {
            if (steps > n)
                throw Error(fmt::format("type {} ({}) has a cyclic parent chain", t, type.name));
            const Type& p = records[x];
            if (!have_format && (p.optionals & kOptFormat)) type.resolved_format = p.format, have_format = true;
            if (!have_subtype && (p.optionals & kOptSubtype)) type.resolved_subtype = p.subtype, have_subtype = true;
            if (!have_size && (p.optionals & kOptSizeAlign))
                type.resolved_size = p.size, type.resolved_alignment = p.alignment, have_size = true;
            if (have_format && have_subtype && have_size) break;
            x = p.parent;
            if (x != 0 && !valid(x))
                throw Error(fmt::format("type {} ({}) has an ancestor with parent index {} out of range", t, type.name, x));
        }
    }
}

std::string TypeTable::full_name(TypeIndex t) const {
    std::size_t budget = 256;  // names visited; bounds malformed parameter graphs
    return full_name_at_depth(t, 0, budget);
}

std::string TypeTable::full_name_at_depth(TypeIndex t, int depth, std::size_t& budget) const {
    if (t == 0) return "NULL";
    if (budget == 0) return "...";
    --budget;
    if (!valid(t)) return fmt::format("<bad type {}>", t);
    const Type& type = types()[t];
    if (type.params.empty()) return std::string(type.name);
    std::string out = std::string(type.name) + "<";
    for (std::size_t i = 0; i < type.params.size(); ++i) {
        if (i) out += ", ";
        const TemplateParam& p = type.params[i];
        // Depth is bounded: parameters that name each other in a cycle (malformed) print as indices.
        if (p.is_type()) out += (depth > 8 || p.value > 0xFFFFFF || !valid(static_cast<TypeIndex>(p.value)))
                                    ? fmt::format("#{}", p.value)
                                    : full_name_at_depth(static_cast<TypeIndex>(p.value), depth + 1, budget);
        else out += std::to_string(p.value);
    }
    return out + ">";
}

TypeIndex TypeTable::find(std::string_view name) const {
    for (TypeIndex t = 1; t <= size(); ++t)
        if (full_name(t) == name) return t;
    for (TypeIndex t = 1; t <= size(); ++t)
        if (types()[t].name == name) return t;
    return 0;
}

bool TypeTable::derives_from(TypeIndex t, TypeIndex base) const {
    for (std::size_t steps = 0; valid(t) && steps <= size(); ++steps) {
        if (t == base) return true;
        t = types()[t].parent;
    }
    return false;
}

std::vector<Member> TypeTable::all_members(TypeIndex t) const {
    std::vector<TypeIndex> chain;
    for (std::size_t steps = 0; valid(t) && steps <= size(); ++steps) chain.push_back(t), t = types()[t].parent;
    std::vector<Member> out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        out.insert(out.end(), types()[*it].members.begin(), types()[*it].members.end());
    return out;
}

const Member* TypeTable::find_member(TypeIndex t, std::string_view name) const {
    // Length and first byte tested inline before the compare: a type's members often share a
    // length ("faces", "edges"), and each such == was a call to memcmp.
    const char first = name.empty() ? '\0' : name[0];
    for (std::size_t steps = 0; valid(t) && steps <= size(); ++steps) {
        for (const Member& m : types()[t].members)
            if (m.name.size() == name.size() && (name.empty() || m.name[0] == first) && m.name == name) return &m;
        t = types()[t].parent;
    }
    return nullptr;
}

}  // namespace navlab::havok
