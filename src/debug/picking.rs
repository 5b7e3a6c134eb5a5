//! Picking in the 3D view, on the CPU: the joint or vertex under a click, and a vertex's
//! influences.

use glam::{Mat4, Vec2, Vec3};

use crate::character::Character;
use crate::pose::CharacterPose;
use crate::posed::PosedVertices;

/// What a click hit.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// A skin joint (skeleton joint index) within 10 points of the click.
    Joint(usize),
    /// Else the nearest vertex within 8 points.
    Vertex(PickedVertex),
    Nothing,
}

/// Where a 3D view sits on screen and how it sees the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenView {
    /// Top-left corner and size, in points.
    pub origin: Vec2,
    pub size: Vec2,
    pub clip_from_world: Mat4,
}

impl ScreenView {
    /// A world point on screen (points); `None` behind the camera.
    pub fn project(&self, p: Vec3) -> Option<Vec2> {
        let clip = self.clip_from_world * p.extend(1.0);
        (clip.w > 0.0).then(|| {
            let ndc = clip.truncate() / clip.w;
            self.origin
                + Vec2::new(
                    (ndc.x + 1.0) * 0.5 * self.size.x,
                    (1.0 - ndc.y) * 0.5 * self.size.y,
                )
        })
    }
}

/// The joint nearest a click at `at` (points) within 10 points, else the nearest vertex within
/// 8 points, of the posed character whose world-space vertices are `vertices` (the CPU
/// reference's, or the GPU skin pass's read back: the vertices drawn).
pub fn pick(
    c: &Character,
    pose: &CharacterPose,
    vertices: &PosedVertices,
    at: Vec2,
    view: &ScreenView,
) -> Pick {
    let model = pose.model.as_slice();
    let joint = c
        .skins
        .iter()
        .flat_map(|s| (0..s.skin.len()).filter_map(|p| s.skin.joint(p)))
        .filter_map(|j| {
            Some((
                j,
                view.project(Vec3::from(model[j].translation))?.distance(at),
            ))
        })
        .filter(|(_, d)| *d <= 10.0)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((j, _)) = joint {
        return Pick::Joint(j);
    }
    let mut best: Option<(f32, usize, usize, usize, Vec3)> = None;
    for (i, instance) in c.instances.iter().enumerate() {
        let Some((world, _)) = vertices.instances.get(i) else {
            continue;
        };
        let mut offset = 0;
        for (p, primitive) in c.meshes[instance.mesh].primitives.iter().enumerate() {
            for v in 0..primitive.positions.len() {
                let Some(&w) = world.get(offset + v) else {
                    break;
                };
                if let Some(d) = view.project(w).map(|s| s.distance(at))
                    && d <= 8.0
                    && best.is_none_or(|b| d < b.0)
                {
                    best = Some((d, i, p, v, w));
                }
            }
            offset += primitive.positions.len();
        }
    }
    match best {
        Some((_, instance, primitive, vertex, position)) => Pick::Vertex(PickedVertex {
            instance,
            primitive,
            vertex,
            position,
            influences: vertex_influences(c, instance, primitive, vertex),
        }),
        None => Pick::Nothing,
    }
}

/// What a click on a vertex shows: its influences by joint name, palette index and weight.
#[derive(Clone, Debug, PartialEq)]
pub struct PickedVertex {
    pub instance: usize,
    pub primitive: usize,
    pub vertex: usize,
    pub position: Vec3,
    pub influences: Vec<(String, usize, f32)>,
}

/// The influences of one vertex.
pub fn vertex_influences(
    c: &Character,
    instance: usize,
    primitive: usize,
    vertex: usize,
) -> Vec<(String, usize, f32)> {
    let Some(inst) = c.instances.get(instance) else {
        return Vec::new();
    };
    let Some(skin) = inst.skin.map(|s| &c.skins[s]) else {
        return Vec::new();
    };
    let Some(sk) = c.meshes[inst.mesh]
        .primitives
        .get(primitive)
        .and_then(|p| p.skinning.as_ref())
    else {
        return Vec::new();
    };
    sk.influences(vertex)
        .filter(|&(_, w)| w > 0.0)
        .map(|(p, w)| {
            let p = usize::from(p);
            let joint = skin.skin.joint(p).unwrap_or(0);
            (c.skeleton.names()[joint].clone(), p, w)
        })
        .collect()
}
