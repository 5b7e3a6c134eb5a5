//! Writing GLB files: the built-in character's generator and the posed-mesh export.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A GLB container: the header, `json` as the JSON chunk (space-padded) and `bin` as the binary
/// chunk (zero-padded), each to four bytes. The caller's `buffers` must describe `bin`.
pub fn container(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap_or_default();
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    let padded = bin.len().next_multiple_of(4);
    let total = 12 + 8 + text.len() + 8 + padded;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(padded as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out.resize(total, 0);
    out
}

/// A small GLB writer: one JSON document, one binary buffer. Deterministic (serde_json writes
/// keys sorted).
pub struct GlbWriter {
    pub json: Value,
    bin: Vec<u8>,
}

impl GlbWriter {
    /// An empty document naming its generator.
    pub fn new(generator: &str) -> Self {
        Self {
            json: json!({"asset": {"version": "2.0", "generator": generator}}),
            bin: Vec::new(),
        }
    }

    /// Appends `value` to the top-level array `key` and returns its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let list = self.json[key].as_array_mut().map(|l| {
            l.push(value.clone());
            l.len() - 1
        });
        list.unwrap_or_else(|| {
            self.json[key] = json!([value]);
            0
        })
    }

    /// Appends a buffer view of `bytes` (4-byte aligned); `target` is glTF's (34962 vertices,
    /// 34963 indices).
    pub fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut view =
            json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", view)
    }

    /// A float accessor of `type_` ("SCALAR", "VEC3", "VEC4", "MAT4"), with min/max when
    /// `bounds`.
    pub fn floats(
        &mut self,
        data: &[f32],
        type_: &str,
        bounds: bool,
        target: Option<u32>,
    ) -> usize {
        let n = match type_ {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 16,
        };
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let mut accessor = json!({"bufferView": view, "componentType": 5126, "count": data.len() / n, "type": type_});
        if bounds {
            let (mut min, mut max) = (vec![f32::INFINITY; n], vec![f32::NEG_INFINITY; n]);
            for e in data.chunks(n) {
                for k in 0..n {
                    min[k] = min[k].min(e[k]);
                    max[k] = max[k].max(e[k]);
                }
            }
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.push("accessors", accessor)
    }

    /// The GLB bytes.
    pub fn finish(mut self) -> Vec<u8> {
        self.json["buffers"] = json!([{"byteLength": self.bin.len()}]);
        container(&self.json, &self.bin)
    }

    /// A u32 scalar index accessor.
    pub fn indices(&mut self, indices: &[u32]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(34963));
        self.push("accessors", json!({"bufferView": view, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}))
    }
}

/// A GLB beside `source` named after it with `-suffix` added (`Fox.gltf` -> `Fox-fixed.glb`),
/// where a rewritten file is saved by default.
pub fn beside(source: &Path, suffix: &str) -> Option<PathBuf> {
    let stem = source.file_stem()?.to_str()?;
    Some(source.with_file_name(format!("{stem}-{suffix}.glb")))
}
