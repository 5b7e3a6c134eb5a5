//! `skinscope fix`: each broken variant of a real character built here (transposed inverse
//! binds, inverse binds computed without the armature, weights that do not sum to one, a fifth
//! influence, joints listed children first, a joint nothing uses) is repaired into a file that
//! checks clean for what was repaired, lists each repair with its numbers, keeps everything else
//! as it was, and renders within the golden-image tolerance of the original.

use std::path::{Path, PathBuf};

use crate::common;

use common::{RawGltf, ibms, shared, skinscope, with_ibms};
use glam::{Mat4, Vec3};
use serde_json::{Value, json};

/// The sample characters the broken variants are made of.
const MODELS: [&str; 2] = ["Fox/Fox.glb", "CesiumMan/CesiumMan.glb"];

/// A model's file stem, for its scratch folder.
fn stem(model: &str) -> &str {
    Path::new(model).file_stem().unwrap().to_str().unwrap()
}

/// The first primitive's attribute `name`, one row per vertex.
fn attribute(raw: &RawGltf, name: &str) -> Vec<Vec<f64>> {
    let a = raw.json["meshes"][0]["primitives"][0]["attributes"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("no {name}")) as usize;
    raw.read(a)
}

fn set_attribute(raw: &mut RawGltf, name: &str, accessor: usize) {
    raw.json["meshes"][0]["primitives"][0]["attributes"][name] = json!(accessor);
}

fn flat_f32(rows: &[Vec<f64>]) -> Vec<f32> {
    rows.iter().flatten().map(|&v| v as f32).collect()
}

fn flat_u16(rows: &[Vec<f64>]) -> Vec<u16> {
    rows.iter().flatten().map(|&v| v as u16).collect()
}

fn write(dir: &Path, name: &str, raw: &RawGltf) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

/// `fix FILE --out OUT ARGS --json`: its exit status and report.
fn fix(file: &Path, out: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec![
        "fix",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = skinscope(&all);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    (code, report)
}

/// `check --json` of a file: its exit status and findings' kinds.
fn check_kinds(file: &Path) -> (i32, Vec<String>) {
    let (code, stdout, stderr) = skinscope(&["check", "--json", file.to_str().unwrap()]);
    let report: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let kinds = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| f["kind"].as_str().unwrap().to_owned())
        .collect();
    (code, kinds)
}

/// The file rendered at the walk's 0.6 s (the Fox's first clip), as RGBA.
fn render(file: &Path, png: &Path) -> Vec<u8> {
    let (code, _, stderr) = skinscope(&[
        "render",
        file.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
        "--size",
        "320x240",
        "--time",
        "0.6",
    ]);
    assert_eq!(code, 0, "{stderr}");
    image::open(png).unwrap().to_rgba8().into_raw()
}

/// The golden images' tolerance: mean absolute difference per channel at most 1.5, at most 1% of
/// pixels off by more than 24 in a channel.
fn assert_renders_alike(a: &[u8], b: &[u8], what: &str) -> (f64, f64) {
    let mean = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(x.abs_diff(*y)))
        .sum::<f64>()
        / a.len() as f64;
    let far = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count() as f64
        / (a.len() / 4) as f64;
    assert!(
        mean <= 1.5 && far <= 0.01,
        "{what}: mean difference {mean:.3}, {:.2}% far off",
        far * 100.0
    );
    (mean, far)
}

/// The Khronos glTF-Validator finds no error in `file`.
fn assert_validates(file: &Path) {
    let issues = common::validate(file);
    assert_eq!(issues["numErrors"], 0, "{}: {issues:#}", file.display());
}

/// A variant, its `check` errors, `fix`, the repaired file's check, and the renders: returns
/// the report.
fn repaired(dir: &Path, name: &str, original: &Path, broken: &RawGltf, expect: &str) -> Value {
    let file = write(dir, &format!("{name}.glb"), broken);
    let (code, kinds) = check_kinds(&file);
    assert!(kinds.iter().any(|k| k == expect), "{name}: {kinds:?}");
    let before = render(&file, &dir.join(format!("{name}-broken.png")));
    let out = dir.join(format!("{name}-fixed.glb"));
    let (fix_code, report) = fix(&file, &out, &[]);
    assert_eq!(fix_code, 0, "{name}: {report:#}");
    assert_eq!(report["left"], json!([]), "{name}");
    let (after_code, after) = check_kinds(&out);
    assert!(!after.iter().any(|k| k == expect), "{name}: {after:?}");
    if expect != "joints_out_of_order" {
        assert_eq!(code, 1, "{name}: check exits 1 on the broken file");
    }
    assert_eq!(after_code, 0, "{name}: {after:?}");
    assert_validates(&out);
    let wanted = render(original, &dir.join(format!("{name}-original.png")));
    let fixed = render(&out, &dir.join(format!("{name}-fixed.png")));
    assert_renders_alike(&fixed, &wanted, name);
    // The broken file rendered otherwise (the repair made the difference), but for the order of
    // the joints, which glTF leaves free.
    // (A fifth influence of 0.004 is drawn, as skinscope draws eight: it changes what an engine
    // that keeps four drops, not the picture.)
    if ![
        "joints_out_of_order",
        "weights_not_normalised",
        "more_than_four_influences",
    ]
    .contains(&expect)
    {
        let d = before
            .iter()
            .zip(&wanted)
            .filter(|(x, y)| x.abs_diff(**y) > 24)
            .count();
        assert!(
            d > 100,
            "{name}: the broken file renders as the original ({d} pixels)"
        );
    }
    report
}

#[test]
fn transposed_inverse_binds_are_recomputed_from_the_rest_pose() {
    for model in MODELS {
        let dir = common::temp_dir(&format!("fix-transposed-{}", stem(model)));
        let fox = shared(model);
        let raw = RawGltf::read_glb(&fox);
        let original = ibms(&raw);
        let broken: Vec<Mat4> = original.iter().map(|m| m.transpose()).collect();
        let report = repaired(
            &dir,
            "transposed",
            &fox,
            &with_ibms(&raw, &broken),
            "joint_mismatch",
        );
        let repairs = report["repairs"].as_array().unwrap();
        assert_eq!(repairs.len(), 1, "{report:#}");
        assert_eq!(repairs[0]["kind"], "inverse_binds");
        assert_eq!(repairs[0]["pointer"], "/skins/0");
        // Every joint whose matrix the transpose broke is named. A rotation without translation
        // transposed is its inverse: a legal bind pose, turned from the rest pose, which check
        // reports as information (the Fox's _rootJoint) and fix leaves.
        let rotation_only =
            |m: &Mat4| m.w_axis.truncate().length() < 1e-6 && m.row(3) == glam::Vec4::W;
        let broken = (original.iter())
            .filter(|m| !m.abs_diff_eq(m.transpose(), 1e-6) && !rotation_only(m))
            .count();
        assert_eq!(repairs[0]["joints"].as_array().unwrap().len(), broken);
        // The recomputed matrices are the file's own, to float precision.
        let out = RawGltf::read_glb(&dir.join("transposed-fixed.glb"));
        for (k, (a, b)) in ibms(&out).iter().zip(&original).enumerate() {
            let b = if rotation_only(b) { b.transpose() } else { *b };
            assert!(a.abs_diff_eq(b, 2e-4), "joint {k}: {a} against {b}");
        }
    }
}

#[test]
fn inverse_binds_made_without_the_armature_are_recomputed() {
    let dir = common::temp_dir("fix-armature");
    // The Fox under a rotated and scaled armature, its inverse binds consistent with it: the
    // original here.
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let armature = Mat4::from_scale_rotation_translation(
        Vec3::splat(0.5),
        glam::Quat::from_rotation_x(-1.2),
        Vec3::new(3.0, 1.0, 0.0),
    );
    raw.json["nodes"][0]["matrix"] = json!(armature.to_cols_array());
    let consistent: Vec<Mat4> = ibms(&raw).iter().map(|m| *m * armature.inverse()).collect();
    let raw = with_ibms(&raw, &consistent);
    let original = write(&dir, "armature-original.glb", &raw);
    assert_eq!(check_kinds(&original), (0, Vec::new()));
    // Three joints' inverse binds as an exporter that forgot the armature writes them.
    let mut broken = consistent.clone();
    for k in [5, 9, 14] {
        broken[k] = consistent[k] * armature;
    }
    let report = repaired(
        &dir,
        "armature",
        &original,
        &with_ibms(&raw, &broken),
        "joint_mismatch",
    );
    let joints = report["repairs"][0]["joints"].as_array().unwrap();
    let name = |k: usize| {
        let node = raw.json["skins"][0]["joints"][k].as_u64().unwrap() as usize;
        raw.json["nodes"][node]["name"].clone()
    };
    assert_eq!(joints, &[name(5), name(9), name(14)]);
    let out = RawGltf::read_glb(&dir.join("armature-fixed.glb"));
    for (k, (a, b)) in ibms(&out).iter().zip(&consistent).enumerate() {
        assert!(a.abs_diff_eq(*b, 2e-4), "joint {k}: {a} against {b}");
    }
}

#[test]
fn unnormalised_weights_are_normalised_and_the_change_measured() {
    for model in MODELS {
        let dir = common::temp_dir(&format!("fix-weights-{}", stem(model)));
        let fox = shared(model);
        let mut raw = RawGltf::read_glb(&fox);
        let weights = attribute(&raw, "WEIGHTS_0");
        // Every third vertex's weights scaled by 0.6 or 1.3.
        let scale = |v: usize| match v % 6 {
            0 => 0.6,
            3 => 1.3,
            _ => 1.0,
        };
        let scaled: Vec<Vec<f64>> = (weights.iter().enumerate())
            .map(|(v, w)| w.iter().map(|x| x * scale(v)).collect())
            .collect();
        let a = raw.add_f32(&flat_f32(&scaled), "VEC4");
        set_attribute(&mut raw, "WEIGHTS_0", a);
        let report = repaired(&dir, "weights", &fox, &raw, "weights_not_normalised");
        let r = &report["repairs"][0];
        assert_eq!(r["kind"], "weights");
        assert_eq!(r["pointer"], "/meshes/0/primitives/0");
        assert_eq!(r["vertices"], weights.len().div_ceil(3));
        // The largest change: a weight of 1 scaled to 1.3 and back, or the largest weight scaled by
        // 0.6, whichever is larger: worked out from the file.
        let expected = (weights.iter().enumerate())
            .filter(|(v, _)| scale(*v) != 1.0)
            .flat_map(|(v, w)| w.iter().map(move |x| (x * scale(v) - x).abs()))
            .fold(0.0f64, f64::max);
        let largest = r["largest_weight_change"].as_f64().unwrap();
        assert!(
            (largest - expected).abs() < 1e-5,
            "{largest} against {expected}"
        );
        // The repaired weights are the file's own, joint by joint (the heaviest first now).
        let out = RawGltf::read_glb(&dir.join("weights-fixed.glb"));
        let joints = attribute(&raw, "JOINTS_0");
        let per_joint = |j: &[f64], w: &[f64], joint: f64| -> f64 {
            j.iter()
                .zip(w)
                .filter(|(x, _)| **x == joint)
                .map(|(_, w)| w)
                .sum()
        };
        let (out_j, out_w) = (attribute(&out, "JOINTS_0"), attribute(&out, "WEIGHTS_0"));
        for v in 0..weights.len() {
            let sum: f64 = weights[v].iter().sum();
            for &joint in joints[v].iter().chain(&out_j[v]) {
                let (was, is) = (
                    per_joint(&joints[v], &weights[v], joint) / sum,
                    per_joint(&out_j[v], &out_w[v], joint),
                );
                assert!(
                    (was - is).abs() < 1e-5,
                    "vertex {v} joint {joint}: {was} against {is}"
                );
            }
        }
    }
}

#[test]
fn a_fifth_influence_is_dropped_and_the_rest_normalised() {
    for model in MODELS {
        let dir = common::temp_dir(&format!("fix-five-{}", stem(model)));
        let fox = shared(model);
        let mut raw = RawGltf::read_glb(&fox);
        let joints = attribute(&raw, "JOINTS_0");
        let weights = attribute(&raw, "WEIGHTS_0");
        let joint_count = raw.json["skins"][0]["joints"].as_array().unwrap().len();
        // Every other vertex gets a fifth influence of 0.004 on a joint it does not use, in a
        // second set, its first four scaled by 0.996.
        let mut j1 = vec![vec![0.0; 4]; joints.len()];
        let mut w1 = vec![vec![0.0; 4]; joints.len()];
        let mut w0 = weights.clone();
        let mut extra = 0;
        for v in (0..joints.len()).step_by(2) {
            let unused = (0..joint_count)
                .find(|j| {
                    !joints[v]
                        .iter()
                        .zip(&weights[v])
                        .any(|(x, w)| *x == *j as f64 && *w > 0.0)
                })
                .unwrap();
            j1[v][0] = unused as f64;
            w1[v][0] = 0.004;
            for w in &mut w0[v] {
                *w *= 0.996;
            }
            extra += 1;
        }
        let (a, b, c) = (
            raw.add_f32(&flat_f32(&w0), "VEC4"),
            raw.add_u16(&flat_u16(&j1), "VEC4"),
            raw.add_f32(&flat_f32(&w1), "VEC4"),
        );
        set_attribute(&mut raw, "WEIGHTS_0", a);
        set_attribute(&mut raw, "JOINTS_1", b);
        set_attribute(&mut raw, "WEIGHTS_1", c);
        let report = repaired(&dir, "five", &fox, &raw, "more_than_four_influences");
        let r = &report["repairs"][0];
        // Each vertex with a weight in the second set: those with five influences lose the fifth,
        // the others' move into the first set.
        assert_eq!(r["vertices"], extra, "{report:#}");
        let five = (0..joints.len())
            .step_by(2)
            .filter(|&v| weights[v].iter().all(|&w| w > 0.0))
            .count();
        assert!(
            r["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{five} vertices limited to 4")),
            "{report:#}"
        );
        // The fifth influence lost its 0.004; the others gained back their 0.4%.
        let largest = r["largest_weight_change"].as_f64().unwrap();
        assert!((0.004..0.0045).contains(&largest), "{largest}");
        let out = RawGltf::read_glb(&dir.join("five-fixed.glb"));
        let attributes = &out.json["meshes"][0]["primitives"][0]["attributes"];
        assert!(attributes.get("JOINTS_1").is_none() && attributes.get("WEIGHTS_1").is_none());
        // Keeping eight, as skinscope draws them: nothing to repair (every sum is one), exit 0.
        let file = dir.join("five.glb");
        let kept = dir.join("five-kept.glb");
        let (code, report) = fix(&file, &kept, &["--limit", "8"]);
        assert_eq!(
            (code, report["repairs"].clone()),
            (0, json!([])),
            "{report:#}"
        );
        assert!(!kept.exists());
    }
}

#[test]
fn joints_listed_children_first_are_put_parents_first() {
    for model in MODELS {
        let dir = common::temp_dir(&format!("fix-order-{}", stem(model)));
        let fox = shared(model);
        let mut raw = RawGltf::read_glb(&fox);
        // The skin's list reversed, with its inverse binds and every vertex's joints.
        let n = raw.json["skins"][0]["joints"].as_array().unwrap().len();
        let reversed: Vec<Value> = raw.json["skins"][0]["joints"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .cloned()
            .collect();
        let m: Vec<Mat4> = ibms(&raw).into_iter().rev().collect();
        raw = with_ibms(&raw, &m);
        raw.json["skins"][0]["joints"] = json!(reversed);
        let joints: Vec<Vec<f64>> = attribute(&raw, "JOINTS_0")
            .iter()
            .map(|j| j.iter().map(|k| (n - 1) as f64 - k).collect())
            .collect();
        let a = raw.add_u16(&flat_u16(&joints), "VEC4");
        set_attribute(&mut raw, "JOINTS_0", a);
        let report = repaired(&dir, "order", &fox, &raw, "joints_out_of_order");
        assert_eq!(report["repairs"][0]["kind"], "joint_order");
        // Parents first: each joint's parent (its nearest ancestor in the skin) comes before it.
        let out = RawGltf::read_glb(&dir.join("order-fixed.glb"));
        let list: Vec<u64> = out.json["skins"][0]["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap())
            .collect();
        for (k, &node) in list.iter().enumerate() {
            for (p, parent) in out.json["nodes"].as_array().unwrap().iter().enumerate() {
                let children = parent["children"].as_array().cloned().unwrap_or_default();
                if children.contains(&json!(node)) && list.contains(&(p as u64)) {
                    let at = list.iter().position(|&x| x == p as u64).unwrap();
                    assert!(at < k, "node {node} at {k} before its parent {p} at {at}");
                }
            }
        }
    }
}

#[test]
fn joints_nothing_uses_are_dropped_only_when_asked_and_animated_ones_kept() {
    let dir = common::temp_dir("fix-unused");
    let fox = shared("Fox/Fox.glb");
    let mut raw = RawGltf::read_glb(&fox);
    // Two new leaf joints under the skin's last joint: no vertex weighs them, and an animation
    // channel (the first's sampler) turns the second.
    let last = raw.json["skins"][0]["joints"][23].as_u64().unwrap() as usize;
    let unused = raw.add_node(json!({"name": "unused_tip", "translation": [0.0, 1.0, 0.0]}));
    let animated = raw.add_node(json!({"name": "animated_tip", "translation": [0.0, 2.0, 0.0]}));
    let children = raw.json["nodes"][last]["children"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut children = children;
    children.extend([json!(unused), json!(animated)]);
    raw.json["nodes"][last]["children"] = json!(children);
    let rotation = raw.json["animations"][0]["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["path"] == "rotation")
        .unwrap()["sampler"]
        .clone();
    raw.json["animations"][0]["channels"]
        .as_array_mut()
        .unwrap()
        .push(json!({"sampler": rotation, "target": {"node": animated, "path": "rotation"}}));
    let mut list = raw.json["skins"][0]["joints"].as_array().cloned().unwrap();
    list.extend([json!(unused), json!(animated)]);
    raw.json["skins"][0]["joints"] = json!(list);
    // Their inverse binds from their rest pose (below the last joint, whose world transform is
    // its inverse bind's inverse), so that only their use is in question.
    let mut m = ibms(&raw);
    let tip = |y: f32| Mat4::from_translation(Vec3::new(0.0, -y, 0.0)) * m[23];
    m.extend([tip(1.0), tip(2.0)]);
    let raw = with_ibms(&raw, &m);
    let file = write(&dir, "unused.glb", &raw);
    let (_, kinds) = check_kinds(&file);
    assert!(kinds.contains(&"unused_joints".to_owned()), "{kinds:?}");
    // Without --drop-unused: nothing else to repair.
    let out = dir.join("unused-fixed.glb");
    let (code, report) = fix(&file, &out, &[]);
    let repaired_kinds: Vec<&Value> = (report["repairs"].as_array().unwrap().iter())
        .map(|r| &r["kind"])
        .collect();
    assert!(
        !repaired_kinds.contains(&&json!("unused_joints")),
        "{report:#}"
    );
    assert_eq!(code, 0);
    let (code, report) = fix(&file, &out, &["--drop-unused"]);
    assert_eq!(code, 0, "{report:#}");
    let dropped = report["repairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "unused_joints")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(dropped["joints"], json!(["unused_tip"]));
    let out_raw = RawGltf::read_glb(&out);
    let list = out_raw.json["skins"][0]["joints"].as_array().unwrap();
    assert_eq!(list.len(), 25);
    assert!(list.contains(&json!(animated)) && !list.contains(&json!(unused)));
    assert_validates(&out);
    assert_renders_alike(
        &render(&out, &dir.join("unused-fixed.png")),
        &render(&fox, &dir.join("unused-original.png")),
        "unused",
    );
}

#[test]
fn what_is_not_repaired_is_kept_as_it_was() {
    let dir = common::temp_dir("fix-kept");
    let fox = shared("Fox/Fox.glb");
    let raw = RawGltf::read_glb(&fox);
    let broken: Vec<Mat4> = ibms(&raw).iter().map(|m| m.transpose()).collect();
    let file = write(&dir, "kept.glb", &with_ibms(&raw, &broken));
    let out = dir.join("kept-fixed.glb");
    assert_eq!(fix(&file, &out, &[]).0, 0);
    let before = RawGltf::read_glb(&file);
    let after = RawGltf::read_glb(&out);
    for key in [
        "nodes",
        "meshes",
        "materials",
        "textures",
        "images",
        "samplers",
        "animations",
        "scenes",
        "scene",
        "asset",
    ] {
        assert_eq!(after.json[key], before.json[key], "{key}");
    }
    // Every accessor the file had is there as it was, with its data.
    let accessors = before.json["accessors"].as_array().unwrap().len();
    for a in 0..accessors {
        assert_eq!(after.read(a), before.read(a), "accessor {a}");
    }
    // The Fox's texture, carried through byte for byte.
    let image = |r: &RawGltf| {
        let view =
            &r.json["bufferViews"][r.json["images"][0]["bufferView"].as_u64().unwrap() as usize];
        let at = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        r.bin[at..at + view["byteLength"].as_u64().unwrap() as usize].to_vec()
    };
    assert_eq!(image(&after), image(&before));
}

#[test]
fn a_file_with_nothing_to_repair_is_not_written() {
    let dir = common::temp_dir("fix-nothing");
    let out = dir.join("fox-fixed.glb");
    let (code, stdout, _) = skinscope(&[
        "fix",
        shared("Fox/Fox.glb").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("nothing to fix"), "{stdout}");
    assert!(!out.exists());
    // Refusals name the file or the option.
    let (code, _, stderr) = skinscope(&["fix", "/nonexistent.glb", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent.glb"), "{stderr}");
    let (code, _, stderr) = skinscope(&["fix", "a.glb", "--out", "b.obj"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("written as .glb"), "{stderr}");
    let (code, _, stderr) = skinscope(&[
        "fix",
        "a.glb",
        "--out",
        out.to_str().unwrap(),
        "--limit",
        "9",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--limit"), "{stderr}");
}

#[test]
fn a_gltf_with_external_buffers_is_written_as_one_glb() {
    let dir = common::temp_dir("fix-external");
    // SimpleSkin (a .gltf with four external buffers, copied beside it) with its weights
    // unnormalised.
    let src = shared("SimpleSkin/SimpleSkin.gltf");
    let mut json: Value = serde_json::from_slice(&std::fs::read(&src).unwrap()).unwrap();
    for buffer in json["buffers"].as_array().unwrap() {
        let uri = buffer["uri"].as_str().unwrap();
        std::fs::copy(src.parent().unwrap().join(uri), dir.join(uri)).unwrap();
    }
    // New influences in a fifth buffer: even vertices weigh 2 on joint 0, odd ones 1 on joints
    // 0 and 1.
    let weights = json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]
        .as_u64()
        .unwrap() as usize;
    let count = json["accessors"][weights]["count"].as_u64().unwrap() as usize;
    let mut doubled: Vec<u8> = (0..count)
        .flat_map(|v| {
            let w = if v % 2 == 0 {
                [2.0f32, 0.0, 0.0, 0.0]
            } else {
                [1.0, 1.0, 0.0, 0.0]
            };
            w.into_iter().flat_map(f32::to_le_bytes)
        })
        .collect();
    let weights_length = doubled.len();
    doubled.extend(
        (0..count)
            .flat_map(|_| [0u16, 1, 0, 0])
            .flat_map(u16::to_le_bytes),
    );
    std::fs::write(dir.join("weights.bin"), &doubled).unwrap();
    json["buffers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"uri": "weights.bin", "byteLength": doubled.len()}));
    let buffer = json["buffers"].as_array().unwrap().len() - 1;
    json["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": buffer, "byteLength": doubled.len()}));
    let view = json["bufferViews"].as_array().unwrap().len() - 1;
    let accessors = json["accessors"].as_array().unwrap().len();
    json["accessors"].as_array_mut().unwrap().extend([
        json!({"bufferView": view, "componentType": 5126, "count": count, "type": "VEC4"}),
        json!({"bufferView": view, "byteOffset": weights_length, "componentType": 5123, "count": count, "type": "VEC4"}),
    ]);
    json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(accessors);
    json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(accessors + 1);
    let file = dir.join("simple.gltf");
    std::fs::write(&file, serde_json::to_vec(&json).unwrap()).unwrap();
    let out = dir.join("elsewhere").join("simple-fixed.glb");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let (code, report) = fix(&file, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["repairs"][0]["vertices"], count);
    assert!(
        (report["repairs"][0]["largest_weight_change"]
            .as_f64()
            .unwrap()
            - 1.0)
            .abs()
            < 1e-6
    );
    assert_validates(&out);
    let fixed = RawGltf::read_glb(&out);
    assert_eq!(fixed.json["buffers"].as_array().unwrap().len(), 1);
    let w = attribute(&fixed, "WEIGHTS_0");
    assert_eq!(w[0], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(w[1], [0.5, 0.5, 0.0, 0.0]);
    // (Every vertex on the root joints puts the mesh off its skeleton: not this test's matter.)
    let (_, kinds) = check_kinds(&out);
    assert!(
        !kinds.contains(&"weights_not_normalised".to_owned()),
        "{kinds:?}"
    );
}

#[test]
fn the_panel_fixes_a_finding_live_then_saves_or_reverts() {
    use egui_kittest::kittest::Queryable;
    use skinscope::debug::check::FindingKind;
    use skinscope::viewer::Viewer;
    let dir = common::temp_dir("fix-panel");
    let fox = shared("Fox/Fox.glb");
    let raw = RawGltf::read_glb(&fox);
    let broken: Vec<Mat4> = ibms(&raw).iter().map(|m| m.transpose()).collect();
    let file = write(&dir, "panel.glb", &with_ibms(&raw, &broken));
    let character = skinscope::import::load(&file).unwrap();
    let mut h = common::window_frames(Viewer::new(character, Some(file.clone())), (1100.0, 4000.0));
    h.run();
    h.get_by_label("Check and fix").click();
    h.run();
    h.get_by_label("Check skinning").click();
    h.run();
    let errors = |v: &Viewer| {
        (v.repair.report.as_ref().unwrap().findings.iter())
            .filter(|f| f.kind == FindingKind::JointMismatch)
            .count()
    };
    assert!(errors(h.state()) > 20);
    // Fix beside the first inverse-bind error: the repaired file is shown at once, checked again.
    h.get_all_by_label("Fix").next().unwrap().click();
    h.run();
    assert_eq!(errors(h.state()), 0, "{:?}", h.state().repair.said);
    // Its walk is the original Fox's, vertex for vertex (the root joint's rotation-only inverse
    // bind, transposed, is a legal turned bind pose that no vertex uses: left as it is).
    let fox_character = skinscope::import::load(&fox).unwrap();
    let skinned = |c: &skinscope::character::Character| {
        let mut pose = skinscope::pose::CharacterPose::new(c);
        pose.evaluate(c, &skinscope::pose::PoseRequest::clip(0, 0.4))
            .unwrap();
        skinscope::posed::PosedVertices::on_cpu(c, &pose, skinscope::anim::SkinningMethod::Linear)
    };
    let (a, b) = (skinned(&h.state().character), skinned(&fox_character));
    assert!(a.max_distance(&b) < 1e-2, "{}", a.max_distance(&b));
    // A fix with nothing to repair says so and keeps the preview.
    h.state_mut().apply(skinscope::viewer::UiCommand::Repair(
        skinscope::viewer::repair::RepairCommand::Fix(skinscope::debug::fix::RepairKind::Weights),
    ));
    assert_eq!(
        h.state().repair.said.as_deref(),
        Some("nothing of that kind to repair")
    );
    assert_eq!(h.state().repair.preview.as_ref().unwrap().repairs.len(), 1);
    // Saved where the panel proposes (beside the file, -fixed), it checks clean and validates.
    h.get_by_label("Save").click();
    h.run();
    let saved = dir.join("panel-fixed.glb");
    assert_eq!(
        check_kinds(&saved),
        (0, Vec::new()),
        "{:?}",
        h.state().repair.said
    );
    assert_validates(&saved);
    // Revert: the file as it was, its errors back.
    h.get_by_label("Revert").click();
    h.run();
    assert!(errors(h.state()) > 20);
    assert!(h.state().repair.preview.is_none());
}
