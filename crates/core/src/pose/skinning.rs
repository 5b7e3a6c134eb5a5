//! Which joints skin by dual quaternions under weight-blended skinning (`SkinningMethod::Blended`):
//! the per-joint method weights from `--dqs-joints ROOT[,ROOT...]` or its default "auto" (the
//! joints the character's clips twist about their bone by more than 60 degrees), and the same
//! weights per palette entry, as the renderer and the CPU reference read them.

use super::CharacterPose;
use crate::anim::{subtree_methods, twisting_joints};
use crate::character::Character;

/// A twist about the bone beyond this, in some clip, makes "auto" skin the joint by dual
/// quaternions.
pub const AUTO_TWIST_DEGREES: f32 = 60.0;

/// The joints that skin by dual quaternions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DqsJoints {
    /// The parents of those the clips twist by more than `AUTO_TWIST_DEGREES` (and their
    /// subtrees): `auto_dqs_joints`.
    #[default]
    Auto,
    /// The subtrees of these joints, by name.
    Roots(Vec<String>),
}

impl DqsJoints {
    /// `auto`, or comma-separated joint names.
    pub fn parse(text: &str) -> Self {
        if text.trim() == "auto" {
            return DqsJoints::Auto;
        }
        DqsJoints::Roots(
            text.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        )
    }

    /// Per-joint method weights (1: dual quaternions) for `c`; a name `c` lacks is an error
    /// that names it.
    pub fn methods(&self, c: &Character) -> Result<Vec<f32>, NoJoint> {
        let roots = match self {
            DqsJoints::Auto => return Ok(auto_methods(c)),
            DqsJoints::Roots(names) => names
                .iter()
                .map(|n| c.skeleton.find(n).ok_or_else(|| NoJoint(n.clone())))
                .collect::<Result<Vec<_>, _>>()?,
        };
        Ok(subtree_methods(&c.skeleton, &roots))
    }
}

/// A joint name the character lacks.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the character has no joint {0:?}")]
pub struct NoJoint(pub String);

/// "auto"'s per-joint method weights: the subtrees of `auto_dqs_joints` by dual quaternions.
pub fn auto_methods(c: &Character) -> Vec<f32> {
    subtree_methods(&c.skeleton, &auto_dqs_joints(c))
}

/// The subtrees dual quaternions take under "auto": each joint `c`'s clips twist about their
/// bone by more than `AUTO_TWIST_DEGREES`, from its parent down. The candy wrapper forms where
/// vertices blend the twisting joint with its parent (a forearm's between the elbow and the
/// twist joint), so both sides of that blend must be dual quaternions; a twisting joint whose
/// parent is a root takes its own subtree (the root's would be the whole body).
pub fn auto_dqs_joints(c: &Character) -> Vec<usize> {
    let s = &c.skeleton;
    let mut roots: Vec<usize> = twisting_joints(
        s,
        c.clips.iter().map(|clip| &clip.clip),
        AUTO_TWIST_DEGREES.to_radians(),
    )
    .into_iter()
    .map(|j| match s.parent(j) {
        Some(p) if s.parent(p).is_some() => p,
        _ => j,
    })
    .collect();
    roots.sort_unstable();
    roots.dedup();
    roots
}

/// Per-joint method weights as one per palette entry of a pose of `c` (`palette_len` entries,
/// laid out as `CharacterPose::palette`: entry 0 the identity, then each skinned instance's),
/// into `out`.
pub fn palette_methods(
    c: &Character,
    palette_base: &[u32],
    palette_len: usize,
    joint_methods: &[f32],
    out: &mut Vec<f32>,
) {
    out.clear();
    out.resize(palette_len, 0.0);
    for (instance, &base) in c.instances.iter().zip(palette_base) {
        let Some(skin) = instance.skin.and_then(|s| c.skins.get(s)) else {
            continue;
        };
        for k in 0..skin.skin.len() {
            let joint = skin.skin.joint(k);
            let at = base as usize + k;
            if let (Some(j), Some(slot)) = (joint, out.get_mut(at)) {
                *slot = joint_methods.get(j).copied().unwrap_or(0.0);
            }
        }
    }
}

impl CharacterPose {
    /// Sets the per-joint method weights weight-blended skinning reads (`palette_method`).
    pub fn set_joint_methods(&mut self, c: &Character, joint_methods: &[f32]) {
        let mut out = std::mem::take(&mut self.palette_method);
        palette_methods(
            c,
            &self.palette_base,
            self.palette.len(),
            joint_methods,
            &mut out,
        );
        self.palette_method = out;
    }
}
