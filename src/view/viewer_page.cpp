#include "view/viewer_page.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "io/byte_writer.h"
#include "io/error.h"
#include "io/json_text.h"
#include "io/version.h"
#include "view/base64.h"
#include "view/viewer_script.h"

namespace navlab::view {
namespace {

using json = nlohmann::ordered_json;

/// Appends sections to one little-endian blob, each 4-aligned, and records [offset, count].
class Blob {
public:
    template <typename T, typename Range, typename Convert>
    void add(json& descriptors, const char* name, const Range& values, Convert convert) {
        out_.align(4);
        const std::size_t offset = out_.size();
        std::size_t count = 0;
        for (const auto& v : values) out_.put<T>(convert(v)), ++count;
        descriptors[name] = {offset, count};
    }
    template <typename T, typename Range>
    void add(json& descriptors, const char* name, const Range& values) {
        add<T>(descriptors, name, values, [](const auto& v) { return static_cast<T>(v); });
    }
    std::vector<std::uint8_t> finish() && { return std::move(out_).finish(); }

private:
    ByteWriter out_;
};

/// Exact blob bytes of one member (the sections as member_json writes them, 4-aligned).
std::size_t member_blob_size(const exporter::SceneMember& m, bool audit, std::size_t next_hop) {
    auto aligned = [](std::size_t n) { return (n + 3) / 4 * 4; };
    const std::size_t F = m.face_count(), C = m.corners.size(), T = m.triangles.size();
    return aligned(12 * m.vertices.size()) + 2 * aligned(2 * F) + aligned(4 * C) + aligned(6 * T) + aligned(4 * F) +
           aligned(2 * F) + aligned(C) + aligned(4 * C) + aligned(24 * m.lines.size()) + aligned(16 * m.lines.size()) +
           aligned(24 * m.leaf_boxes.size()) + aligned(4 * m.leaf_boxes.size()) + 2 * aligned(4 * m.points.size()) +
           (audit ? aligned(F) : 0) + aligned(2 * next_hop);
}

/// Ring positions (inside the face) of each triangle's corners, and triangles per face.
void triangle_sections(const exporter::SceneMember& m, std::vector<std::uint16_t>& tri_count,
                       std::vector<std::uint16_t>& tris) {
    tri_count.assign(m.face_count(), 0);
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        const std::uint32_t f = m.triangle_face[t], first = m.face_start[f], n = m.face_start[f + 1] - first;
        ++tri_count[f];
        for (std::uint32_t v : m.triangles[t]) {
            std::uint32_t k = 0;
            while (k < n && m.corners[first + k] != v) ++k;
            tris.push_back(static_cast<std::uint16_t>(k));
        }
    }
}

json member_json(Blob& blob, const exporter::Scene& scene, const exporter::SceneMember& m, const FaceAudit* audit) {
    json j;
    j["name"] = m.name;
    j["source"] = scene.source;
    j["family"] = exporter::family_name(scene.family);
    j["faces"] = m.face_count();
    j["corners"] = m.corners.size();
    j["triangles"] = m.triangles.size();
    j["lines"] = m.lines.size();
    j["boxes"] = m.leaf_boxes.size();
    j["points"] = m.points.size();
    j["sector"] = m.sector;
    json& b = j["buffers"];
    b = json::object();
    std::vector<float> xyz;
    for (const auto& v : m.vertices) xyz.insert(xyz.end(), v.begin(), v.end());
    blob.add<float>(b, "vertices", xyz);
    std::vector<std::uint16_t> counts(m.face_count());
    for (std::size_t f = 0; f < m.face_count(); ++f) counts[f] = static_cast<std::uint16_t>(m.corner_count(f));
    blob.add<std::uint16_t>(b, "corner_count", counts);
    blob.add<std::uint32_t>(b, "corners", m.corners);
    std::vector<std::uint16_t> tri_count, tris;
    triangle_sections(m, tri_count, tris);
    blob.add<std::uint16_t>(b, "tri_count", tri_count);
    blob.add<std::uint16_t>(b, "tris", tris);
    blob.add<std::int32_t>(b, "face_data", m.face_data);
    blob.add<std::int16_t>(b, "cluster", m.cluster);
    blob.add<std::uint8_t>(b, "corner_flags", m.corner_flags);
    blob.add<std::int32_t>(b, "corner_opposite", m.corner_opposite);
    std::vector<float> lines;
    std::vector<std::int32_t> line_info;
    for (const auto& l : m.lines) {
        lines.insert(lines.end(), l.from.begin(), l.from.end());
        lines.insert(lines.end(), l.to.begin(), l.to.end());
        line_info.insert(line_info.end(), {l.face, l.target_face, static_cast<std::int32_t>(l.flags), l.edge});
    }
    blob.add<float>(b, "lines", lines);
    blob.add<std::int32_t>(b, "line_info", line_info);
    std::vector<float> boxes;
    std::vector<std::uint32_t> box_face;
    for (const auto& box : m.leaf_boxes) {
        boxes.insert(boxes.end(), box.min.begin(), box.min.end());
        boxes.insert(boxes.end(), box.max.begin(), box.max.end());
        box_face.push_back(box.face);
    }
    blob.add<float>(b, "boxes", boxes);
    blob.add<std::uint32_t>(b, "box_face", box_face);
    blob.add<std::uint32_t>(b, "points", m.points);
    blob.add<std::int32_t>(b, "point_ids", m.point_ids);
    if (audit) {
        std::vector<std::uint8_t> status = audit->status;
        status.resize(m.face_count(), 0);
        blob.add<std::uint8_t>(b, "audit_status", status);
        json rules = json::object();
        for (const auto& [face, ids] : audit->rules) rules[std::to_string(face)] = ids;
        j["audit"] = std::move(rules);
    }
    if (!m.points.empty() && !scene.next_hop.empty()) {
        blob.add<std::int16_t>(b, "next_hop", scene.next_hop);
        j["max_nodes"] = scene.max_nodes;
    }
    return j;
}

/// Text that may sit inside a <script> element: "</script" (any case) would end it early; in
/// JSON strings and JavaScript strings "<\/" reads as "</".
std::string script_safe(std::string text) {
    for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 1)) {
        std::string tag = text.substr(at + 2, 6);
        for (char& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (tag == "script") text.replace(at, 2, "<\\/");
    }
    return text;
}

std::string html_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '&') out += "&amp;";
        else out += c;
    }
    return out;
}

std::size_t total_faces(const ViewerInput& input) {
    std::size_t n = 0;
    for (const auto& s : input.scenes) n += s.face_count();
    return n;
}

}  // namespace

std::size_t page_size(const ViewerInput& input) {
    std::size_t blob = 0, meta = 1024, member = 0;
    for (const auto& s : input.scenes)
        for (const auto& m : s.members) {
            const bool audit = member < input.audits.size();
            blob += member_blob_size(m, audit, m.points.empty() ? 0 : s.next_hop.size());
            meta += 600 + m.name.size() + s.source.size();
            if (audit)
                for (const auto& [face, ids] : input.audits[member].rules) meta += 10 + 7 * ids.size();
            ++member;
        }
    return (blob + 2) / 3 * 4 + meta + viewer_script().size();
}

std::string viewer_page(const ViewerInput& input, const PageLimits& limits) {
    const std::size_t faces = total_faces(input);
    if (faces > limits.max_faces || page_size(input) > limits.max_bytes)
        throw Error(fmt::format("the page would hold {} faces and be about {:.1f} MB (limits: {} faces, {:.0f} MB): "
                                "view fewer members with --entry NAME, or raise --max-faces",
                                faces, page_size(input) / 1048576.0, limits.max_faces, limits.max_bytes / 1048576.0));
    if (viewer_script().empty())
        throw Error("navlab was built without the viewer script (tools/web/node_modules was missing): "
                    "run tools/install-deps.sh, then rebuild");
    json meta;
    meta["format"] = "navlab-view/1";
    meta["title"] = input.title;
    meta["navlab_version"] = kVersion;
    Blob blob;
    json members = json::array();
    std::size_t member = 0;
    for (const auto& s : input.scenes)
        for (const auto& m : s.members) {
            members.push_back(member_json(blob, s, m, member < input.audits.size() ? &input.audits[member] : nullptr));
            ++member;
        }
    meta["members"] = std::move(members);
    if (!input.audits.empty()) {
        json rules = json::object();
        for (const auto& [id, r] : input.rules) rules[id] = {{"title", r.title}, {"kind", r.kind}};
        meta["audit"] = {{"rules", std::move(rules)}};
    } else {
        meta["audit"] = nullptr;
    }
    if (input.path) {
        json points = json::array(), corridor = json::array();
        for (const auto& p : input.path->points) points.push_back(p);
        for (const auto& [m, f] : input.path->corridor) corridor.push_back({m, f});
        meta["path"] = {{"points", std::move(points)}, {"corridor", std::move(corridor)}};
    } else {
        meta["path"] = nullptr;
    }
    const std::vector<std::uint8_t> bytes = std::move(blob).finish();
    std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    page += fmt::format("<meta name=\"generator\" content=\"navlab {}\">\n", kVersion);
    page += "<title>" + html_escape(input.title) + " · navlab view</title>\n</head>\n<body>\n";
    page += "<noscript>This page needs JavaScript and WebGL.</noscript>\n";
    page += "<script id=\"navlab-meta\" type=\"application/json\">" + script_safe(json_text(meta)) + "</script>\n";
    page += "<script id=\"navlab-data\" type=\"application/octet-stream\">" + base64(bytes) + "</script>\n";
    page += "<script>" + script_safe(std::string(viewer_script())) + "</script>\n</body>\n</html>\n";
    return page;
}

}  // namespace navlab::view
