#include "formats/igi/fields.h"

#include <array>
#include <stdexcept>

namespace navlab::igi {
namespace {

const std::array<FieldInfo, 11>& known_fields() {
    static const std::array<FieldInfo, 11> fields = [] {
        std::array<FieldInfo, 11> f = {{
            {"nMaxNodes", 0, kTagI32, FieldRole::MaxNodes},
            {"RouteTable", 0, kTagBlob, FieldRole::RouteTable},
            {"nNodeID", 0, kTagI32, FieldRole::NodeId},
            {"tNodePosition", 0, kTagVec3, FieldRole::NodePosition},
            {"vNodeGamma", 0, kTagF32, FieldRole::NodeGamma},
            {"vNodeRadius", 0, kTagF32, FieldRole::NodeRadius},
            {"nNodeMaterial", 0, kTagI32, FieldRole::NodeMaterial},
            {"nNodeCriteria", 0, kTagString, FieldRole::NodeCriteria},
            {"nLinkID1", 0, kTagI32, FieldRole::LinkId1},
            {"nLinkID2", 0, kTagI32, FieldRole::LinkId2},
            {"eLinkType", 0, kTagI32, FieldRole::LinkType},
        }};
        for (auto& field : f) field.hash = field_hash(field.name);
        return f;
    }();
    return fields;
}

}  // namespace

const FieldInfo* find_field(std::uint32_t hash) {
    for (const auto& field : known_fields())
        if (field.hash == hash) return &field;
    return nullptr;
}

const FieldInfo& field_for(FieldRole role) {
    for (const auto& field : known_fields())
        if (field.role == role) return field;
    throw std::logic_error("field_for: the raw role has no field");
}

std::string_view igi2_field_name(std::uint32_t hash) {
    // IGI 2 node extras (spec §4.1): the names are recovered by hash matching.
    if (hash == field_hash("vNodeLightValue")) return "vNodeLightValue";
    if (hash == field_hash("sNodeLinksInfo")) return "sNodeLinksInfo";
    return {};
}

}  // namespace navlab::igi
