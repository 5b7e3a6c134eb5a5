//! Joints' motion paths (`palette --motion-path`, `render --motion-path`): every sample is the
//! joint's `world_from_joint` of the frame `palette --time` poses at that time, keys are marked
//! at the clip's own key times, and bad ranges are refused by name.

use crate::common;

use common::{RawGltf, skinscope, skinscope_bytes};
use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};
use skinscope_testkit::{temp_dir, world_from_joint};

fn json_of(args: &[&str]) -> Value {
    let (code, out, err) = skinscope(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn matrix(v: &Value) -> Mat4 {
    let f: Vec<f32> = (v.as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    Mat4::from_cols_slice(&f)
}

#[test]
fn each_sample_is_the_joint_as_palette_poses_it_at_that_time() {
    // A layer and root motion in place: the path follows every option, as --time would.
    let options = [
        "--clip",
        "walk",
        "--layer",
        "wave:clavicle_r:1",
        "--root-motion",
        "in-place",
    ];
    let mut args = vec!["palette", "--json", "--motion-path", "hand_r,foot_l"];
    args.extend_from_slice(&options);
    args.extend_from_slice(&["--from", "0.1", "--to", "0.5", "--step", "0.125"]);
    let paths = json_of(&args);
    assert_eq!(paths["clip"], "walk");
    let list = paths["paths"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    for path in list {
        let joint = path["joint"].as_str().unwrap();
        let samples = path["samples"].as_array().unwrap();
        // 0.1, 0.225, 0.35, 0.475, then the range's end.
        let times: Vec<f64> = samples
            .iter()
            .map(|s| s["time"].as_f64().unwrap())
            .collect();
        let expected = [0.1, 0.225, 0.35, 0.475, 0.5];
        assert_eq!(times.len(), expected.len(), "{times:?}");
        for (t, e) in times.iter().zip(expected) {
            assert!((t - e).abs() < 1e-6, "{times:?}");
        }
        for s in samples.iter().chain(path["keys"].as_array().unwrap()) {
            let t = format!("{}", s["time"].as_f64().unwrap());
            let mut at = vec!["palette", "--json", "--time", &t];
            at.extend_from_slice(&options);
            let posed = world_from_joint(&json_of(&at), joint);
            let sampled = matrix(&s["world_from_joint"]);
            let diff = (posed - sampled)
                .abs()
                .to_cols_array()
                .into_iter()
                .fold(0f32, f32::max);
            assert!(diff < 1e-5, "{joint} at {t}: {posed} against {sampled}");
            let position = Vec3::from_slice(
                &(s["position"].as_array().unwrap().iter())
                    .map(|x| x.as_f64().unwrap() as f32)
                    .collect::<Vec<_>>(),
            );
            assert!(position.distance(posed.w_axis.truncate()) < 1e-5);
        }
    }
    // The hand waves: its path over the range is long, not a point.
    let hand = &list[0]["samples"].as_array().unwrap();
    let first = matrix(&hand[0]["world_from_joint"]).w_axis;
    let last = matrix(&hand[hand.len() - 1]["world_from_joint"]).w_axis;
    assert!(first.distance(last) > 0.05, "{first} {last}");
}

/// A root and an arm above it; the clip turns the arm with keys at 0, 0.3 and 1 s and moves
/// the root with keys at 0 and 0.55 s.
fn two_joint_clip(dir: &std::path::Path) -> std::path::PathBuf {
    let mut raw = RawGltf::new();
    let root = raw.add_node(json!({"name": "root", "children": [1]}));
    raw.add_node(json!({"name": "arm", "translation": [0.0, 1.0, 0.0]}));
    raw.add_skin(
        &[0, 1],
        &[
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, -1.0, 0.0)),
        ],
    );
    raw.add_root(root);
    let arm_times = raw.add_f32(&[0.0, 0.3, 1.0], "SCALAR");
    let turns: Vec<f32> = [0.0f32, 0.5, 1.5]
        .iter()
        .flat_map(|a| Quat::from_rotation_z(*a).to_array())
        .collect();
    let turns = raw.add_f32(&turns, "VEC4");
    let root_times = raw.add_f32(&[0.0, 0.55], "SCALAR");
    let moves = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0], "VEC3");
    raw.push(
        "animations",
        json!({"name": "swing", "samplers": [{"input": arm_times, "output": turns},
                                             {"input": root_times, "output": moves}],
               "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                            {"sampler": 1, "target": {"node": 0, "path": "translation"}}]}),
    );
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("swing.glb");
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn keys_of_the_joint_and_its_ancestors_are_marked_at_their_own_times() {
    let dir = temp_dir("motion-path-keys");
    let file = two_joint_clip(&dir);
    let file = file.to_str().unwrap();
    let keys_of = |joint: &str, from: &str, to: &str| -> Vec<f64> {
        let v = json_of(&[
            "palette",
            file,
            "--json",
            "--motion-path",
            joint,
            "--from",
            from,
            "--to",
            to,
            "--step",
            "0.25",
        ]);
        (v["paths"][0]["keys"].as_array().unwrap().iter())
            .map(|k| k["time"].as_f64().unwrap())
            .collect()
    };
    // The arm's own keys and its parent's, once each; the root's alone for the root.
    let close = |a: &[f64], b: &[f64]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    };
    let arm = keys_of("arm", "0", "1");
    assert!(close(&arm, &[0.0, 0.3, 0.55, 1.0]), "{arm:?}");
    let root = keys_of("root", "0", "1");
    assert!(close(&root, &[0.0, 0.55]), "{root:?}");
    // Only the keys inside the range.
    let inner = keys_of("arm", "0.2", "0.6");
    assert!(close(&inner, &[0.3, 0.55]), "{inner:?}");
    // The text form marks them too.
    let (code, text, err) = skinscope(&[
        "palette",
        file,
        "--motion-path",
        "arm",
        "--from",
        "0",
        "--to",
        "1",
        "--step",
        "0.5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" key")).count(),
        4,
        "{text}"
    );
    // The arm at 0.3 s (a key): turned 0.5 rad about Z above the root, which is 0.3/0.55 of
    // the way along its 1 m move.
    let v = json_of(&[
        "palette",
        file,
        "--json",
        "--motion-path",
        "arm",
        "--from",
        "0",
        "--to",
        "1",
    ]);
    let key = &v["paths"][0]["keys"][1];
    let m = matrix(&key["world_from_joint"]);
    let expected = Mat4::from_translation(Vec3::new(0.3 / 0.55, 1.0, 0.0))
        * Mat4::from_quat(Quat::from_rotation_z(0.5));
    assert!(m.abs_diff_eq(expected, 1e-5), "{m} against {expected}");
}

#[test]
fn bad_ranges_and_joints_are_refused_by_name() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--motion-path", "hand_r", "--from", "1", "--to", "0.5"],
            "give --from below --to",
        ),
        (
            &["--motion-path", "hand_r", "--step", "0"],
            "not a positive",
        ),
        (
            &[
                "--motion-path",
                "hand_r",
                "--step",
                "0.00001",
                "--to",
                "100",
            ],
            "more than 10000",
        ),
        (&["--motion-path", "wrist"], "no joint \"wrist\""),
        (
            &["--motion-path", "hand_r", "--time", "0.5"],
            "cannot be used with",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["palette"];
        all.extend_from_slice(args);
        let (code, _, err) = skinscope(&all);
        assert_eq!(code, 2, "{all:?}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

#[test]
fn a_render_draws_the_path_where_the_joint_went() {
    let dir = temp_dir("motion-path-render");
    let plain = dir.join("plain.png");
    let path = dir.join("path.png");
    let base = [
        "render", "--clip", "walk", "--time", "0", "--size", "160x120", "--eye", "3,1,0",
        "--target", "0,1,0",
    ];
    let run = |extra: &[&str], out: &std::path::Path| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let (code, _, err) = skinscope_bytes(&args);
        assert_eq!(code, 0, "{err}");
        image::open(out).unwrap().to_rgba8()
    };
    let a = run(&[], &plain);
    let b = run(
        &["--motion-path", "foot_l", "--from", "0", "--to", "1"],
        &path,
    );
    // Only the path's pixels change: orange lines and white key marks near the feet's height.
    let changed: Vec<(u32, u32)> = (a.enumerate_pixels().zip(b.pixels()))
        .filter(|((_, _, p), q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 40))
        .map(|((x, y, _), _)| (x, y))
        .collect();
    assert!(changed.len() > 30, "{} pixels changed", changed.len());
    let lowest_third = changed.iter().filter(|(_, y)| *y > 120 * 2 / 3).count();
    assert!(
        lowest_third * 2 > changed.len(),
        "the path is not at the feet"
    );
    let (code, _, err) = skinscope(&[
        "render",
        "--motion-path",
        "foot_l",
        "--out",
        dir.join("p.gif").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("draws on a still image"), "{err}");
}
