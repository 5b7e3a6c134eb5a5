//! The node hierarchy: parents checked (no loops, no node with two parents), every node ordered
//! parent-before-child into the animated skeleton, and rest transforms taken from TRS or matrices.

use glam::{Mat4, Quat, Vec3};

use super::problem::Problems;
use crate::anim::{Skeleton, Transform};

pub(crate) struct Hierarchy {
    pub skeleton: Skeleton,
    pub node_of_joint: Vec<usize>,
    pub joint_of_node: Vec<usize>,
    /// Parent node of each node.
    pub parent_of_node: Vec<Option<usize>>,
    /// Nodes of the displayed scene, depth-first from its roots.
    pub scene_nodes: Vec<usize>,
    /// Index of the displayed scene (`/scenes/N`; 0 without scenes).
    pub scene: usize,
    /// Whether each node's transform is not the identity.
    pub has_transform: Vec<bool>,
}

pub(crate) fn build(
    document: &gltf::Document,
    scene: Option<usize>,
    problems: &mut Problems,
) -> Option<Hierarchy> {
    let parent_of_node = parents(document, problems)?;
    let n = parent_of_node.len();
    let (node_of_joint, joint_of_node) = joint_order(document, &parent_of_node);
    let mut names = Vec::with_capacity(n);
    let mut parents = Vec::with_capacity(n);
    let mut rest = Vec::with_capacity(n);
    let mut has_transform = vec![false; n];
    let nodes: Vec<gltf::Node<'_>> = document.nodes().collect();
    for &node_index in &node_of_joint {
        let node = &nodes[node_index];
        names.push(
            node.name()
                .map(str::to_owned)
                .unwrap_or_else(|| format!("node {node_index}")),
        );
        parents.push(parent_of_node[node_index].map(|p| joint_of_node[p]));
        let t = rest_transform(node, problems);
        has_transform[node_index] = t != Transform::IDENTITY;
        rest.push(t);
    }
    let skeleton = match Skeleton::new(names, parents, rest) {
        Ok(s) => s,
        Err(e) => {
            problems.error("/nodes", e.to_string());
            return None;
        }
    };

    let (scene_index, scene_nodes) = scene_nodes(document, scene, &parent_of_node, problems)?;
    Some(Hierarchy {
        skeleton,
        node_of_joint,
        joint_of_node,
        parent_of_node,
        scene_nodes,
        scene: scene_index,
        has_transform,
    })
}

/// Each node's parent, checked: one parent per node, no node its own child or ancestor.
fn parents(document: &gltf::Document, problems: &mut Problems) -> Option<Vec<Option<usize>>> {
    let n = document.nodes().len();
    let mut parent_of_node: Vec<Option<usize>> = vec![None; n];
    let errors_before = problems.errors.len();
    for node in document.nodes() {
        for (k, child) in node.children().enumerate() {
            let at = format!("/nodes/{}/children/{k}", node.index());
            let c = child.index();
            if c == node.index() {
                problems.error(at, format!("node {c} lists itself as a child"));
            } else if let Some(p) = parent_of_node[c] {
                problems.error(
                    at,
                    format!("node {c} already has parent {p}: a node may have only one parent"),
                );
            } else {
                parent_of_node[c] = Some(node.index());
            }
        }
    }
    // With one parent each, a loop is a chain of parents that never reaches a root.
    for start in 0..n {
        let mut current = start;
        let mut steps = 0;
        while let Some(p) = parent_of_node[current] {
            current = p;
            steps += 1;
            if steps > n {
                problems.error(
                    format!("/nodes/{start}"),
                    "is part of a loop of children (a node cannot be its own ancestor)",
                );
                break;
            }
        }
    }
    if problems.errors.len() > errors_before {
        return None;
    }
    Some(parent_of_node)
}

/// The skeleton's order: depth-first from each root, children in listed order (parents come
/// first); and each node's joint.
fn joint_order(
    document: &gltf::Document,
    parent_of_node: &[Option<usize>],
) -> (Vec<usize>, Vec<usize>) {
    let n = parent_of_node.len();
    let mut node_of_joint = Vec::with_capacity(n);
    let mut stack: Vec<usize> = (0..n)
        .rev()
        .filter(|&i| parent_of_node[i].is_none())
        .collect();
    while let Some(node) = stack.pop() {
        node_of_joint.push(node);
        let children: Vec<usize> = document
            .nodes()
            .nth(node)
            .map(|nd| nd.children().map(|c| c.index()).collect())
            .unwrap_or_default();
        stack.extend(children.into_iter().rev());
    }
    let mut joint_of_node = vec![0; n];
    for (joint, &node) in node_of_joint.iter().enumerate() {
        joint_of_node[node] = joint;
    }
    (node_of_joint, joint_of_node)
}

/// The displayed scene (`scene`, or the default one, or the first) and its nodes in
/// depth-first order.
fn scene_nodes(
    document: &gltf::Document,
    scene: Option<usize>,
    parent_of_node: &[Option<usize>],
    problems: &mut Problems,
) -> Option<(usize, Vec<usize>)> {
    let n = parent_of_node.len();
    let nodes: Vec<gltf::Node<'_>> = document.nodes().collect();
    let chosen = match scene {
        Some(s) => match document.scenes().nth(s) {
            Some(scene) => Some(scene),
            None => {
                problems.error(
                    "/scenes",
                    format!("no scene {s}: the file has {}", document.scenes().count()),
                );
                return None;
            }
        },
        None => document
            .default_scene()
            .or_else(|| document.scenes().next()),
    };
    let scene_index = chosen.as_ref().map_or(0, |s| s.index());
    let scene_roots: Vec<usize> = match chosen {
        Some(scene) => scene.nodes().map(|n| n.index()).collect(),
        None => (0..n).filter(|&i| parent_of_node[i].is_none()).collect(),
    };
    let mut scene_nodes = Vec::new();
    let mut visited = vec![false; n];
    let mut stack: Vec<usize> = scene_roots.into_iter().rev().collect();
    while let Some(node) = stack.pop() {
        // Marked, not searched for: a scene of 65,535 nodes is walked in linear time.
        if visited.get(node).copied().unwrap_or(true) {
            continue;
        }
        visited[node] = true;
        scene_nodes.push(node);
        stack.extend(
            nodes[node]
                .children()
                .map(|c| c.index())
                .collect::<Vec<_>>()
                .into_iter()
                .rev(),
        );
    }
    Some((scene_index, scene_nodes))
}

/// The node's local transform as TRS. A matrix is decomposed (what three.js does too); one that
/// is not affine is an error, one with shear loses it, with a warning.
fn rest_transform(node: &gltf::Node<'_>, problems: &mut Problems) -> Transform {
    let at = format!("/nodes/{}", node.index());
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let m = Mat4::from_cols_array_2d(&matrix);
            if !m.is_finite() {
                problems.error(format!("{at}/matrix"), "has non-finite values");
                return Transform::IDENTITY;
            }
            if !m.row(3).abs_diff_eq(glam::Vec4::W, 1e-6) {
                problems.error(
                    format!("{at}/matrix"),
                    format!("is not affine: its last row is {}", m.row(3)),
                );
                return Transform::IDENTITY;
            }
            let (scale, rotation, translation) = m.to_scale_rotation_translation();
            let t = Transform {
                translation,
                rotation: rotation.normalize(),
                scale,
            };
            let error = (t.to_mat4() - m)
                .to_cols_array()
                .iter()
                .fold(0.0f32, |a, v| a.max(v.abs()));
            let size = m.to_cols_array().iter().fold(1.0f32, |a, v| a.max(v.abs()));
            if !t.is_valid() || error > 1e-4 * size {
                problems.warn(
                    format!("{at}/matrix"),
                    "is not a translation-rotation-scale (it shears or is singular); shown without the shear",
                );
            }
            if t.is_valid() { t } else { Transform::IDENTITY }
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let translation = Vec3::from(translation);
            let scale = Vec3::from(scale);
            let rotation = Quat::from_array(rotation);
            if !translation.is_finite() || !scale.is_finite() || !rotation.is_finite() {
                problems.error(at, "translation, rotation or scale is not finite");
                return Transform::IDENTITY;
            }
            let len = rotation.length();
            if len <= f32::EPSILON {
                problems.error(format!("{at}/rotation"), "is a zero quaternion");
                return Transform::IDENTITY;
            }
            if (len - 1.0).abs() > 1e-3 {
                problems.warn(
                    format!("{at}/rotation"),
                    format!("is not a unit quaternion (length {len}); normalised"),
                );
            }
            Transform {
                translation,
                rotation: rotation / len,
                scale,
            }
        }
    }
}
