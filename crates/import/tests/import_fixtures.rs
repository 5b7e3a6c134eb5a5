//! Import cases the shared models lack, built in code: armatures and non-joint nodes in the joint
//! chain (animated), one mesh drawn with two skins, missing inverse binds, integer weights, bad
//! joint indices, declared sizes larger than the data, strides, sparse data, strips, data URIs.

use skinscope_testkit as common;

use std::path::Path;

use common::RawGltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use skinscope_anim as anim;
use skinscope_core::character::Character;
use skinscope_core::pose::{CharacterPose, PoseRequest, TimeWrap};
use skinscope_import::{self as import, ImportError};

fn load(raw: &RawGltf) -> Result<Character, ImportError> {
    import::load_bytes(&raw.to_glb(), Path::new("fixture.glb"))
}

fn must_load(raw: &RawGltf) -> Character {
    load(raw).unwrap_or_else(|e| panic!("{e}"))
}

fn pointers(e: &ImportError) -> Vec<String> {
    e.errors.iter().map(|p| p.pointer.clone()).collect()
}

/// The character posed at clip `clip` (or the rest pose) and `t`.
fn model_at(c: &Character, clip: Option<usize>, t: f32) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &PoseRequest::at(clip, t).with_wrap(TimeWrap::Clamp))
        .unwrap();
    pose
}

/// World positions of instance `i`'s vertices.
fn world(c: &Character, i: usize, pose: &CharacterPose) -> Vec<Vec3> {
    pose.instance_world_positions(c, i)
}

fn assert_close(got: &[Vec3], want: &[Vec3], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!(g.abs_diff_eq(*w, 1e-5), "{what}: {g} vs {w}");
    }
}

/// Armature (translation (1,0,0), scale 0.0254) > hip joint (0,10,0) > `mid`, a non-joint node
/// rotated 90 deg about Z > hand joint (10,0,0). The skinned mesh node has its own translation
/// (5,5,5), which glTF says must not move it. Inverse binds invert the bind world matrices, so
/// the vertices are stored where they sit in the world at bind:
/// hip at (1, 0.254, 0); hand at hip + R90 (10,0,0) * 0.0254 = (1, 0.508, 0);
/// v2 5 armature units past the hand along the hand's x axis (world +Y): (1, 0.635, 0).
fn armature_rig() -> RawGltf {
    let mut raw = RawGltf::new();
    let armature = raw.add_node(json!({"name": "Armature", "translation": [1.0, 0.0, 0.0], "scale": [0.0254, 0.0254, 0.0254], "children": [1]}));
    raw.add_node(json!({"name": "hip", "translation": [0.0, 10.0, 0.0], "children": [2]}));
    let r90 = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    raw.add_node(json!({"name": "mid", "rotation": r90.to_array(), "children": [3]}));
    raw.add_node(json!({"name": "hand", "translation": [10.0, 0.0, 0.0]}));
    let bind_world = |node: usize| -> Mat4 {
        let armature =
            Mat4::from_scale_rotation_translation(Vec3::splat(0.0254), Quat::IDENTITY, Vec3::X);
        let hip = armature * Mat4::from_translation(Vec3::new(0.0, 10.0, 0.0));
        match node {
            1 => hip,
            _ => hip * Mat4::from_quat(r90) * Mat4::from_translation(Vec3::new(10.0, 0.0, 0.0)),
        }
    };
    let ibm: Vec<f32> = [1, 3]
        .iter()
        .flat_map(|&n| bind_world(n).inverse().to_cols_array())
        .collect();
    let ibm = raw.add_f32(&ibm, "MAT4");
    raw.push(
        "skins",
        json!({"joints": [1, 3], "inverseBindMatrices": ibm}),
    );
    let positions = raw.add_f32(&[1.0, 0.254, 0.0, 1.0, 0.508, 0.0, 1.0, 0.635, 0.0], "VEC3");
    let joints = raw.add_u16(&[0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4");
    let weights = raw.add_f32(
        &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}));
    let body = raw
        .add_node(json!({"name": "body", "mesh": mesh, "skin": 0, "translation": [5.0, 5.0, 5.0]}));
    raw.add_root(armature);
    raw.add_root(body);
    // One clip: the armature slides to (1,0,2) and `mid` turns from 90 to 180 deg over 1 s.
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    let slide = raw.add_f32(&[1.0, 0.0, 0.0, 1.0, 0.0, 2.0], "VEC3");
    let r180 = Quat::from_rotation_z(std::f32::consts::PI);
    let turn: Vec<f32> = [r90, r180].iter().flat_map(|q| q.to_array()).collect();
    let turn = raw.add_f32(&turn, "VEC4");
    raw.push(
        "animations",
        json!({"name": "move", "samplers": [{"input": times, "output": slide}, {"input": times, "output": turn}],
               "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                            {"sampler": 1, "target": {"node": 2, "path": "rotation"}}]}),
    );
    raw
}

#[test]
fn animated_armature_and_non_joint_chain_nodes_move_the_skin() {
    let c = must_load(&armature_rig());
    let skin = &c.skins[0];
    let names = |joints: &[usize]| -> Vec<String> {
        joints
            .iter()
            .map(|&j| c.skeleton.names()[j].clone())
            .collect()
    };
    assert_eq!(names(&skin.non_joint_ancestors), ["Armature"]);
    // The mesh node's own transform is reported as ignored (a note: glTF's rule).
    assert!(
        c.notes.iter().any(|w| w.pointer == "/nodes/4"),
        "{:?}",
        c.notes
    );

    let rest = [
        Vec3::new(1.0, 0.254, 0.0),
        Vec3::new(1.0, 0.508, 0.0),
        Vec3::new(1.0, 0.635, 0.0),
    ];
    assert_close(&world(&c, 0, &model_at(&c, None, 0.0)), &rest, "bind pose");
    // t = 1: armature at (1,0,2), mid at 180 deg. Hand = (1,0,2) + 0.0254 * ((0,10,0) + R180 (10,0,0))
    // = (1,0,2) + 0.0254 * (-10,10,0) = (0.746, 0.254, 2); v2 = hand + 0.0254*5 along R180's x = -X.
    let t1 = [
        Vec3::new(1.0, 0.254, 2.0),
        Vec3::new(0.746, 0.254, 2.0),
        Vec3::new(0.619, 0.254, 2.0),
    ];
    assert_close(&world(&c, 0, &model_at(&c, Some(0), 1.0)), &t1, "t = 1");
    // t = 0.5: armature (1,0,1), mid 135 deg: R135 (10,0,0) = (-7.0711, 7.0711, 0), so
    // hand = (1,0,1) + 0.0254 * (-7.0711, 17.0711, 0) = (0.820395, 0.433606, 1).
    let r = 10.0 * std::f32::consts::FRAC_1_SQRT_2; // 7.0711
    let hand = Vec3::new(1.0 - 0.0254 * r, 0.0254 * (10.0 + r), 1.0);
    let along = Vec3::new(-r, r, 0.0) * (0.0254 * 5.0 / 10.0);
    let half = [Vec3::new(1.0, 0.254, 1.0), hand, hand + along];
    assert_close(&world(&c, 0, &model_at(&c, Some(0), 0.5)), &half, "t = 0.5");
}

#[test]
fn one_mesh_drawn_with_two_skins_sharing_joints() {
    let mut raw = armature_rig();
    // A second skin over the same joints, listed child-before-parent, and a second node drawing
    // the same mesh with it.
    let ibms = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let m = raw.read(ibms);
    let swapped: Vec<f32> = m.iter().rev().flatten().map(|&v| v as f32).collect();
    let ibm = raw.add_f32(&swapped, "MAT4");
    raw.push(
        "skins",
        json!({"joints": [3, 1], "inverseBindMatrices": ibm}),
    );
    let second = raw.add_node(json!({"name": "body2", "mesh": 0, "skin": 1}));
    raw.add_root(second);
    let c = must_load(&raw);
    assert_eq!(c.skins.len(), 2);
    assert_eq!(c.instances.len(), 2);
    // The second skin is reordered, so the mesh is stored twice with different joint indices.
    assert_eq!(c.meshes.len(), 2);
    assert_eq!(c.skins[1].ordinal_of_palette, [1, 0]);
    // The mesh's JOINTS_0 are ordinals of each skin's own list: ordinal 0 is the hip for skin 0
    // and the hand for skin 1.
    let skeleton_joint = |instance: usize, vertex: usize| {
        let i = &c.instances[instance];
        let s = c.meshes[i.mesh].primitives[0].skinning.as_ref().unwrap();
        let joint = c.skins[i.skin.unwrap()]
            .skin
            .joint(usize::from(s.joints[vertex][0]))
            .unwrap();
        c.skeleton.names()[joint].clone()
    };
    assert_eq!(
        (skeleton_joint(0, 0), skeleton_joint(0, 1)),
        ("hip".into(), "hand".into())
    );
    assert_eq!(
        (skeleton_joint(1, 0), skeleton_joint(1, 1)),
        ("hand".into(), "hip".into())
    );
    // Bind pose: both draw the vertices where stored. At t = 1 the second instance's v0 follows
    // the hand: v0 is 10 hand units along the hand's -x at bind; the hand's x points along -X
    // now, so v0 = hand + 0.254 X = (1, 0.254, 2). v1 and v2 follow the hip, which only slides
    // by (0,0,2).
    let stored = [
        Vec3::new(1.0, 0.254, 0.0),
        Vec3::new(1.0, 0.508, 0.0),
        Vec3::new(1.0, 0.635, 0.0),
    ];
    assert_close(&world(&c, 1, &model_at(&c, None, 0.0)), &stored, "bind");
    let t1 = [
        Vec3::new(1.0, 0.254, 2.0),
        Vec3::new(1.0, 0.508, 2.0),
        Vec3::new(1.0, 0.635, 2.0),
    ];
    assert_close(&world(&c, 1, &model_at(&c, Some(0), 1.0)), &t1, "t = 1");
}

#[test]
fn missing_inverse_binds_are_identity() {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "j", "translation": [0.0, 2.0, 0.0]}));
    raw.push("skins", json!({"joints": [0]}));
    let positions = raw.add_f32(&[1.0, 0.0, 0.0], "VEC3");
    let joints = raw.add_u16(&[0, 0, 0, 0], "VEC4");
    let weights = raw.add_f32(&[1.0, 0.0, 0.0, 0.0], "VEC4");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}));
    raw.add_node(json!({"mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(1);
    let c = must_load(&raw);
    // The vertex is in the joint's space: (1,0,0) + (0,2,0).
    assert_close(
        &world(&c, 0, &model_at(&c, None, 0.0)),
        &[Vec3::new(1.0, 2.0, 0.0)],
        "",
    );
}

/// Two joints, and one primitive of `n` vertices with the given u8 joints and weights.
fn two_joint_skin(joints: &[u8], weights: &[u8]) -> RawGltf {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "a", "children": [1]}));
    raw.add_node(json!({"name": "b", "translation": [0.0, 1.0, 0.0]}));
    raw.push("skins", json!({"joints": [0, 1]}));
    let n = joints.len() / 4;
    let positions: Vec<f32> = (0..n).flat_map(|i| [i as f32, 0.0, 0.0]).collect();
    let positions = raw.add_f32(&positions, "VEC3");
    let joints = raw.add_u8(joints, "VEC4", false);
    let weights = raw.add_u8(weights, "VEC4", true);
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}));
    raw.add_node(json!({"mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(2);
    raw
}

#[test]
fn normalised_u8_weights_are_decoded_and_renormalised() {
    // 128/255 + 64/255 = 0.7529: renormalised to 2/3 and 1/3. All zero: bound to the root joint.
    let raw = two_joint_skin(
        &[0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0],
        &[128, 64, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0],
    );
    let c = must_load(&raw);
    let s = c.meshes[0].primitives[0].skinning.as_ref().unwrap();
    assert!(
        (s.weights[0][0] - 2.0 / 3.0).abs() < 1e-6 && (s.weights[0][1] - 1.0 / 3.0).abs() < 1e-6,
        "{:?}",
        s.weights[0]
    );
    assert_eq!(s.weights[1], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        (s.joints[2], s.weights[2]),
        ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
    );
    assert_eq!((s.renormalised_vertices, s.unweighted_vertices), (1, 1));
    let at = "/meshes/0/primitives/0/attributes/WEIGHTS_0";
    let messages: Vec<&str> = c
        .warnings
        .iter()
        .filter(|w| w.pointer == at)
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{:?}", c.warnings);
    assert!(messages[0].starts_with("1 vertices") && messages[1].starts_with("1 vertices"));
}

#[test]
fn normalised_u16_weights_and_textures_are_decoded() {
    let mut raw = two_joint_skin(&[0, 1, 0, 0], &[0, 0, 0, 0]);
    // Replace the weights with normalised u16: 32768/65535 + 32767/65535 = 1 exactly.
    let weights = raw.add_u16(&[32768, 32767, 0, 0], "VEC4");
    raw.json["accessors"][weights]["normalized"] = json!(true);
    raw.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(weights);
    let c = must_load(&raw);
    let s = c.meshes[0].primitives[0].skinning.as_ref().unwrap();
    assert_eq!(
        s.weights[0],
        [32768.0 / 65535.0, 32767.0 / 65535.0, 0.0, 0.0]
    );
    assert_eq!(s.renormalised_vertices, 0);

    // Fox's base colour texture: a 1024 x 1024 PNG (its header says so), decoded to RGBA8.
    let fox = import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let texture = fox.meshes[0].primitives[0]
        .material
        .base_color_texture
        .as_ref()
        .unwrap();
    assert_eq!((texture.width, texture.height), (1024, 1024));
    assert_eq!(texture.rgba8.len(), 1024 * 1024 * 4);
}

#[test]
fn joint_indices_outside_the_skin_are_refused() {
    let raw = two_joint_skin(&[0, 0, 0, 0, 0, 2, 0, 0], &[255, 0, 0, 0, 128, 127, 0, 0]);
    let e = load(&raw).unwrap_err();
    assert_eq!(pointers(&e), ["/meshes/0/primitives/0/attributes/JOINTS_0"]);
    assert!(e.errors[0].message.contains("vertex 1 uses joint 2"), "{e}");
    assert!(
        e.to_string()
            .starts_with("fixture.glb: /meshes/0/primitives/0/attributes/JOINTS_0"),
        "{e}"
    );
}

#[test]
fn declared_sizes_beyond_the_data_are_refused_before_allocating() {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[0.0; 9], "VEC3");
    // 2^40 positions in a 36-byte view: refused by arithmetic, nothing allocated.
    raw.json["accessors"][positions]["count"] = json!(1u64 << 40);
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions}}]}));
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let e = load(&raw).unwrap_err();
    assert!(
        pointers(&e).contains(&format!("/accessors/{positions}")),
        "{e}"
    );

    // An accessor with no data at all (zeros) may not declare a huge count either.
    let mut raw = RawGltf::new();
    raw.push(
        "accessors",
        json!({"componentType": 5126, "type": "VEC3", "count": 1u64 << 40}),
    );
    let e = load(&raw).unwrap_err();
    assert_eq!(pointers(&e), ["/accessors/0/count"]);

    // A buffer view past the end of its buffer.
    let mut raw = RawGltf::new();
    let a = raw.add_f32(&[0.0; 3], "VEC3");
    raw.json["bufferViews"][0]["byteLength"] = json!(4096);
    raw.json["accessors"][a]["count"] = json!(1);
    let e = load(&raw).unwrap_err();
    assert!(
        pointers(&e).contains(&"/bufferViews/0/byteLength".to_string()),
        "{e}"
    );
}

#[test]
fn strided_sparse_and_strip_data_are_read_as_gltf_defines() {
    let mut raw = RawGltf::new();
    // Positions interleaved with padding: stride 16 bytes for 12-byte VEC3s.
    let interleaved: Vec<f32> = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ]
    .iter()
    .flat_map(|p| [p[0], p[1], p[2], 99.0])
    .collect();
    let positions = raw.add_f32(&interleaved, "VEC4");
    let view = raw.json["accessors"][positions]["bufferView"].clone();
    raw.json["bufferViews"][view.as_u64().unwrap() as usize]["byteStride"] = json!(16);
    raw.json["accessors"][positions]["type"] = json!("VEC3");
    raw.json["accessors"][positions]["count"] = json!(4);
    // Sparse: vertex 3 moves to (2, 2, 0).
    let idx = raw.add_u16(&[3], "SCALAR");
    let vals = raw.add_f32(&[2.0, 2.0, 0.0], "VEC3");
    let idx_view = raw.json["accessors"][idx]["bufferView"].clone();
    let val_view = raw.json["accessors"][vals]["bufferView"].clone();
    raw.json["accessors"][positions]["sparse"] = json!({
        "count": 1,
        "indices": {"bufferView": idx_view, "componentType": 5123},
        "values": {"bufferView": val_view}
    });
    // A strip of 4 vertices: triangles (0,1,2) and (2,1,3); no normals, so they are computed.
    let mesh =
        raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions}, "mode": 5}]}));
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let c = must_load(&raw);
    let p = &c.meshes[0].primitives[0];
    assert_eq!(
        p.positions,
        [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(2.0, 2.0, 0.0)]
    );
    assert_eq!(p.indices.as_deref(), Some(&[0, 1, 2, 2, 1, 3][..]));
    for n in &p.normals {
        assert!(n.abs_diff_eq(Vec3::Z, 1e-6), "{n}");
    }
}

#[test]
fn animation_data_problems_the_viewer_works_around() {
    let mut raw = RawGltf::new();
    let node = raw.add_node(json!({"name": "box"}));
    raw.add_root(node);
    // Keys at 1 s and 2 s (the first after 0), one repeated time, a non-unit rotation, and
    // output data with a byteStride.
    let times = raw.add_f32(&[1.0, 2.0, 2.0, 3.0], "SCALAR");
    let moves = raw.add_f32(
        &[
            3.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0, 7.0, 0.0, 0.0, 0.0,
        ],
        "VEC4",
    );
    raw.json["accessors"][moves]["type"] = json!("VEC3");
    let view = raw.json["accessors"][moves]["bufferView"].as_u64().unwrap() as usize;
    raw.json["bufferViews"][view]["byteStride"] = json!(16);
    let q_times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    let turn = raw.add_f32(&[0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0], "VEC4");
    raw.push(
        "animations",
        json!({"samplers": [{"input": times, "output": moves}, {"input": q_times, "output": turn}],
               "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                            {"sampler": 1, "target": {"node": 0, "path": "rotation"}}]}),
    );
    let c = must_load(&raw);
    let warned = |pointer: &str| c.warnings.iter().any(|w| w.pointer == pointer);
    assert!(warned("/animations/0/samplers/0/input"), "{:?}", c.warnings);
    assert!(
        warned("/animations/0/samplers/0/output"),
        "{:?}",
        c.warnings
    );
    assert!(
        warned("/animations/0/samplers/1/output"),
        "{:?}",
        c.warnings
    );
    let x_at = |t: f32| model_at(&c, Some(0), t).model.as_slice()[0].translation.x;
    assert_eq!(x_at(0.0), 3.0, "holds the first key before it");
    assert!((x_at(1.5) - 4.0).abs() < 1e-6);
    // The repeated time 2 s is a jump: the curve reaches 5 just before 2 s and is 6 from 2 s on.
    assert!((x_at(1.999) - 4.998).abs() < 1e-4);
    assert!((x_at(2.0) - 6.0).abs() < 1e-6);
    assert!((x_at(2.5) - 6.5).abs() < 1e-6);
    let q = c.clips[0]
        .clip
        .tracks()
        .iter()
        .find_map(|t| match &t.channel {
            anim::Channel::Rotation(r) => Some(r.key_value(0)),
            _ => None,
        });
    assert_eq!(q, Some(Quat::IDENTITY));
}

#[test]
fn sampler_value_counts_are_checked() {
    let mut raw = RawGltf::new();
    raw.add_node(json!({}));
    raw.add_root(0);
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    // CUBICSPLINE needs 3 values per key: 6, not 2.
    let values = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0], "VEC3");
    raw.push(
        "animations",
        json!({"samplers": [{"input": times, "output": values, "interpolation": "CUBICSPLINE"}],
               "channels": [{"sampler": 0, "target": {"node": 0, "path": "scale"}}]}),
    );
    let e = load(&raw).unwrap_err();
    assert_eq!(pointers(&e), ["/animations/0/samplers/0/output"]);
    assert!(e.errors[0].message.contains("need 6 values"), "{e}");
}

/// Base64 (RFC 4648), for a data-URI buffer.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn gltf_with_a_data_uri_buffer_loads_from_disk() {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions}}]}));
    let node = raw.add_node(json!({"mesh": mesh, "translation": [0.0, 0.0, -3.0]}));
    raw.add_root(node);
    let mut json = raw.json.clone();
    json["buffers"][0] = json!({"byteLength": raw.bin.len(), "uri": format!("data:application/octet-stream;base64,{}", base64(&raw.bin))});
    let dir = std::env::temp_dir().join(format!("skinscope-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("triangle.gltf");
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let c = import::load(&path).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(c.meshes[0].primitives[0].positions[1], Vec3::X);
    // Unskinned: drawn at its node.
    let placed = world(&c, 0, &model_at(&c, None, 0.0));
    assert_close(
        &placed,
        &[
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(1.0, 0.0, -3.0),
            Vec3::new(0.0, 1.0, -3.0),
        ],
        "",
    );
}

#[test]
fn missing_files_and_directories_are_refused_with_their_name() {
    let e = import::load(Path::new("/nonexistent/x.glb")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.glb: cannot read the file"),
        "{e}"
    );
    let e = import::load(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
    let e = import::load_bytes(b"{ not json", Path::new("broken.gltf")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("broken.gltf: not valid glTF JSON"),
        "{e}"
    );
}

#[test]
fn images_without_a_mime_type_or_a_source_load_without_their_texture() {
    // Found by fuzzing: the gltf crate unwraps these fields and panicked.
    for image in [json!({"bufferView": 0}), json!({})] {
        let mut raw = RawGltf::new();
        let positions = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
        raw.push("images", image);
        raw.push("textures", json!({"source": 0}));
        raw.push(
            "materials",
            json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}),
        );
        let mesh = raw.add_mesh(
            json!({"primitives": [{"attributes": {"POSITION": positions}, "material": 0}]}),
        );
        let node = raw.add_node(json!({"mesh": mesh}));
        raw.add_root(node);
        let c = must_load(&raw);
        assert!(
            c.meshes[0].primitives[0]
                .material
                .base_color_texture
                .is_none()
        );
        assert!(
            c.warnings.iter().any(|w| w.pointer == "/images/0"),
            "{:?}",
            c.warnings
        );
    }
}
