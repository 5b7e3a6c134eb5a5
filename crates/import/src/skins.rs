//! Skins: joints mapped to skeleton joints and put in palette order (parent-before-child), with
//! their inverse bind matrices.

use glam::Mat4;
use gltf::accessor::{DataType, Dimensions};

use super::accessor::{Buffers, expect_format, read_f32};
use super::hierarchy::Hierarchy;
use super::problem::Problems;
use crate::anim::Skin;
use crate::character::SkinData;

pub(crate) fn build(
    document: &gltf::Document,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    problems: &mut Problems,
) -> Vec<SkinData> {
    document
        .skins()
        .filter_map(|skin| {
            // The scene's nodes that draw a mesh with this skin.
            let users: Vec<usize> = (document.nodes())
                .filter(|n| n.mesh().is_some() && n.skin().map(|k| k.index()) == Some(skin.index()))
                .map(|n| n.index())
                .filter(|n| hierarchy.scene_nodes.contains(n))
                .collect();
            build_one(&skin, &users, buffers, hierarchy, problems)
        })
        .collect()
}

/// The warning for a skin whose joints the importer lists again parents first (`check` reports
/// it as a finding of its own, which `fix` repairs in the file).
pub const JOINTS_REORDERED: &str =
    "lists a joint before its parent: reordered parent-before-child and JOINTS_0 remapped";

fn build_one(
    skin: &gltf::Skin<'_>,
    users: &[usize],
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    problems: &mut Problems,
) -> Option<SkinData> {
    let at = format!("/skins/{}", skin.index());
    let joint_nodes: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    if joint_nodes.is_empty() {
        problems.error(format!("{at}/joints"), "a skin needs at least one joint");
        return None;
    }
    // Each node's first ordinal, in one pass (a 65,535-joint skin is not searched quadratically).
    let mut first_ordinal = std::collections::HashMap::with_capacity(joint_nodes.len());
    for (k, &node) in joint_nodes.iter().enumerate() {
        if let Some(first) = first_ordinal.insert(node, k) {
            problems.error(
                format!("{at}/joints/{k}"),
                format!("node {node} is already joint {first} of this skin"),
            );
            return None;
        }
    }
    let joint_from_bind_by_ordinal = match skin.inverse_bind_matrices() {
        None => vec![Mat4::IDENTITY; joint_nodes.len()],
        Some(accessor) => {
            let ibm_at = format!("{at}/inverseBindMatrices");
            let names: Vec<&str> = joint_nodes
                .iter()
                .map(|&n| hierarchy.skeleton.names()[hierarchy.joint_of_node[n]].as_str())
                .collect();
            read_inverse_binds(&accessor, &ibm_at, &joint_nodes, &names, buffers, problems)?
        }
    };

    // Palette order: the file's order when it already lists parents before children (so palette
    // indices are the file's joint indices, as in other viewers); otherwise the joints sorted by
    // skeleton joint, which is parent-before-child.
    let skeleton_joint = |ordinal: usize| hierarchy.joint_of_node[joint_nodes[ordinal]];
    let mut ordinal_of_palette: Vec<usize> = (0..joint_nodes.len()).collect();
    if !parents_come_first(&joint_nodes, hierarchy) {
        ordinal_of_palette.sort_by_key(|&o| skeleton_joint(o));
        problems.warn(format!("{at}/joints"), JOINTS_REORDERED);
    }
    let mut palette_of_ordinal = vec![0; joint_nodes.len()];
    for (palette, &ordinal) in ordinal_of_palette.iter().enumerate() {
        palette_of_ordinal[ordinal] = palette;
    }
    let joints = ordinal_of_palette
        .iter()
        .map(|&o| skeleton_joint(o))
        .collect();
    let joint_from_bind = ordinal_of_palette
        .iter()
        .map(|&o| joint_from_bind_by_ordinal[o])
        .collect();
    let skin_anim = match Skin::new(&hierarchy.skeleton, joints, joint_from_bind) {
        Ok(s) => s,
        Err(e) => {
            problems.error(&at, e.to_string());
            return None;
        }
    };

    if !joint_nodes
        .iter()
        .any(|n| hierarchy.scene_nodes.contains(n))
    {
        // At each node that draws with the skin, as the glTF-Validator points.
        let message = format!(
            "no joint of skin {} is in the displayed scene; its joints are posed from their own roots",
            skin.index()
        );
        if users.is_empty() {
            problems.warn_coded("NODE_SKIN_NO_SCENE", format!("{at}/joints"), &message);
        }
        for &node in users {
            problems.warn_coded("NODE_SKIN_NO_SCENE", format!("/nodes/{node}"), &message);
        }
    }

    let name = skin
        .name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("skin {}", skin.index()));
    let mut data = SkinData {
        name,
        index: skin.index(),
        skin: skin_anim,
        ordinal_of_palette,
        palette_of_ordinal,
        root_joints: Vec::new(),
        palette_parents: Vec::new(),
        has_inverse_binds: skin.inverse_bind_matrices().is_some(),
        non_joint_ancestors: Vec::new(),
    };
    find_roots(&mut data, &hierarchy.skeleton);
    Some(data)
}

/// The inverse bind matrices, one per joint ordinal. Non-finite ones refuse the file; a matrix
/// that is not affine (written row-major, say) or not invertible loads with a warning naming its
/// joint and is drawn as the file says, so the bug can be seen (`check` diagnoses it).
fn read_inverse_binds(
    accessor: &gltf::Accessor<'_>,
    ibm_at: &str,
    joint_nodes: &[usize],
    joint_names: &[&str],
    buffers: &Buffers,
    problems: &mut Problems,
) -> Option<Vec<Mat4>> {
    problems.take(expect_format(
        accessor,
        ibm_at,
        "inverse bind matrix",
        &[Dimensions::Mat4],
        &[DataType::F32],
    ))?;
    if accessor.count() < joint_nodes.len() {
        problems.error_coded(
            "INVALID_IBM_ACCESSOR_COUNT",
            ibm_at,
            format!(
                "accessor {} has {} matrices for {} joints",
                accessor.index(),
                accessor.count(),
                joint_nodes.len()
            ),
        );
        return None;
    }
    let values = problems.take(read_f32(accessor, buffers))?;
    if accessor.view().is_none() && accessor.sparse().is_none() {
        problems.warn(
            ibm_at,
            format!(
                "accessor {} has no buffer view: its matrices are zeros (glTF's rule), so every vertex of the skin collapses to the mesh node's origin",
                accessor.index()
            ),
        );
        return Some(vec![Mat4::ZERO; joint_nodes.len()]);
    }
    let mut matrices = Vec::with_capacity(joint_nodes.len());
    for (ordinal, m) in values.chunks_exact(16).take(joint_nodes.len()).enumerate() {
        let m = Mat4::from_cols_slice(m);
        let joint = format!(
            "matrix {ordinal} (joint node {} {:?})",
            joint_nodes[ordinal],
            joint_names.get(ordinal).copied().unwrap_or_default()
        );
        if !m.is_finite() {
            problems.error(ibm_at, format!("{joint} has non-finite values"));
            return None;
        }
        if !m.row(3).abs_diff_eq(glam::Vec4::W, 1e-5) {
            let transposed = if m.transpose().row(3).abs_diff_eq(glam::Vec4::W, 1e-5) {
                " (its transpose is affine: written row-major?)"
            } else {
                ""
            };
            problems.warn_coded(
                "ACCESSOR_INVALID_IBM",
                ibm_at,
                format!(
                    "{joint} is not affine: its last row is {}{transposed}; drawn as the file says",
                    m.row(3)
                ),
            );
        } else if crate::anim::is_singular(&m) {
            problems.warn_coded(
                "ACCESSOR_INVALID_IBM",
                ibm_at,
                format!("{joint} is not invertible; drawn as the file says"),
            );
        }
        matrices.push(m);
    }
    Some(matrices)
}

/// The skin's root joints (palette indices whose parent is no joint of the skin) and the
/// non-joint ancestors above them (armatures), from the scene root down.
fn find_roots(data: &mut SkinData, skeleton: &crate::anim::Skeleton) {
    data.palette_parents = SkinData::find_palette_parents(&data.skin, skeleton);
    data.root_joints = (0..data.skin.len())
        .filter(|&p| data.palette_parent(p).is_none())
        .collect();
    let mut ancestors = Vec::new();
    for &root in &data.root_joints {
        let mut a = data.skin.joint(root).and_then(|j| skeleton.parent(j));
        while let Some(joint) = a {
            if !ancestors.contains(&joint) {
                ancestors.push(joint);
            }
            a = skeleton.parent(joint);
        }
    }
    // Skeleton order is parent-before-child: sorting lists them from the scene root down.
    ancestors.sort_unstable();
    data.non_joint_ancestors = ancestors;
}

/// Whether every joint's nearest ancestor that is a joint of the skin comes earlier in the list.
fn parents_come_first(joint_nodes: &[usize], hierarchy: &Hierarchy) -> bool {
    let mut ordinal_of_node = vec![None; hierarchy.parent_of_node.len()];
    for (ordinal, &node) in joint_nodes.iter().enumerate() {
        if let Some(slot) = ordinal_of_node.get_mut(node) {
            slot.get_or_insert(ordinal);
        }
    }
    joint_nodes.iter().enumerate().all(|(ordinal, &node)| {
        let mut ancestor = hierarchy.parent_of_node.get(node).copied().flatten();
        while let Some(a) = ancestor {
            if let Some(parent_ordinal) = ordinal_of_node.get(a).copied().flatten() {
                return parent_ordinal < ordinal;
            }
            ancestor = hierarchy.parent_of_node.get(a).copied().flatten();
        }
        true
    })
}
