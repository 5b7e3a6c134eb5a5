//! `skinscope check`: a skinning lint. It reads the bind pose the way a skinning bug shows up:
//! every joint's bind-pose palette entry (mesh space) should be one common matrix, the identity
//! when the vertices are authored in the mesh node's space; vertices should sit near the joints
//! that move them; weights should sum to one within four influences.

use glam::{Mat4, Vec3};
use serde::Serialize;

use crate::character::Character;
use crate::posing::{CharacterPose, PaletteMode};

/// Entries closer than this (rotation/scale elements; translation relative to the character's
/// size) count as equal.
const TOLERANCE: f32 = 1e-3;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Finding {
    /// "error" or "info".
    pub severity: &'static str,
    /// A short machine-readable kind, e.g. "joint_mismatch".
    pub kind: &'static str,
    /// The joint concerned, by name, when there is one.
    pub joint: Option<String>,
    pub palette_index: Option<usize>,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SkinCheck {
    pub skin: String,
    pub mesh_node: usize,
    /// The bind-pose palette entry most joints share (column-major), and whether it is the
    /// identity.
    pub common_matrix: [f32; 16],
    pub common_is_identity: bool,
    pub joints: usize,
    pub max_influences: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub file: String,
    pub skins: Vec<SkinCheck>,
    pub findings: Vec<Finding>,
    /// Fraction of pixels that differ between bind and identity renders (when a GPU was there).
    pub bind_identity_pixel_difference: Option<f64>,
}

impl CheckReport {
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == "error")
            .count()
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!("{}\n", self.file);
        for skin in &self.skins {
            let m = Mat4::from_cols_array(&skin.common_matrix);
            let _ = writeln!(
                s,
                "skin {:?} on node {}: {} joints, at most {} influences per vertex; common bind entry {}",
                skin.skin,
                skin.mesh_node,
                skin.joints,
                skin.max_influences,
                if skin.common_is_identity {
                    "identity".to_string()
                } else {
                    describe(&m)
                }
            );
        }
        if let Some(f) = self.bind_identity_pixel_difference {
            let _ = writeln!(
                s,
                "bind vs identity renders: {:.3}% of pixels differ",
                f * 100.0
            );
        }
        for f in &self.findings {
            let _ = writeln!(s, "{:<5} {}", f.severity, f.message);
        }
        let _ = writeln!(s, "{} errors", self.errors());
        s
    }
}

fn difference(a: &Mat4, b: &Mat4, size: f32) -> f32 {
    let linear = (a.x_axis - b.x_axis)
        .abs()
        .max_element()
        .max((a.y_axis - b.y_axis).abs().max_element())
        .max((a.z_axis - b.z_axis).abs().max_element());
    let translation = (a.w_axis - b.w_axis).abs().max_element() / size.max(1e-6);
    linear.max(translation)
}

/// A matrix in words: translation, rotation and scale.
fn describe(m: &Mat4) -> String {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    let (axis, angle) = rotation.to_axis_angle();
    format!(
        "translation ({:.4}, {:.4}, {:.4}), rotation {:.2} deg about ({:.3}, {:.3}, {:.3}), scale ({:.4}, {:.4}, {:.4})",
        translation.x,
        translation.y,
        translation.z,
        angle.to_degrees(),
        axis.x,
        axis.y,
        axis.z,
        scale.x,
        scale.y,
        scale.z
    )
}

/// Engine limits on joints per skin worth knowing.
const JOINT_LIMITS: [usize; 3] = [72, 128, 256];

pub fn check(c: &Character) -> CheckReport {
    let mut findings = Vec::new();
    let mut skins = Vec::new();
    let mut pose = CharacterPose::new(c);
    let _ = pose.update(c, PaletteMode::Bind);
    let error = |kind, joint: Option<(String, usize)>, message: String| Finding {
        severity: "error",
        kind,
        palette_index: joint.as_ref().map(|j| j.1),
        joint: joint.map(|j| j.0),
        message,
    };
    let info = |kind, message: String| Finding {
        severity: "info",
        kind,
        joint: None,
        palette_index: None,
        message,
    };
    for (i, instance) in c.instances.iter().enumerate() {
        let Some(s) = instance.skin else { continue };
        let skin = &c.skins[s];
        let Some(palette) = pose.instance_palette(i) else {
            continue;
        };
        let mesh = &c.meshes[instance.mesh];
        let positions: Vec<Vec3> = mesh
            .primitives
            .iter()
            .flat_map(|p| p.positions.iter().copied())
            .collect();
        let (lo, hi) = positions
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        let size = if positions.is_empty() {
            1.0
        } else {
            (hi - lo).length().max(1e-6)
        };
        let name_of = |p: usize| {
            let joint = skin.skin.joint(p).unwrap_or(0);
            (c.skeleton.names()[joint].clone(), p)
        };

        // The common matrix: the entry most joints agree with.
        let agree = |m: &Mat4| {
            palette
                .iter()
                .filter(|o| difference(m, o, size) < TOLERANCE)
                .count()
        };
        let common = palette
            .iter()
            .max_by_key(|m| agree(m))
            .copied()
            .unwrap_or(Mat4::IDENTITY);
        let common_is_identity = difference(&common, &Mat4::IDENTITY, size) < TOLERANCE;
        if !common_is_identity {
            findings.push(info(
                "authored_offset",
                format!(
                    "skin {:?}: the vertices are authored in another node's space than the mesh node's; every joint's bind entry is one common offset: {}",
                    skin.name,
                    describe(&common)
                ),
            ));
        }
        let mesh_from_world = pose.world_from_mesh[i].inverse();
        let model = pose.model.as_slice();
        for (p, entry) in palette.iter().enumerate() {
            let d = difference(entry, &common, size);
            if d < TOLERANCE {
                continue;
            }
            let joint = skin.skin.joint(p).unwrap_or(0);
            let world_from_joint = Mat4::from(model[joint]);
            let ibm = skin.skin.joint_from_bind()[p];
            let off = (*entry * common.inverse()).to_scale_rotation_translation();
            let moved = off.2.length();
            let turned = off.1.to_axis_angle().1.to_degrees();
            let mut why = Vec::new();
            if difference(
                &(mesh_from_world * world_from_joint * ibm.transpose()),
                &common,
                size,
            ) < TOLERANCE
            {
                why.push(
                    "its inverse bind matrix matches when transposed (written row-major)"
                        .to_string(),
                );
            }
            // The armature's non-joint ancestors: the parent chain above the skin's root joint.
            let ancestors = skin
                .root_joints
                .first()
                .and_then(|&r| skin.skin.joint(r))
                .and_then(|r| c.skeleton.parent(r))
                .map_or(Mat4::IDENTITY, |a| Mat4::from(model[a]));
            let without_ancestors = (ancestors.inverse() * world_from_joint).inverse();
            if ancestors != Mat4::IDENTITY && difference(&ibm, &without_ancestors, size) < TOLERANCE
            {
                why.push("its inverse bind matches the joint only without the armature's non-joint ancestors".to_string());
            }
            if ibm.determinant() < 0.0 && common.determinant() > 0.0 {
                why.push(
                    "its inverse bind has a negative determinant (flips handedness)".to_string(),
                );
            }
            if ibm.abs_diff_eq(Mat4::IDENTITY, 1e-6)
                && !world_from_joint.abs_diff_eq(Mat4::IDENTITY, 1e-4)
            {
                why.push("its inverse bind is the identity".to_string());
            }
            findings.push(error(
                "joint_mismatch",
                Some(name_of(p)),
                format!(
                    "joint {:?} (palette {p}): its bind entry differs from the skin's common one by {:.4} (moves {:.4}, turns {:.2} deg){}",
                    name_of(p).0,
                    d,
                    moved,
                    turned,
                    if why.is_empty() { String::new() } else { format!("; {}", why.join("; ")) }
                ),
            ));
        }

        // Influences: where each vertex sits against the joints that move it (bind pose, mesh
        // space).
        let joint_at: Vec<Vec3> = (0..skin.skin.len())
            .map(|p| {
                (mesh_from_world * Mat4::from(model[skin.skin.joint(p).unwrap_or(0)]))
                    .w_axis
                    .truncate()
            })
            .collect();
        let mut max_influences = 0;
        let (mut far, mut implausible, mut renormalised, mut dropped_vertices) =
            (0usize, 0usize, 0usize, 0usize);
        let mut dropped_max: f32 = 0.0;
        let mut first_implausible = None;
        let mut used = vec![false; skin.skin.len()];
        for primitive in &mesh.primitives {
            let Some(sk) = &primitive.skinning else {
                continue;
            };
            renormalised += sk.renormalised_vertices + sk.unweighted_vertices;
            for (&e, _) in sk.dropped_weight.iter().zip(&sk.weights) {
                if e > 1e-4 {
                    dropped_vertices += 1;
                    dropped_max = dropped_max.max(e);
                }
            }
            for (v, (j, w)) in sk.joints.iter().zip(&sk.weights).enumerate() {
                // Where the bind pose puts the vertex, in mesh space (as the joints are).
                let bound = common.transform_point3(primitive.positions[v]);
                let influences: Vec<(usize, f32)> = (0..4)
                    .filter(|&k| w[k] > 0.0)
                    .map(|k| (j[k] as usize, w[k]))
                    .collect();
                max_influences = max_influences.max(influences.len());
                for &(joint, _) in &influences {
                    if let Some(u) = used.get_mut(joint) {
                        *u = true;
                    }
                }
                let Some(&(dominant, _)) = influences.iter().max_by(|a, b| a.1.total_cmp(&b.1))
                else {
                    continue;
                };
                let distance =
                    |joint: usize| joint_at.get(joint).map_or(f32::MAX, |p| p.distance(bound));
                let nearest_weighted = influences
                    .iter()
                    .map(|&(joint, _)| distance(joint))
                    .fold(f32::MAX, f32::min);
                if nearest_weighted > 0.5 * size {
                    far += 1;
                }
                let d_dominant = distance(dominant);
                let unweighted_nearest = (0..joint_at.len())
                    .filter(|k| !influences.iter().any(|&(joint, _)| joint == *k))
                    .map(|k| (k, distance(k)))
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((near, d_near)) = unweighted_nearest
                    && d_dominant > 0.25 * size
                    && d_near < d_dominant * 0.25
                {
                    implausible += 1;
                    first_implausible.get_or_insert((v, dominant, near, d_dominant, d_near));
                }
            }
        }
        let vertex_count = positions.len().max(1);
        if far * 20 > vertex_count {
            findings.push(error(
                "mesh_off_skeleton",
                None,
                format!(
                    "skin {:?}: the mesh does not sit on its skeleton: {far} of {vertex_count} vertices are farther than {:.3} (half the mesh's size) from every joint that weights them; the inverse binds agree with each other but not with the vertex data",
                    skin.name,
                    0.5 * size
                ),
            ));
        }
        if let Some((v, dominant, near, dd, dn)) = first_implausible {
            findings.push(error(
                "implausible_weights",
                Some(name_of(dominant)),
                format!(
                    "{implausible} vertices are weighted to a far joint while a near one gets nothing, e.g. vertex {v}: {:?} at {dd:.3} weighs most, {:?} at {dn:.3} weighs nothing",
                    name_of(dominant).0,
                    name_of(near).0
                ),
            ));
        }
        if renormalised > 0 {
            findings.push(error(
                "weights_not_normalised",
                None,
                format!("{renormalised} vertices have weights that do not sum to 1 (the importer renormalised them)"),
            ));
        }
        if dropped_vertices > 0 {
            findings.push(error(
                "more_than_four_influences",
                None,
                format!(
                    "{dropped_vertices} vertices have more than 4 influences; the 4-weight shader drops up to {:.1}% of a vertex's weight",
                    dropped_max * 100.0
                ),
            ));
        }
        // Joints no vertex uses and that are no ancestor of a used joint.
        let ancestor_of_used = |p: usize| {
            let joint = skin.skin.joint(p).unwrap_or(0);
            (0..skin.skin.len()).filter(|&q| used[q]).any(|q| {
                let mut a = skin.skin.joint(q).and_then(|j| c.skeleton.parent(j));
                while let Some(x) = a {
                    if x == joint {
                        return true;
                    }
                    a = c.skeleton.parent(x);
                }
                false
            })
        };
        let unused: Vec<String> = (0..skin.skin.len())
            .filter(|&p| !used[p] && !ancestor_of_used(p))
            .map(|p| name_of(p).0)
            .collect();
        if !unused.is_empty() {
            findings.push(info(
                "unused_joints",
                format!(
                    "skin {:?}: joints no vertex uses (nor any joint below them): {}",
                    skin.name,
                    unused.join(", ")
                ),
            ));
        }
        let over: Vec<String> = JOINT_LIMITS
            .iter()
            .filter(|&&l| skin.skin.len() > l)
            .map(|l| l.to_string())
            .collect();
        findings.push(info(
            "limits",
            format!(
                "skin {:?}: {} joints{}; at most {max_influences} influences per vertex",
                skin.name,
                skin.skin.len(),
                if over.is_empty() {
                    " (within the common limits of 72, 128 and 256)".to_string()
                } else {
                    format!(" (over the limits of {})", over.join(", "))
                }
            ),
        ));
        skins.push(SkinCheck {
            skin: skin.name.clone(),
            mesh_node: instance.node,
            common_matrix: common.to_cols_array(),
            common_is_identity,
            joints: skin.skin.len(),
            max_influences,
        });
    }
    for mesh in &c.meshes {
        let targets = mesh.morph_weights.len();
        if targets > 8 {
            findings.push(info(
                "limits",
                format!(
                    "mesh {:?}: {targets} morph targets (over 8{})",
                    mesh.name,
                    if targets > 64 { " and 64" } else { "" }
                ),
            ));
        }
    }
    CheckReport {
        file: c.name.clone(),
        skins,
        findings,
        bind_identity_pixel_difference: None,
    }
}
