//! Test helpers: paths to the shared models, and a small independent glTF reader/writer for
//! building fixtures and computing expected values (it shares no code with `skinscope::import`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// Runs the skinscope binary with `args`: (exit status, stdout, stderr).
pub fn skinscope(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = skinscope_bytes(args);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Runs the skinscope binary with `args`: (exit status, stdout as bytes, stderr).
pub fn skinscope_bytes(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .output()
        .expect("run skinscope");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A BVH of two joints (a hips and a spine, no legs) written into `dir` as `spine.bvh`.
pub fn spine_bvh(dir: &Path) -> PathBuf {
    let path = dir.join("spine.bvh");
    std::fs::write(
        &path,
        "HIERARCHY\nROOT Hips\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nJOINT Spine\n{\nOFFSET 0 0.3 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 0.3 0\n}\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0 0 0 0\n0 10 0 0 0 0\n",
    )
    .unwrap();
    path
}

/// A folder of this test process's own under the system's temporary folder, created.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skinscope-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The panel of `viewer` in a test harness of `size` points, each frame run as the window runs
/// it: the panel's commands, then `Viewer::frame` (the clocks, the pose once).
pub fn window_frames(
    viewer: skinscope::viewer::Viewer,
    size: (f32, f32),
) -> egui_kittest::Harness<'static, skinscope::viewer::Viewer> {
    egui_kittest::Harness::builder()
        .with_size(size)
        .build_ui_state(
            |ui, viewer: &mut skinscope::viewer::Viewer| {
                let (commands, _) = skinscope::ui::show(ui, viewer);
                viewer.frame(commands, 1.0 / 60.0);
            },
            viewer,
        )
}

/// A path under `../shared/gltf`.
/// The first skinned instance's palette in `palette --json`, 16 floats per joint in palette
/// order.
pub fn palette_floats(json: &Value) -> Vec<f32> {
    json["instances"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| j["matrix"].as_array().unwrap().clone())
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

/// A node's world position in `palette --json` (its `world_from_joint`'s translation).
pub fn node_at(json: &Value, name: &str) -> glam::Vec3 {
    world_from_joint(json, name).w_axis.truncate()
}

/// A node's `world_from_joint` in `palette --json`.
pub fn world_from_joint(json: &Value, name: &str) -> glam::Mat4 {
    let node = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    let m: Vec<f32> = (node["world_from_joint"].as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    glam::Mat4::from_cols_slice(&m)
}

/// Five joints `j0`..`j4` in a row up +Y, 0.25 apart (nodes 0 to 4), and a skin of them with
/// inverse binds matching (skin 0).
pub fn five_joint_row(raw: &mut RawGltf) {
    for k in 0..5 {
        let mut node = json!({"name": format!("j{k}")});
        if k > 0 {
            node["translation"] = json!([0.0, 0.25, 0.0]);
        }
        if k < 4 {
            node["children"] = json!([k + 1]);
        }
        raw.add_node(node);
    }
    let binds: Vec<glam::Mat4> = (0..5)
        .map(|k| glam::Mat4::from_translation(glam::Vec3::new(0.0, -0.25 * k as f32, 0.0)))
        .collect();
    raw.add_skin(&[0, 1, 2, 3, 4], &binds);
}

pub fn shared(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/gltf")
        .join(rel)
}

/// A path under `../shared/gltf-invalid`.
pub fn shared_invalid(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/gltf-invalid")
        .join(rel)
}

/// Every `.gltf` and `.glb` under `dir`, sorted.
pub fn gltf_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("gltf" | "glb")
            ) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A glTF document with one binary buffer: read from a GLB, built in code, written as GLB.
#[derive(Clone)]
pub struct RawGltf {
    pub json: Value,
    pub bin: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize
}

impl RawGltf {
    pub fn new() -> Self {
        Self {
            json: json!({
                "asset": {"version": "2.0"},
                "buffers": [{"byteLength": 0}],
                "bufferViews": [],
                "accessors": [],
                "nodes": [],
                "meshes": [],
                "scenes": [{"nodes": []}],
                "scene": 0
            }),
            bin: Vec::new(),
        }
    }

    pub fn read_glb(path: &Path) -> Self {
        let b = std::fs::read(path).unwrap();
        assert_eq!(&b[0..4], b"glTF");
        let json_len = u32_at(&b, 12);
        let json = serde_json::from_slice(&b[20..20 + json_len]).unwrap();
        let bin_at = 20 + json_len;
        let bin_len = u32_at(&b, bin_at);
        let bin = b[bin_at + 8..bin_at + 8 + bin_len].to_vec();
        Self { json, bin }
    }

    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"][0]["byteLength"] = json!(self.bin.len());
        let mut json_bytes = serde_json::to_vec(&json).unwrap();
        while !json_bytes.len().is_multiple_of(4) {
            json_bytes.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json_bytes.len() + 8 + bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json_bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json_bytes);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }

    fn push_view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let views = self.json["bufferViews"].as_array_mut().unwrap();
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}));
        views.len() - 1
    }

    fn push_accessor(&mut self, accessor: Value) -> usize {
        let accessors = self.json["accessors"].as_array_mut().unwrap();
        accessors.push(accessor);
        accessors.len() - 1
    }

    /// A float accessor of `type_` ("SCALAR", "VEC3", "MAT4", ...); SCALARs get min/max.
    pub fn add_f32(&mut self, data: &[f32], type_: &str) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.push_view(&bytes);
        let n = components(type_);
        let mut accessor = json!({"bufferView": view, "componentType": 5126, "count": data.len() / n, "type": type_});
        if type_ == "SCALAR" && !data.is_empty() {
            let min = data.iter().cloned().fold(f32::INFINITY, f32::min);
            let max = data.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
            accessor["min"] = json!([min]);
            accessor["max"] = json!([max]);
        }
        if type_ == "VEC3" && !data.is_empty() {
            let (mut min, mut max) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
            for v in data.chunks(3) {
                for k in 0..3 {
                    min[k] = min[k].min(v[k]);
                    max[k] = max[k].max(v[k]);
                }
            }
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.push_accessor(accessor)
    }

    pub fn add_u16(&mut self, data: &[u16], type_: &str) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.push_view(&bytes);
        let n = components(type_);
        self.push_accessor(json!({"bufferView": view, "componentType": 5123, "count": data.len() / n, "type": type_}))
    }

    pub fn add_u8(&mut self, data: &[u8], type_: &str, normalized: bool) -> usize {
        let view = self.push_view(data);
        let n = components(type_);
        self.push_accessor(json!({"bufferView": view, "componentType": 5121, "count": data.len() / n, "type": type_, "normalized": normalized}))
    }

    pub fn add_node(&mut self, node: Value) -> usize {
        let nodes = self.json["nodes"].as_array_mut().unwrap();
        nodes.push(node);
        nodes.len() - 1
    }

    pub fn add_root(&mut self, node: usize) {
        self.json["scenes"][0]["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!(node));
    }

    pub fn add_mesh(&mut self, mesh: Value) -> usize {
        let meshes = self.json["meshes"].as_array_mut().unwrap();
        meshes.push(mesh);
        meshes.len() - 1
    }

    pub fn push(&mut self, key: &str, value: Value) -> usize {
        if self.json.get(key).is_none() {
            self.json[key] = json!([]);
        }
        let list = self.json[key].as_array_mut().unwrap();
        list.push(value);
        list.len() - 1
    }

    /// A skin of `joints` (node indices) with these inverse bind matrices.
    pub fn add_skin(&mut self, joints: &[usize], inverse_binds: &[glam::Mat4]) -> usize {
        let flat: Vec<f32> = inverse_binds
            .iter()
            .flat_map(|m| m.to_cols_array())
            .collect();
        let ibm = self.add_f32(&flat, "MAT4");
        self.push(
            "skins",
            json!({"joints": joints, "inverseBindMatrices": ibm}),
        )
    }

    /// Elements of an accessor as f64 components (floats, or integers normalised when the
    /// accessor says so; tightly packed or strided; no sparse).
    pub fn read(&self, accessor: usize) -> Vec<Vec<f64>> {
        let a = &self.json["accessors"][accessor];
        let n = components(a["type"].as_str().unwrap());
        let count = a["count"].as_u64().unwrap() as usize;
        let ct = a["componentType"].as_u64().unwrap();
        let size = match ct {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            _ => 4,
        };
        let normalized = a["normalized"].as_bool().unwrap_or(false);
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let base = view["byteOffset"].as_u64().unwrap_or(0) as usize
            + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let stride = view["byteStride"].as_u64().map_or(n * size, |s| s as usize);
        (0..count)
            .map(|i| {
                (0..n)
                    .map(|k| {
                        let at = base + i * stride + k * size;
                        let b = &self.bin[at..at + size];
                        match ct {
                            5126 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                            5121 => b[0] as f64 / if normalized { 255.0 } else { 1.0 },
                            5123 => {
                                u16::from_le_bytes([b[0], b[1]]) as f64
                                    / if normalized { 65535.0 } else { 1.0 }
                            }
                            5125 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
                            other => {
                                panic!("component type {other} not handled by the test reader")
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

pub fn components(type_: &str) -> usize {
    match type_ {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => panic!("type {other}"),
    }
}

/// The built-in character's `clip` as a BVH in its own hierarchy and rest (every rest rotation
/// the identity), 30 frames a second.
pub fn bvh_of(c: &skinscope::character::Character, clip: &skinscope::anim::Clip) -> String {
    bvh_written(c, clip, &BvhRest::default())
}

/// How `bvh_written` turns the character's rest: per joint the rotation its rest offset is
/// turned by, and the rotation that replaces each frame's local rotation q (`local(j, q)`), so
/// that the take's world positions stay the original's; and whether joints without a child end
/// in an End Site.
#[derive(Default)]
pub struct BvhRest<'a> {
    pub turn: Vec<glam::Quat>,
    pub local: Option<&'a dyn Fn(usize, glam::Quat) -> glam::Quat>,
    pub end_sites: bool,
}

/// `clip` of the built-in character as a BVH, its rest turned as `rest` says.
pub fn bvh_written(
    c: &skinscope::character::Character,
    clip: &skinscope::anim::Clip,
    rest: &BvhRest<'_>,
) -> String {
    use glam::{Quat, Vec3};
    use skinscope::anim::{ClipCursor, LocalPose, sample_clip};
    let s = &c.skeleton;
    let pelvis = s.find("pelvis").unwrap();
    assert!(
        s.rest()
            .iter()
            .all(|t| t.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6))
    );
    let offset =
        |j: usize| rest.turn.get(j).copied().unwrap_or(Quat::IDENTITY) * s.rest()[j].translation;
    let mut order = Vec::new();
    let mut text = String::from("HIERARCHY\n");
    let mut stack = vec![(pelvis, 0usize, false)];
    // Depth first, each joint opened, its children, then closed (`true`: the close).
    while let Some((j, depth, close)) = stack.pop() {
        let pad = "  ".repeat(depth);
        let children: Vec<usize> = (0..s.joint_count())
            .filter(|&k| s.parent(k) == Some(j))
            .collect();
        if close {
            if children.is_empty() && rest.end_sites {
                // An End Site a quarter of the bone further along the joint's own offset.
                let end: Vec3 = offset(j) * 0.25;
                text.push_str(&format!(
                    "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}\n",
                    end.x, end.y, end.z
                ));
            }
            text.push_str(&format!("{pad}}}\n"));
            continue;
        }
        let t = offset(j);
        let keyword = if depth == 0 { "ROOT" } else { "JOINT" };
        text.push_str(&format!("{pad}{keyword} {}\n{pad}{{\n", s.names()[j]));
        text.push_str(&format!("{pad}  OFFSET {} {} {}\n", t.x, t.y, t.z));
        let channels = if depth == 0 {
            "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
        } else {
            "CHANNELS 3 Zrotation Xrotation Yrotation"
        };
        text.push_str(&format!("{pad}  {channels}\n"));
        order.push(j);
        stack.push((j, depth, true));
        stack.extend(children.iter().rev().map(|&k| (k, depth + 1, false)));
    }
    let frames = (clip.duration_secs() * 30.0).round() as usize + 1;
    text.push_str(&format!(
        "MOTION\nFrames: {frames}\nFrame Time: {}\n",
        1.0 / 30.0
    ));
    let mut local = LocalPose::rest(s);
    let mut cursor = ClipCursor::new(clip);
    for f in 0..frames {
        sample_clip(s, clip, f as f32 / 30.0, &mut cursor, &mut local).unwrap();
        let mut values = Vec::new();
        for &j in &order {
            let t = local.as_slice()[j];
            if j == pelvis {
                values.extend(t.translation.to_array());
            }
            let q = rest
                .local
                .map_or(t.rotation, |turned| turned(j, t.rotation));
            let (z, x, y) = q.to_euler(glam::EulerRot::ZXY);
            values.extend([z, x, y].map(f32::to_degrees));
        }
        let line: Vec<String> = values.iter().map(|v| format!("{v:.6}")).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// Every joint of `c` (but the armature node `mannequin`) at the same world position in two
/// `palette --json` documents, within `tolerance`; `what` names the frame in the message.
pub fn assert_joints_match(
    c: &skinscope::character::Character,
    want: &Value,
    got: &Value,
    tolerance: f32,
    what: &str,
) {
    for name in c
        .skeleton
        .names()
        .iter()
        .filter(|n| n.as_str() != "mannequin")
    {
        let (a, b) = (node_at(want, name), node_at(got, name));
        assert!((a - b).length() < tolerance, "{what}, {name}: {a} vs {b}");
    }
}

/// The built-in character's walk written as a BVH take `walk.bvh` in a fresh folder `dir`.
pub fn walk_bvh(c: &skinscope::character::Character, dir: &str) -> PathBuf {
    let walk = c.clips.iter().find(|k| k.clip.name() == "walk").unwrap();
    let path = temp_dir(dir).join("walk.bvh");
    std::fs::write(&path, bvh_of(c, &walk.clip)).unwrap();
    path
}

/// The mannequin at 1 s of its `twist` clip: the right forearm's twist joint turned 150 degrees.
pub fn wrist_twisted(c: &skinscope::character::Character) -> skinscope::pose::CharacterPose {
    let twist = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "twist")
        .unwrap();
    let mut pose = skinscope::pose::CharacterPose::new(c);
    pose.evaluate(c, &skinscope::pose::PoseRequest::clip(twist, 1.0))
        .unwrap();
    pose
}

/// The mannequin's right forearm cross-section where the forearm and its twist joint blend (a
/// slab 1 cm thick through the twist joint, across the bone, within 8 cm of it): its area at
/// bind and posed as `skin` (primitive, vertex, rest position) places its vertices, in m², and
/// the vertices in the slab.
pub fn twist_section_areas(
    c: &skinscope::character::Character,
    pose: &skinscope::pose::CharacterPose,
    skin: &mut dyn FnMut(usize, usize, glam::Vec3) -> glam::Vec3,
) -> (f32, f32, usize) {
    use glam::Vec3;
    let rest = skinscope::pose::CharacterPose::at_rest(c);
    let at = |name: &str, pose: &skinscope::pose::CharacterPose| {
        let j = c.skeleton.find(name).unwrap();
        Vec3::from(pose.model.as_slice()[j].translation)
    };
    let (elbow, joint) = (at("forearm_r", &rest), at("forearm_twist_r", &rest));
    let posed_joint = at("forearm_twist_r", pose);
    let axis = (joint - elbow).normalize();
    let side = axis.cross(Vec3::Z).normalize();
    let up = axis.cross(side);
    let flat = |q: Vec3, origin: Vec3| ((q - origin).dot(side), (q - origin).dot(up));
    let (mut bind, mut posed) = (Vec::new(), Vec::new());
    for (pi, primitive) in c.meshes[0].primitives.iter().enumerate() {
        for (v, &p) in primitive.positions.iter().enumerate() {
            let along = (p - joint).dot(axis);
            let off = p - joint - axis * along;
            if along.abs() > 0.005 || off.length() > 0.08 {
                continue;
            }
            bind.push(flat(p, joint));
            posed.push(flat(skin(pi, v, p), posed_joint));
        }
    }
    let n = bind.len();
    (hull_area(bind), hull_area(posed), n)
}

/// The area of the convex hull of 2D points (monotone chain).
pub fn hull_area(mut points: Vec<(f32, f32)>) -> f32 {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f32, f32)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &(f32, f32)>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let n = hull.len();
    (0..n)
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f32>()
        .abs()
        * 0.5
}

/// The `v` lines of an OBJ's text as points.
pub fn obj_points(obj: &str) -> Vec<glam::Vec3> {
    obj.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            glam::Vec3::new(v[0], v[1], v[2])
        })
        .collect()
}

/// The `v` lines of an OBJ file as points.
pub fn obj_vertices(path: &Path) -> Vec<glam::Vec3> {
    obj_points(&std::fs::read_to_string(path).unwrap())
}
