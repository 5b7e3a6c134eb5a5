//! The command line as a user runs it: exit statuses, text and JSON output.

use crate::common;

use common::{shared, shared_invalid, skinscope, temp_dir};

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
    // glTF's rule that a skinned mesh node's transform is ignored: a note, not a warning.
    assert_eq!(v["notes"][0]["pointer"], "/nodes/2");
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

fn temp_png(name: &str) -> std::path::PathBuf {
    temp_dir("cli").join(name)
}

/// Fraction of pixels that are not black.
fn coverage(path: &std::path::Path) -> f64 {
    let img = image::open(path).unwrap().to_rgba8();
    let lit = img
        .pixels()
        .filter(|p| p[0] > 0 || p[1] > 0 || p[2] > 0)
        .count();
    lit as f64 / (img.width() * img.height()) as f64
}

#[test]
fn render_draws_every_shared_model_posed_mid_clip() {
    let files = common::gltf_files(&shared(""));
    assert!(files.len() >= 17);
    for file in files {
        let out = temp_png("model.png");
        let (code, _, err) = skinscope(&[
            "render",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--size",
            "96x72",
            "--time",
            "0.77",
            "--silhouette",
        ]);
        assert_eq!(code, 0, "{}: {err}", file.display());
        let c = coverage(&out);
        // Framed on the posed character: it covers a good part of the image, and not all of it.
        assert!(
            c > 0.01 && c < 0.95,
            "{}: {c} of the image is covered",
            file.display()
        );
    }
}

#[test]
fn render_options_work_together() {
    let fox = shared("Fox/Fox.glb");
    let out = temp_png("fox.png");
    let (code, _, err) = skinscope(&[
        "render",
        fox.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--size",
        "160x120",
        "--clip",
        "Walk",
        "--time",
        "-0.2",
        "--blend",
        "Run:0.5",
        "--palette",
        "animated",
        "--wireframe",
        "--bones",
        "--background",
        "10,20,30",
        "--eye",
        "150,80,150",
        "--target",
        "0,40,0",
        "--fov-y",
        "35",
        "--near",
        "1",
        "--far",
        "1000",
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&out).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (160, 120));
    // The corner is the background colour, as given (sRGB).
    assert_eq!(&img.get_pixel(0, 0).0[..3], &[10, 20, 30]);
    // No file: the built-in character, its walk by name.
    let (code, _, err) = skinscope(&[
        "render",
        "--out",
        out.to_str().unwrap(),
        "--size",
        "64x64",
        "--clip",
        "walk",
        "--time",
        "0.3",
        "--silhouette",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(coverage(&out) > 0.05);
    // Clip by index and the identity palette.
    let (code, _, err) = skinscope(&[
        "render",
        fox.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--size",
        "64x64",
        "--clip",
        "2",
        "--palette",
        "identity",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn bad_render_input_exits_2_with_a_message() {
    let fox = shared("Fox/Fox.glb");
    let fox = fox.to_str().unwrap();
    let out = temp_png("bad.png");
    let out = out.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["render", fox, "--out", out, "--clip", "Dance"],
            "no clip \"Dance\"",
        ),
        (&["render", fox, "--out", out, "--size", "-5x10"], "--size"),
        (
            &["render", fox, "--out", out, "--size", "0x10"],
            "outside 1..8192",
        ),
        (
            &["render", fox, "--out", out, "--time", "NaN"],
            "not a finite number",
        ),
        (
            &["render", fox, "--out", out, "--blend", "Run"],
            "not CLIP:WEIGHT",
        ),
        (
            &["render", fox, "--out", out, "--blend", "Run:1.5"],
            "outside 0..1",
        ),
        (
            &["render", fox, "--out", out, "--background", "300,0,0"],
            "0..255",
        ),
        (
            &["render", fox, "--out", out, "--target", "0,0,0"],
            "need --eye",
        ),
        (
            &["render", fox, "--out", out, "--fov-y", "190"],
            "between 0 and 180",
        ),
        (
            &["render", "/nonexistent.glb", "--out", out],
            "cannot read the file",
        ),
        (
            &["render", env!("CARGO_MANIFEST_DIR"), "--out", out],
            "is a directory",
        ),
        (
            &[
                "render",
                fox,
                "--out",
                "/nonexistent-dir/x.png",
                "--size",
                "8x8",
            ],
            "cannot write",
        ),
    ];
    for (args, message) in cases {
        let (code, _, err) = skinscope(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(message),
            "{args:?}: expected {message:?} in {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
