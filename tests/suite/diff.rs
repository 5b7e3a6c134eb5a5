//! `skinscope diff A B` on two versions of the Fox built here: each change reported where it
//! was made, with hand-worked numbers; `diff A A` reports nothing; `--fail-over` sets the exit
//! status; the heat map, JUnit XML and SARIF outputs. `check --format junit|sarif` too.

use std::path::{Path, PathBuf};

use crate::common;

use common::{RawGltf, shared, skinscope};
use glam::{Quat, Vec3};
use serde_json::{Value, json};

fn node(raw: &RawGltf, name: &str) -> usize {
    (raw.json["nodes"].as_array().unwrap().iter())
        .position(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

fn write(dir: &Path, name: &str, raw: &RawGltf) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

fn diff_json(a: &Path, b: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["diff", a.to_str().unwrap(), b.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let (code, out, err) = skinscope(&args);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}")),
    )
}

/// The Fox with: its head's rest pose turned 10 degrees about Y; its tail tip renamed; a new
/// joint; its right hand re-parented to the upper arm; vertex 0's weights moved to another joint; "Survey" renamed "Look"; "Walk" slowed
/// to 1.25 times its length.
fn second_version(dir: &Path) -> (PathBuf, ()) {
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let head = node(&raw, "b_Head_05");
    let r: Vec<f32> = (raw.json["nodes"][head]["rotation"]
        .as_array()
        .unwrap()
        .iter())
    .map(|v| v.as_f64().unwrap() as f32)
    .collect();
    let turned =
        Quat::from_array([r[0], r[1], r[2], r[3]]) * Quat::from_rotation_y(10f32.to_radians());
    raw.json["nodes"][head]["rotation"] = json!(turned.to_array());
    let tip = node(&raw, "b_Tail03_014");
    raw.json["nodes"][tip]["name"] = json!("tail_tip");
    let extra = raw.add_node(json!({"name": "extra", "translation": [0.0, 5.0, 0.0]}));
    let mut children = raw.json["nodes"][head]["children"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    children.push(json!(extra));
    raw.json["nodes"][head]["children"] = json!(children);
    // The right hand hung from the upper arm instead of the forearm.
    let (hand, fore, upper) = (
        node(&raw, "b_RightHand_08"),
        node(&raw, "b_RightForeArm_07"),
        node(&raw, "b_RightUpperArm_06"),
    );
    let without: Vec<Value> = (raw.json["nodes"][fore]["children"]
        .as_array()
        .unwrap()
        .iter())
    .filter(|c| **c != json!(hand))
    .cloned()
    .collect();
    raw.json["nodes"][fore]["children"] = json!(without);
    let mut with = raw.json["nodes"][upper]["children"]
        .as_array()
        .cloned()
        .unwrap();
    with.push(json!(hand));
    raw.json["nodes"][upper]["children"] = json!(with);
    // Vertex 0: all its weight on joint 3 (b_Spine02_03's ordinal is looked up below).
    let attributes = raw.json["meshes"][0]["primitives"][0]["attributes"].clone();
    let joints = raw.read(attributes["JOINTS_0"].as_u64().unwrap() as usize);
    let weights = raw.read(attributes["WEIGHTS_0"].as_u64().unwrap() as usize);
    let mut j: Vec<u16> = joints.iter().flatten().map(|&v| v as u16).collect();
    let mut w: Vec<f32> = weights.iter().flatten().map(|&v| v as f32).collect();
    j[..4].copy_from_slice(&[3, 0, 0, 0]);
    w[..4].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
    let (ja, wa) = (raw.add_u16(&j, "VEC4"), raw.add_f32(&w, "VEC4"));
    raw.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(ja);
    raw.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(wa);
    for a in raw.json["animations"].as_array_mut().unwrap() {
        if a["name"] == "Survey" {
            a["name"] = json!("Look");
        }
    }
    // Walk's key times, every sampler's, scaled by 1.25 (its inputs are its own accessors).
    let walk = (raw.json["animations"].as_array().unwrap().iter())
        .position(|a| a["name"] == "Walk")
        .unwrap();
    let inputs: Vec<u64> = (raw.json["animations"][walk]["samplers"]
        .as_array()
        .unwrap()
        .iter())
    .map(|s| s["input"].as_u64().unwrap())
    .collect();
    let mut scaled = std::collections::HashMap::new();
    for (s, input) in inputs.iter().enumerate() {
        let new = *scaled.entry(*input).or_insert_with(|| {
            let t: Vec<f32> = raw
                .read(*input as usize)
                .iter()
                .flatten()
                .map(|&v| 1.25 * v as f32)
                .collect();
            let a = raw.add_f32(&t, "SCALAR");
            raw.json["accessors"][a]["min"] = json!([t[0]]);
            raw.json["accessors"][a]["max"] = json!([t[t.len() - 1]]);
            a
        });
        raw.json["animations"][walk]["samplers"][s]["input"] = json!(new);
    }
    (write(dir, "fox-v2.glb", &raw), ())
}

#[test]
fn a_file_against_itself_reports_nothing() {
    let fox = shared("Fox/Fox.glb");
    let (code, report) = diff_json(&fox, &fox, &["--fail-over", "0"]);
    assert_eq!(code, 0, "{report:#}");
    for list in [
        "added",
        "removed",
        "renamed",
        "reparented",
        "rest",
        "inverse_binds",
    ] {
        assert_eq!(report["joints"][list], json!([]), "{list}");
    }
    assert_eq!(report["weights"], json!([]));
    assert_eq!(report["clips"]["changed"], json!([]));
    assert_eq!(report["worst"], Value::Null);
    let (code, text, _) = skinscope(&["diff", fox.to_str().unwrap(), fox.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(text.ends_with("no differences\n"), "{text}");
}

#[test]
fn each_change_is_reported_where_it_was_made() {
    let dir = common::temp_dir("diff-changes");
    let fox = shared("Fox/Fox.glb");
    let (v2, _) = second_version(&dir);
    let (code, r) = diff_json(&fox, &v2, &[]);
    assert_eq!(code, 0, "{r:#}");
    let j = &r["joints"];
    assert_eq!(j["added"], json!(["extra"]));
    assert_eq!(j["removed"], json!([]));
    assert_eq!(
        j["renamed"],
        json!([{"from": "b_Tail03_014", "to": "tail_tip"}])
    );
    assert_eq!(
        j["reparented"],
        json!([{"joint": "b_RightHand_08", "from": "b_RightForeArm_07", "to": "b_RightUpperArm_06"}])
    );
    let rest = j["rest"].as_array().unwrap();
    assert_eq!(rest.len(), 1, "{rest:#?}");
    assert_eq!(rest[0]["joint"], "b_Head_05");
    assert!(
        (rest[0]["turned_degrees"].as_f64().unwrap() - 10.0).abs() < 1e-3,
        "{rest:#?}"
    );
    assert_eq!(j["inverse_binds"], json!([]));
    // Vertex 0 moved wholly to b_Spine02_03: the dominant joint changed unless it was that one,
    // and the largest change is the weight it had there subtracted from 1, or a weight it lost.
    let w = &r["weights"][0];
    let original = RawGltf::read_glb(&fox);
    let attributes = &original.json["meshes"][0]["primitives"][0]["attributes"];
    let (j0, w0) = (
        original.read(attributes["JOINTS_0"].as_u64().unwrap() as usize)[0].clone(),
        original.read(attributes["WEIGHTS_0"].as_u64().unwrap() as usize)[0].clone(),
    );
    let on3: f64 = j0
        .iter()
        .zip(&w0)
        .filter(|(j, _)| **j == 3.0)
        .map(|(_, w)| w)
        .sum();
    let lost = j0
        .iter()
        .zip(&w0)
        .filter(|(j, _)| **j != 3.0)
        .map(|(_, w)| *w)
        .fold(0.0, f64::max);
    let expected = (1.0 - on3).max(lost);
    assert_eq!(w["mesh"], "fox");
    assert_eq!(w["vertex"], 0);
    assert!(
        (w["largest_weight_change"].as_f64().unwrap() - expected).abs() < 1e-5,
        "{w:#}"
    );
    let dominant_was_3 = j0[w0
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap()
        .0]
        == 3.0;
    assert_eq!(w["dominant_changed"], usize::from(!dominant_was_3));
    let c = &r["clips"];
    assert_eq!(c["added"], json!(["Look"]));
    assert_eq!(c["removed"], json!(["Survey"]));
    let walk = (c["changed"].as_array().unwrap().iter())
        .find(|k| k["clip"] == "Walk")
        .unwrap_or_else(|| panic!("{c:#}"));
    let (da, db) = (
        walk["duration_a"].as_f64().unwrap(),
        walk["duration_b"].as_f64().unwrap(),
    );
    assert!((db - 1.25 * da).abs() < 1e-5, "{da} {db}");
    // The bind pose: the head turned moves the head's vertices; relative to the size, the
    // diagonal of the Fox's POSITION bounds (its bind pose is as authored).
    let position = &original.json["accessors"][attributes["POSITION"].as_u64().unwrap() as usize];
    let bound = |k: &str| {
        let v: Vec<f32> = position[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        Vec3::new(v[0], v[1], v[2])
    };
    let size = (bound("max") - bound("min")).length();
    assert!(
        (r["size"].as_f64().unwrap() as f32 - size).abs() < 1e-3 * size,
        "{} {size}",
        r["size"]
    );
    let bind = &c["bind"];
    let d = bind["displacement"].as_f64().unwrap();
    assert!(d > 0.0 && bind["clip"].is_null(), "{bind:#}");
    assert!((bind["relative"].as_f64().unwrap() - d / f64::from(size)).abs() < 1e-4);
    assert!(r["worst"]["displacement"].as_f64().unwrap() >= d);
}

#[test]
fn fail_over_sets_the_exit_status_for_ci() {
    let dir = common::temp_dir("diff-fail");
    let fox = shared("Fox/Fox.glb");
    let (v2, _) = second_version(&dir);
    let (_, r) = diff_json(&fox, &v2, &[]);
    let worst = r["worst"]["displacement"].as_f64().unwrap();
    let relative = r["worst"]["relative"].as_f64().unwrap();
    let over = |limit: String| diff_json(&fox, &v2, &["--fail-over", &limit]).0;
    assert_eq!(over(format!("{}", worst * 1.01)), 0);
    assert_eq!(over(format!("{}", worst * 0.99)), 1);
    assert_eq!(over(format!("{}%", relative * 101.0)), 0);
    assert_eq!(over(format!("{}%", relative * 99.0)), 1);
    let (code, _, err) = skinscope(&["diff", "a.glb", "b.glb", "--fail-over", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fail-over"), "{err}");
    let (code, _, err) = skinscope(&["diff", fox.to_str().unwrap(), "/nonexistent/b.glb"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/b.glb"), "{err}");
}

#[test]
fn the_heat_map_is_red_where_the_vertices_moved_most() {
    let dir = common::temp_dir("diff-image");
    let fox = shared("Fox/Fox.glb");
    // Only the head turned: the head red, the rest blue.
    let mut raw = RawGltf::read_glb(&fox);
    let head = node(&raw, "b_Head_05");
    raw.json["nodes"][head]["rotation"] = json!(Quat::from_rotation_y(0.5).to_array());
    let v2 = write(&dir, "head.glb", &raw);
    let png = dir.join("heat.png");
    let (code, _, err) = skinscope(&[
        "diff",
        fox.to_str().unwrap(),
        v2.to_str().unwrap(),
        "--image",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let image = image::open(&png).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (1280, 720));
    let count = |f: &dyn Fn(&image::Rgba<u8>) -> bool| image.pixels().filter(|p| f(p)).count();
    let red = count(&|p| p[0] > 180 && p[1] < 90 && p[2] < 90);
    let blue = count(&|p| p[2] > 100 && p[0] < 60);
    assert!(red > 200, "{red} red pixels");
    assert!(blue > red, "{blue} blue pixels, {red} red");
}

#[test]
fn junit_and_sarif_say_what_ci_shows() {
    let dir = common::temp_dir("diff-formats");
    let fox = shared("Fox/Fox.glb");
    let (v2, _) = second_version(&dir);
    let (code, xml, _) = skinscope(&[
        "diff",
        fox.to_str().unwrap(),
        v2.to_str().unwrap(),
        "--format",
        "junit",
        "--fail-over",
        "0",
    ]);
    assert_eq!(code, 1);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains("<testsuites tests=\"4\" failures=\"1\">"),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"deformation\">\n      <failure"),
        "{xml}"
    );
    assert!(
        xml.contains("joint renamed: b_Tail03_014 -&gt; tail_tip"),
        "{xml}"
    );
    let (_, sarif, _) = skinscope(&[
        "diff",
        fox.to_str().unwrap(),
        v2.to_str().unwrap(),
        "--format",
        "sarif",
    ]);
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let added = (results.iter())
        .find(|r| r["ruleId"] == "diff.joint_added")
        .unwrap_or_else(|| panic!("{results:#?}"));
    assert_eq!(added["message"]["text"], "joint extra added");
    assert_eq!(
        added["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "extra"
    );
    let rules: Vec<&str> = (sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter())
    .map(|r| r["id"].as_str().unwrap())
    .collect();
    for rule in [
        "diff.joint_renamed",
        "diff.joint_reparented",
        "diff.rest_pose",
        "diff.weights",
        "diff.clip_added",
        "diff.clip_removed",
        "diff.clip_changed",
        "diff.deformation",
    ] {
        assert!(rules.contains(&rule), "{rule}: {rules:?}");
    }
    // check: a test case per error or warning, errors failing; a SARIF result per finding.
    let mut broken = RawGltf::read_glb(&fox);
    let a = broken.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    let m: Vec<f32> = broken
        .read(a)
        .iter()
        .flat_map(|m| {
            let m = glam::Mat4::from_cols_slice(&m.iter().map(|v| *v as f32).collect::<Vec<_>>());
            m.transpose().to_cols_array()
        })
        .collect();
    let t = broken.add_f32(&m, "MAT4");
    broken.json["skins"][0]["inverseBindMatrices"] = json!(t);
    let file = write(&dir, "transposed.glb", &broken);
    let (_, report, _) = skinscope(&["check", "--json", file.to_str().unwrap()]);
    let report: Value = serde_json::from_str(&report).unwrap();
    let findings = report["findings"].as_array().unwrap();
    let errors = findings.iter().filter(|f| f["severity"] == "error").count();
    let warnings = findings
        .iter()
        .filter(|f| f["severity"] == "warning")
        .count();
    let (code, xml, _) = skinscope(&["check", "--format", "junit", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        xml.contains(&format!(
            "<testsuites tests=\"{}\" failures=\"{errors}\">",
            errors + warnings
        )),
        "{errors} errors, {warnings} warnings: {xml}"
    );
    let (_, sarif, _) = skinscope(&["check", "--format", "sarif", file.to_str().unwrap()]);
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    assert_eq!(
        results.iter().filter(|r| r["level"] == "error").count(),
        errors
    );
    assert!(results.iter().any(|r| r["ruleId"] == "joint_mismatch"));
}

#[test]
fn a_skinned_mesh_node_moved_moves_no_vertex() {
    // glTF ignores a skinned mesh node's transform: the Fox's mesh node 10 units up is a rest
    // change of that node, and no vertex moves (as the Khronos viewer draws it).
    let dir = common::temp_dir("diff-moved");
    let fox = shared("Fox/Fox.glb");
    let mut raw = RawGltf::read_glb(&fox);
    let mesh_node = node(&raw, "fox");
    raw.json["nodes"][mesh_node]["translation"] = json!([0.0, 10.0, 0.0]);
    let moved = write(&dir, "moved.glb", &raw);
    let (code, r) = diff_json(&fox, &moved, &["--fail-over", "0"]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["worst"], Value::Null);
    let rest = r["joints"]["rest"].as_array().unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0]["joint"], "fox");
    assert!((rest[0]["moved"].as_f64().unwrap() - 10.0).abs() < 1e-5);
}
