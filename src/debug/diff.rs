//! `skinscope diff A B`: two versions of a character compared, as an asset pipeline asks after a
//! re-export ("did this change how it deforms?").
//!
//! Joints are matched by name. The report lists the joints added, removed, renamed (a removed
//! and an added joint under the same parent with the same rest transform) and re-parented; per
//! joint, the rest-pose change (moved, turned, scaled) and the inverse-bind change; per mesh
//! node matched by name with the same vertex count, the vertices whose dominant joint changed
//! and the largest change of one joint's weight; per clip matched by name, the change of
//! duration, the largest displacement of a joint over the clip sampled at its keys, and the
//! largest displacement of a skinned vertex (the posed deformation), also relative to the
//! character's size (the diagonal of A's bind-pose bounds). Differences under `EPSILON` of that
//! size (or of a unit, for rotations and weights) are not reported: `diff A A` reports nothing.

use serde::Serialize;

use crate::character::Character;

/// Differences below this (relative to the character's size for distances; absolute for
/// weights, matrix elements and scales; degrees / 1000 for turns) are equal.
pub const EPSILON: f32 = 1e-5;

/// The most samples of one clip (its keys, thinned evenly beyond this).
pub const MAX_SAMPLES: usize = 240;

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct DiffReport {
    pub a: String,
    pub b: String,
    /// The diagonal of A's bind-pose bounds: what `relative` figures divide by.
    pub size: f32,
    pub joints: JointChanges,
    pub weights: Vec<WeightChange>,
    /// Mesh nodes of one side only, or whose vertex counts differ (their weights and
    /// deformation are not compared).
    pub meshes_unmatched: Vec<String>,
    pub clips: ClipChanges,
    /// The largest vertex displacement over the bind pose and every clip both sides have.
    pub worst: Option<Deformation>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct JointChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub renamed: Vec<Renamed>,
    pub reparented: Vec<Reparented>,
    pub rest: Vec<RestChange>,
    pub inverse_binds: Vec<BindChange>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Renamed {
    pub from: String,
    pub to: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Reparented {
    pub joint: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// A joint's rest (local) transform, A to B.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RestChange {
    pub joint: String,
    pub moved: f32,
    pub turned_degrees: f32,
    /// The largest change of a scale component.
    pub scaled: f32,
}

/// A joint's inverse bind matrix, A to B (its skin matched by index).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BindChange {
    pub skin: usize,
    pub joint: String,
    /// The largest change of one matrix element.
    pub largest_element: f32,
    /// How far the bind position (the inverse of the inverse bind) moved.
    pub moved: f32,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WeightChange {
    /// The mesh node, by name.
    pub mesh: String,
    pub vertices: usize,
    pub dominant_changed: usize,
    pub largest_weight_change: f32,
    /// The vertex with the largest change (its index over the node's primitives, in order).
    pub vertex: usize,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ClipChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ClipChange>,
    /// The bind pose's deformation (the rest pose, no clip), when it changed.
    pub bind: Option<Deformation>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClipChange {
    pub clip: String,
    pub duration_a: f32,
    pub duration_b: f32,
    /// The samples compared (the keys of both sides, up to `MAX_SAMPLES`).
    pub samples: usize,
    /// The largest distance of a joint (in world space) between A and B at one sample.
    pub largest_joint_displacement: f32,
    pub joint: Option<String>,
    pub joint_time: f32,
    pub deformation: Option<Deformation>,
}

/// The largest distance of a skinned vertex between A and B.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Deformation {
    /// None: the bind pose.
    pub clip: Option<String>,
    pub time: f32,
    pub mesh: String,
    pub vertex: usize,
    pub displacement: f32,
    /// `displacement` over the character's size.
    pub relative: f32,
}

impl DiffReport {
    /// Whether anything was reported.
    pub fn is_empty(&self) -> bool {
        let j = &self.joints;
        j.added.is_empty()
            && j.removed.is_empty()
            && j.renamed.is_empty()
            && j.reparented.is_empty()
            && j.rest.is_empty()
            && j.inverse_binds.is_empty()
            && self.weights.is_empty()
            && self.meshes_unmatched.is_empty()
            && self.clips.added.is_empty()
            && self.clips.removed.is_empty()
            && self.clips.changed.is_empty()
            && self.clips.bind.is_none()
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!("{} -> {}\n", self.a, self.b);
        if self.is_empty() {
            s += "no differences\n";
            return s;
        }
        let j = &self.joints;
        let list = |s: &mut String, what: &str, names: &[String]| {
            if !names.is_empty() {
                let _ = writeln!(s, "joints {what}: {}", names.join(", "));
            }
        };
        list(&mut s, "added", &j.added);
        list(&mut s, "removed", &j.removed);
        for r in &j.renamed {
            let _ = writeln!(s, "joint renamed: {} -> {}", r.from, r.to);
        }
        for r in &j.reparented {
            let _ = writeln!(
                s,
                "joint {} re-parented: {} -> {}",
                r.joint,
                r.from.as_deref().unwrap_or("(root)"),
                r.to.as_deref().unwrap_or("(root)")
            );
        }
        for r in &j.rest {
            let _ = writeln!(
                s,
                "rest pose of {}: moved {:.4}, turned {:.2} deg, scaled {:.4}",
                r.joint, r.moved, r.turned_degrees, r.scaled
            );
        }
        for b in &j.inverse_binds {
            let _ = writeln!(
                s,
                "inverse bind of {} (skin {}): largest element change {:.4}, bind position moved {:.4}",
                b.joint, b.skin, b.largest_element, b.moved
            );
        }
        for w in &self.weights {
            let _ = writeln!(
                s,
                "weights of {}: {} of {} vertices changed dominant joint; largest weight change {:.4} (vertex {})",
                w.mesh, w.dominant_changed, w.vertices, w.largest_weight_change, w.vertex
            );
        }
        for m in &self.meshes_unmatched {
            let _ = writeln!(s, "mesh not compared: {m}");
        }
        let c = &self.clips;
        if !c.added.is_empty() {
            let _ = writeln!(s, "clips added: {}", c.added.join(", "));
        }
        if !c.removed.is_empty() {
            let _ = writeln!(s, "clips removed: {}", c.removed.join(", "));
        }
        if let Some(d) = &c.bind {
            let _ = writeln!(s, "bind pose: {}", d.describe());
        }
        for k in &c.changed {
            let _ = write!(s, "clip {:?}", k.clip);
            if (k.duration_a - k.duration_b).abs() > EPSILON {
                let _ = write!(
                    s,
                    ": duration {:.3} s -> {:.3} s",
                    k.duration_a, k.duration_b
                );
            }
            if let Some(joint) = &k.joint {
                let _ = write!(
                    s,
                    "; joints move up to {:.4} ({joint} at {:.3} s, over {} samples)",
                    k.largest_joint_displacement, k.joint_time, k.samples
                );
            }
            if let Some(d) = &k.deformation {
                let _ = write!(s, "; {}", d.describe());
            }
            s.push('\n');
        }
        if let Some(w) = &self.worst {
            let _ = writeln!(s, "worst: {}", w.describe());
        }
        s
    }
}

impl Deformation {
    fn describe(&self) -> String {
        format!(
            "vertices move up to {:.4} ({:.3}% of the character's size; {} vertex {}{})",
            self.displacement,
            self.relative * 100.0,
            self.mesh,
            self.vertex,
            match &self.clip {
                Some(c) => format!(" in {c:?} at {:.3} s", self.time),
                None => " in the bind pose".to_string(),
            }
        )
    }
}

/// Compares `b` with `a` (their files' names in `names`).
pub fn diff(a: &Character, b: &Character, names: (&str, &str)) -> Result<DiffReport, String> {
    let size = motion::bind_size(a)?;
    let mut report = DiffReport {
        a: names.0.to_string(),
        b: names.1.to_string(),
        size,
        joints: skeleton::joints(a, b, size),
        ..DiffReport::default()
    };
    let pairs = weights::matched_instances(a, b, &mut report.meshes_unmatched);
    report.weights = weights::changes(a, b, &pairs, &report.joints.renamed);
    report.clips = motion::clips(a, b, &pairs, size)?;
    report.worst = (report.clips.bind.iter())
        .chain(
            report
                .clips
                .changed
                .iter()
                .filter_map(|c| c.deformation.as_ref()),
        )
        .max_by(|x, y| x.displacement.total_cmp(&y.displacement))
        .cloned();
    Ok(report)
}

mod motion;
mod skeleton;
mod weights;

pub use motion::displacements;
