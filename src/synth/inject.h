// `navlab synth --inject RULE`: breaks one audit rule (ids of shared/spec/audit-rules.md) in
// one tagfile of the corpus, in a known place, so tests can check that the audit finds it.
#pragma once

#include <string>
#include <vector>

#include "formats/fromsoft/navmesh.h"
#include "synth/corpus.h"

namespace navlab::synth {

/// The rule ids --inject supports, in id order.
std::vector<std::string> injectable_rules();

/// Whether `rule` can be broken in the tagfile `entry` of `binder` (the rule's game, and the
/// objects it needs: faces, user edges, setups, an empty tree).
bool can_inject(const std::string& rule, const BinderPlan& binder, const EntryPlan& entry);

/// Breaks `rule` in `tagfile`; returns where and how ("face 0: padding 0xCDCD -> 0x0000").
/// Throws navlab::Error for an unknown rule id.
std::string inject_fault(const std::string& rule, fromsoft::NavTagfile& tagfile);

}  // namespace navlab::synth
