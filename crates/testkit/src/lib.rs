//! Test helpers shared by every package's tests: paths to the shared models (`../shared/`,
//! beside the repository), temporary folders, a small independent glTF reader/writer for
//! building fixtures and computing expected values (it shares no code with skinscope's
//! import), and readers of the command line's JSON and OBJ outputs.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The repository's root (the workspace's).
pub fn repository() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
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

/// A path under `../shared/gltf` (beside the repository).
pub fn shared(rel: &str) -> PathBuf {
    repository().join("../shared/gltf").join(rel)
}

/// A path under `../shared/gltf-invalid`.
pub fn shared_invalid(rel: &str) -> PathBuf {
    repository().join("../shared/gltf-invalid").join(rel)
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

impl Default for RawGltf {
    fn default() -> Self {
        Self::new()
    }
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
        glb_of(&json, &self.bin)
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

/// A .glb of `json` and `bin` as they are (a buffer's byteLength is not corrected), each chunk
/// padded to 4 bytes (the JSON with spaces, the binary with zeros).
pub fn glb_of(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json_bytes = serde_json::to_vec(json).unwrap();
    while !json_bytes.len().is_multiple_of(4) {
        json_bytes.push(b' ');
    }
    let mut bin = bin.to_vec();
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
