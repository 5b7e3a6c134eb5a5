//! The numbers behind a picked vertex and a selected joint, as the panel shows them: a vertex's
//! influences with each one's share of the vertex's displacement, and a joint's inverse bind
//! matrix beside the inverse of its rest transform, so that an inverse-bind problem can be read
//! off the panel (users of gltf-insight and Godot ask for both).

use glam::{Mat4, Vec3};

use super::picking::PickedVertex;
use crate::character::Character;
use crate::pose::CharacterPose;

/// One influence of a vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct InfluenceRow {
    pub joint: String,
    pub palette: usize,
    pub weight: f32,
    /// The part of the vertex's displacement (posed against bind, linear blend) this influence
    /// makes, along the displacement: `dot(w_i (M_i p - p), d) / |d|^2` with
    /// `d = sum_i w_i (M_i p - p)`. The shares sum to one; zero when the vertex has not moved.
    pub share: f32,
}

/// The picked vertex's influences in the pose, heaviest first.
pub fn influence_rows(c: &Character, pose: &CharacterPose, v: &PickedVertex) -> Vec<InfluenceRow> {
    let bound = (c.instances.get(v.instance))
        .and_then(|i| c.meshes[i.mesh].primitives.get(v.primitive))
        .and_then(|p| p.positions.get(v.vertex))
        .copied()
        .unwrap_or(Vec3::ZERO);
    let palette = pose.instance_palette(v.instance).unwrap_or(&[]);
    let term = |p: usize, w: f32| {
        palette
            .get(p)
            .map_or(Vec3::ZERO, |m| w * (m.transform_point3(bound) - bound))
    };
    let d: Vec3 = (v.influences.iter()).map(|&(_, p, w)| term(p, w)).sum();
    let mut rows: Vec<InfluenceRow> = (v.influences.iter())
        .map(|(joint, p, w)| InfluenceRow {
            joint: joint.clone(),
            palette: *p,
            weight: *w,
            share: if d.length_squared() > 0.0 {
                term(*p, *w).dot(d) / d.length_squared()
            } else {
                0.0
            },
        })
        .collect();
    rows.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    rows
}

/// A joint's inverse bind in one skin, beside what the rest pose says it should be.
#[derive(Clone, Debug, PartialEq)]
pub struct BindReadout {
    pub skin: String,
    pub palette: usize,
    /// The file's inverse bind matrix.
    pub inverse_bind: Mat4,
    /// The inverse of the joint's rest transform in the mesh's space (the mesh node's rest
    /// transform undone): the inverse bind that makes the joint's bind entry the identity.
    pub rest_inverse: Mat4,
    /// The largest difference of one element.
    pub difference: f32,
}

/// `joint`'s rest transform in the scene (its chain of rest transforms).
fn rest_world(c: &Character, joint: usize) -> Mat4 {
    let mut m = Mat4::IDENTITY;
    let mut j = Some(joint);
    while let Some(at) = j {
        m = c.skeleton.rest()[at].to_mat4() * m;
        j = c.skeleton.parent(at);
    }
    m
}

/// The selected joint's inverse bind in each skin that has it.
pub fn bind_readouts(c: &Character, joint: usize) -> Vec<BindReadout> {
    let mut out = Vec::new();
    for (s, skin) in c.skins.iter().enumerate() {
        let Some(p) = (0..skin.skin.len()).find(|&p| skin.skin.joint(p) == Some(joint)) else {
            continue;
        };
        // The first mesh node drawn with the skin: its space is the vertices'.
        let mesh_world = (c.instances.iter())
            .find(|i| i.skin == Some(s))
            .map_or(Mat4::IDENTITY, |i| rest_world(c, i.skeleton_joint));
        let inverse_bind = skin.skin.joint_from_bind()[p];
        let rest_inverse = (mesh_world.inverse() * rest_world(c, joint)).inverse();
        let difference = (inverse_bind - rest_inverse)
            .to_cols_array()
            .iter()
            .fold(0.0f32, |m, x| m.max(x.abs()));
        out.push(BindReadout {
            skin: skin.name.clone(),
            palette: p,
            inverse_bind,
            rest_inverse,
            difference,
        });
    }
    out
}

/// A matrix as four rows of text, for the panel's monospace.
pub fn matrix_rows(m: &Mat4) -> [String; 4] {
    std::array::from_fn(|r| {
        let row = m.row(r);
        format!("{:8.3} {:8.3} {:8.3} {:8.3}", row.x, row.y, row.z, row.w)
    })
}
