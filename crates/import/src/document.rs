//! A glTF file held for rewriting: its JSON as it was and one binary buffer. Every buffer of the
//! file (a GLB's binary chunk, external `.bin` files, `data:` URIs) is gathered into that one
//! buffer and every buffer view pointed into it; external images are carried into buffer views
//! too (with their MIME type), so the file written out as GLB stands on its own wherever it is
//! written. Nothing else of the JSON changes unless the caller changes it: meshes, materials,
//! textures, animations, extensions and names are kept as they were. Accessors are read as
//! glTF defines them (component types, normalisation, byte strides, sparse substitution) and
//! new ones appended; the ones they replace stay in the file, unused.
//!
//! Compressed geometry (`KHR_draco_mesh_compression`, `EXT_meshopt_compression`) is refused by
//! name: its attributes are not accessors that can be rewritten in place.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::character::Problem;
use crate::problem::{ImportError, Problems};
use crate::uri::{Reach, UriBase};

/// A glTF document and its one binary buffer.
#[derive(Clone, Debug)]
pub struct Document {
    /// The JSON, as the file had it but for `buffers`, the buffer views' `buffer` and
    /// `byteOffset`, and external images' `uri` (now `bufferView` and `mimeType`).
    pub json: Value,
    bin: Vec<u8>,
    file: PathBuf,
}

/// The extensions whose geometry lives outside plain accessors.
const COMPRESSED: [&str; 2] = ["KHR_draco_mesh_compression", "EXT_meshopt_compression"];

impl Document {
    /// Reads the `.gltf` or `.glb` file at `path`, its URIs confined to `reach` as the importer
    /// confines them.
    pub fn open(path: &Path, reach: &Reach) -> Result<Self, ImportError> {
        let refuse = |pointer: &str, message: String| ImportError {
            file: path.to_path_buf(),
            errors: vec![Problem::new(pointer, message)],
            warnings: Vec::new(),
        };
        let bytes = crate::read_within(path, reach, crate::files::MAX_MODEL_BYTES)
            .map_err(|e| refuse("", e))?;
        let glb_name = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
        let mut problems = Problems::default();
        let Some(split) = crate::container::split(&bytes, glb_name, &mut problems) else {
            return Err(ImportError {
                file: path.to_path_buf(),
                errors: problems.errors,
                warnings: problems.warnings,
            });
        };
        let mut json: Value = serde_json::from_slice(split.json)
            .map_err(|e| refuse("", format!("the JSON does not parse: {e}")))?;
        if !json.is_object() {
            return Err(refuse("", "the JSON is not an object".into()));
        }
        for used in ["extensionsUsed", "extensionsRequired"] {
            if let Some(name) = json[used]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .find(|n| COMPRESSED.contains(n))
            {
                return Err(refuse(
                    &format!("/{used}"),
                    format!(
                        "{name}: compressed geometry cannot be rewritten; decompress it first (gltf-transform copy, or the exporter without compression)"
                    ),
                ));
            }
        }
        let base = UriBase::of_model(path, reach.clone());
        let mut bin = Vec::new();
        let buffers = json["buffers"].as_array().cloned().unwrap_or_default();
        let mut offsets = Vec::with_capacity(buffers.len());
        for (i, buffer) in buffers.iter().enumerate() {
            let pointer = format!("/buffers/{i}");
            let length = buffer["byteLength"]
                .as_u64()
                .ok_or_else(|| refuse(&pointer, "no byteLength".into()))?;
            let data = match buffer["uri"].as_str() {
                Some(uri) => base
                    .read(uri, length)
                    .map_err(|e| refuse(&pointer, e.to_string()))?,
                None if i == 0 => split
                    .bin
                    .ok_or_else(|| refuse(&pointer, "no uri and no GLB binary chunk".into()))?
                    .to_vec(),
                None => return Err(refuse(&pointer, "no uri".into())),
            };
            if (data.len() as u64) < length {
                return Err(refuse(
                    &pointer,
                    format!(
                        "holds {} bytes, less than its byteLength {length}",
                        data.len()
                    ),
                ));
            }
            pad(&mut bin, 16);
            offsets.push(bin.len() as u64);
            bin.extend_from_slice(&data[..length as usize]);
        }
        for (i, view) in json["bufferViews"]
            .as_array_mut()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let buffer = view["buffer"].as_u64().unwrap_or(u64::MAX) as usize;
            let Some(&offset) = offsets.get(buffer) else {
                return Err(refuse(
                    &format!("/bufferViews/{i}/buffer"),
                    format!("names buffer {buffer}, which does not exist"),
                ));
            };
            let start = view["byteOffset"].as_u64().unwrap_or(0);
            view["buffer"] = json!(0);
            view["byteOffset"] = json!(offset.saturating_add(start));
        }
        let mut document = Self {
            json,
            bin,
            file: path.to_path_buf(),
        };
        document.embed_images(&base)?;
        document.json["buffers"] = json!([{"byteLength": document.bin.len()}]);
        Ok(document)
    }

    /// External images carried into buffer views.
    fn embed_images(&mut self, base: &UriBase) -> Result<(), ImportError> {
        let count = self.json["images"].as_array().map_or(0, Vec::len);
        for i in 0..count {
            let Some(uri) = self.json["images"][i]["uri"].as_str().map(str::to_owned) else {
                continue;
            };
            if uri.starts_with("data:") {
                continue;
            }
            let bytes = base
                .read(&uri, crate::files::MAX_IMAGE_BYTES)
                .map_err(|e| self.error(&format!("/images/{i}/uri"), e.to_string()))?;
            let mime = mime_of(&bytes, &uri);
            let view = self.push_view(&bytes, false);
            let image = &mut self.json["images"][i];
            if let Some(object) = image.as_object_mut() {
                object.remove("uri");
            }
            image["bufferView"] = json!(view);
            image["mimeType"] = json!(mime);
        }
        Ok(())
    }

    /// The file this document was read from.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// An error at `pointer` of this document.
    pub fn error(&self, pointer: &str, message: impl Into<String>) -> ImportError {
        ImportError {
            file: self.file.clone(),
            errors: vec![Problem::new(pointer, message)],
            warnings: Vec::new(),
        }
    }

    /// How many components an element of accessor `index` has, and its element count.
    pub fn shape(&self, index: usize) -> Result<(usize, usize), ImportError> {
        let pointer = format!("/accessors/{index}");
        let a = &self.json["accessors"][index];
        if !a.is_object() {
            return Err(self.error(&pointer, "no such accessor"));
        }
        let components = components_of(a["type"].as_str().unwrap_or(""))
            .ok_or_else(|| self.error(&format!("{pointer}/type"), "unknown type"))?;
        let count = a["count"]
            .as_u64()
            .ok_or_else(|| self.error(&format!("{pointer}/count"), "no count"))?;
        Ok((components, count as usize))
    }

    /// Accessor `index`'s elements, flattened, as numbers: normalised integers mapped to
    /// [0, 1] or [-1, 1] as glTF defines, sparse values substituted.
    pub fn read(&self, index: usize) -> Result<Vec<f32>, ImportError> {
        let pointer = format!("/accessors/{index}");
        let (components, count) = self.shape(index)?;
        let a = &self.json["accessors"][index];
        let kind = a["componentType"].as_u64().unwrap_or(0);
        let normalized = a["normalized"].as_bool().unwrap_or(false);
        let size = component_size(kind)
            .ok_or_else(|| self.error(&format!("{pointer}/componentType"), "unknown"))?;
        let total = count
            .checked_mul(components)
            .filter(|&n| n <= self.bin.len().max(1 << 24))
            .ok_or_else(|| {
                self.error(
                    &format!("{pointer}/count"),
                    "more elements than the file holds",
                )
            })?;
        let mut out = vec![0.0; total];
        if let Some(view) = a["bufferView"].as_u64() {
            let v = &self.json["bufferViews"][view as usize];
            // Offsets, strides and lengths are the file's: added and multiplied without
            // overflow, a sum past u64 refused as running past the view.
            let number = |x: &Value| x.as_u64().unwrap_or(0);
            let start = number(&v["byteOffset"]).checked_add(number(&a["byteOffset"]));
            let stride = v["byteStride"]
                .as_u64()
                .unwrap_or((size * components) as u64);
            let view_end = number(&v["byteOffset"]).checked_add(number(&v["byteLength"]));
            let element = (size * components) as u64;
            let last = match (count as u64).checked_sub(1) {
                Some(n) => {
                    start.and_then(|s| n.checked_mul(stride)?.checked_add(s)?.checked_add(element))
                }
                None => Some(0),
            };
            let fits =
                |end: u64| view_end.is_some_and(|v| end <= v) && end <= self.bin.len() as u64;
            if !last.is_some_and(fits) {
                return Err(self.error(&pointer, "its elements run past its buffer view"));
            }
            let start = start.unwrap_or(0);
            for e in 0..count {
                let at = (start + e as u64 * stride) as usize;
                for c in 0..components {
                    out[e * components + c] = value(&self.bin[at + c * size..], kind, normalized);
                }
            }
        }
        if let Some(sparse) = a.get("sparse") {
            self.substitute(&pointer, sparse, kind, normalized, components, &mut out)?;
        }
        Ok(out)
    }

    /// A sparse accessor's values written over its base.
    fn substitute(
        &self,
        pointer: &str,
        sparse: &Value,
        kind: u64,
        normalized: bool,
        components: usize,
        out: &mut [f32],
    ) -> Result<(), ImportError> {
        let n = sparse["count"].as_u64().unwrap_or(0) as usize;
        let bytes = |part: &Value, width: usize| -> Result<&[u8], ImportError> {
            let view =
                &self.json["bufferViews"][part["bufferView"].as_u64().unwrap_or(u64::MAX) as usize];
            let start = (view["byteOffset"].as_u64().unwrap_or(0))
                .checked_add(part["byteOffset"].as_u64().unwrap_or(0))
                .and_then(|s| usize::try_from(s).ok());
            let end = start.and_then(|s| s.checked_add(n.saturating_mul(width)));
            start
                .zip(end)
                .and_then(|(start, end)| self.bin.get(start..end))
                .ok_or_else(|| {
                    self.error(&format!("{pointer}/sparse"), "runs past its buffer view")
                })
        };
        let index_kind = sparse["indices"]["componentType"].as_u64().unwrap_or(0);
        let index_size = component_size(index_kind).unwrap_or(4);
        let indices = bytes(&sparse["indices"], index_size)?;
        let size = component_size(kind).unwrap_or(4);
        let values = bytes(&sparse["values"], size * components)?;
        for k in 0..n {
            let e = value(&indices[k * index_size..], index_kind, false) as usize;
            let Some(target) = out.get_mut(e * components..(e + 1) * components) else {
                return Err(self.error(
                    &format!("{pointer}/sparse/indices"),
                    format!("index {e} is past the accessor's count"),
                ));
            };
            for (c, t) in target.iter_mut().enumerate() {
                *t = value(&values[(k * components + c) * size..], kind, normalized);
            }
        }
        Ok(())
    }

    /// Appends a buffer view of `bytes` (16-byte aligned) and returns its index; `vertices`
    /// marks it as vertex data (glTF's target 34962).
    fn push_view(&mut self, bytes: &[u8], vertices: bool) -> usize {
        pad(&mut self.bin, 16);
        let mut view =
            json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()});
        if vertices {
            view["target"] = json!(34962);
        }
        self.bin.extend_from_slice(bytes);
        self.json["buffers"] = json!([{"byteLength": self.bin.len()}]);
        push(&mut self.json, "bufferViews", view)
    }

    /// Appends a float accessor of `type_` ("SCALAR", "VEC4", "MAT4", ...) and returns its
    /// index; `vertices` for a vertex attribute.
    pub fn push_floats(&mut self, data: &[f32], type_: &str, vertices: bool) -> usize {
        let n = components_of(type_).unwrap_or(1);
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.push_view(&bytes, vertices);
        let accessor = json!({"bufferView": view, "componentType": 5126, "count": data.len() / n, "type": type_});
        push(&mut self.json, "accessors", accessor)
    }

    /// Appends an unsigned integer vertex attribute (u8 when `wide` is false, else u16) of
    /// `type_`.
    pub fn push_indices(&mut self, data: &[u16], type_: &str, wide: bool) -> usize {
        let n = components_of(type_).unwrap_or(1);
        let bytes: Vec<u8> = if wide {
            data.iter().flat_map(|v| v.to_le_bytes()).collect()
        } else {
            data.iter().map(|&v| v as u8).collect()
        };
        let view = self.push_view(&bytes, true);
        let kind = if wide { 5123 } else { 5121 };
        let accessor = json!({"bufferView": view, "componentType": kind, "count": data.len() / n, "type": type_});
        push(&mut self.json, "accessors", accessor)
    }

    /// The document as one GLB: its JSON chunk and its binary chunk.
    pub fn to_glb(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"] = json!([{"byteLength": self.bin.len()}]);
        crate::glb::container(&json, &self.bin)
    }
}

/// Appends `value` to the top-level array `key` of `json`, and returns its index.
fn push(json: &mut Value, key: &str, value: Value) -> usize {
    if let Some(list) = json[key].as_array_mut() {
        list.push(value);
        return list.len() - 1;
    }
    json[key] = json!([value]);
    0
}

fn pad(bytes: &mut Vec<u8>, to: usize) {
    bytes.resize(bytes.len().next_multiple_of(to), 0);
}

fn components_of(type_: &str) -> Option<usize> {
    Some(match type_ {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT2" => 4,
        "MAT3" => 9,
        "MAT4" => 16,
        _ => return None,
    })
}

fn component_size(kind: u64) -> Option<usize> {
    Some(match kind {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        5125 | 5126 => 4,
        _ => return None,
    })
}

/// One component at the start of `bytes` (which holds at least its size).
fn value(bytes: &[u8], kind: u64, normalized: bool) -> f32 {
    match kind {
        5120 => {
            let v = bytes[0] as i8 as f32;
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        5121 => {
            let v = bytes[0] as f32;
            if normalized { v / 255.0 } else { v }
        }
        5122 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        5123 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized { v / 65535.0 } else { v }
        }
        5125 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32,
        _ => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}

/// An image's MIME type from its first bytes (else from its name's extension).
fn mime_of(bytes: &[u8], uri: &str) -> &'static str {
    if bytes.starts_with(b"\x89PNG") {
        "image/png"
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        "image/jpeg"
    } else if bytes.len() > 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        "image/webp"
    } else if bytes.starts_with(b"\xABKTX 20") {
        "image/ktx2"
    } else if uri.to_ascii_lowercase().ends_with(".png") {
        "image/png"
    } else {
        "image/jpeg"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_integers_map_as_gltf_defines() {
        assert_eq!(value(&[255], 5121, true), 1.0);
        assert_eq!(value(&[128], 5120, true), -1.0);
        assert_eq!(value(&[0x01, 0x80], 5122, true), -1.0);
        assert_eq!(value(&[0xFF, 0xFF], 5123, true), 1.0);
        assert_eq!(value(&[7, 0], 5123, false), 7.0);
        assert_eq!(value(&0.25f32.to_le_bytes(), 5126, false), 0.25);
    }

    #[test]
    fn a_glb_written_reads_back_with_its_accessors() {
        let mut d = Document {
            json: json!({"asset": {"version": "2.0"}}),
            bin: Vec::new(),
            file: PathBuf::from("t.glb"),
        };
        let f = d.push_floats(&[1.0, 2.0, 3.0, 4.0], "VEC2", true);
        let j = d.push_indices(&[1, 2, 3, 300], "VEC4", true);
        let k = d.push_indices(&[9, 8, 7, 6], "SCALAR", false);
        assert_eq!(d.read(f).unwrap(), [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(d.read(j).unwrap(), [1.0, 2.0, 3.0, 300.0]);
        assert_eq!(d.read(k).unwrap(), [9.0, 8.0, 7.0, 6.0]);
        let glb = d.to_glb();
        assert_eq!(&glb[..4], b"glTF");
        assert_eq!(
            u32::from_le_bytes(glb[8..12].try_into().unwrap()) as usize,
            glb.len()
        );
    }

    #[test]
    fn offsets_and_strides_past_the_data_are_refused_not_overflowed() {
        let mut d = Document {
            json: json!({"asset": {"version": "2.0"}}),
            bin: Vec::new(),
            file: PathBuf::from("t.glb"),
        };
        let f = d.push_floats(&[1.0, 2.0, 3.0, 4.0], "SCALAR", false);
        let view = d.json["accessors"][f]["bufferView"].as_u64().unwrap() as usize;
        d.json["bufferViews"][view]["byteStride"] = json!(u64::MAX / 2);
        let e = d.read(f).unwrap_err().to_string();
        assert!(
            e.contains("/accessors/0: its elements run past its buffer view"),
            "{e}"
        );
        d.json["bufferViews"][view]["byteStride"] = json!(4);
        d.json["accessors"][f]["byteOffset"] = json!(u64::MAX);
        assert!(d.read(f).is_err());
        d.json["accessors"][f]["byteOffset"] = json!(0);
        assert_eq!(d.read(f).unwrap(), [1.0, 2.0, 3.0, 4.0]);
    }
}
