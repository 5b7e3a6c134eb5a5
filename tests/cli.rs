//! The command line as a user runs it: exit statuses, text and JSON output.

mod common;

use std::process::Command;

use common::{shared, shared_invalid};

fn skinscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .output()
        .expect("run skinscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn inspect_describes_a_character_as_text() {
    let fox = shared("Fox/Fox.glb");
    let (code, out, _) = skinscope(&["inspect", fox.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("26 nodes, 1 skins, 1 meshes (1728 vertices), 3 clips"),
        "{out}"
    );
    assert!(out.contains("24 joints, root _rootJoint"), "{out}");
    assert!(
        out.contains("\"Walk\": 0.708 s, 21 channels (LINEAR)"),
        "{out}"
    );
    // A joint row: palette 7 is node 9, b_RightUpperArm_06, child of palette 4 (b_Spine02_03).
    assert!(
        out.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == ["7", "7", "9", "4", "b_RightUpperArm_06"]),
        "{out}"
    );
}

#[test]
fn inspect_json_has_the_documented_fields() {
    let man = shared("CesiumMan/CesiumMan.glb");
    let (code, out, _) = skinscope(&["inspect", "--json", man.to_str().unwrap()]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let joints = v["skins"][0]["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 19);
    assert_eq!(joints[0]["name"], "Skeleton_torso_joint_1");
    assert_eq!(joints[0]["node"], 3);
    assert!(joints[0]["parent"].is_null());
    assert_eq!(joints[1]["parent"], 0);
    assert_eq!(
        v["skins"][0]["non_joint_ancestors"],
        serde_json::json!(["Z_UP", "Armature"])
    );
    assert_eq!(v["clips"][0]["duration_secs"], 2.0);
    assert_eq!(v["clips"][0]["channels"], 57);
    assert_eq!(v["meshes"][0]["vertices"], 3273);
    assert_eq!(v["meshes"][0]["skinned"], true);
    assert_eq!(v["warnings"][0]["pointer"], "/nodes/2");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
}

#[test]
fn inspect_refuses_a_broken_file_with_status_2() {
    let bad = shared_invalid("skin/ibm_invalid_count.gltf");
    let (code, out, err) = skinscope(&["inspect", "--json", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("ibm_invalid_count.gltf") && err.contains("/skins/2/inverseBindMatrices"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["loaded"], false);
    let pointers: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert!(
        pointers.contains(&"/skins/2/inverseBindMatrices"),
        "{pointers:?}"
    );
    // A missing file and a directory: status 2, a message, no panic.
    let (code, _, err) = skinscope(&["inspect", "/nonexistent.glb"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent.glb: cannot read the file"),
        "{err}"
    );
    let (code, _, err) = skinscope(&["inspect", env!("CARGO_MANIFEST_DIR")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is a directory") && !err.contains("panicked"),
        "{err}"
    );
}
