//! The retarget map: for each target joint, the source joint it takes its motion from and how
//! that pair was found. Auto-mapping tries, in order: the same name; the same body part through
//! the naming conventions (`canonical_names`); a looser reading of the names (noise words and
//! numbers dropped, one letter misspelt); the same body part read from the skeletons' shapes
//! (`shape_roles`). The spine chains are matched end to end whatever their lengths (a 3-joint
//! spine onto a 5-joint one). A map given by hand overrides all of it.

use super::Skeleton;
use super::names::{SYNONYMS, canonical_names, edit_distance, loose};
use super::shape::shape_roles;

/// How a target joint's source joint was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchKind {
    /// The same name.
    Exact,
    /// The same body part through the naming conventions (`mixamorig:LeftUpLeg` and `thigh_l`).
    Convention,
    /// A looser reading of the names (`Left_Knee_Jnt` and `calf_l`, `LeftForArm` and
    /// `LeftForeArm`).
    Fuzzy,
    /// The same body part read from the two skeletons' shapes.
    Hierarchy,
    /// Given by hand (a map file, or chosen in the window).
    Hand,
}

impl MatchKind {
    /// How the window and the reports say it.
    pub fn label(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact name",
            MatchKind::Convention => "convention table",
            MatchKind::Fuzzy => "fuzzy",
            MatchKind::Hierarchy => "by position in the hierarchy",
            MatchKind::Hand => "by hand",
        }
    }
}

/// Whether source joint `s` and target joint `t` match at one stage of auto-mapping.
type Same<'a> = dyn Fn(usize, usize) -> bool + 'a;

/// For each target joint, its source joint and how it was matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointMap {
    pub source_of: Vec<Option<(usize, MatchKind)>>,
}

impl JointMap {
    /// The map auto-mapping finds (see the module's text).
    pub fn auto(source: &Skeleton, target: &Skeleton) -> Self {
        let (sc, tc) = (canonical_names(source), canonical_names(target));
        let (sp, tp) = (body_parts_of(source, &sc), body_parts_of(target, &tc));
        let mut source_of: Vec<Option<(usize, MatchKind)>> = vec![None; target.joint_count()];
        let mut taken = vec![false; source.joint_count()];
        let stages: [(MatchKind, &Same); 4] = [
            // The same name meaning the same part (a metarig's `spine` is VRM's `hips`).
            (MatchKind::Exact, &|s, t| {
                source.names()[s] == target.names()[t] && sc[s] == tc[t]
            }),
            (MatchKind::Convention, &|s, t| sc[s] == tc[t]),
            (MatchKind::Fuzzy, &|s, t| fuzzy(&sc[s], &tc[t])),
            (MatchKind::Hierarchy, &|s, t| {
                sp[s].is_some() && sp[s] == tp[t] && !is_spine(sp[s].as_deref())
            }),
        ];
        for (kind, same) in stages {
            for (t, slot) in source_of.iter_mut().enumerate() {
                if slot.is_some() {
                    continue;
                }
                // The exact name and the conventions may share a source joint (two targets
                // named alike); the looser readings take only joints still free.
                let strict = matches!(kind, MatchKind::Exact | MatchKind::Convention);
                if let Some(s) =
                    (0..source.joint_count()).find(|&s| (strict || !taken[s]) && same(s, t))
                {
                    *slot = Some((s, kind));
                    taken[s] = true;
                }
            }
        }
        // The spines, end to end.
        let spine = |parts: &[Option<String>]| -> Vec<usize> {
            (0..parts.len())
                .filter(|&j| is_spine(parts[j].as_deref()))
                .collect()
        };
        let (ss, ts) = (spine(&sp), spine(&tp));
        if !ss.is_empty() {
            for (i, &t) in ts.iter().enumerate() {
                if matches!(source_of[t], Some((_, MatchKind::Exact))) {
                    continue;
                }
                let k = if ts.len() == 1 {
                    0
                } else {
                    (i as f32 * (ss.len() - 1) as f32 / (ts.len() - 1) as f32).round() as usize
                };
                let s = ss[k];
                let named = |c: &str| is_spine(Some(c));
                let kind = if named(&sc[s]) && named(&tc[t]) {
                    MatchKind::Convention
                } else {
                    MatchKind::Hierarchy
                };
                source_of[t] = Some((s, kind));
            }
        }
        Self { source_of }
    }

    /// The map a list of (source name, target name) pairs gives: those pairs and no others.
    /// A pair auto-mapping finds too keeps auto-mapping's kind; the others are by hand.
    pub fn from_pairs(source: &Skeleton, target: &Skeleton, pairs: &[(String, String)]) -> Self {
        let auto = Self::auto(source, target);
        let source_of = (0..target.joint_count())
            .map(|t| {
                let name = &target.names()[t];
                let s = pairs
                    .iter()
                    .find(|(_, to)| to == name)
                    .and_then(|(from, _)| source.find(from))?;
                Some(match auto.source_of[t] {
                    Some((a, kind)) if a == s => (s, kind),
                    _ => (s, MatchKind::Hand),
                })
            })
            .collect();
        Self { source_of }
    }

    /// Target joint `target` takes its motion from `source` (none: it keeps its own), by hand.
    pub fn set(&mut self, target: usize, source: Option<usize>) {
        if let Some(slot) = self.source_of.get_mut(target) {
            *slot = source.map(|s| (s, MatchKind::Hand));
        }
    }

    /// The pairs by name (source, target), in the target's joint order: what a map file holds.
    pub fn pairs(&self, source: &Skeleton, target: &Skeleton) -> Vec<(String, String)> {
        let pairs = self.source_of.iter().enumerate();
        pairs
            .filter_map(|(t, m)| {
                let (s, _) = (*m)?;
                Some((source.names()[s].clone(), target.names()[t].clone()))
            })
            .collect()
    }

    /// Per target joint, its source joint.
    pub fn indices(&self) -> Vec<Option<usize>> {
        self.source_of.iter().map(|m| m.map(|(s, _)| s)).collect()
    }
}

/// Whether a body part is one of the spine's (`spine`, `spine1`, ...).
fn is_spine(part: Option<&str>) -> bool {
    part.is_some_and(|p| p.starts_with("spine"))
}

/// Whether two canonical names read alike loosely: the same part without noise words and
/// numbers, or (on the same side) parts one edit apart of five letters or more.
fn fuzzy(a: &str, b: &str) -> bool {
    let (la, lb) = (loose(a), loose(b));
    if la == lb && !la.is_empty() {
        return true;
    }
    let split = |c: &str| match c.split_once(' ') {
        Some((s @ ("left" | "right"), p)) => (Some(s.to_string()), p.to_string()),
        _ => (None, c.to_string()),
    };
    let ((sa, pa), (sb, pb)) = (split(&la), split(&lb));
    sa == sb && pa.len().min(pb.len()) >= 5 && edit_distance(&pa, &pb) <= 1
}

/// Whether a canonical name is a body part the conventions know (`left thigh`, `spine1`).
fn known(canonical: &str) -> bool {
    let part = canonical
        .strip_prefix("left ")
        .or_else(|| canonical.strip_prefix("right "))
        .unwrap_or(canonical);
    SYNONYMS.iter().any(|(_, c)| *c == part)
}

/// Each joint's body part: what its name says when it names a known one, else what the
/// skeleton's shape says.
pub fn body_parts(skeleton: &Skeleton) -> Vec<Option<String>> {
    body_parts_of(skeleton, &canonical_names(skeleton))
}

fn body_parts_of(skeleton: &Skeleton, canonical: &[String]) -> Vec<Option<String>> {
    let shape = shape_roles(skeleton);
    canonical
        .iter()
        .zip(shape)
        .map(|(c, s)| if known(c) { Some(c.clone()) } else { s })
        .collect()
}
