//! Body parts read from a skeleton's shape when its names say nothing (`Bone.012`, `j7`): the
//! hips where two branches go down and one goes up, each leg's thigh, shin, foot and toe from
//! the hips down, the spine up to the joint the arms branch from, the neck and head above it,
//! each arm's shoulder, upper arm, forearm and hand outward; left and right by where the joints
//! stand, facing where the toes point (else +Z, glTF's forward). The parts are named as
//! `canonical_name` names them, so a part read from the shape matches one read from a name.

use glam::Vec3;

use super::Skeleton;
use crate::{LocalPose, ModelPose, local_to_model};

/// Each joint's body part by the skeleton's shape in its rest pose (`None`: not one the
/// reading finds). Spine joints are all `spine`, bottom to top in joint order.
pub fn shape_roles(skeleton: &Skeleton) -> Vec<Option<String>> {
    let n = skeleton.joint_count();
    let mut roles = vec![None; n];
    let pos = rest_positions(skeleton);
    let children = children_of(skeleton);
    // Each joint's subtree: its lowest and highest point (parents come first: fold from the end).
    let (mut low, mut high) = (
        pos.iter().map(|p| p.y).collect::<Vec<_>>(),
        pos.iter().map(|p| p.y).collect::<Vec<_>>(),
    );
    for j in (0..n).rev() {
        if let Some(p) = skeleton.parent(j) {
            low[p] = low[p].min(low[j]);
            high[p] = high[p].max(high[j]);
        }
    }
    let (Some(bottom), Some(top)) = (
        low.iter().copied().reduce(f32::min),
        high.iter().copied().reduce(f32::max),
    ) else {
        return roles;
    };
    let height = top - bottom;
    if height <= 1e-6 {
        return roles;
    }
    let down = |j: usize, c: usize| low[c] < pos[j].y - 0.25 * height;
    let up = |j: usize, c: usize| high[c] > pos[j].y + 0.1 * height;
    // The hips: the topmost joint with two branches going down and one going up.
    let Some(hips) = (0..n).find(|&j| {
        children[j].iter().filter(|&&c| down(j, c)).count() >= 2
            && children[j].iter().any(|&c| up(j, c))
    }) else {
        return roles;
    };
    roles[hips] = Some("hips".to_string());
    // Along a branch: from `start`, at each joint the child `best` picks; twist and roll
    // joints (by name, as `Chain::ending_at` passes them) are passed over.
    let helper = |j: usize| {
        let name = skeleton.names()[j].to_ascii_lowercase();
        name.contains("twist") || name.contains("roll")
    };
    let path = |start: usize, best: &dyn Fn(usize) -> f32| {
        let mut out = vec![start];
        let mut at = start;
        while let Some(&next) = children[at]
            .iter()
            .max_by(|&&a, &&b| best(a).total_cmp(&best(b)))
        {
            out.push(next);
            at = next;
        }
        out.retain(|&j| !helper(j));
        out
    };
    // Facing: where the legs' lowest joints point from their parents (the toes), else +Z.
    let legs: Vec<Vec<usize>> = children[hips]
        .iter()
        .filter(|&&c| down(hips, c))
        .map(|&c| path(c, &|j| -low[j]))
        .collect();
    let forward = legs
        .iter()
        .filter_map(|leg| {
            let (&toe, rest) = leg.split_last()?;
            let foot = *rest.last()?;
            Some((pos[toe] - pos[foot]).with_y(0.0))
        })
        .sum::<Vec3>()
        .try_normalize()
        .filter(|f| f.length_squared() > 0.5)
        .unwrap_or(Vec3::Z);
    let left = Vec3::Y.cross(forward);
    let side = |j: usize| {
        if (pos[j] - pos[hips]).dot(left) >= 0.0 {
            "left"
        } else {
            "right"
        }
    };
    // A branch's first joints that stand where it leaves its parent (CMU's `LHipJoint`) are
    // passed over: the limb starts where the branch has moved off.
    let off = |from: usize, chain: &[usize], by: f32| {
        chain
            .iter()
            .position(|&j| pos[j].distance(pos[from]) > by * height)
            .unwrap_or(chain.len())
    };
    for leg in &legs {
        let start = off(hips, leg, 0.03);
        let s = side(leg[leg.len() - 1]);
        for (k, part) in ["thigh", "shin", "foot", "toe"].iter().enumerate() {
            if let Some(&j) = leg.get(start + k) {
                set(&mut roles, j, s, part);
            }
        }
    }
    // The spine: up from the hips to the first joint that branches with an arm among its
    // branches (the chest). A branch reaches sideways when its subtree spreads a fifth of the
    // height to the left or right of where it leaves.
    let across: Vec<f32> = pos.iter().map(|p| p.dot(left)).collect();
    let (mut least, mut most) = (across.clone(), across.clone());
    for j in (0..n).rev() {
        if let Some(p) = skeleton.parent(j) {
            least[p] = least[p].min(least[j]);
            most[p] = most[p].max(most[j]);
        }
    }
    let sideways =
        |j: usize, c: usize| (most[c] - across[j]).max(across[j] - least[c]) > 0.2 * height;
    let Some(&first) = children[hips]
        .iter()
        .filter(|&&c| up(hips, c))
        .max_by(|&&a, &&b| high[a].total_cmp(&high[b]))
    else {
        return roles;
    };
    let mut spine = vec![first];
    let mut at = first;
    while !(children[at].len() >= 2 && children[at].iter().any(|&c| sideways(at, c))) {
        let Some(&next) = children[at]
            .iter()
            .max_by(|&&a, &&b| high[a].total_cmp(&high[b]))
        else {
            break;
        };
        spine.push(next);
        at = next;
    }
    let chest = at;
    for &j in &spine {
        roles[j] = Some("spine".to_string());
    }
    // The neck and head: the branch from the chest that goes highest without reaching sideways.
    let head_branch = children[chest]
        .iter()
        .copied()
        .filter(|&c| !sideways(chest, c))
        .max_by(|&a, &b| high[a].total_cmp(&high[b]));
    if let Some(c) = head_branch {
        let chain = path(c, &|j| high[j]);
        match chain.len() {
            1 => roles[chain[0]] = Some("head".to_string()),
            2 => {
                roles[chain[0]] = Some("neck".to_string());
                roles[chain[1]] = Some("head".to_string());
            }
            k => {
                roles[chain[0]] = Some("neck".to_string());
                roles[chain[k - 2]] = Some("head".to_string());
            }
        }
    }
    // The arms: the branches from the chest that reach sideways, outward to the farthest joint.
    for &c in children[chest].iter().filter(|&&c| sideways(chest, c)) {
        let arm = path(c, &|j| (pos[j] - pos[chest]).dot(left).abs());
        let s = side(arm[arm.len() - 1]);
        // A clavicle starts near the spine; an upper arm at the shoulder.
        let clavicle =
            arm.len() >= 4 && (pos[arm[0]] - pos[chest]).dot(left).abs() < 0.065 * height;
        let parts: &[&str] = if clavicle {
            &["shoulder", "upperarm", "forearm", "hand"]
        } else {
            &["upperarm", "forearm", "hand"]
        };
        for (k, part) in parts.iter().enumerate() {
            if let Some(&j) = arm.get(k) {
                set(&mut roles, j, s, part);
            }
        }
    }
    roles
}

/// Each joint's children, in joint order.
pub(super) fn children_of(skeleton: &Skeleton) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); skeleton.joint_count()];
    for j in 0..skeleton.joint_count() {
        if let Some(p) = skeleton.parent(j) {
            children[p].push(j);
        }
    }
    children
}

/// Names joint `j` `side part`, unless a reading named it already.
fn set(roles: &mut [Option<String>], j: usize, side: &str, part: &str) {
    if roles[j].is_none() {
        roles[j] = Some(format!("{side} {part}"));
    }
}

/// The skeleton's rest pose in model space (a skeleton's rest always composes).
pub(super) fn rest_model(skeleton: &Skeleton) -> ModelPose {
    let mut model = ModelPose::new(skeleton);
    let _ = local_to_model(skeleton, &LocalPose::rest(skeleton), &mut model);
    model
}

/// Every joint's model-space position at rest.
fn rest_positions(skeleton: &Skeleton) -> Vec<Vec3> {
    rest_model(skeleton)
        .as_slice()
        .iter()
        .map(|m| Vec3::from(m.translation))
        .collect()
}
