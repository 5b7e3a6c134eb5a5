//! The retarget map: for each target joint, the source joint it takes its motion from and how
//! that pair was found. Auto-mapping tries, in order: the same name; the same body part through
//! the naming conventions (`canonical_names`); a looser reading of the names (noise words and
//! numbers dropped, one letter misspelt); the same body part read from the skeletons' shapes
//! (`shape_roles`). The spine chains are matched end to end whatever their lengths (a 3-joint
//! spine onto a 5-joint one). A map given by hand overrides all of it.

use std::collections::HashMap;

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

/// A joint's key at one stage of auto-mapping (none: it takes no part in it).
type Key<'a> = dyn Fn(usize) -> Option<String> + 'a;

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
        let (sl, tl): (Vec<String>, Vec<String>) = (
            sc.iter().map(|c| loose(c)).collect(),
            tc.iter().map(|c| loose(c)).collect(),
        );
        // Each stage pairs the joints whose keys are equal (looked up, not searched: a
        // skeleton of many thousand joints maps in linear time).
        let stages: [(MatchKind, &Key, &Key); 4] = [
            // The same name meaning the same part (a metarig's `spine` is VRM's `hips`).
            (
                MatchKind::Exact,
                &|s| Some(format!("{}\0{}", source.names()[s], sc[s])),
                &|t| Some(format!("{}\0{}", target.names()[t], tc[t])),
            ),
            (MatchKind::Convention, &|s| Some(sc[s].clone()), &|t| {
                Some(tc[t].clone())
            }),
            (
                MatchKind::Fuzzy,
                &|s| Some(sl[s].clone()).filter(|k| !k.is_empty()),
                &|t| Some(tl[t].clone()).filter(|k| !k.is_empty()),
            ),
            (
                MatchKind::Hierarchy,
                &|s| sp[s].clone().filter(|p| !is_spine(Some(p))),
                &|t| tp[t].clone().filter(|p| !is_spine(Some(p))),
            ),
        ];
        for (kind, source_key, target_key) in stages {
            // The exact name and the conventions may share a source joint (two targets named
            // alike); the looser readings take only joints still free.
            let strict = matches!(kind, MatchKind::Exact | MatchKind::Convention);
            let mut by_key: HashMap<String, (Vec<usize>, usize)> = HashMap::new();
            for s in 0..source.joint_count() {
                if let Some(k) = source_key(s) {
                    by_key.entry(k).or_default().0.push(s);
                }
            }
            for (t, slot) in source_of.iter_mut().enumerate() {
                let Some(entry) = slot.is_none().then(|| target_key(t)).flatten() else {
                    continue;
                };
                let Some((list, next)) = by_key.get_mut(&entry) else {
                    continue;
                };
                if !strict {
                    while list.get(*next).is_some_and(|&s| taken[s]) {
                        *next += 1;
                    }
                }
                let found = if strict {
                    list.first()
                } else {
                    list.get(*next)
                };
                if let Some(&s) = found {
                    *slot = Some((s, kind));
                    taken[s] = true;
                }
            }
            // A part misspelt by a letter (`LeftForArm`): pair by pair, on skeletons small
            // enough for it.
            if kind == MatchKind::Fuzzy
                && source.joint_count() * target.joint_count() <= MISSPELT_PAIRS
            {
                for (t, slot) in source_of.iter_mut().enumerate() {
                    if slot.is_some() {
                        continue;
                    }
                    if let Some(s) =
                        (0..source.joint_count()).find(|&s| !taken[s] && misspelt(&sl[s], &tl[t]))
                    {
                        *slot = Some((s, kind));
                        taken[s] = true;
                    }
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
        // The first pair naming each target joint; the first source joint of each name.
        let mut from_of: HashMap<&str, &str> = HashMap::new();
        for (from, to) in pairs {
            from_of.entry(to.as_str()).or_insert(from.as_str());
        }
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        for (s, name) in source.names().iter().enumerate() {
            index_of.entry(name.as_str()).or_insert(s);
        }
        let source_of = (0..target.joint_count())
            .map(|t| {
                let name = target.names()[t].as_str();
                let s = *from_of.get(name).and_then(|from| index_of.get(from))?;
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

/// The most (source, target) pairs the misspelling pass compares.
const MISSPELT_PAIRS: usize = 250_000;

/// Whether two loose names (`loose`) are one part misspelt: on the same side, parts one edit
/// apart of five letters or more.
fn misspelt(a: &str, b: &str) -> bool {
    let split = |c: &str| match c.split_once(' ') {
        Some((s @ ("left" | "right"), p)) => (Some(s.to_string()), p.to_string()),
        _ => (None, c.to_string()),
    };
    let ((sa, pa), (sb, pb)) = (split(a), split(b));
    sa == sb
        && pa.len().min(pb.len()) >= 5
        && pa.len().abs_diff(pb.len()) <= 1
        && edit_distance(&pa, &pb) <= 1
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
