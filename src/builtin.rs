//! The built-in character: a 22-joint mannequin with `idle`, `walk` and `wave` clips, generated
//! by code below into `assets/skinscope_mannequin.glb` (`skinscope generate-builtin`) and
//! embedded in the binary. It is loaded through the same importer as any file.
//!
//! Conventions: metres, Y up, the character faces +Z (its left hand is at +X), bind pose with the
//! arms hanging. Clip events are stored in each animation's `extras` as
//! `{"skinscope_events": [{"name": ..., "time": ...}]}`.

use std::f32::consts::{PI, TAU};
use std::path::Path;

use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};

use crate::character::Character;
use crate::glb::GlbWriter;
use crate::import::{self, ImportError};

/// File name of the committed asset.
pub const FILE_NAME: &str = "skinscope_mannequin.glb";

/// The committed asset, embedded.
pub const GLB: &[u8] = include_bytes!("../assets/skinscope_mannequin.glb");

/// The built-in character's state machine (`skinscope_mannequin.skinscope.json`, beside the
/// asset): idle, a locomotion blend space, a greeting, an upper-body wave layer and an additive
/// breathing layer.
pub const GRAPH_JSON: &str = include_str!("../assets/skinscope_mannequin.skinscope.json");

/// Loads the embedded character through the importer.
pub fn character() -> Result<Character, ImportError> {
    import::load_bytes(GLB, Path::new(FILE_NAME))
}

/// (name, parent, rest translation relative to the parent).
const JOINTS: [(&str, Option<usize>, [f32; 3]); 22] = [
    ("pelvis", None, [0.0, 0.95, 0.0]),
    ("spine_01", Some(0), [0.0, 0.10, 0.0]),
    ("spine_02", Some(1), [0.0, 0.13, 0.0]),
    ("spine_03", Some(2), [0.0, 0.13, 0.0]),
    ("neck", Some(3), [0.0, 0.15, 0.0]),
    ("head", Some(4), [0.0, 0.09, 0.0]),
    ("clavicle_l", Some(3), [0.03, 0.11, 0.0]),
    ("upperarm_l", Some(6), [0.15, -0.02, 0.0]),
    ("forearm_l", Some(7), [0.02, -0.28, 0.0]),
    ("hand_l", Some(8), [0.0, -0.25, 0.0]),
    ("clavicle_r", Some(3), [-0.03, 0.11, 0.0]),
    ("upperarm_r", Some(10), [-0.15, -0.02, 0.0]),
    ("forearm_r", Some(11), [-0.02, -0.28, 0.0]),
    ("hand_r", Some(12), [0.0, -0.25, 0.0]),
    ("thigh_l", Some(0), [0.10, -0.05, 0.0]),
    ("shin_l", Some(14), [0.0, -0.42, 0.0]),
    ("foot_l", Some(15), [0.0, -0.42, 0.0]),
    ("toe_l", Some(16), [0.0, -0.05, 0.13]),
    ("thigh_r", Some(0), [-0.10, -0.05, 0.0]),
    ("shin_r", Some(18), [0.0, -0.42, 0.0]),
    ("foot_r", Some(19), [0.0, -0.42, 0.0]),
    ("toe_r", Some(20), [0.0, -0.05, 0.13]),
];

fn joint(name: &str) -> usize {
    JOINTS.iter().position(|j| j.0 == name).unwrap_or(0)
}

/// Bind-pose world position of each joint.
fn bind_positions() -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::with_capacity(JOINTS.len());
    for (_, parent, t) in JOINTS {
        let local = Vec3::from(t);
        out.push(parent.map_or(local, |p| out[p] + local));
    }
    out
}

/// Vertex data of one primitive being built.
#[derive(Default)]
struct MeshBuilder {
    positions: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Up to four (joint, weight) pairs, heaviest first, normalised.
fn pack(mut influences: Vec<(usize, f32)>) -> ([u16; 4], [f32; 4]) {
    influences.retain(|(_, w)| *w > 1e-4);
    influences.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    influences.truncate(4);
    let sum: f32 = influences.iter().map(|i| i.1).sum();
    let mut j = [0u16; 4];
    let mut w = [0.0f32; 4];
    for (k, (joint, weight)) in influences.into_iter().enumerate() {
        j[k] = joint as u16;
        w[k] = weight / sum;
    }
    (j, w)
}

impl MeshBuilder {
    /// A closed tube from `a` to `b`: `rings` rings of `sides` vertices, radius `radius(t)` for
    /// t in [0, 1] along the axis, squashed across by `depth` (front-back / side-side), ends
    /// narrowing to points; `weigh(t)` gives each ring's influences.
    #[allow(clippy::too_many_arguments)]
    fn tube(
        &mut self,
        a: Vec3,
        b: Vec3,
        rings: usize,
        sides: usize,
        radius: impl Fn(f32) -> f32,
        depth: f32,
        weigh: impl Fn(f32) -> Vec<(usize, f32)>,
    ) {
        let axis = (b - a).normalize();
        // Cross-section axes: `side` along X where possible, `front` the remaining one.
        let reference = if axis.x.abs() > 0.9 { Vec3::Z } else { Vec3::X };
        let front = axis.cross(reference).normalize();
        let side = front.cross(axis).normalize();
        let base = self.positions.len() as u32;
        for r in 0..rings {
            let t = r as f32 / (rings - 1) as f32;
            let center = a.lerp(b, t);
            let rad = radius(t);
            let (joints, weights) = pack(weigh(t));
            for s in 0..sides {
                let angle = TAU * s as f32 / sides as f32;
                let p = center + side * (angle.cos() * rad) + front * (angle.sin() * rad * depth);
                self.positions.push(p);
                self.joints.push(joints);
                self.weights.push(weights);
            }
        }
        for r in 0..rings - 1 {
            for s in 0..sides {
                let s1 = (s + 1) % sides;
                let (i0, i1) = (
                    base + (r * sides + s) as u32,
                    base + (r * sides + s1) as u32,
                );
                let (j0, j1) = (i0 + sides as u32, i1 + sides as u32);
                // Counter-clockwise seen from outside (the ring's angle turns counter-clockwise
                // about the axis, so i1 follows i0 and j0 lies further along the axis).
                self.indices.extend([i0, i1, j0, i1, j1, j0]);
            }
        }
    }
}

/// A capsule-like profile: full radius in the middle, closing over the last `cap` of each end.
fn capsule(radius: f32, cap: f32) -> impl Fn(f32) -> f32 {
    move |t: f32| {
        let edge = t.min(1.0 - t);
        if edge >= cap {
            radius
        } else {
            let u = 1.0 - edge / cap;
            radius * (1.0 - u * u).max(0.0).sqrt().max(0.02)
        }
    }
}

/// Influences of a limb segment from joint `j` towards its child: the parent joint blends in over
/// the first `zone` of its length, the child over the last `zone` (smooth falloff; where the zones
/// overlap on a short segment, three weights).
fn limb(
    j: usize,
    parent: Option<usize>,
    child: Option<usize>,
) -> impl Fn(f32) -> Vec<(usize, f32)> {
    limb_zone(j, parent, child, 0.25)
}

fn limb_zone(
    j: usize,
    parent: Option<usize>,
    child: Option<usize>,
    zone: f32,
) -> impl Fn(f32) -> Vec<(usize, f32)> {
    move |t: f32| {
        let from_parent = parent.map_or(0.0, |_| 0.5 * (1.0 - smoothstep(t / zone)));
        let to_child = child.map_or(0.0, |_| 0.5 * smoothstep((t - 1.0 + zone) / zone));
        let mut out = vec![(j, 1.0 - from_parent - to_child)];
        if let Some(p) = parent {
            out.push((p, from_parent));
        }
        if let Some(c) = child {
            out.push((c, to_child));
        }
        out
    }
}

/// Builds the body (clothes) and skin (head, hands) primitives.
fn build_meshes() -> (MeshBuilder, MeshBuilder) {
    let p = bind_positions();
    let mut body = MeshBuilder::default();
    let mut skin = MeshBuilder::default();
    torso(&mut body, &p);
    neck_and_head(&mut skin, &p);
    for side in ["l", "r"] {
        arm_and_leg(&mut body, &mut skin, &p, side);
    }
    (body, skin)
}

/// The torso from below the pelvis to the neck, weighted by height between the spine joints.
fn torso(body: &mut MeshBuilder, p: &[Vec3]) {
    let j = joint;
    let spine = [
        j("pelvis"),
        j("spine_01"),
        j("spine_02"),
        j("spine_03"),
        j("neck"),
    ];
    let torso_bottom = p[j("pelvis")] - Vec3::Y * 0.12;
    let torso_top = p[j("neck")] + Vec3::Y * 0.02;
    body.tube(
        torso_bottom,
        torso_top,
        22,
        20,
        |t| {
            let edge = t.min(1.0 - t);
            let waist = 0.15 + 0.02 * (t * PI * 1.6).sin();
            if edge < 0.12 {
                waist * (1.0 - (1.0 - edge / 0.12).powi(2)).max(0.0).sqrt().max(0.2)
            } else {
                waist
            }
        },
        0.62,
        |t| {
            let y = torso_bottom.y + t * (torso_top.y - torso_bottom.y);
            let heights: Vec<f32> = spine.iter().map(|&s| p[s].y).collect();
            // Each spine joint owns the band above it; neighbours blend across 16 cm, so bands
            // overlap and up to three joints share a vertex.
            let mut out = Vec::new();
            for (k, &s) in spine.iter().enumerate().take(spine.len() - 1) {
                let lo = if k == 0 {
                    f32::NEG_INFINITY
                } else {
                    heights[k]
                };
                let hi = heights[k + 1];
                let below = if lo.is_finite() {
                    smoothstep((y - lo + 0.08) / 0.16)
                } else {
                    1.0
                };
                let above = 1.0 - smoothstep((y - hi + 0.08) / 0.16);
                out.push((s, below * above));
            }
            let top = *heights.last().unwrap_or(&0.0);
            out.push((spine[spine.len() - 1], smoothstep((y - top + 0.08) / 0.16)));
            out
        },
    );
}

fn neck_and_head(skin: &mut MeshBuilder, p: &[Vec3]) {
    let j = joint;
    skin.tube(
        p[j("neck")] - Vec3::Y * 0.02,
        p[j("head")] + Vec3::Y * 0.02,
        6,
        14,
        |_| 0.05,
        1.0,
        limb(j("neck"), Some(j("spine_03")), Some(j("head"))),
    );
    let head_center = p[j("head")] + Vec3::Y * 0.1;
    skin.tube(
        head_center - Vec3::Y * 0.12,
        head_center + Vec3::Y * 0.12,
        14,
        18,
        capsule(0.1, 0.5),
        1.1,
        |_| vec![(j("head"), 1.0)],
    );
}

/// One side's shoulder, arm, hand, leg, foot and toe.
fn arm_and_leg(body: &mut MeshBuilder, skin: &mut MeshBuilder, p: &[Vec3], side: &str) {
    let j = joint;
    let n = |base: &str| j(&format!("{base}_{side}"));
    let at = |base: &str| p[n(base)];
    // Shoulder pad from the clavicle to the upper arm.
    body.tube(
        at("clavicle") - Vec3::Y * 0.02,
        at("upperarm"),
        6,
        12,
        capsule(0.06, 0.3),
        0.9,
        limb_zone(n("clavicle"), Some(j("spine_03")), Some(n("upperarm")), 0.6),
    );
    body.tube(
        at("upperarm"),
        at("forearm"),
        12,
        14,
        capsule(0.055, 0.12),
        1.0,
        limb(n("upperarm"), Some(n("clavicle")), Some(n("forearm"))),
    );
    body.tube(
        at("forearm"),
        at("hand"),
        12,
        14,
        capsule(0.045, 0.1),
        1.0,
        limb(n("forearm"), Some(n("upperarm")), Some(n("hand"))),
    );
    skin.tube(
        at("hand") - Vec3::Y * 0.01,
        at("hand") - Vec3::Y * 0.17,
        8,
        12,
        capsule(0.045, 0.35),
        0.45,
        limb_zone(n("hand"), Some(n("forearm")), None, 0.4),
    );
    body.tube(
        at("thigh") + Vec3::Y * 0.05,
        at("shin"),
        14,
        16,
        capsule(0.085, 0.12),
        1.0,
        limb(n("thigh"), Some(j("pelvis")), Some(n("shin"))),
    );
    body.tube(
        at("shin"),
        at("foot"),
        14,
        16,
        capsule(0.06, 0.1),
        1.0,
        limb(n("shin"), Some(n("thigh")), Some(n("foot"))),
    );
    body.tube(
        at("foot") + Vec3::new(0.0, -0.02, -0.05),
        at("toe"),
        8,
        12,
        capsule(0.045, 0.25),
        0.6,
        limb_zone(n("foot"), Some(n("shin")), Some(n("toe")), 0.6),
    );
    body.tube(
        at("toe"),
        at("toe") + Vec3::new(0.0, 0.0, 0.07),
        5,
        12,
        capsule(0.04, 0.5),
        0.55,
        limb(n("toe"), Some(n("foot")), None),
    );
}

/// A joint's local rotation as a function of clip time.
type RotationCurve = Box<dyn Fn(f32) -> Quat>;

/// A clip sampled at 30 Hz from `pose(t)`, which returns per-joint (rotation, translation)
/// overrides. Every joint it touches gets a LINEAR rotation track; `pelvis` also translation.
struct ClipSpec {
    name: &'static str,
    duration_secs: f32,
    events: Vec<(&'static str, f32)>,
    rotations: Vec<(usize, RotationCurve)>,
    pelvis_translation: Option<Box<dyn Fn(f32) -> Vec3>>,
}

fn rx(deg: f32) -> Quat {
    Quat::from_rotation_x(deg.to_radians())
}
fn ry(deg: f32) -> Quat {
    Quat::from_rotation_y(deg.to_radians())
}
fn rz(deg: f32) -> Quat {
    Quat::from_rotation_z(deg.to_radians())
}

fn clips() -> Vec<ClipSpec> {
    let j = joint;
    let rest_pelvis = Vec3::from(JOINTS[0].2);
    // Idle: breathing in the spine and a slow weight shift, 2.5 s.
    let idle_d = 2.5;
    let idle = ClipSpec {
        name: "idle",
        duration_secs: idle_d,
        events: vec![],
        rotations: vec![
            (
                j("spine_01"),
                Box::new(move |t| rx(1.5 * (TAU * t / idle_d).sin())),
            ),
            (
                j("spine_02"),
                Box::new(move |t| rx(2.0 * (TAU * 2.0 * t / idle_d).sin())),
            ),
            (
                j("spine_03"),
                Box::new(move |t| rx(-1.5 * (TAU * 2.0 * t / idle_d).sin())),
            ),
            (
                j("head"),
                Box::new(move |t| ry(6.0 * (TAU * t / idle_d).sin())),
            ),
            (
                j("upperarm_l"),
                Box::new(move |t| rz(4.0 + 2.0 * (TAU * 2.0 * t / idle_d).sin())),
            ),
            (
                j("upperarm_r"),
                Box::new(move |t| rz(-4.0 - 2.0 * (TAU * 2.0 * t / idle_d).sin())),
            ),
            (j("forearm_l"), Box::new(|_| rx(-12.0))),
            (j("forearm_r"), Box::new(|_| rx(-12.0))),
            (
                j("thigh_l"),
                Box::new(move |t| rz(2.0 * (TAU * t / idle_d).sin())),
            ),
            (
                j("thigh_r"),
                Box::new(move |t| rz(2.0 * (TAU * t / idle_d).sin())),
            ),
        ],
        pelvis_translation: Some(Box::new(move |t| {
            rest_pelvis
                + Vec3::new(
                    0.035 * (TAU * t / idle_d).sin(),
                    -0.005 * (TAU * 2.0 * t / idle_d).cos().abs(),
                    0.0,
                )
        })),
    };
    // Walk in place, 1 s a cycle: thighs swing 25 deg, knees bend in the swing, arms swing
    // opposite the legs, the pelvis bobs twice a cycle. Feet plant (heel strike) at 0.25 s (left
    // foot forward) and 0.75 s (right).
    let walk_d = 1.0;
    let swing = move |t: f32, phase: f32| (TAU * (t / walk_d + phase)).sin();
    let knee =
        move |t: f32, phase: f32| 50.0 * smoothstep(-(TAU * (t / walk_d + phase)).cos()).powi(2);
    let walk = ClipSpec {
        name: "walk",
        duration_secs: walk_d,
        events: vec![("foot_left", 0.25), ("foot_right", 0.75)],
        rotations: vec![
            (j("thigh_l"), Box::new(move |t| rx(-25.0 * swing(t, 0.0)))),
            (j("thigh_r"), Box::new(move |t| rx(-25.0 * swing(t, 0.5)))),
            (j("shin_l"), Box::new(move |t| rx(8.0 + knee(t, 0.0)))),
            (j("shin_r"), Box::new(move |t| rx(8.0 + knee(t, 0.5)))),
            (j("foot_l"), Box::new(move |t| rx(-10.0 * swing(t, 0.25)))),
            (j("foot_r"), Box::new(move |t| rx(-10.0 * swing(t, 0.75)))),
            (
                j("upperarm_l"),
                Box::new(move |t| rx(22.0 * swing(t, 0.0)) * rz(6.0)),
            ),
            (
                j("upperarm_r"),
                Box::new(move |t| rx(22.0 * swing(t, 0.5)) * rz(-6.0)),
            ),
            (
                j("forearm_l"),
                Box::new(move |t| rx(-20.0 - 12.0 * swing(t, 0.25).max(0.0))),
            ),
            (
                j("forearm_r"),
                Box::new(move |t| rx(-20.0 - 12.0 * swing(t, 0.75).max(0.0))),
            ),
            (j("spine_02"), Box::new(move |t| ry(6.0 * swing(t, 0.0)))),
            (j("pelvis"), Box::new(move |t| ry(-5.0 * swing(t, 0.0)))),
        ],
        pelvis_translation: Some(Box::new(move |t| {
            rest_pelvis + Vec3::new(0.0, 0.02 * (2.0 * TAU * t / walk_d).cos() - 0.02, 0.0)
        })),
    };
    // Wave with the right hand, 1.6 s; the hand is at the top of the wave at 0.8 s.
    let wave_d = 1.6;
    let raise = move |t: f32| smoothstep(t / 0.35) * (1.0 - smoothstep((t - wave_d + 0.35) / 0.35));
    let wave = ClipSpec {
        name: "wave",
        duration_secs: wave_d,
        events: vec![("wave_top", 0.8)],
        rotations: vec![
            (j("upperarm_r"), Box::new(move |t| rz(-150.0 * raise(t)))),
            (
                j("forearm_r"),
                Box::new(move |t| rz(raise(t) * (-20.0 + 30.0 * (TAU * (t - 0.4) / 0.8).cos()))),
            ),
            (j("head"), Box::new(move |t| rz(-8.0 * raise(t)))),
        ],
        pelvis_translation: None,
    };
    vec![idle, walk, wave]
}

/// Generates the built-in character as GLB bytes. Deterministic: the same bytes every run on
/// the same platform (a test compares them with the committed asset).
pub fn generate() -> Vec<u8> {
    let mut w = GlbWriter::new("skinscope builtin.rs");
    // Nodes: 0 the mesh node, 1.. the joints (joint k is node k + 1).
    let children: Vec<Vec<usize>> = (0..JOINTS.len())
        .map(|k| {
            (0..JOINTS.len())
                .filter(|&c| JOINTS[c].1 == Some(k))
                .map(|c| c + 1)
                .collect()
        })
        .collect();
    w.push("nodes", json!({"name": "mannequin", "mesh": 0, "skin": 0}));
    for (k, (name, _, t)) in JOINTS.iter().enumerate() {
        let mut node = json!({"name": name, "translation": t});
        if !children[k].is_empty() {
            node["children"] = json!(children[k]);
        }
        w.push("nodes", node);
    }
    w.json["scenes"] = json!([{"name": "scene", "nodes": [0, 1]}]);
    w.json["scene"] = json!(0);

    let bind = bind_positions();
    let ibm: Vec<f32> = bind
        .iter()
        .flat_map(|p| Mat4::from_translation(-*p).to_cols_array())
        .collect();
    let ibm = w.floats(&ibm, "MAT4", false, None);
    let joint_nodes: Vec<usize> = (1..=JOINTS.len()).collect();
    w.push("skins", json!({"name": "mannequin", "joints": joint_nodes, "inverseBindMatrices": ibm, "skeleton": 1}));

    w.push("materials", json!({"name": "clothes", "pbrMetallicRoughness": {"baseColorFactor": [0.23, 0.33, 0.52, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8}}));
    w.push("materials", json!({"name": "skin", "pbrMetallicRoughness": {"baseColorFactor": [0.86, 0.62, 0.48, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.6}}));
    let (body, skin) = build_meshes();
    let mut primitives = Vec::new();
    for (m, part) in [body, skin].iter().enumerate() {
        let positions: Vec<f32> = part.positions.iter().flat_map(|p| p.to_array()).collect();
        let positions = w.floats(&positions, "VEC3", true, Some(34962));
        let joints: Vec<u8> = part
            .joints
            .iter()
            .flatten()
            .flat_map(|j| j.to_le_bytes())
            .collect();
        let view = w.view(&joints, Some(34962));
        let joints = w.push("accessors", json!({"bufferView": view, "componentType": 5123, "count": part.joints.len(), "type": "VEC4"}));
        let weights: Vec<f32> = part.weights.iter().flatten().copied().collect();
        let weights = w.floats(&weights, "VEC4", false, Some(34962));
        let indices: Vec<u8> = part.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = w.view(&indices, Some(34963));
        let indices = w.push("accessors", json!({"bufferView": view, "componentType": 5125, "count": part.indices.len(), "type": "SCALAR"}));
        primitives.push(json!({"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}, "indices": indices, "material": m}));
    }
    w.push(
        "meshes",
        json!({"name": "mannequin", "primitives": primitives}),
    );

    for clip in clips() {
        let frames = (clip.duration_secs * 30.0).round() as usize;
        let times: Vec<f32> = (0..=frames).map(|f| f as f32 / 30.0).collect();
        let input = w.floats(&times, "SCALAR", true, None);
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for (joint, rotation) in &clip.rotations {
            let mut values: Vec<Quat> = times.iter().map(|&t| rotation(t)).collect();
            // Keep consecutive keys in one hemisphere (what exporters write).
            for k in 1..values.len() {
                if values[k].dot(values[k - 1]) < 0.0 {
                    values[k] = -values[k];
                }
            }
            let flat: Vec<f32> = values.iter().flat_map(|q| q.to_array()).collect();
            let output = w.floats(&flat, "VEC4", false, None);
            samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": joint + 1, "path": "rotation"}}));
        }
        if let Some(translation) = &clip.pelvis_translation {
            let flat: Vec<f32> = times
                .iter()
                .flat_map(|&t| translation(t).to_array())
                .collect();
            let output = w.floats(&flat, "VEC3", false, None);
            samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": 1, "path": "translation"}}));
        }
        let events: Vec<Value> = clip
            .events
            .iter()
            .map(|(name, time)| json!({"name": name, "time": time}))
            .collect();
        w.push(
            "animations",
            json!({"name": clip.name, "samplers": samplers, "channels": channels, "extras": {"skinscope_events": events}}),
        );
    }
    w.finish()
}
