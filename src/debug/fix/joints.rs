//! A skin's joint list rewritten: parents first, and (when asked) without the joints nothing
//! uses.
//!
//! The new order is the file's, each joint moved after its parent (its nearest ancestor among
//! the skin's joints) where the file lists it before: a stable depth-first walk that emits a
//! joint's skin-parent before the joint. A joint is unused when no vertex weighs it, no joint
//! below it is used and no animation channel targets its node; dropping it from the list
//! changes nothing drawn (its node stays in the scene, with its children and animations). The
//! inverse binds move with their joints, and every JOINTS_n of every primitive drawn with the
//! skin is remapped (a zero-weight slot that named a dropped joint names joint 0).

use serde_json::json;

use super::{Repair, RepairKind, parents, skin_joints, skin_parents, skinned_primitives};
use crate::import::document::Document;

/// `reorder`: list the joints parents first; `drop_unused`: drop the joints nothing uses.
pub(super) fn repair(
    document: &mut Document,
    reorder: bool,
    drop_unused: bool,
) -> Result<Vec<Repair>, String> {
    let parent = parents(document);
    let animated = animated_nodes(document);
    let primitives = skinned_primitives(document);
    let skins = document.json["skins"].as_array().map_or(0, Vec::len);
    let mut repairs = Vec::new();
    for s in 0..skins {
        let joints = skin_joints(document, s);
        let skin_parent = skin_parents(&joints, &parent);
        let mut keep = vec![true; joints.len()];
        if drop_unused {
            let used = used_ordinals(document, s, &primitives, joints.len())?;
            keep = needed(&used, &skin_parent);
            for (k, &node) in joints.iter().enumerate() {
                keep[k] |= animated.contains(&node);
            }
        }
        let order: Vec<usize> = if reorder {
            parents_first(&skin_parent, &keep)
        } else {
            (0..joints.len()).filter(|&k| keep[k]).collect()
        };
        let reordered = order.windows(2).any(|w| w[0] > w[1]);
        let dropped: Vec<usize> = (0..joints.len()).filter(|&k| !keep[k]).collect();
        if !reordered && dropped.is_empty() {
            continue;
        }
        // Old ordinal -> new ordinal (None: dropped).
        let mut new_of = vec![None; joints.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old] = Some(new as u16);
        }
        remap_skin(document, s, &joints, &order)?;
        let vertices = remap_primitives(document, s, &primitives, &new_of)?;
        let name = |k: usize| {
            let node = &document.json["nodes"][joints[k]];
            node["name"]
                .as_str()
                .map_or_else(|| format!("node {}", joints[k]), str::to_owned)
        };
        if reordered {
            let moved: Vec<String> = order
                .iter()
                .enumerate()
                .filter(|&(new, &old)| new != old)
                .map(|(_, &old)| name(old))
                .collect();
            repairs.push(Repair {
                kind: RepairKind::JointOrder,
                pointer: format!("/skins/{s}/joints"),
                message: format!(
                    "listed the {} joints parents first ({} moved); remapped JOINTS_n of {vertices} vertices",
                    order.len(),
                    moved.len()
                ),
                vertices,
                joints: moved,
                largest_weight_change: 0.0,
            });
        }
        if !dropped.is_empty() {
            let names: Vec<String> = dropped.iter().map(|&k| name(k)).collect();
            repairs.push(Repair {
                kind: RepairKind::UnusedJoints,
                pointer: format!("/skins/{s}/joints"),
                message: format!(
                    "dropped {} joints no vertex, joint below them or animation uses: {} ({} left)",
                    names.len(),
                    names.join(", "),
                    order.len()
                ),
                vertices: 0,
                joints: names,
                largest_weight_change: 0.0,
            });
        }
    }
    Ok(repairs)
}

/// The kept ordinals, each after its skin-parent, otherwise in the file's order.
fn parents_first(skin_parent: &[Option<usize>], keep: &[bool]) -> Vec<usize> {
    let mut placed = vec![false; skin_parent.len()];
    let mut order = Vec::with_capacity(skin_parent.len());
    for k in 0..skin_parent.len() {
        // The chain of unplaced ancestors, emitted from the top.
        let mut chain = Vec::new();
        let mut a = Some(k);
        while let Some(j) = a {
            if placed[j] || chain.contains(&j) {
                break;
            }
            chain.push(j);
            a = skin_parent[j];
        }
        for &j in chain.iter().rev() {
            placed[j] = true;
            if keep[j] {
                order.push(j);
            }
        }
    }
    order
}

/// The ordinals some vertex of a primitive drawn with skin `s` weighs.
fn used_ordinals(
    document: &Document,
    s: usize,
    primitives: &[(usize, usize, usize)],
    joints: usize,
) -> Result<Vec<bool>, String> {
    let mut used = vec![false; joints];
    for &(_, mesh, p) in primitives.iter().filter(|x| x.0 == s) {
        let attributes = &document.json["meshes"][mesh]["primitives"][p]["attributes"];
        let mut set = 0;
        while let (Some(j), Some(w)) = (
            attributes[format!("JOINTS_{set}")].as_u64(),
            attributes[format!("WEIGHTS_{set}")].as_u64(),
        ) {
            let j = document.read(j as usize).map_err(|e| e.to_string())?;
            let w = document.read(w as usize).map_err(|e| e.to_string())?;
            for (joint, weight) in j.iter().zip(&w) {
                if *weight > 0.0
                    && let Some(u) = used.get_mut(*joint as usize)
                {
                    *u = true;
                }
            }
            set += 1;
        }
    }
    Ok(used)
}

/// The used joints and their skin-ancestors.
fn needed(used: &[bool], skin_parent: &[Option<usize>]) -> Vec<bool> {
    let mut keep = used.to_vec();
    for k in (0..used.len()).filter(|&k| used[k]) {
        let mut a = skin_parent[k];
        while let Some(p) = a {
            if keep[p] {
                break;
            }
            keep[p] = true;
            a = skin_parent[p];
        }
    }
    keep
}

/// The nodes some animation channel targets.
fn animated_nodes(document: &Document) -> Vec<usize> {
    let mut nodes: Vec<usize> = (document.json["animations"].as_array().into_iter().flatten())
        .flat_map(|a| a["channels"].as_array().into_iter().flatten())
        .filter_map(|c| c["target"]["node"].as_u64().map(|n| n as usize))
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// The skin's joints and inverse binds in the new order.
fn remap_skin(
    document: &mut Document,
    s: usize,
    joints: &[usize],
    order: &[usize],
) -> Result<(), String> {
    let list: Vec<usize> = order.iter().map(|&k| joints[k]).collect();
    document.json["skins"][s]["joints"] = json!(list);
    if let Some(a) = document.json["skins"][s]["inverseBindMatrices"].as_u64() {
        let m = document.read(a as usize).map_err(|e| e.to_string())?;
        if m.len() < 16 * joints.len() {
            return Err(format!(
                "{}: /skins/{s}/inverseBindMatrices: {} matrices for {} joints",
                document.file().display(),
                m.len() / 16,
                joints.len()
            ));
        }
        let moved: Vec<f32> = order
            .iter()
            .flat_map(|&k| m[16 * k..16 * k + 16].iter().copied())
            .collect();
        let new = document.push_floats(&moved, "MAT4", false);
        document.json["skins"][s]["inverseBindMatrices"] = json!(new);
    }
    Ok(())
}

/// Every JOINTS_n of the primitives drawn with skin `s`, remapped (each accessor once);
/// returns the vertices remapped.
fn remap_primitives(
    document: &mut Document,
    s: usize,
    primitives: &[(usize, usize, usize)],
    new_of: &[Option<u16>],
) -> Result<usize, String> {
    let mut done: Vec<(u64, usize)> = Vec::new();
    let mut vertices = 0;
    for &(_, mesh, p) in primitives.iter().filter(|x| x.0 == s) {
        let mut set = 0;
        loop {
            let key = format!("JOINTS_{set}");
            let Some(a) =
                document.json["meshes"][mesh]["primitives"][p]["attributes"][&key].as_u64()
            else {
                break;
            };
            let new = match done.iter().find(|d| d.0 == a) {
                Some(&(_, new)) => new,
                None => {
                    let values = document.read(a as usize).map_err(|e| e.to_string())?;
                    let remapped: Vec<u16> = values
                        .iter()
                        .map(|&j| new_of.get(j as usize).copied().flatten().unwrap_or(0))
                        .collect();
                    if set == 0 {
                        vertices += values.len() / 4;
                    }
                    let wide = document.json["accessors"][a as usize]["componentType"].as_u64()
                        != Some(5121);
                    let new = document.push_indices(&remapped, "VEC4", wide);
                    done.push((a, new));
                    new
                }
            };
            document.json["meshes"][mesh]["primitives"][p]["attributes"][&key] = json!(new);
            set += 1;
        }
    }
    Ok(vertices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_come_first_otherwise_in_the_file_s_order() {
        // Ordinals: 0 hand (parent 2), 1 hips (root), 2 arm (parent 1), 3 head (parent 1).
        let skin_parent = [Some(2), None, Some(1), Some(1)];
        assert_eq!(parents_first(&skin_parent, &[true; 4]), [1, 2, 0, 3]);
        // Already parent-first: unchanged.
        assert_eq!(
            parents_first(&[None, Some(0), Some(1)], &[true; 3]),
            [0, 1, 2]
        );
        // Dropped joints leave the order of the others.
        assert_eq!(
            parents_first(&skin_parent, &[true, true, true, false]),
            [1, 2, 0]
        );
    }

    #[test]
    fn a_used_joint_keeps_its_ancestors() {
        let skin_parent = [None, Some(0), Some(1), Some(0)];
        assert_eq!(
            needed(&[false, false, true, false], &skin_parent),
            [true, true, true, false]
        );
    }
}
