//! `skinscope fix`: what `check` finds and can repair safely, repaired in the file itself. The
//! repairs work on the file's own JSON and accessors (`import::document::Document`), so
//! everything they do not touch (meshes, materials, textures, animations, extensions, names)
//! is written out as it was; each repair appends new accessors and points the file at them.
//!
//! - Inverse binds `check` finds broken (transposed, an identity by mistake, computed without
//!   the armature, mirrored) are recomputed from the rest pose: the joint's bind entry becomes
//!   the skin's common one, `mesh_from_world * world_from_joint * joint_from_bind = common`
//!   (`inverse_binds.rs`).
//! - Weights: at most `limit` influences per vertex (the largest kept), every vertex's weights
//!   summing to one, a vertex weighted nowhere bound to its skin's root joint as the importer
//!   draws it (`weights.rs`).
//! - The skin's joints listed parents first, and (when asked) the joints no vertex, no joint
//!   below them and no animation uses dropped from the list, every JOINTS_n remapped
//!   (`joints.rs`).
//!
//! The repaired file is loaded again and checked: `FixReport::left` lists what `check` still
//! finds of the kinds repaired (nothing, when the repair did its job).

use serde::Serialize;

use super::check::{CheckReport, FindingKind, Severity};
use crate::character::Character;
use crate::import::document::Document;

/// What to repair beyond what is always repaired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixOptions {
    /// The most influences a vertex keeps (4 by default: glTF's one set, what every engine
    /// draws).
    pub limit: usize,
    /// Drop the joints nothing uses from each skin's list.
    pub drop_unused: bool,
    /// Only this repair (the panel's Fix beside one finding); `None`: every repair asked for.
    pub only: Option<RepairKind>,
}

impl Default for FixOptions {
    fn default() -> Self {
        Self {
            limit: 4,
            drop_unused: false,
            only: None,
        }
    }
}

/// What kind of repair (serialised in snake case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairKind {
    InverseBinds,
    Weights,
    JointOrder,
    UnusedJoints,
}

impl RepairKind {
    /// The repair that answers a `check` finding of `kind`, if one does.
    pub fn for_finding(kind: FindingKind) -> Option<Self> {
        [
            RepairKind::InverseBinds,
            RepairKind::Weights,
            RepairKind::JointOrder,
            RepairKind::UnusedJoints,
        ]
        .into_iter()
        .find(|r| r.answers().contains(&kind))
    }

    /// The `check` findings this repair answers.
    pub fn answers(self) -> &'static [FindingKind] {
        match self {
            RepairKind::InverseBinds => &[FindingKind::JointMismatch],
            RepairKind::Weights => &[
                FindingKind::WeightsNotNormalised,
                FindingKind::MoreThanFourInfluences,
            ],
            RepairKind::JointOrder => &[FindingKind::JointsOutOfOrder],
            RepairKind::UnusedJoints => &[FindingKind::UnusedJoints],
        }
    }
}

/// One repair: where, what it changed, in words and numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repair {
    pub kind: RepairKind,
    /// The JSON pointer of what was repaired (`/skins/0`, `/meshes/1/primitives/0`).
    pub pointer: String,
    pub message: String,
    /// Vertices whose influences changed.
    pub vertices: usize,
    /// The joints concerned, by name.
    pub joints: Vec<String>,
    /// The largest change of one weight of one vertex.
    pub largest_weight_change: f32,
}

/// What `fix` did to a file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FixReport {
    pub file: String,
    /// Where the repaired file was written (none when there was nothing to repair).
    pub out: Option<String>,
    pub repairs: Vec<Repair>,
    /// What the repaired file still shows, of the kinds repaired, when checked again.
    pub left: Vec<String>,
    /// What `check` finds that `fix` does not repair (reported, left as it is).
    pub not_repaired: Vec<String>,
}

impl FixReport {
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!("{}\n", self.file);
        if self.repairs.is_empty() {
            s += "nothing to fix\n";
        }
        for r in &self.repairs {
            let _ = writeln!(s, "fixed {}: {}", r.pointer, r.message);
        }
        for n in &self.not_repaired {
            let _ = writeln!(s, "not repaired: {n}");
        }
        for l in &self.left {
            let _ = writeln!(s, "still found: {l}");
        }
        if let Some(out) = &self.out {
            let _ = writeln!(
                s,
                "wrote {out}: {} repairs, checked again: {}",
                self.repairs.len(),
                if self.left.is_empty() {
                    "clean for what was repaired".to_string()
                } else {
                    format!("{} findings left", self.left.len())
                }
            );
        }
        s
    }
}

/// Repairs `document` (the file `character` was loaded from; `report` is its `check`) as
/// `options` say, and returns what was done.
pub fn repair(
    document: &mut Document,
    character: &Character,
    report: &CheckReport,
    options: FixOptions,
) -> Result<Vec<Repair>, String> {
    if options.limit == 0 {
        return Err("--limit must keep at least one influence".into());
    }
    let asked = |kind: RepairKind| options.only.is_none_or(|only| only == kind);
    let mut repairs = Vec::new();
    if asked(RepairKind::InverseBinds) {
        repairs.extend(inverse_binds::repair(document, character, report)?);
    }
    if asked(RepairKind::Weights) {
        repairs.extend(weights::repair(document, options.limit)?);
    }
    let reorder = asked(RepairKind::JointOrder);
    let drop = options.drop_unused && options.only.is_none()
        || options.only == Some(RepairKind::UnusedJoints);
    if reorder || drop {
        repairs.extend(joints::repair(document, reorder, drop)?);
    }
    Ok(repairs)
}

/// The findings of `check` on the repaired file that a repair made should have answered, and
/// the original's warnings and errors no repair answered.
///
/// With a limit above four, vertices keep up to that many influences by the user's choice:
/// `check`'s more-than-four finding on them is not counted as left.
pub fn remaining(
    before: &CheckReport,
    after: &CheckReport,
    repairs: &[Repair],
    options: FixOptions,
) -> (Vec<String>, Vec<String>) {
    let answered: Vec<FindingKind> = repairs
        .iter()
        .flat_map(|r| r.kind.answers().iter().copied())
        .collect();
    let kept_by_choice =
        |k: FindingKind| k == FindingKind::MoreThanFourInfluences && options.limit > 4;
    let left = after
        .findings
        .iter()
        .filter(|f| answered.contains(&f.kind) && f.severity != Severity::Info)
        .filter(|f| !kept_by_choice(f.kind))
        .map(|f| f.message.clone())
        .collect();
    let not_repaired = before
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info && !answered.contains(&f.kind))
        .map(|f| f.message.clone())
        .collect();
    (left, not_repaired)
}

/// The file's nodes' parents (`None` for a scene root), from their `children` lists.
fn parents(document: &Document) -> Vec<Option<usize>> {
    let nodes = document.json["nodes"].as_array().map_or(0, Vec::len);
    let mut parent = vec![None; nodes];
    for (p, node) in document.json["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        for c in node["children"].as_array().into_iter().flatten() {
            if let Some(slot) = c.as_u64().and_then(|c| parent.get_mut(c as usize)) {
                *slot = Some(p);
            }
        }
    }
    parent
}

/// Each of a skin's `joints` (node indices): its nearest ancestor among the skin's joints (its ordinal).
fn skin_parents(joints: &[usize], parent: &[Option<usize>]) -> Vec<Option<usize>> {
    joints
        .iter()
        .map(|&node| {
            let mut a = parent.get(node).copied().flatten();
            let mut steps = 0;
            while let Some(n) = a {
                if let Some(k) = joints.iter().position(|&j| j == n) {
                    return Some(k);
                }
                a = parent.get(n).copied().flatten();
                steps += 1;
                if steps > parent.len() {
                    break;
                }
            }
            None
        })
        .collect()
}

/// A skin's joints (node indices) as the file lists them.
fn skin_joints(document: &Document, skin: usize) -> Vec<usize> {
    document.json["skins"][skin]["joints"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|j| j.as_u64().map(|j| j as usize))
        .collect()
}

/// Each skinned primitive: (skin, mesh, primitive), once each, in file order.
fn skinned_primitives(document: &Document) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for node in document.json["nodes"].as_array().into_iter().flatten() {
        let (Some(skin), Some(mesh)) = (node["skin"].as_u64(), node["mesh"].as_u64()) else {
            continue;
        };
        let (skin, mesh) = (skin as usize, mesh as usize);
        let primitives = document.json["meshes"][mesh]["primitives"]
            .as_array()
            .map_or(0, Vec::len);
        for p in 0..primitives {
            if !out.contains(&(skin, mesh, p)) {
                out.push((skin, mesh, p));
            }
        }
    }
    out
}

mod inverse_binds;
mod joints;
mod weights;
