//! Every shared model loads with its exact facts; skinning is checked against an independent f64
//! computation of the glTF formulas; joint order in the file does not change the result.

use skinscope_testkit as common;

use common::{RawGltf, shared};
use glam::{DMat4, DQuat, DVec3, Mat4, Vec3};
use serde_json::{Value, json};
use skinscope_core::character::Character;
use skinscope_core::pose::{CharacterPose, PoseRequest, TimeWrap};
use skinscope_import as import;

fn load(rel: &str) -> Character {
    let path = shared(rel);
    import::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// (file, node count, joints per skin, drawn vertices, clips with durations). Computed from the
/// files' JSON (durations are the largest key time of each animation).
type ModelFacts = (
    &'static str,
    usize,
    &'static [usize],
    usize,
    &'static [(&'static str, f32)],
);
const MODELS: &[ModelFacts] = &[
    (
        "AnimatedMorphCube/AnimatedMorphCube.glb",
        1,
        &[],
        24,
        &[("Square", 4.199997)],
    ),
    (
        "AnimatedTriangle/AnimatedTriangle.gltf",
        1,
        &[],
        3,
        &[("animation 0", 1.0)],
    ),
    (
        "BoxAnimated/BoxAnimated.glb",
        4,
        &[],
        320,
        &[("animation 0", 3.70833)],
    ),
    (
        "CesiumMan/CesiumMan.glb",
        22,
        &[19],
        3273,
        &[("animation 0", 2.0)],
    ),
    (
        "Fox/Fox.glb",
        26,
        &[24],
        1728,
        &[("Survey", 3.416667), ("Walk", 0.708333), ("Run", 1.158333)],
    ),
    (
        "InterpolationTest/InterpolationTest.glb",
        12,
        &[],
        220,
        &[
            ("Step Scale", 1.666667),
            ("Linear Scale", 1.666667),
            ("CubicSpline Scale", 1.666667),
            ("Step Rotation", 1.708333),
            ("CubicSpline Rotation", 1.708333),
            ("Linear Rotation", 1.708333),
            ("Step Translation", 1.708333),
            ("CubicSpline Translation", 1.666667),
            ("Linear Translation", 1.666667),
        ],
    ),
    (
        "MorphPrimitivesTest/MorphPrimitivesTest.glb",
        2,
        &[],
        30,
        &[],
    ),
    (
        "RiggedFigure/RiggedFigure.glb",
        22,
        &[19],
        370,
        &[("animation 0", 1.25)],
    ),
    (
        "RiggedSimple/RiggedSimple.glb",
        5,
        &[2],
        160,
        &[("animation 0", 2.083333)],
    ),
    (
        "SimpleMorph/SimpleMorph.gltf",
        1,
        &[],
        3,
        &[("animation 0", 4.0)],
    ),
    (
        "SimpleSkin/SimpleSkin.gltf",
        3,
        &[2],
        10,
        &[("animation 0", 5.5)],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_00.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_01.gltf",
        3,
        &[2],
        6,
        &[("animation 0", 2.0)],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_02.gltf",
        4,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_03.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_04.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_05.gltf",
        4,
        &[2],
        9,
        &[("animation 0", 2.0)],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_06.gltf",
        4,
        &[2, 2],
        12,
        &[("animation 0", 2.0)],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_07.gltf",
        6,
        &[5],
        10,
        &[],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_08.gltf",
        6,
        &[4],
        15,
        &[("animation 0", 2.0)],
    ),
    (
        "AssetGenerator/Animation_Skin/Animation_Skin_09.gltf",
        5,
        &[4],
        13,
        &[],
    ),
    (
        "AssetGenerator/Animation_SkinType/Animation_SkinType_00.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_SkinType/Animation_SkinType_01.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_SkinType/Animation_SkinType_02.gltf",
        3,
        &[2],
        6,
        &[],
    ),
    (
        "AssetGenerator/Animation_SkinType/Animation_SkinType_03.gltf",
        3,
        &[2],
        6,
        &[],
    ),
];

#[test]
fn every_shared_model_loads_with_its_facts() {
    for &(file, nodes, joints, vertices, clips) in MODELS {
        let c = load(file);
        assert_eq!(c.skeleton.joint_count(), nodes, "{file}: nodes");
        let skin_joints: Vec<usize> = c.skins.iter().map(|s| s.skin.len()).collect();
        assert_eq!(skin_joints, joints, "{file}: joints per skin");
        assert_eq!(c.vertex_count(), vertices, "{file}: vertices");
        let got: Vec<(&str, f32)> = c
            .clips
            .iter()
            .map(|clip| (clip.clip.name(), clip.duration_secs()))
            .collect();
        assert_eq!(got.len(), clips.len(), "{file}: clips {got:?}");
        for ((name, duration), (want_name, want_duration)) in got.iter().zip(clips) {
            assert_eq!(name, want_name, "{file}");
            assert!(
                (duration - want_duration).abs() < 1e-5,
                "{file} {name}: {duration}"
            );
        }
    }
}

#[test]
fn every_file_in_shared_gltf_is_in_the_table() {
    let root = shared("");
    let found: Vec<String> = common::gltf_files(&root)
        .iter()
        .map(|p| {
            p.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let mut listed: Vec<String> = MODELS.iter().map(|m| m.0.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

/// The character posed at clip `clip` (or the rest pose) and `time_secs`, palettes written.
fn pose(c: &Character, clip: Option<usize>, time_secs: f32) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(
        c,
        &PoseRequest::at(clip, time_secs).with_wrap(TimeWrap::Clamp),
    )
    .unwrap();
    pose
}

/// The palette of each skinned instance, in mesh space.
fn palettes(c: &Character, pose: &CharacterPose) -> Vec<Vec<Mat4>> {
    (0..c.instances.len())
        .filter_map(|i| pose.instance_palette(i).map(<[Mat4]>::to_vec))
        .collect()
}

/// World-space positions of every vertex, skinned on the CPU as the shader does.
fn world_positions(c: &Character, pose: &CharacterPose) -> Vec<Vec3> {
    pose.world_positions(c)
}

#[test]
fn bind_pose_palettes_are_identity_in_mesh_space() {
    for file in [
        "Fox/Fox.glb",
        "CesiumMan/CesiumMan.glb",
        "RiggedFigure/RiggedFigure.glb",
        "SimpleSkin/SimpleSkin.gltf",
    ] {
        let c = load(file);
        let all = palettes(&c, &pose(&c, None, 0.0));
        assert!(!all.is_empty(), "{file}");
        for palette in all {
            for (j, m) in palette.iter().enumerate() {
                assert!(
                    m.abs_diff_eq(Mat4::IDENTITY, 1e-4),
                    "{file} palette {j}:\n{m}"
                );
            }
        }
    }
}

/// RiggedSimple's vertices are authored in its Z_UP node's space, not its mesh node's (which sits
/// under Z_UP and Armature). In mesh space every bind-pose entry is then
/// `mesh_from_world * world_from_zup = inverse(Z_UP * Armature) * Z_UP = inverse(Armature)`.
#[test]
fn rigged_simple_bind_palette_is_one_common_matrix() {
    let raw = RawGltf::read_glb(&shared("RiggedSimple/RiggedSimple.glb"));
    let armature = &raw.json["nodes"][1];
    assert_eq!(armature["name"], "Armature");
    let m: Vec<f32> = armature["matrix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    let expected = Mat4::from_cols_slice(&m).inverse();
    assert!(
        !expected.abs_diff_eq(Mat4::IDENTITY, 0.5),
        "the test needs a non-identity armature"
    );
    let c = load("RiggedSimple/RiggedSimple.glb");
    let palette = &palettes(&c, &pose(&c, None, 0.0))[0];
    assert_eq!(palette.len(), 2);
    for (j, entry) in palette.iter().enumerate() {
        assert!(
            entry.abs_diff_eq(expected, 1e-4),
            "joint {j}:\n{entry}\nexpected\n{expected}"
        );
    }
}

/// CesiumMan's mesh node sits under two rotated matrix nodes; a loader that applies them twice
/// (or not at all) puts the skinned mesh elsewhere. The identity palette shows the vertices as
/// stored, at the mesh node: its world transform times the stored positions.
#[test]
fn identity_and_bind_palettes_agree_for_consistent_files() {
    for file in [
        "CesiumMan/CesiumMan.glb",
        "Fox/Fox.glb",
        "RiggedFigure/RiggedFigure.glb",
    ] {
        let c = load(file);
        let posed = pose(&c, None, 0.0);
        let bind = world_positions(&c, &posed);
        let mut stored = Vec::new();
        for (i, instance) in c.instances.iter().enumerate() {
            let world_from_mesh = posed.world_from_mesh[i];
            for p in c.meshes[instance.mesh]
                .primitives
                .iter()
                .flat_map(|p| &p.positions)
            {
                stored.push(world_from_mesh.transform_point3(*p));
            }
        }
        for (a, b) in bind.iter().zip(&stored) {
            assert!(a.abs_diff_eq(*b, 1e-3), "{file}: {a} vs {b}");
        }
    }
}

// ---- An independent f64 computation of glTF skinning, from the spec's formulas. ----

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Local matrix of node `n` at `t`: TRS or matrix from the JSON, overridden by the clip's
/// channels (LINEAR or STEP; slerp along the shorter arc).
fn local_f64(raw: &RawGltf, n: usize, anim: usize, t: f64) -> DMat4 {
    let node = &raw.json["nodes"][n];
    if let Some(m) = node.get("matrix") {
        return DMat4::from_cols_slice(&f64s(m));
    }
    let mut tr = node
        .get("translation")
        .map_or(DVec3::ZERO, |v| DVec3::from_slice(&f64s(v)));
    let mut r = node
        .get("rotation")
        .map_or(DQuat::IDENTITY, |v| DQuat::from_slice(&f64s(v)));
    let mut s = node
        .get("scale")
        .map_or(DVec3::ONE, |v| DVec3::from_slice(&f64s(v)));
    let animation = &raw.json["animations"][anim];
    for channel in animation["channels"].as_array().unwrap() {
        if channel["target"]["node"].as_u64() != Some(n as u64) {
            continue;
        }
        let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
        let times: Vec<f64> = raw
            .read(sampler["input"].as_u64().unwrap() as usize)
            .into_iter()
            .map(|v| v[0])
            .collect();
        let values = raw.read(sampler["output"].as_u64().unwrap() as usize);
        let step = sampler["interpolation"].as_str() == Some("STEP");
        let (i, u) = if t <= times[0] {
            (0, 0.0)
        } else if t >= *times.last().unwrap() {
            (times.len() - 1, 0.0)
        } else {
            let i = (0..times.len() - 1)
                .find(|&i| times[i] <= t && t < times[i + 1])
                .unwrap();
            (
                i,
                if step {
                    0.0
                } else {
                    (t - times[i]) / (times[i + 1] - times[i])
                },
            )
        };
        let j = (i + 1).min(times.len() - 1);
        match channel["target"]["path"].as_str().unwrap() {
            "translation" => {
                tr = DVec3::from_slice(&values[i]).lerp(DVec3::from_slice(&values[j]), u)
            }
            "scale" => s = DVec3::from_slice(&values[i]).lerp(DVec3::from_slice(&values[j]), u),
            "rotation" => {
                let a = DQuat::from_slice(&values[i]).normalize();
                let mut b = DQuat::from_slice(&values[j]).normalize();
                if a.dot(b) < 0.0 {
                    b = -b;
                }
                let theta = a.dot(b).clamp(-1.0, 1.0).acos();
                r = if theta < 1e-9 {
                    a
                } else {
                    let st = theta.sin();
                    DQuat::from_vec4(
                        glam::DVec4::from(a) * (((1.0 - u) * theta).sin() / st)
                            + glam::DVec4::from(b) * ((u * theta).sin() / st),
                    )
                };
            }
            other => panic!("{other}"),
        }
    }
    DMat4::from_scale_rotation_translation(s, r, tr)
}

fn world_f64(raw: &RawGltf, n: usize, anim: usize, t: f64) -> DMat4 {
    let nodes = raw.json["nodes"].as_array().unwrap();
    let parent = nodes.iter().position(|p| {
        p.get("children").is_some_and(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .any(|x| x.as_u64() == Some(n as u64))
        })
    });
    let local = local_f64(raw, n, anim, t);
    match parent {
        Some(p) => world_f64(raw, p, anim, t) * local,
        None => local,
    }
}

/// glTF: `world = sum_i w_i * world_from_joint_i * inverseBind_i * position`; the skinned mesh
/// node's own transform is ignored.
fn skinned_world_f64(raw: &RawGltf, anim: usize, t: f64) -> Vec<DVec3> {
    let mut out = Vec::new();
    let nodes = raw.json["nodes"].as_array().unwrap();
    for node in nodes.iter().filter(|n| n.get("skin").is_some()) {
        let skin = &raw.json["skins"][node["skin"].as_u64().unwrap() as usize];
        let joints: Vec<usize> = skin["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap() as usize)
            .collect();
        let ibms = raw.read(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
        let joint_matrices: Vec<DMat4> = joints
            .iter()
            .zip(&ibms)
            .map(|(&j, ibm)| world_f64(raw, j, anim, t) * DMat4::from_cols_slice(ibm))
            .collect();
        let mesh = &raw.json["meshes"][node["mesh"].as_u64().unwrap() as usize];
        for primitive in mesh["primitives"].as_array().unwrap() {
            let attributes = &primitive["attributes"];
            let get = |name: &str| raw.read(attributes[name].as_u64().unwrap() as usize);
            let (positions, joints_0, weights_0) =
                (get("POSITION"), get("JOINTS_0"), get("WEIGHTS_0"));
            for ((p, j), w) in positions.iter().zip(&joints_0).zip(&weights_0) {
                let p = DVec3::from_slice(p);
                let sum: f64 = w.iter().sum();
                let mut world = DVec3::ZERO;
                for k in 0..4 {
                    world += joint_matrices[j[k] as usize].transform_point3(p) * (w[k] / sum);
                }
                out.push(world);
            }
        }
    }
    out
}

#[test]
fn cpu_skinning_matches_an_independent_f64_computation() {
    for (file, times) in [
        ("CesiumMan/CesiumMan.glb", [0.0, 0.83, 1.61]),
        ("Fox/Fox.glb", [0.0, 1.234, 3.1]),
    ] {
        let raw = RawGltf::read_glb(&shared(file));
        let c = load(file);
        for t in times {
            let expected = skinned_world_f64(&raw, 0, t as f64);
            let got = world_positions(&c, &pose(&c, Some(0), t));
            assert_eq!(got.len(), expected.len(), "{file}");
            let (min, max) = expected
                .iter()
                .fold((DVec3::MAX, DVec3::MIN), |(lo, hi), p| {
                    (lo.min(*p), hi.max(*p))
                });
            let tolerance = 1e-4 * (max - min).length();
            let rest = skinned_world_f64(&raw, 0, 0.0);
            let mut moved = 0;
            for (v, (g, e)) in got.iter().zip(&expected).enumerate() {
                let d = (g.as_dvec3() - *e).length();
                assert!(
                    d <= tolerance,
                    "{file} t={t} vertex {v}: {g} vs {e} ({d} > {tolerance})"
                );
                if (*e - rest[v]).length() > 10.0 * tolerance {
                    moved += 1;
                }
            }
            if t > 0.0 {
                assert!(
                    moved > expected.len() / 10,
                    "{file} t={t}: the pose barely moved ({moved})"
                );
            }
        }
    }
}

// ---- Joint order in the file. ----

/// Rewrites the file's first skin with its joints listed in reverse: the inverse bind matrices
/// are reversed with them, and every JOINTS_0 of the meshes it drives is remapped.
fn reverse_skin(raw: &RawGltf) -> RawGltf {
    let mut out = raw.clone();
    let skin = &raw.json["skins"][0];
    let joints: Vec<Value> = skin["joints"].as_array().unwrap().clone();
    let n = joints.len();
    let reversed: Vec<Value> = joints.iter().rev().cloned().collect();
    out.json["skins"][0]["joints"] = json!(reversed);
    let ibms = raw.read(skin["inverseBindMatrices"].as_u64().unwrap() as usize);
    let ibm_data: Vec<f32> = ibms.iter().rev().flatten().map(|&v| v as f32).collect();
    let ibm = out.add_f32(&ibm_data, "MAT4");
    out.json["skins"][0]["inverseBindMatrices"] = json!(ibm);
    let skinned_meshes: Vec<u64> = raw.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|node| node["skin"].as_u64() == Some(0))
        .filter_map(|node| node["mesh"].as_u64())
        .collect();
    for m in skinned_meshes {
        let primitives = raw.json["meshes"][m as usize]["primitives"]
            .as_array()
            .unwrap()
            .clone();
        for (p, primitive) in primitives.iter().enumerate() {
            let joints_0 = raw.read(primitive["attributes"]["JOINTS_0"].as_u64().unwrap() as usize);
            let remapped: Vec<u16> = joints_0
                .iter()
                .flatten()
                .map(|&j| (n - 1 - j as usize) as u16)
                .collect();
            let accessor = out.add_u16(&remapped, "VEC4");
            out.json["meshes"][m as usize]["primitives"][p]["attributes"]["JOINTS_0"] =
                json!(accessor);
        }
    }
    out
}

#[test]
fn a_skin_listed_child_before_parent_renders_identically() {
    for file in ["Fox/Fox.glb", "CesiumMan/CesiumMan.glb"] {
        let raw = RawGltf::read_glb(&shared(file));
        let reversed = reverse_skin(&raw);
        let a = load(file);
        let b = import::load_bytes(&reversed.to_glb(), std::path::Path::new("reversed.glb"))
            .unwrap_or_else(|e| panic!("{e}"));
        // The file's order differs (the test is not vacuous); the reversed skin is reordered
        // parent-before-child, the original (already parent-first) keeps its order.
        let n = a.skins[0].skin.len();
        assert_eq!(a.skins[0].ordinal_of_palette, (0..n).collect::<Vec<_>>());
        assert_ne!(b.skins[0].ordinal_of_palette, (0..n).collect::<Vec<_>>());
        assert!(
            b.warnings.iter().any(|w| w.pointer == "/skins/0/joints"),
            "{:?}",
            b.warnings
        );
        for p in 0..n {
            if let Some(parent) = b.skins[0].palette_parent(p) {
                assert!(parent < p, "{file}: palette {p} has parent {parent}");
            }
        }
        // Same skeleton joint per vertex influence, and the same matrix per skeleton joint.
        let skeleton_joints = |c: &Character| -> Vec<[usize; 4]> {
            let s = c.meshes[0].primitives[0].skinning.as_ref().unwrap();
            s.joints
                .iter()
                .map(|j| j.map(|p| c.skins[0].skin.joint(p as usize).unwrap()))
                .collect()
        };
        assert_eq!(skeleton_joints(&a), skeleton_joints(&b), "{file}");
        for (clip, t) in [(0, 0.0), (0, 0.37), (0, 1.9), (a.clips.len() - 1, 0.5)] {
            let (ma, mb) = (pose(&a, Some(clip), t), pose(&b, Some(clip), t));
            let (pa, pb) = (&palettes(&a, &ma)[0], &palettes(&b, &mb)[0]);
            for (p, matrix) in pb.iter().enumerate() {
                let joint = b.skins[0].skin.joint(p).unwrap();
                let q = (0..n)
                    .find(|&q| a.skins[0].skin.joint(q) == Some(joint))
                    .unwrap();
                assert_eq!(*matrix, pa[q], "{file} clip {clip} at {t}: joint {joint}");
            }
            assert_eq!(
                world_positions(&a, &ma),
                world_positions(&b, &mb),
                "{file} clip {clip} at {t}"
            );
        }
    }
}
