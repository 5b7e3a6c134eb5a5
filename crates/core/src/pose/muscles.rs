//! A character's XPBD muscles: `anim::MuscleSystem` placed on its joints from a JSON
//! file (`--muscles FILE.json`, or `default` for the ones a character ships), the skin's weights
//! toward the muscles' particles (precomputed at bind), and one frame's muscle displacement,
//! which the skin follows after skinning (`skin_offset`; `shaders/muscle.wgsl` on the GPU).
//!
//! ```json
//! {"settings": {"edge_compliance": 0.002, "ring_compliance": 0.01, "tether_compliance": 0.05},
//!  "muscles": [{"name": "biceps_l", "radius": 0.02, "activation": 0, "skin_radius": 0.05,
//!    "origin": {"joint": "upperarm_l", "along": 0.15, "offset": [0, 0, 0.018]},
//!    "insertion": {"joint": "forearm_l", "along": 0.1, "offset": [0, 0, 0.014]}}]}
//! ```
//!
//! An end lies on its joint's bone at bind: `along` of the way from the joint to its first child
//! (negative: before the joint), moved by `offset` (scene units, the scene's axes).
//! `skin_radius` (default twice the radius) is how far from a particle the skin follows it;
//! only vertices a muscle's joints weigh follow it.
//!
//! The skin's weights, precomputed at bind: each vertex its four nearest ring particles within
//! `skin_radius`, among the muscles whose joints weigh it (at least 0.05), by the kernel
//! (1 − (d/r)²)², fading out over the outer half of the radius. A vertex follows by at most the
//! muscle's radius: a muscle over the outside of a joint (the triceps at a flexed elbow) cuts the
//! corner, with no bone to wrap over, and would otherwise pull the skin in by centimetres.
//!
//! Time: 60 Hz steps of the settings' substeps. In the window the muscles step with the frames;
//! a posing command with `--simulate` steps them from t = 0, and without it a frame's muscles are
//! settled at its pose (3 s at the still pose). A seek, a cue or new muscles start them at rest on
//! their bones, moving with them from the first step that moves them.
//! On the GPU the skin pass adds the offset after skinning, by every method (`muscle_offset` in
//! `shaders/muscle.wgsl`): the particles' world displacements in a 64 KB uniform (up to 4,000
//! particles, 54 muscles), each vertex's weights after its vertex words in the same binding. The
//! solver itself runs on the CPU: hundreds of particles do not fill a GPU.

use std::sync::Arc;

use glam::{Affine3A, Mat4, Vec3};
use serde_json::Value;

use crate::anim::{MuscleParams, MuscleShape, MuscleSystem, PARTICLES_PER_MUSCLE};
use crate::character::Character;

/// The most muscles a file may hold: as many as the skin pass's uniform holds the particles
/// of (54 × 74 = 3,996 of 4,000), so the GPU follows every one the CPU does.
pub const MAX_MUSCLES: usize = 54;
/// The most particles a skin vertex follows.
pub const MAX_FOLLOWED: usize = 4;

/// A problem in a muscles file: where (a JSON pointer, or a line and column) and what.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct MuscleFileError {
    pub pointer: String,
    pub message: String,
}

fn problem(pointer: impl Into<String>, message: impl Into<String>) -> MuscleFileError {
    MuscleFileError {
        pointer: pointer.into(),
        message: message.into(),
    }
}

/// One primitive's skin weights toward the particles: per vertex (first entry, count), then
/// (global particle, weight) entries. Weights sum to at most 1 (fading out to `skin_radius`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MuscleSkin {
    pub ranges: Vec<[u32; 2]>,
    pub entries: Vec<(u32, f32)>,
}

impl MuscleSkin {
    /// Vertex `v`'s entries (none past the end).
    pub fn of(&self, v: usize) -> &[(u32, f32)] {
        self.ranges.get(v).map_or(&[][..], |&[first, count]| {
            &self.entries[first as usize..(first + count) as usize]
        })
    }
}

/// A character's muscles, bound: the system, its settings, each joint's bind inverse (world),
/// and the skin's weights per mesh per primitive.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleRig {
    pub system: MuscleSystem,
    pub params: MuscleParams,
    /// `joint_from_world` at bind, per skeleton joint.
    pub joint_from_bind: Vec<Affine3A>,
    pub skin: Vec<Vec<Option<MuscleSkin>>>,
}

/// One frame of the muscles: each particle's displacement from its rigid position and its
/// position, world space.
#[derive(Clone, Debug, PartialEq)]
pub struct MuscleFrame {
    pub rig: Arc<MuscleRig>,
    pub displacement: Vec<Vec3>,
    pub positions: Vec<Vec3>,
}

impl MuscleFrame {
    /// The world-space offset the skin vertex `v` of `mesh`'s `primitive` follows.
    pub fn skin_offset(&self, mesh: usize, primitive: usize, v: usize) -> Vec3 {
        let Some(Some(skin)) = self.rig.skin.get(mesh).and_then(|m| m.get(primitive)) else {
            return Vec3::ZERO;
        };
        skin.of(v)
            .iter()
            .map(|&(k, w)| {
                self.displacement
                    .get(k as usize)
                    .copied()
                    .unwrap_or(Vec3::ZERO)
                    * w
            })
            .sum()
    }

    /// The largest displacement of any particle.
    pub fn largest(&self) -> f32 {
        self.displacement
            .iter()
            .map(|d| d.length())
            .fold(0.0, f32::max)
    }
}

fn number(v: &Value, at: &str, key: &str, default: Option<f64>) -> Result<f32, MuscleFileError> {
    match v.get(key) {
        None => default
            .map(|d| d as f32)
            .ok_or_else(|| problem(format!("{at}/{key}"), "missing")),
        Some(n) => n
            .as_f64()
            .filter(|x| x.is_finite() && x.abs() < 1e9)
            .map(|x| x as f32)
            .ok_or_else(|| problem(format!("{at}/{key}"), "expected a finite number")),
    }
}

fn settings(v: Option<&Value>) -> Result<MuscleParams, MuscleFileError> {
    let mut p = MuscleParams::default();
    let Some(v) = v else {
        return Ok(p);
    };
    let at = "/settings";
    if !v.is_object() {
        return Err(problem(at, "expected an object"));
    }
    let nonneg = |key: &str, d: f32| -> Result<f32, MuscleFileError> {
        let x = number(v, at, key, Some(f64::from(d)))?;
        if x < 0.0 {
            return Err(problem(format!("{at}/{key}"), "must not be negative"));
        }
        Ok(x)
    };
    p.edge_compliance = nonneg("edge_compliance", p.edge_compliance)?;
    p.ring_compliance = nonneg("ring_compliance", p.ring_compliance)?;
    p.volume_compliance = nonneg("volume_compliance", p.volume_compliance)?;
    p.attach_compliance = nonneg("attach_compliance", p.attach_compliance)?;
    p.tether_compliance = nonneg("tether_compliance", p.tether_compliance)?;
    p.damping = nonneg("damping", p.damping)?;
    let substeps = number(v, at, "substeps", Some(f64::from(p.substeps)))?;
    if !(1.0..=64.0).contains(&substeps) || substeps.fract() != 0.0 {
        return Err(problem(
            format!("{at}/substeps"),
            "expected a whole number from 1 to 64",
        ));
    }
    p.substeps = substeps as u32;
    p.density = nonneg("density", p.density)?;
    if p.density <= 0.0 {
        return Err(problem(format!("{at}/density"), "must be positive"));
    }
    Ok(p)
}

/// A muscle end: the joint, and the point at bind (world).
fn end(
    v: Option<&Value>,
    at: &str,
    c: &Character,
    bind: &[Vec3],
) -> Result<(u32, Vec3), MuscleFileError> {
    let v = v.ok_or_else(|| problem(at, "missing"))?;
    let name = v
        .get("joint")
        .and_then(Value::as_str)
        .ok_or_else(|| problem(format!("{at}/joint"), "expected a joint's name"))?;
    let joint = c.skeleton.find(name).ok_or_else(|| {
        problem(
            format!("{at}/joint"),
            format!("no joint {name:?} in {}", c.name),
        )
    })?;
    let along = number(v, at, "along", Some(0.0))?;
    if !(-2.0..=2.0).contains(&along) {
        return Err(problem(
            format!("{at}/along"),
            "expected a fraction of the bone, -2 to 2",
        ));
    }
    let offset = match v.get("offset") {
        None => Vec3::ZERO,
        Some(o) => {
            let xs: Option<Vec<f32>> = o.as_array().filter(|a| a.len() == 3).and_then(|a| {
                a.iter()
                    .map(|x| x.as_f64().filter(|x| x.is_finite()).map(|x| x as f32))
                    .collect()
            });
            Vec3::from_slice(
                &xs.ok_or_else(|| problem(format!("{at}/offset"), "expected [x, y, z]"))?,
            )
        }
    };
    let child = (0..c.skeleton.joint_count()).find(|&k| c.skeleton.parent(k) == Some(joint));
    let tip = child.map_or(bind[joint], |k| bind[k]);
    Ok((
        joint as u32,
        bind[joint] + (tip - bind[joint]) * along + offset,
    ))
}

impl MuscleRig {
    /// The muscles a file's text defines for `c`.
    pub fn parse(text: &str, c: &Character) -> Result<Self, MuscleFileError> {
        let json: Value = serde_json::from_str(text).map_err(|e| {
            problem(
                format!("line {}, column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        let params = settings(json.get("settings"))?;
        let list = json
            .get("muscles")
            .and_then(Value::as_array)
            .ok_or_else(|| problem("/muscles", "expected an array of muscles"))?;
        if list.is_empty() || list.len() > MAX_MUSCLES {
            return Err(problem(
                "/muscles",
                format!("{} muscles: expected 1 to {MAX_MUSCLES}", list.len()),
            ));
        }
        let rest = super::CharacterPose::at_rest(c);
        let world: Vec<Affine3A> = rest.model.as_slice().to_vec();
        let bind: Vec<Vec3> = world.iter().map(|m| Vec3::from(m.translation)).collect();
        let (lo, hi) = rest
            .world_bounds(c)
            .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
        let height = (hi - lo).max_element();
        let mut shapes = Vec::with_capacity(list.len());
        let mut skin_radius = Vec::with_capacity(list.len());
        for (i, m) in list.iter().enumerate() {
            let at = format!("/muscles/{i}");
            let name = m
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("muscle")
                .to_string();
            let (o, origin) = end(m.get("origin"), &format!("{at}/origin"), c, &bind)?;
            let (n, insertion) = end(m.get("insertion"), &format!("{at}/insertion"), c, &bind)?;
            let radius = number(m, &at, "radius", None)?;
            if radius <= 0.0 || radius > height {
                return Err(problem(
                    format!("{at}/radius"),
                    "must be positive and under the character's height",
                ));
            }
            if origin.distance(insertion) < radius {
                return Err(problem(
                    &at,
                    "its origin and insertion are closer than its radius",
                ));
            }
            let activation = number(m, &at, "activation", Some(0.0))?;
            if !(0.0..=1.0).contains(&activation) {
                return Err(problem(format!("{at}/activation"), "expected 0 to 1"));
            }
            let reach = number(m, &at, "skin_radius", Some(f64::from(2.0 * radius)))?;
            if reach <= 0.0 || reach > height {
                return Err(problem(
                    format!("{at}/skin_radius"),
                    "must be positive and under the character's height",
                ));
            }
            skin_radius.push(reach);
            shapes.push(MuscleShape {
                name,
                origin,
                insertion,
                joints: [o, n],
                radius,
                activation,
            });
        }
        let system = MuscleSystem::new(&shapes, params.density);
        let skin = skin_weights(c, &rest, &system, &skin_radius);
        Ok(Self {
            system,
            params,
            joint_from_bind: world.iter().map(|m| m.inverse()).collect(),
            skin,
        })
    }

    /// Each joint's motion since bind under `model` (world from joint, per joint), into `out`.
    pub fn moved_into(&self, model: &[Affine3A], out: &mut Vec<Affine3A>) {
        out.clear();
        out.extend(
            model
                .iter()
                .zip(&self.joint_from_bind)
                .map(|(m, b)| *m * *b),
        );
    }

    /// Skin vertices that follow a muscle, and their entries.
    pub fn skin_counts(&self) -> (usize, usize) {
        (self.skin.iter().flatten().flatten()).fold((0, 0), |(v, e), s| {
            (
                v + s.ranges.iter().filter(|r| r[1] > 0).count(),
                e + s.entries.len(),
            )
        })
    }
}

/// Per mesh (weighed on its first skinned instance at rest), per primitive: each vertex's
/// nearest particles within its muscles' skin radius, among the muscles whose joints weigh it.
fn skin_weights(
    c: &Character,
    rest: &super::CharacterPose,
    system: &MuscleSystem,
    reach: &[f32],
) -> Vec<Vec<Option<MuscleSkin>>> {
    let mut out: Vec<Vec<Option<MuscleSkin>>> = c
        .meshes
        .iter()
        .map(|m| vec![None; m.primitives.len()])
        .collect();
    for (i, instance) in c.instances.iter().enumerate() {
        let (Some(s), Some(palette)) = (instance.skin, rest.instance_palette(i)) else {
            continue;
        };
        if out[instance.mesh].iter().any(Option::is_some) {
            continue;
        }
        let skin = &c.skins[s].skin;
        let world_from_mesh = rest
            .world_from_mesh
            .get(i)
            .copied()
            .unwrap_or(Mat4::IDENTITY);
        for (pi, primitive) in c.meshes[instance.mesh].primitives.iter().enumerate() {
            let Some(sk) = &primitive.skinning else {
                continue;
            };
            let mut weights = MuscleSkin::default();
            for (v, &p) in primitive.positions.iter().enumerate() {
                let mut m = Mat4::ZERO;
                let mut joints = [None; 8];
                for (n, (j, w)) in sk.influences(v).enumerate() {
                    if let Some(e) = palette.get(usize::from(j)) {
                        m += *e * w;
                    }
                    if w >= 0.05 && n < 8 {
                        joints[n] = skin.joint(usize::from(j));
                    }
                }
                let at = world_from_mesh.transform_point3(m.transform_point3(p));
                let first = weights.entries.len() as u32;
                nearest_particles(system, reach, at, &joints, &mut weights.entries);
                let count = weights.entries.len() as u32 - first;
                weights.ranges.push([first, count]);
            }
            if !weights.entries.is_empty() {
                out[instance.mesh][pi] = Some(weights);
            }
        }
    }
    out
}

/// Appends the (particle, weight) entries of a skin vertex at `at` weighed by `joints` (the
/// skeleton joints of its influences of weight 0.05 or more).
fn nearest_particles(
    system: &MuscleSystem,
    reach: &[f32],
    at: Vec3,
    joints: &[Option<usize>; 8],
    out: &mut Vec<(u32, f32)>,
) {
    let mut best: [(f32, u32, f32); MAX_FOLLOWED] = [(f32::INFINITY, 0, 0.0); MAX_FOLLOWED];
    for (b, body) in system.bodies.iter().enumerate() {
        let [o, n] = body.shape.joints.map(|j| j as usize);
        if !joints.contains(&Some(o)) && !joints.contains(&Some(n)) {
            continue;
        }
        let r = reach[b];
        // The rings' particles (not the poles, inside the tendons).
        for k in body.first + 1..body.first + PARTICLES_PER_MUSCLE - 1 {
            let d = system.rest[k].distance(at);
            if d < r && d / r < best[MAX_FOLLOWED - 1].0 {
                best[MAX_FOLLOWED - 1] = (d / r, k as u32, r);
                best.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
        }
    }
    let kernel = |t: f32| (1.0 - t * t).max(0.0).powi(2);
    let total: f32 = best.iter().filter(|b| b.0 < 1.0).map(|b| kernel(b.0)).sum();
    if total <= 0.0 {
        return;
    }
    // Full follow within half the radius, fading to none at it.
    let t = ((best[0].0 - 0.5) / 0.5).clamp(0.0, 1.0);
    let fade = 1.0 - t * t * (3.0 - 2.0 * t);
    for b in best.iter().filter(|b| b.0 < 1.0) {
        let w = kernel(b.0) / total * fade;
        if w > 1e-6 {
            out.push((b.1, w));
        }
    }
}
