//! The ragdoll's bodies, worked out from the character at rest: a capsule per joint that weighs
//! some vertex most, sized from those vertices, and the limits of the joint to its parent body
//! by the joint's name (plausible human defaults; a name the table does not know, a quadruped's
//! tail say, gets a moderate cone).

use glam::{Quat, Vec3};

use crate::anim::{self, canonical_name};
use crate::character::Character;
use crate::pose::{CharacterPose, IDENTITY_ENTRY};

/// A capsule's radius is at least this fraction of the character's height, at most this.
const MIN_RADIUS: f32 = 0.01;
const MAX_RADIUS: f32 = 0.15;

/// The swing (each axis across the bone) and twist (about it) limits of a joint, in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub swing: f32,
    pub twist: f32,
}

/// One body of the ragdoll, at rest, in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySpec {
    /// The skeleton joint it moves.
    pub joint: usize,
    /// The body of the nearest ancestor joint that has one.
    pub parent: Option<usize>,
    /// The joint's rest world rotation and position: the body's frame.
    pub rest_rotation: Quat,
    pub rest_position: Vec3,
    /// The capsule's segment ends and radius, in the body's frame.
    pub a: Vec3,
    pub b: Vec3,
    pub radius: f32,
    /// The bone's direction at rest, in the world: the joint frame's twist (X) axis.
    pub bone: Vec3,
    pub limits: Limits,
}

impl BodySpec {
    /// The capsule's volume.
    pub fn volume(&self) -> f32 {
        let r = self.radius;
        std::f32::consts::PI * r * r * (self.a.distance(self.b) + 4.0 / 3.0 * r)
    }
}

/// The limits for a joint called `name`, by the body part its canonical name names.
pub fn limits_for(name: &str) -> Limits {
    let n = canonical_name(name);
    let has = |parts: &[&str]| parts.iter().any(|p| n.contains(p));
    let (swing, twist) = if has(&["clavicle", "shoulder"]) {
        (15.0, 10.0)
    } else if has(&["forearm", "lowerarm", "elbow"]) {
        (80.0, 40.0)
    } else if has(&["upperarm", "arm"]) {
        // From a T or A rest pose the arm reaches overhead and across the chest.
        (150.0, 70.0)
    } else if has(&["hand", "wrist"]) {
        (60.0, 30.0)
    } else if has(&["shin", "calf", "knee", "lowerleg"]) || n.ends_with(" leg") {
        (70.0, 10.0)
    } else if has(&["thigh", "upleg", "upperleg", "hip"]) {
        (70.0, 30.0)
    } else if has(&["toe"]) {
        (30.0, 5.0)
    } else if has(&["foot", "ankle"]) {
        (35.0, 15.0)
    } else if has(&["neck"]) {
        (40.0, 45.0)
    } else if has(&["head"]) {
        (35.0, 45.0)
    } else if has(&["spine", "chest", "pelvis", "hips", "abdomen"]) {
        (25.0, 20.0)
    } else {
        (35.0, 20.0)
    };
    Limits {
        swing: f32::to_radians(swing),
        twist: f32::to_radians(twist),
    }
}

/// Each skinned vertex at rest in the world, with the skeleton joint that weighs it most.
fn dominated_vertices(c: &Character, rest: &CharacterPose) -> Vec<(usize, Vec3)> {
    let mut out = Vec::new();
    for (i, instance) in c.instances.iter().enumerate() {
        let (Some(skin), base) = (instance.skin, rest.palette_base[i]) else {
            continue;
        };
        if base == IDENTITY_ENTRY {
            continue;
        }
        let skin = &c.skins[skin].skin;
        let palette = &rest.palette[base as usize..];
        let world_from_mesh = rest.world_from_mesh[i];
        for primitive in &c.meshes[instance.mesh].primitives {
            let Some(sk) = &primitive.skinning else {
                continue;
            };
            for (v, &p) in primitive.positions.iter().enumerate() {
                let heaviest = sk
                    .influences(v)
                    .fold((0u16, f32::MIN), |m, x| if x.1 > m.1 { x } else { m });
                let Some(joint) = skin.joint(usize::from(heaviest.0)) else {
                    continue;
                };
                let influences = sk.influences(v).map(|(j, w)| (u32::from(j), w));
                let Some(m) = anim::blend_matrix(palette, influences) else {
                    continue;
                };
                out.push((
                    joint,
                    world_from_mesh.transform_point3(m.transform_point3(p)),
                ));
            }
        }
    }
    out
}

/// The `q`-quantile (0..1) of `values` (sorted in place); 0 when empty.
fn quantile(values: &mut [f32], q: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_unstable_by(f32::total_cmp);
    values[((values.len() - 1) as f32 * q).round() as usize]
}

/// The bodies of `c`'s ragdoll, in joint order (parents before children), sized on a character
/// `height` tall. Empty when no joint weighs a vertex.
pub fn body_specs(c: &Character, height: f32) -> Vec<BodySpec> {
    let s = &c.skeleton;
    let rest = CharacterPose::at_rest(c);
    let vertices = dominated_vertices(c, &rest);
    let n = s.joint_count();
    let mut count = vec![0usize; n];
    for &(j, _) in &vertices {
        count[j] += 1;
    }
    let at = |j: usize| Vec3::from(rest.model.as_slice()[j].translation);
    // The mesh's lowest point at rest: the soles, standing on the floor.
    let lowest = vertices.iter().map(|v| v.1.y).fold(f32::INFINITY, f32::min);
    let children = |j: usize| (0..n).filter(move |&k| s.parent(k) == Some(j));
    // Joints in each subtree, for the root's bone (its largest subtree).
    let mut subtree = vec![1usize; n];
    for j in (0..n).rev() {
        if let Some(p) = s.parent(j) {
            subtree[p] += subtree[j];
        }
    }
    let mut body_of: Vec<Option<usize>> = vec![None; n];
    let mut specs = Vec::new();
    for j in 0..n {
        if count[j] == 0 {
            continue;
        }
        let parent_body = {
            let mut p = s.parent(j);
            while let Some(k) = p.filter(|&k| body_of[k].is_none()) {
                p = s.parent(k);
            }
            p.and_then(|k| body_of[k])
        };
        // The bone runs to the child that continues the limb (the root: its largest subtree),
        // else on from the parent.
        let incoming = s.parent(j).and_then(|p| (at(j) - at(p)).try_normalize());
        let child = children(j)
            .filter(|&k| at(k).distance(at(j)) > 1e-6)
            .max_by(|&x, &y| {
                let score = |k: usize| match incoming {
                    Some(d) => d.dot((at(k) - at(j)).normalize()),
                    None => subtree[k] as f32,
                };
                score(x).total_cmp(&score(y))
            });
        let bone = child
            .map(|k| (at(k) - at(j)).normalize())
            .or(incoming)
            .unwrap_or(Vec3::Y);
        let length = child.map(|k| at(k).distance(at(j)));
        let mine: Vec<Vec3> = vertices
            .iter()
            .filter(|v| v.0 == j)
            .map(|v| v.1 - at(j))
            .collect();
        let mut along: Vec<f32> = mine.iter().map(|d| d.dot(bone)).collect();
        let mut across: Vec<f32> = mine
            .iter()
            .map(|d| (*d - bone * d.dot(bone)).length())
            .collect();
        let lo = quantile(&mut along, 0.05).max(0.0);
        let hi = quantile(&mut along, 0.95);
        let hi = length.map_or(hi, |l| hi.min(l)).max(lo);
        let radius = quantile(&mut across, 0.6).clamp(MIN_RADIUS * height, MAX_RADIUS * height);
        // The segment inset by the radius at each end, so the capsule spans lo..hi.
        let (a, b) = if hi - lo > 2.0 * radius {
            (lo + radius, hi - radius)
        } else {
            let mid = 0.5 * (lo + hi);
            (mid, mid)
        };
        let (mut a, mut b) = (at(j) + bone * a, at(j) + bone * b);
        // No capsule reaches below the soles at rest (a flat foot or toe is thinner than it is
        // wide): thinner where it would, lifted where even the thinnest would. Standing, the
        // ragdoll rests on the floor as the mesh does.
        let radius = radius.min(a.y.min(b.y) - lowest).max(MIN_RADIUS * height);
        for e in [&mut a, &mut b] {
            e.y = e.y.max(lowest + radius);
        }
        let (_, rotation, _) = rest.model.as_slice()[j].to_scale_rotation_translation();
        let to_body = rotation.inverse();
        body_of[j] = Some(specs.len());
        specs.push(BodySpec {
            joint: j,
            parent: parent_body,
            rest_rotation: rotation,
            rest_position: at(j),
            a: to_body * (a - at(j)),
            b: to_body * (b - at(j)),
            radius,
            bone,
            limits: limits_for(&s.names()[j]),
        });
    }
    specs
}
