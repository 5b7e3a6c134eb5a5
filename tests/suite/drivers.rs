//! Pose drivers: a driver file bound to the built-in mannequin, its outputs
//! exact at the authored poses on the pose stage, partial between them in a clip, and a file
//! naming what the character lacks refused at its JSON pointer.

use glam::{Quat, Vec3};
use skinscope::pose::{CharacterPose, DriverSet, PoseRequest};

use crate::common;

/// The left elbow's swing drives the smile target and lifts the left hand: nothing at rest,
/// all of both at 60 degrees of flexion (about -X: the forearm forward).
const ELBOW: &str = r#"{"drivers": [{"name": "elbow_l", "joint": "forearm_l", "mode": "swing",
  "width_degrees": 40,
  "outputs": [{"morph": "mannequin:smile"}, {"joint": "hand_l", "offset": "ty"}],
  "poses": [{"rotation_degrees": [0, 0, 0], "values": [0, 0]},
            {"rotation_degrees": [-60, 0, 0], "values": [1, 0.02]}]}]}"#;

#[test]
fn at_an_authored_pose_the_drivers_set_its_values_exactly() {
    let c = skinscope::builtin::character().unwrap();
    let drivers = std::sync::Arc::new(DriverSet::parse(ELBOW, &c).unwrap());
    let forearm = c.skeleton.find("forearm_l").unwrap();
    let hand = c.skeleton.find("hand_l").unwrap();
    let mesh = c.meshes.iter().find(|m| m.name == "mannequin").unwrap();
    let smile = mesh.target_names.iter().position(|n| n == "smile").unwrap();
    // The rest pose with the forearm turned to the authored pose, by an override layer.
    let flexed = Quat::from_rotation_x(-60f32.to_radians());
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(
        &c,
        &PoseRequest::rest(skinscope::pose::PaletteMode::Animated),
    )
    .unwrap();
    let mut local = pose.local().clone();
    local.as_mut_slice()[forearm].rotation = flexed;
    let rest_hand = local.as_slice()[hand].translation;
    let mut weights = pose.morph.weights.clone();
    let base = pose.morph.base.clone();
    let mut scratch = Vec::new();
    drivers.apply(&c, &mut local, (&mut weights, &base), &mut scratch);
    let instance = c
        .instances
        .iter()
        .position(|i| i.mesh == mesh.index)
        .unwrap();
    let at = base[instance] as usize + smile;
    assert!((weights[at] - 1.0).abs() < 1e-5, "{}", weights[at]);
    let lifted = local.as_slice()[hand].translation;
    assert!(
        (lifted - rest_hand - Vec3::new(0.0, 0.02, 0.0)).length() < 1e-6,
        "{lifted} from {rest_hand}"
    );
    // At rest: nothing.
    let mut local = pose.local().clone();
    let mut weights = pose.morph.weights.clone();
    drivers.apply(&c, &mut local, (&mut weights, &base), &mut scratch);
    assert_eq!(weights, pose.morph.weights);
    assert_eq!(local.as_slice()[hand], pose.local().as_slice()[hand]);
}

#[test]
fn the_command_line_poses_the_drivers_in_a_clip() {
    let dir = common::temp_dir("drivers");
    let file = dir.join("elbow.json");
    std::fs::write(&file, ELBOW).unwrap();
    let file = file.to_str().unwrap();
    let smile = |extra: &[&str]| {
        let mut args = vec!["palette", "--clip", "walk", "--time", "0.3", "--json"];
        args.extend_from_slice(extra);
        let (code, out, err) = common::skinscope(&args);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let node = &json["mesh_nodes"][0];
        (
            node["morph_weights"][1].as_f64().unwrap(),
            common::node_at(&json, "hand_l"),
        )
    };
    let (plain, hand) = smile(&[]);
    let (driven, lifted) = smile(&["--drivers", file]);
    // The walk bends the elbow 20 to 32 degrees: between the poses, a part of the smile, and
    // the hand lifted by the same part of 2 cm.
    assert_eq!(plain, 0.0);
    assert!(driven > 0.05 && driven < 0.95, "{driven}");
    let lift = (lifted - hand).length() as f64;
    assert!(
        (lift - 0.02 * driven).abs() < 2e-3,
        "{lift} against {driven}"
    );
    // A driver on a joint the file lacks, or on a target it lacks: refused at the pointer.
    for (text, says) in [
        (
            ELBOW.replace("forearm_l", "elbow_l_x"),
            "/drivers/0/joint: no joint \"elbow_l_x\"",
        ),
        (
            ELBOW.replace("smile", "frown"),
            "/drivers/0/outputs/0/morph: mesh \"mannequin\" has no morph target \"frown\"",
        ),
        (
            ELBOW.replace("\"ty\"", "\"ta\""),
            "/drivers/0/outputs/1/offset",
        ),
    ] {
        let bad = dir.join("bad.json");
        std::fs::write(&bad, text).unwrap();
        let bad = bad.to_str().unwrap();
        let (code, _, err) = common::skinscope(&["palette", "--drivers", bad]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(bad) && err.contains(says), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_panel_loads_a_drivers_file_and_shows_the_pose_weights() {
    use egui_kittest::kittest::Queryable;
    let dir = common::temp_dir("drivers-panel");
    let file = dir.join("elbow.json");
    std::fs::write(&file, ELBOW).unwrap();
    let c = skinscope::builtin::character().unwrap();
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.controls.drivers.path = file.display().to_string();
    // Paused, so the weights the panel shows are the frame's.
    viewer.controls.playback.playing = false;
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.get_by_label("Pose drivers").click();
    h.run();
    h.get_by_label("no drivers");
    h.get_by_label("Load drivers").click();
    h.run();
    h.run();
    let v = h.state();
    let set = v.controls.drivers.set.clone().expect("loaded");
    assert_eq!(set.drivers[0].name, "elbow_l");
    // Two pose weights, each in 0..1, shown as they stand.
    let weights = v.pose.driver_weights(&set).to_vec();
    assert_eq!(weights.len(), 2);
    assert!(
        weights.iter().all(|w| (0.0..=1.0).contains(w)),
        "{weights:?}"
    );
    h.get_by_label_contains("elbow_l: forearm_l (Swing), 2 outputs");
    h.get_by_label_contains(&format!("pose 1: {:.2}", weights[1]));
    h.get_by_label("Drop").click();
    h.run();
    assert!(h.state().controls.drivers.set.is_none());
    // The mannequin's own: its six correctives' drivers.
    h.get_by_label("The character's own").click();
    h.run();
    let own = h
        .state()
        .controls
        .drivers
        .set
        .clone()
        .expect("the built-in drivers");
    let names: Vec<&str> = own.drivers.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "elbow_l",
            "elbow_r",
            "knee_l",
            "knee_r",
            "shoulder_raise_l",
            "shoulder_raise_r"
        ]
    );
    h.get_by_label("Drop").click();
    h.run();
    // A bad file: the error names it, and nothing is loaded.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, ELBOW.replace("forearm_l", "nope")).unwrap();
    h.state_mut().controls.drivers.path = bad.display().to_string();
    h.run();
    h.get_by_label("Load drivers").click();
    h.run();
    let err = h.state().load_error.clone().unwrap_or_default();
    assert!(
        err.contains("bad.json") && err.contains("/drivers/0/joint"),
        "{err}"
    );
    assert!(h.state().controls.drivers.set.is_none());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn drivers_an_exporter_wrote_in_node_extras_are_the_files_own() {
    let dir = common::temp_dir("drivers-extras");
    let mut raw = common::RawGltf::read_glb(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/skinscope_mannequin.glb"),
    );
    // The elbow driver on the forearm's node (joint k is node k + 1), its joint left out.
    let forearm = raw.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["name"] == "forearm_l")
        .unwrap();
    let file: serde_json::Value = serde_json::from_str(ELBOW).unwrap();
    let mut driver = file["drivers"][0].clone();
    driver.as_object_mut().unwrap().remove("joint");
    raw.json["nodes"][forearm]["extras"] = serde_json::json!({"skinscope_drivers": [driver]});
    let path = dir.join("exported.glb");
    std::fs::write(&path, raw.to_glb()).unwrap();
    let path_str = path.to_str().unwrap();
    let weights = |drivers: &str| {
        let args = [
            "palette",
            path_str,
            "--clip",
            "walk",
            "--time",
            "0.3",
            "--drivers",
            drivers,
            "--json",
        ];
        let (code, out, err) = common::skinscope(&args);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        json["mesh_nodes"][0]["morph_weights"][1].as_f64().unwrap()
    };
    // The file's own drivers pose as the same driver from a file does.
    let from_file = dir.join("elbow.json");
    std::fs::write(&from_file, ELBOW).unwrap();
    let own = weights("default");
    assert!(own > 0.05, "{own}");
    assert_eq!(own, weights(from_file.to_str().unwrap()));
    // A bad driver in the extras is named at its pointer in the file.
    raw.json["nodes"][forearm]["extras"]["skinscope_drivers"][0]["mode"] = "bend".into();
    std::fs::write(&path, raw.to_glb()).unwrap();
    let (code, _, err) = common::skinscope(&["palette", path_str, "--drivers", "default"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("/nodes/{forearm}/extras/skinscope_drivers/0/mode")),
        "{err}"
    );
    // CesiumMan has none.
    let man = common::shared("CesiumMan/CesiumMan.glb");
    let (code, _, err) =
        common::skinscope(&["palette", man.to_str().unwrap(), "--drivers", "default"]);
    assert_eq!(code, 2);
    assert!(err.contains("ships no pose drivers"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
