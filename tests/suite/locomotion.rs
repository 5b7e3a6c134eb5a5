//! Root motion, foot IK and reach IK end to end: the command line's `--root-motion`,
//! `--ground`, `--ik` and `check --foot-slide` on the built-in character and on fixtures made
//! from it, and the viewer's applied and driven modes.

use crate::common;

use std::path::PathBuf;

use common::{RawGltf, node_at, shared, skinscope};
use glam::{Quat, Vec3};
use serde_json::{Value, json};
use skinscope::graph::MoveMode;
use skinscope::viewer::Viewer;

/// The built-in mannequin with two more clips on its pelvis (node 1, rest at y = 0.95):
/// `travel` moves it +1 along Z over a 1 s loop; `turn` also turns it 90 degrees about Y.
fn travelling_mannequin() -> PathBuf {
    let asset = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/skinscope_mannequin.glb"
    );
    let mut raw = RawGltf::read_glb(std::path::Path::new(asset));
    let times = raw.add_f32(&[0.0, 0.5, 1.0], "SCALAR");
    let moves = raw.add_f32(&[0.0, 0.95, 0.0, 0.0, 0.95, 0.5, 0.0, 0.95, 1.0], "VEC3");
    let yaw = |d: f32| Quat::from_rotation_y(d.to_radians()).to_array();
    let turns: Vec<f32> = [yaw(0.0), yaw(45.0), yaw(90.0)].concat();
    let turns = raw.add_f32(&turns, "VEC4");
    let channel = |sampler: usize, path: &str| json!({"sampler": sampler, "target": {"node": 1, "path": path}});
    let sampler =
        |output: usize| json!({"input": times, "output": output, "interpolation": "LINEAR"});
    raw.push(
        "animations",
        json!({"name": "travel", "samplers": [sampler(moves)], "channels": [channel(0, "translation")]}),
    );
    raw.push(
        "animations",
        json!({"name": "turn", "samplers": [sampler(moves), sampler(turns)],
               "channels": [channel(0, "translation"), channel(1, "rotation")]}),
    );
    let dir = common::temp_dir("travelling-mannequin");
    let path = dir.join("travelling.glb");
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

fn palette(args: &[&str]) -> Value {
    let mut all = vec!["palette", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = skinscope(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn applied_root_motion_travels_the_loops_and_in_place_stays() {
    let file = travelling_mannequin();
    let file = file.to_str().unwrap();
    let at = |mode: &str, time: &str, clip: &str| {
        let json = palette(&[file, "--clip", clip, "--time", time, "--root-motion", mode]);
        node_at(&json, "pelvis")
    };
    // Applied: 2.5 loops of +1 along Z, integrated at 60 Hz: 2.5 along Z (and the pelvis
    // keeps its height).
    let applied = at("applied", "2.5", "travel");
    assert!(
        (applied - Vec3::new(0.0, 0.95, 2.5)).length() < 1e-4,
        "{applied}"
    );
    // In place: held at its rest position. As authored: where the clip puts it in this loop.
    assert!((at("in-place", "2.5", "travel") - Vec3::new(0.0, 0.95, 0.0)).length() < 1e-6);
    assert!((at("authored", "2.5", "travel") - Vec3::new(0.0, 0.95, 0.5)).length() < 1e-5);
    // Turning 90 degrees a loop: after one loop the character faces +X, and its second
    // loop's travel runs along +X: at 2 s it stands at (1, 0.95, 1).
    let turned = at("applied", "2", "turn");
    assert!(
        (turned - Vec3::new(1.0, 0.95, 1.0)).length() < 1e-3,
        "{turned}"
    );
    let json = palette(&[
        file,
        "--clip",
        "turn",
        "--time",
        "1",
        "--root-motion",
        "applied",
    ]);
    let m: Vec<f32> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == "pelvis")
        .unwrap()["world_from_joint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    // The pelvis's local +Z axis now points along world +X (yaw 90 degrees).
    assert!(
        (Vec3::new(m[8], m[9], m[10]) - Vec3::X).length() < 1e-3,
        "{m:?}"
    );
}

#[test]
fn the_state_machine_travels_by_its_root_motion_on_the_command_line() {
    // A graph of one state playing the travelling clip, run 2.5 s at 60 Hz with root motion
    // applied: the hips are 2.5 along, as with the clip alone.
    let file = travelling_mannequin();
    let graph = file.with_file_name("travel.skinscope.json");
    std::fs::write(&graph, r#"{"states": [{"name": "go", "clip": "travel"}]}"#).unwrap();
    let json = palette(&[
        file.to_str().unwrap(),
        "--graph",
        graph.to_str().unwrap(),
        "--simulate",
        "2.5",
        "--root-motion",
        "applied",
    ]);
    let hips = node_at(&json, "pelvis");
    assert!((hips - Vec3::new(0.0, 0.95, 2.5)).length() < 1e-3, "{hips}");
}

#[test]
fn reach_ik_puts_the_hand_on_the_target() {
    // The right arm (upper arm 0.28, forearm 0.25) reaching for a point 0.4 from its shoulder,
    // ahead and below: palette --json's hand_r world_from_joint lands on the target.
    let rest = palette(&["--palette", "bind"]);
    let shoulder = node_at(&rest, "upperarm_r");
    let target = shoulder + Vec3::new(-0.1, -0.2, 0.33).normalize() * 0.4;
    let spec = format!("hand_r={},{},{}", target.x, target.y, target.z);
    let json = palette(&["--clip", "idle", "--time", "0.4", "--ik", &spec]);
    let hand = node_at(&json, "hand_r");
    assert!((hand - target).length() < 1e-4, "{hand} vs {target}");
    // With a pole behind the arm the elbow points back.
    let pole = shoulder + Vec3::new(0.0, -0.2, -1.0);
    let spec = format!("{spec}:{},{},{}", pole.x, pole.y, pole.z);
    let json = palette(&["--clip", "idle", "--time", "0.4", "--ik", &spec]);
    let (hand, elbow) = (node_at(&json, "hand_r"), node_at(&json, "forearm_r"));
    assert!((hand - target).length() < 1e-4);
    let mid = (shoulder + target) * 0.5;
    assert!(
        (elbow - mid).z < 0.0,
        "the elbow bends toward the pole: {elbow}"
    );
    let (code, _, err) = skinscope(&["palette", "--ik", "pelvis=0,0,0"]);
    assert_ne!(code, 0);
    assert!(err.contains("no parent and grandparent"), "{err}");
}

#[test]
fn foot_ik_stands_the_feet_on_a_step_and_lowers_the_pelvis_for_a_dip() {
    let dir = common::temp_dir("foot-ik");
    let ground = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    // A step 0.1 high under the left foot (+X side): the left ankle rises by exactly 0.1,
    // the right foot and the pelvis do not move.
    let step = ground(
        "step.json",
        r#"{"steps": [{"min": [0.05, -1], "max": [1, 1], "height": 0.1}]}"#,
    );
    let plain = palette(&["--clip", "walk", "--time", "0.5"]);
    let on_step = palette(&["--clip", "walk", "--time", "0.5", "--ground", &step]);
    let rise = node_at(&on_step, "foot_l") - node_at(&plain, "foot_l");
    assert!((rise - Vec3::new(0.0, 0.1, 0.0)).length() < 1e-4, "{rise}");
    assert!((node_at(&on_step, "foot_r") - node_at(&plain, "foot_r")).length() < 1e-6);
    assert!((node_at(&on_step, "pelvis") - node_at(&plain, "pelvis")).length() < 1e-6);
    // A dip 0.05 deep under the right foot: the pelvis comes down 0.05 so that foot reaches,
    // and both feet stand on their ground (the left at its animated height, the right 0.05
    // lower).
    let dip = ground(
        "dip.json",
        r#"{"steps": [{"min": [-1, -1], "max": [-0.05, 1], "height": -0.05}]}"#,
    );
    let in_dip = palette(&["--clip", "walk", "--time", "0.5", "--ground", &dip]);
    let down = node_at(&in_dip, "pelvis") - node_at(&plain, "pelvis");
    assert!(
        (down - Vec3::new(0.0, -0.05, 0.0)).length() < 1e-5,
        "{down}"
    );
    let right = node_at(&in_dip, "foot_r") - node_at(&plain, "foot_r");
    assert!((right.y + 0.05).abs() < 1e-4, "{right}");
    let left = node_at(&in_dip, "foot_l") - node_at(&plain, "foot_l");
    assert!(left.y.abs() < 1e-4, "{left}");
    let (code, _, err) = skinscope(&[
        "palette",
        "--ground",
        &ground("bad.json", r#"{"walls": [{"from": [0]}]}"#),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.json: /walls/0/from: expected [x, z]"),
        "{err}"
    );
}

#[test]
fn the_fox_s_four_legs_are_found_and_planted() {
    let fox = skinscope::import::load(&shared("Fox/Fox.glb")).unwrap();
    let legs = skinscope::pose::find_legs(&fox);
    let ends: Vec<&str> = legs
        .iter()
        .map(|l| fox.skeleton.names()[l.end].as_str())
        .collect();
    assert_eq!(
        ends,
        [
            "b_RightHand_08",
            "b_LeftHand_011",
            "b_LeftFoot01_017",
            "b_RightFoot01_021"
        ]
    );
    // The Fox is about 100 units tall: a 10-unit step under its front paws (z > 10) lifts both
    // of them 10 units and leaves the hind feet.
    let dir = common::temp_dir("fox-step");
    let step = dir.join("step.json");
    std::fs::write(
        &step,
        r#"{"steps": [{"min": [-50, 10], "max": [50, 100], "height": 10}]}"#,
    )
    .unwrap();
    let file = shared("Fox/Fox.glb");
    let file = file.to_str().unwrap();
    let plain = palette(&[file, "--clip", "Survey", "--time", "1"]);
    let stepped = palette(&[
        file,
        "--clip",
        "Survey",
        "--time",
        "1",
        "--ground",
        step.to_str().unwrap(),
    ]);
    for (name, rise) in [
        ("b_RightHand_08", 10.0),
        ("b_LeftHand_011", 10.0),
        ("b_LeftFoot01_017", 0.0),
        ("b_RightFoot01_021", 0.0),
    ] {
        let d = node_at(&stepped, name) - node_at(&plain, name);
        assert!((d.y - rise).abs() < 1e-2 && d.x.abs() < 1e-2, "{name}: {d}");
    }
    // CesiumMan's names do not say: its legs are found by where its joints stand.
    let man = skinscope::import::load(&shared("CesiumMan/CesiumMan.glb")).unwrap();
    let ends: Vec<String> = skinscope::pose::find_legs(&man)
        .iter()
        .map(|l| man.skeleton.names()[l.end].clone())
        .collect();
    assert_eq!(ends, ["leg_joint_L_3", "leg_joint_R_3"]);
}

#[test]
fn foot_slide_is_measured_per_foot() {
    let (code, out, err) = skinscope(&["check", "--clip", "walk", "--foot-slide"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("foot_l") && out.contains("foot_r"), "{out}");
    let (_, json, _) = skinscope(&["check", "--clip", "walk", "--foot-slide", "--json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    let feet = json["feet"].as_array().unwrap();
    assert_eq!(feet.len(), 2);
    // The walk plays in place: its planted feet slide back at walking pace (metres a second);
    // idle's barely move.
    let mean = feet[0]["mean"].as_f64().unwrap();
    assert!(mean > 1.0 && mean < 3.0, "{mean}");
    let (_, json, _) = skinscope(&["check", "--clip", "idle", "--foot-slide", "--json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert!(json["feet"][0]["worst"].as_f64().unwrap() < 0.2);
    // Independently: the left ankle's horizontal speed between two planted frames 1/60 s
    // apart, from two palettes.
    let c = skinscope::builtin::character().unwrap();
    let legs = skinscope::pose::find_legs(&c);
    let windows = skinscope::pose::contact_windows(&c, 1, &legs);
    let (a, b) = windows[0][0];
    let t0 = a + (b - a) * 0.5;
    let t1 = t0 + 1.0 / 60.0;
    let p0 = node_at(
        &palette(&["--clip", "walk", "--time", &t0.to_string()]),
        "foot_l",
    );
    let p1 = node_at(
        &palette(&["--clip", "walk", "--time", &t1.to_string()]),
        "foot_l",
    );
    let speed = Vec3::new(p1.x - p0.x, 0.0, p1.z - p0.z).length() * 60.0;
    let worst = feet[0]["worst"].as_f64().unwrap() as f32;
    assert!(
        speed > 0.2 && speed <= worst + 1e-3,
        "{speed} vs worst {worst}"
    );
}

#[test]
fn the_viewer_applies_root_motion_and_drives_with_the_feet_planted() {
    // Applied: three loops of the travelling clip at 60 Hz move the character 3 along Z.
    let file = travelling_mannequin();
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.open(&file).unwrap();
    viewer.controls.playback.clip = viewer
        .character
        .clips
        .iter()
        .position(|k| k.clip.name() == "travel")
        .unwrap();
    viewer.controls.motion.move_mode = MoveMode::Applied;
    viewer.frame(Vec::new(), 0.0);
    for _ in 0..180 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let at = viewer.locomotion().placement().position;
    assert!((at - Vec3::new(0.0, 0.0, 3.0)).length() < 1e-4, "{at}");
    let pelvis = viewer.character.skeleton.find("pelvis").unwrap();
    let drawn = Vec3::from(viewer.pose.model.as_slice()[pelvis].translation);
    assert!(
        (drawn - Vec3::new(0.0, 0.95, 3.0)).length() < 1e-4,
        "drawn once: {drawn}"
    );
    // Driven: the in-place walk at its own ground speed plays at 1x; the character moves at
    // that speed; with foot IK the planted feet are held (no slide beyond a hair).
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    let walk = viewer.controls.playback.clip;
    let ground_speed = viewer.ground_speed(walk);
    viewer.controls.motion.move_mode = MoveMode::Driven;
    viewer.controls.motion.drive_speed = ground_speed;
    viewer.controls.motion.foot_ik = true;
    assert!((viewer.driven_rate().unwrap() - 1.0).abs() < 1e-6);
    for _ in 0..120 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let at = viewer.locomotion().placement().position;
    assert!((at.z - ground_speed * 2.0).abs() < 1e-3, "{at}");
    let slide = viewer
        .slide_plot
        .iter()
        .skip(30)
        .map(|p| p[1])
        .fold(0.0, f64::max);
    assert!(slide < 0.05, "planted feet slid at {slide}");
    // In place the same feet slide back at walking pace.
    viewer.controls.motion.move_mode = MoveMode::InPlace;
    viewer.controls.playback.speed = 1.0;
    for _ in 0..120 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let slide = viewer
        .slide_plot
        .iter()
        .rev()
        .take(100)
        .map(|p| p[1])
        .fold(0.0, f64::max);
    assert!(slide > 1.0, "{slide}");
    // The scene and the trail are drawn as overlay lines.
    viewer.controls.motion.show_scene = true;
    assert!(viewer.overlay_lines().len() > 20);
}

#[test]
fn driving_under_the_state_machine_sets_its_speed_and_matches_the_rate() {
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.controls.layers.use_graph = true;
    viewer.controls.motion.move_mode = MoveMode::Driven;
    viewer.controls.motion.drive_speed = 1.0;
    for _ in 0..30 {
        viewer.frame(Vec::new(), 1.0 / 60.0);
    }
    let m = viewer.machine().unwrap();
    assert_eq!(m.value(m.graph.parameter("speed").unwrap()), 1.0);
    assert_eq!(m.state_name(m.current_state()), "locomotion");
    // Speed 1 of 1.4 on idle (0) .. walk (1.4): walk weighs 1/1.4, and the clips play at
    // 1 / (the blend of their ground speeds).
    let (idle, walk) = (0, 1);
    let w = 1.0 / 1.4;
    let ground = viewer.ground_speed(idle) * (1.0 - w) + viewer.ground_speed(walk) * w;
    let rate = viewer.driven_rate().unwrap();
    assert!(
        (rate - 1.0 / ground).abs() < 1e-4 * rate,
        "{rate} vs {}",
        1.0 / ground
    );
    assert!((viewer.machine().unwrap().speed - rate).abs() < 1e-4 * rate);
    let at = viewer.locomotion().placement().position;
    assert!((at.z - 0.5).abs() < 1e-3, "{at}");
}
