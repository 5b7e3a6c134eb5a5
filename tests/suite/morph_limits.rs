//! Morph targets a clip drives at once, per mesh node, against what engines blend (8; 4 when
//! the targets move normals): `check` warns past the limit and `inspect` says the peak of each
//! clip, on files built here with hand-counted weights.

use crate::common;

use common::{RawGltf, skinscope};
use serde_json::{Value, json};

/// A triangle with `targets` morph targets (moving normals too when `normals`), on node 0, and
/// one clip "talk" over its weights: LINEAR, keys at 0 and 1 s with the weights given.
fn morphing(targets: usize, normals: bool, keys: [&[f32]; 2]) -> RawGltf {
    let mut raw = RawGltf::new();
    let position = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    raw.json["accessors"][position]["min"] = json!([0.0, 0.0, 0.0]);
    raw.json["accessors"][position]["max"] = json!([1.0, 1.0, 0.0]);
    let normal = raw.add_f32(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC3");
    let offsets: Vec<Value> = (0..targets)
        .map(|t| {
            let d = 0.01 * (t + 1) as f32;
            let p = raw.add_f32(&[0.0, d, 0.0, 0.0, d, 0.0, 0.0, d, 0.0], "VEC3");
            raw.json["accessors"][p]["min"] = json!([0.0, d, 0.0]);
            raw.json["accessors"][p]["max"] = json!([0.0, d, 0.0]);
            if normals {
                let n = raw.add_f32(&[0.0, 0.1, 0.0, 0.0, 0.1, 0.0, 0.0, 0.1, 0.0], "VEC3");
                json!({"POSITION": p, "NORMAL": n})
            } else {
                json!({"POSITION": p})
            }
        })
        .collect();
    let mesh = raw.add_mesh(json!({
        "name": "face",
        "primitives": [{"attributes": {"POSITION": position, "NORMAL": normal}, "targets": offsets}],
        "weights": vec![0.0; targets],
    }));
    let node = raw.add_node(json!({"name": "face", "mesh": mesh}));
    raw.add_root(node);
    let times = raw.add_f32(&[0.0, 1.0], "SCALAR");
    raw.json["accessors"][times]["min"] = json!([0.0]);
    raw.json["accessors"][times]["max"] = json!([1.0]);
    let values: Vec<f32> = keys.iter().flat_map(|k| k.iter().copied()).collect();
    let weights = raw.add_f32(&values, "SCALAR");
    raw.json["animations"] = json!([{
        "name": "talk",
        "samplers": [{"input": times, "output": weights, "interpolation": "LINEAR"}],
        "channels": [{"sampler": 0, "target": {"node": node, "path": "weights"}}],
    }]);
    raw
}

fn check_and_inspect(name: &str, raw: &RawGltf) -> (Vec<String>, Value) {
    let dir = common::temp_dir("morph-limits");
    let file = dir.join(name);
    std::fs::write(&file, raw.to_glb()).unwrap();
    let (_, out, err) = skinscope(&["check", "--json", file.to_str().unwrap()]);
    let check: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let warnings = (check["findings"].as_array().unwrap().iter())
        .filter(|f| f["kind"] == "morph_targets_at_once")
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    let (_, out, err) = skinscope(&["inspect", "--json", file.to_str().unwrap()]);
    let inspect: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (warnings, inspect["clips"][0]["morph_peaks"][0].clone())
}

#[test]
fn nine_targets_between_two_keys_are_over_eight() {
    // Key 0 weighs targets 0-4, key 1 targets 5-8: between them all nine are non-zero.
    let mut k0 = vec![0.0; 10];
    let mut k1 = vec![0.0; 10];
    k0[..5].fill(0.5);
    k1[5..9].fill(0.5);
    let (warnings, peak) = check_and_inspect("nine.glb", &morphing(10, false, [&k0, &k1]));
    assert_eq!(peak["peak"], 9, "{peak:#}");
    assert_eq!(
        (peak["targets"].clone(), peak["limit"].clone()),
        (json!(10), json!(8))
    );
    assert_eq!(peak["at_secs"], 0.0);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("drives 9 of node \"face\"'s 10 morph targets"),
        "{}",
        warnings[0]
    );
    // Eight at most: no warning.
    k1[8] = 0.0;
    let (warnings, peak) = check_and_inspect("eight.glb", &morphing(10, false, [&k0, &k1]));
    assert_eq!(peak["peak"], 8);
    assert_eq!(warnings, Vec::<String>::new());
}

#[test]
fn targets_that_move_normals_are_held_to_four() {
    let k0 = [0.2, 0.2, 0.2, 0.2, 0.2, 0.0];
    let k1 = [0.2, 0.2, 0.2, 0.2, 0.2, 0.0];
    let (warnings, peak) = check_and_inspect("normals.glb", &morphing(6, true, [&k0, &k1]));
    assert_eq!(
        (peak["peak"].clone(), peak["limit"].clone()),
        (json!(5), json!(4))
    );
    assert_eq!(peak["normals"], true);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("engines that blend 4 when the targets move normals"),
        "{}",
        warnings[0]
    );
    // The same weights on targets without normals: within eight.
    let (warnings, peak) = check_and_inspect("no-normals.glb", &morphing(6, false, [&k0, &k1]));
    assert_eq!(
        (peak["peak"].clone(), peak["limit"].clone()),
        (json!(5), json!(8))
    );
    assert!(warnings.is_empty());
}
