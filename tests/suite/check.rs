//! `skinscope check` flags each skinning bug, with the right joint, on broken variants of real
//! characters built here; clean characters pass. Exports: palette JSON round-trips, the posed OBJ
//! matches the CPU reference.

use crate::common;

use std::path::Path;

use common::{RawGltf, ibms, shared, skinscope, with_ibms};
use glam::{Mat4, Vec3};
use serde_json::json;
use skinscope::character::Character;
use skinscope::debug::check::{CheckReport, FindingKind, Severity};
use skinscope::debug::export::{self, PaletteExport};
use skinscope::import;
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest};

/// Loads a variant as `check` does (non-affine inverse binds kept for diagnosis).
fn load_raw(raw: &RawGltf) -> Character {
    import::load_bytes(&raw.to_glb(), Path::new("variant.glb")).unwrap_or_else(|e| panic!("{e}"))
}

/// `check` as the command runs it by default: the bind pose, and the first clip at 0 s.
fn check(c: &Character) -> CheckReport {
    let request = if c.clips.is_empty() {
        PoseRequest::default()
    } else {
        PoseRequest::clip(0, 0.0)
    };
    skinscope::debug::check::check(c, &request)
}

fn errors(report: &CheckReport) -> Vec<(FindingKind, Option<String>, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| (f.kind, f.joint.clone(), f.message.clone()))
        .collect()
}

fn joint_name(raw: &RawGltf, ordinal: usize) -> String {
    let node = raw.json["skins"][0]["joints"][ordinal].as_u64().unwrap() as usize;
    raw.json["nodes"][node]["name"].as_str().unwrap().to_owned()
}

#[test]
fn clean_characters_pass() {
    for file in [
        "Fox/Fox.glb",
        "CesiumMan/CesiumMan.glb",
        "RiggedFigure/RiggedFigure.glb",
        "SimpleSkin/SimpleSkin.gltf",
    ] {
        let report = check(&import::load(&shared(file)).unwrap());
        assert_eq!(errors(&report), [], "{file}");
        assert!(report.skins[0].common_is_identity, "{file}");
    }
    // RiggedSimple: one common offset (its Armature rotation), reported as information.
    let report = check(&import::load(&shared("RiggedSimple/RiggedSimple.glb")).unwrap());
    assert_eq!(errors(&report), []);
    assert!(!report.skins[0].common_is_identity);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::AuthoredOffset
                && f.message.contains("rotation 90.00 deg"))
    );
    let builtin = skinscope::builtin::character().unwrap();
    assert_eq!(errors(&check(&builtin)), []);
}

#[test]
fn a_transposed_inverse_bind_is_flagged_on_its_joint() {
    let raw = common::RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let mut m = ibms(&raw);
    let k = 9;
    m[k] = m[k].transpose();
    let report = check(&load_raw(&with_ibms(&raw, &m)));
    let e = errors(&report);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, FindingKind::JointMismatch);
    assert_eq!(e[0].1.as_deref(), Some(joint_name(&raw, k).as_str()));
    assert!(e[0].2.contains("transposed"), "{}", e[0].2);
}

#[test]
fn inverse_binds_missing_the_armature_are_flagged() {
    // Fox's joints hang under a non-joint `root` node. Give it a transform (an armature rotated
    // and scaled, as exporters from Z-up tools write) with inverse binds consistent with it, then
    // recompute joint 5's as an exporter that forgot the armature would.
    let mut raw = common::RawGltf::read_glb(&shared("Fox/Fox.glb"));
    assert_eq!(raw.json["nodes"][0]["name"], "root");
    let armature = Mat4::from_scale_rotation_translation(
        Vec3::splat(0.5),
        glam::Quat::from_rotation_x(-1.2),
        Vec3::new(3.0, 1.0, 0.0),
    );
    raw.json["nodes"][0]["matrix"] = json!(armature.to_cols_array());
    let moved = load_raw(&raw);
    let mut pose = CharacterPose::new(&moved);
    pose.evaluate(&moved, &PoseRequest::rest(PaletteMode::Bind))
        .unwrap();
    let skin = &moved.skins[0];
    let world_from_joint = |ordinal: usize| {
        Mat4::from(
            pose.model.as_slice()[skin.skin.joint(skin.palette_of_ordinal[ordinal]).unwrap()],
        )
    };
    let world_from_mesh = pose.world_from_mesh[0];
    // Consistent: mesh_from_world * world_from_joint * joint_from_bind = identity.
    let mut m: Vec<Mat4> = (0..24)
        .map(|k| world_from_joint(k).inverse() * world_from_mesh)
        .collect();
    assert_eq!(errors(&check(&load_raw(&with_ibms(&raw, &m)))), []);
    let k = 5;
    m[k] = (armature.inverse() * world_from_joint(k)).inverse();
    let report = check(&load_raw(&with_ibms(&raw, &m)));
    let e = errors(&report);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].1.as_deref(), Some(joint_name(&raw, k).as_str()));
    assert!(e[0].2.contains("without the armature"), "{}", e[0].2);
}

#[test]
fn identity_and_mirrored_inverse_binds_are_flagged() {
    let raw = common::RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let mut m = ibms(&raw);
    m[4] = Mat4::IDENTITY;
    m[16] = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)) * m[16];
    let report = check(&load_raw(&with_ibms(&raw, &m)));
    let e = errors(&report);
    let by_joint = |k: usize| {
        e.iter()
            .find(|x| x.1.as_deref() == Some(joint_name(&raw, k).as_str()))
            .unwrap_or_else(|| panic!("{e:?}"))
    };
    assert!(
        by_joint(4).2.contains("is the identity"),
        "{}",
        by_joint(4).2
    );
    assert!(
        by_joint(16).2.contains("negative determinant"),
        "{}",
        by_joint(16).2
    );
    assert_eq!(
        e.iter()
            .filter(|x| x.0 == FindingKind::JointMismatch)
            .count(),
        2,
        "{e:?}"
    );
}

#[test]
fn shuffled_joint_indices_are_flagged() {
    let raw = common::RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let mut broken = raw.clone();
    let accessor = raw.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"]
        .as_u64()
        .unwrap() as usize;
    let n = 24;
    let shuffled: Vec<u16> = raw
        .read(accessor)
        .iter()
        .flatten()
        .map(|&j| ((j as usize * 7 + 5) % n) as u16)
        .collect();
    let a = broken.add_u16(&shuffled, "VEC4");
    broken.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(a);
    let report = check(&load_raw(&broken));
    let kinds: Vec<FindingKind> = errors(&report).iter().map(|e| e.0).collect();
    assert!(
        kinds.contains(&FindingKind::ImplausibleWeights)
            || kinds.contains(&FindingKind::MeshOffSkeleton),
        "{kinds:?}"
    );
}

#[test]
fn dropped_influences_and_unnormalised_weights_are_errors() {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "a", "children": [1]}));
    raw.add_node(json!({"name": "b", "translation": [0.0, 1.0, 0.0]}));
    raw.add_skin(&[0, 1], &[Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)]);
    let positions = raw.add_f32(&[0.0, 0.1, 0.0, 0.0, 0.9, 0.0, 0.0, 0.5, 0.0], "VEC3");
    let j0 = raw.add_u16(&[0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0], "VEC4");
    // Vertex 0: 0.6 + 0.2 in set 0 and 0.2 in set 1 (20% dropped); vertex 2 sums to 0.5.
    let w0 = raw.add_f32(
        &[0.6, 0.2, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.25, 0.25, 0.0, 0.0],
        "VEC4",
    );
    let j1 = raw.add_u16(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "VEC4");
    let w1 = raw.add_f32(
        &[0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "VEC4",
    );
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1}}]}));
    raw.add_node(json!({"mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(2);
    let report = check(&load_raw(&raw));
    let e = errors(&report);
    let dropped = e
        .iter()
        .find(|x| x.0 == FindingKind::MoreThanFourInfluences)
        .unwrap_or_else(|| panic!("{e:?}"));
    assert!(
        dropped.2.starts_with("1 vertices") && dropped.2.contains("20.0%"),
        "{}",
        dropped.2
    );
    let sums = e
        .iter()
        .find(|x| x.0 == FindingKind::WeightsNotNormalised)
        .unwrap_or_else(|| panic!("{e:?}"));
    assert!(sums.2.starts_with("1 vertices"), "{}", sums.2);
}

#[test]
fn check_exit_status_and_render_comparison() {
    let fox = shared("Fox/Fox.glb");
    let (code, out, err) = skinscope(&["check", "--json", fox.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Bind and identity renders of a consistent file are the same picture.
    let diff = v["bind_identity_pixel_difference"].as_f64().unwrap();
    assert!(diff < 0.001, "{diff}");
    // A broken variant: status 1, and its render comparison shows the difference.
    let raw = RawGltf::read_glb(&fox);
    let mut m = ibms(&raw);
    m[6] = Mat4::from_translation(Vec3::new(0.0, 30.0, 0.0)) * m[6];
    let path = std::env::temp_dir().join(format!("skinscope-check-{}.glb", std::process::id()));
    std::fs::write(&path, with_ibms(&raw, &m).to_glb()).unwrap();
    let (code, out, _) = skinscope(&["check", "--json", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["bind_identity_pixel_difference"].as_f64().unwrap() > 0.001,
        "{out}"
    );
    // A file that cannot be loaded: status 2.
    let bad = common::shared_invalid("skin/unresolved_ibm.gltf");
    assert_eq!(skinscope(&["check", bad.to_str().unwrap()]).0, 2);
}

#[test]
fn palette_json_round_trips() {
    let fox = shared("Fox/Fox.glb");
    let (code, out, err) = skinscope(&[
        "palette",
        fox.to_str().unwrap(),
        "--clip",
        "Run",
        "--time",
        "0.4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let parsed: PaletteExport = serde_json::from_str(&out).unwrap();
    let c = import::load(&fox).unwrap();
    let run = c.clips.iter().position(|k| k.clip.name() == "Run").unwrap();
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::at(Some(run), 0.4)).unwrap();
    let mut expected = export::palettes(&c, &pose, &PoseRequest::clip(run, 0.4));
    expected.file = parsed.file.clone();
    assert_eq!(parsed, expected, "every float survives the round trip");
    assert_eq!(parsed.instances[0].joints.len(), 24);
    let joint = &parsed.instances[0].joints[7];
    assert_eq!(joint.name, "b_RightUpperArm_06");
    // world_from_joint = world_from_mesh * mesh_from_bind * inverse(joint_from_bind), with the
    // inverse bind read from the skin: a tester can attach a prop without the hierarchy.
    let world_from_mesh = Mat4::from_cols_array(&parsed.instances[0].world_from_mesh);
    let joint_from_bind = c.skins[0].skin.joint_from_bind()[7];
    let derived =
        world_from_mesh * Mat4::from_cols_array(&joint.matrix) * joint_from_bind.inverse();
    let world_from_joint = Mat4::from_cols_array(&joint.world_from_joint);
    assert!(
        derived.abs_diff_eq(world_from_joint, 1e-3),
        "{derived} vs {world_from_joint}"
    );
    // The same joint among every node, and every mesh node listed with its transform.
    let node = parsed
        .nodes
        .iter()
        .find(|n| n.name == "b_RightUpperArm_06")
        .unwrap();
    assert_eq!(node.world_from_joint, joint.world_from_joint);
    assert_eq!(parsed.nodes.len(), c.skeleton.joint_count());
    assert_eq!(parsed.mesh_nodes.len(), c.instances.len());
    assert_eq!(
        parsed.mesh_nodes[0].world_from_mesh,
        parsed.instances[0].world_from_mesh
    );
    // The text form lists the same 16 numbers per joint.
    let (_, text, _) = skinscope(&[
        "palette",
        fox.to_str().unwrap(),
        "--clip",
        "Run",
        "--time",
        "0.4",
    ]);
    let row: Vec<&str> = text.lines().nth(8).unwrap().split_whitespace().collect();
    assert_eq!(row.len(), 18);
    let m: Vec<f32> = row[2..].iter().map(|v| v.parse().unwrap()).collect();
    assert_eq!(m, expected.instances[0].joints[7].matrix);
}

#[test]
fn posed_obj_matches_the_cpu_reference() {
    for (file, clip, time) in [
        ("Fox/Fox.glb", "Walk", "0.3"),
        ("CesiumMan/CesiumMan.glb", "0", "1.2"),
    ] {
        let path = shared(file);
        let out = std::env::temp_dir().join(format!("skinscope-pose-{}.obj", std::process::id()));
        let (code, _, err) = skinscope(&[
            "pose",
            path.to_str().unwrap(),
            "--clip",
            clip,
            "--time",
            time,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let obj = std::fs::read_to_string(&out).unwrap();
        std::fs::remove_file(&out).ok();
        let vertices = common::obj_points(&obj);
        let c = import::load(&path).unwrap();
        let k = c
            .clips
            .iter()
            .position(|x| x.clip.name() == clip)
            .unwrap_or(0);
        let mut pose = CharacterPose::new(&c);
        pose.evaluate(&c, &PoseRequest::clip(k, time.parse().unwrap()))
            .unwrap();
        let expected = pose.world_positions(&c);
        assert_eq!(vertices.len(), expected.len(), "{file}");
        for (a, b) in vertices.iter().zip(&expected) {
            assert_eq!(a, b, "{file}: OBJ floats print exactly");
        }
        assert_eq!(
            obj.lines().filter(|l| l.starts_with("o ")).count(),
            c.instances.len()
        );
        let faces = obj.lines().filter(|l| l.starts_with("f ")).count();
        let triangles: usize = c
            .meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(|p| p.indices.as_ref().map_or(p.positions.len(), Vec::len) / 3)
            .sum();
        assert_eq!(faces, triangles, "{file}");
    }
}

#[test]
fn posed_glb_loads_back_with_the_posed_vertices() {
    let path = shared("CesiumMan/CesiumMan.glb");
    let out = std::env::temp_dir().join(format!("skinscope-pose-{}.glb", std::process::id()));
    let (code, _, err) = skinscope(&[
        "pose",
        path.to_str().unwrap(),
        "--time",
        "0.9",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let posed = import::load(&out).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(&out).ok();
    assert!(posed.skins.is_empty() && posed.clips.is_empty());
    let c = import::load(&path).unwrap();
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::at(Some(0), 0.9)).unwrap();
    let expected = pose.world_positions(&c);
    let mut static_pose = CharacterPose::new(&posed);
    static_pose
        .evaluate(&posed, &PoseRequest::default())
        .unwrap();
    assert_eq!(static_pose.world_positions(&posed), expected);
    // The skinned normals are unit length.
    assert!(
        posed.meshes[0].primitives[0]
            .normals
            .iter()
            .all(|n| (n.length() - 1.0).abs() < 1e-4)
    );
}

#[test]
fn a_rest_pose_that_differs_from_the_bind_pose_is_information() {
    // Valid AssetGenerator files: the inverse binds agree with the vertices, the nodes' rest pose
    // turns joint1 by 30 degrees (and places joint0 elsewhere). glTF allows this.
    for k in ["00", "01", "02", "03", "05"] {
        let file = format!("AssetGenerator/Animation_Skin/Animation_Skin_{k}.gltf");
        let report = check(&import::load(&shared(&file)).unwrap());
        assert_eq!(errors(&report), [], "{file}");
        let rest: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.kind == FindingKind::RestPoseDiffers)
            .map(|f| f.message.as_str())
            .collect();
        assert!(
            rest.iter()
                .any(|m| m.starts_with("rest pose differs from bind pose at joint1 by 30 deg")),
            "{file}: {rest:?}"
        );
    }
    // Without inverse bind matrices (each the identity): legal, information.
    let file = "AssetGenerator/Animation_Skin/Animation_Skin_04.gltf";
    let report = check(&import::load(&shared(file)).unwrap());
    assert_eq!(errors(&report), []);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::NoInverseBinds && f.severity == Severity::Info)
    );
}

#[test]
fn an_unused_joint_is_a_warning_in_the_summary() {
    let mut raw = RawGltf::new();
    raw.add_node(json!({"name": "a", "children": [1, 2]}));
    raw.add_node(json!({"name": "b", "translation": [0.0, 1.0, 0.0]}));
    raw.add_node(json!({"name": "spare", "translation": [1.0, 0.0, 0.0]}));
    raw.add_skin(
        &[0, 1, 2],
        &[
            Mat4::IDENTITY,
            Mat4::from_translation(-Vec3::Y),
            Mat4::from_translation(-Vec3::X),
        ],
    );
    let positions = raw.add_f32(&[0.0, 0.1, 0.0, 0.0, 0.9, 0.0, 0.0, 0.95, 0.0], "VEC3");
    let joints = raw.add_u16(&[0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4");
    let weights = raw.add_f32(&[1.0, 0.0, 0.0, 0.0].repeat(3), "VEC4");
    let mesh = raw.add_mesh(json!({"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}));
    let node = raw.add_node(json!({"mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(node);
    let report = check(&load_raw(&raw));
    let unused = report
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::UnusedJoints)
        .unwrap();
    assert_eq!(unused.severity, Severity::Warning);
    assert!(unused.message.contains("spare"), "{}", unused.message);
    assert_eq!(report.warnings(), 1);
    assert!(
        report.to_text().ends_with("0 errors, 1 warnings\n"),
        "{}",
        report.to_text()
    );
}

#[test]
fn a_mesh_off_its_skeleton_names_the_armature_that_would_fit_it() {
    // Fox's joints hang under `root`, its mesh node does not. Move `root` far away and write
    // inverse binds that include it: the vertex data lacks the armature's move.
    let mut raw = common::RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let armature = Mat4::from_translation(Vec3::new(0.0, 400.0, 0.0));
    raw.json["nodes"][0]["matrix"] = json!(armature.to_cols_array());
    let moved = load_raw(&raw);
    let mut pose = CharacterPose::new(&moved);
    pose.evaluate(&moved, &PoseRequest::rest(PaletteMode::Bind))
        .unwrap();
    let skin = &moved.skins[0];
    let m: Vec<Mat4> = (0..24)
        .map(|k| {
            let joint = skin.skin.joint(skin.palette_of_ordinal[k]).unwrap();
            Mat4::from(pose.model.as_slice()[joint]).inverse() * pose.world_from_mesh[0]
        })
        .collect();
    let report = check(&load_raw(&with_ibms(&raw, &m)));
    let off = errors(&report)
        .into_iter()
        .find(|e| e.0 == FindingKind::MeshOffSkeleton)
        .unwrap_or_else(|| panic!("{:?}", errors(&report)));
    assert!(
        off.2.contains(
            "the vertex data was written without node 0 \"root\"'s transform (the armature), which the inverse bind matrices include: the vertices fit their joints when it is applied to them"
        ),
        "{}",
        off.2
    );
}
