#include "havok/type_set_spec.h"

#include <fmt/format.h>
#include <string>
#include <unordered_map>

#include "io/error.h"

namespace navlab::havok {

TypeTable build_type_table(std::span<const TypeSpec> specs) {
    std::unordered_map<std::string, TypeIndex> index;
    for (std::size_t i = 0; i < specs.size(); ++i) index.emplace(specs[i].ident, static_cast<TypeIndex>(i + 1));
    auto ref = [&](const char* ident) -> TypeIndex {
        if (!*ident) return 0;
        auto it = index.find(ident);
        if (it == index.end()) throw Error(fmt::format("embedded type set: unknown type {}", ident));
        return it->second;
    };
    TypeTable table;
    for (const TypeSpec& s : specs) {
        Type t;
        t.name = s.name;
        for (const auto& p : s.params)
            t.params.push_back({p.name, p.name[0] == 't' ? ref(p.value) : std::stoull(p.value)});
        t.parent = ref(s.parent);
        t.optionals = s.optionals;
        t.format = s.format;
        t.subtype = ref(s.subtype);
        t.version = s.version;
        t.size = s.size;
        t.alignment = s.alignment;
        t.flags = s.flags;
        for (const auto& f : s.fields) t.members.push_back({f.name, f.flags, f.offset, ref(f.type)});
        t.property_count = s.property_count;
        t.hash = s.hash;
        table.add(std::move(t));
    }
    table.resolve();
    return table;
}

}  // namespace navlab::havok
