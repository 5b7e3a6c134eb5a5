//! glTF extensions: which the importer reads, the required ones it cannot (each refused by
//! name), the used ones it ignores (a note), and EXT_meshopt_compression's buffer views, decoded
//! into buffers of their own before any accessor reads them.
//!
//! Read: KHR_mesh_quantization (integer and normalised attributes, read by the accessor layer),
//! EXT_meshopt_compression (decoded with the `meshopt` crate, the library gltfpack encodes
//! with), KHR_texture_transform (applied to the base colour's texture coordinates),
//! EXT_texture_webp (the image crate's WebP decoder), KHR_texture_basisu (KTX2, `crate::basis`).

use serde_json::{Value, json};

use super::problem::Problems;
#[cfg(feature = "meshopt")]
use crate::meshopt_codec::decode_bytes;

/// Extensions this importer reads; a file may require them.
pub const SUPPORTED: &[&str] = &[
    "KHR_mesh_quantization",
    "EXT_meshopt_compression",
    "KHR_texture_transform",
    "KHR_materials_unlit",
    "KHR_materials_emissive_strength",
    "EXT_texture_webp",
    "KHR_texture_basisu",
    "KHR_draco_mesh_compression",
];

const MESHOPT: &str = "EXT_meshopt_compression";

/// One compressed buffer view: where its compressed bytes are and what they decode to.
#[derive(Clone, Debug)]
struct CompressedView {
    /// `/bufferViews/N`.
    view: usize,
    /// The buffer the decoded bytes go to (appended after the file's own).
    into: usize,
    source: usize,
    offset: usize,
    length: usize,
    stride: usize,
    count: usize,
    mode: String,
    filter: String,
}

/// EXT_meshopt_compression's views, rewritten to read decoded buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meshopt {
    views: Vec<CompressedView>,
    /// Buffers that only stand in for compressed data (`fallback: true`): not loaded.
    pub fallback: Vec<usize>,
    /// The first buffer index holding decoded data; the file's own buffers come before it.
    pub first_decoded: usize,
}

impl Meshopt {
    /// Whether buffer `b` is loaded from the file (not a fallback, not decoded later).
    pub fn loads(&self, b: usize) -> bool {
        b < self.first_decoded && !self.fallback.contains(&b)
    }
}

/// Checks the file's extensions against what the importer reads, and prepares the JSON for the
/// gltf crate: supported required extensions are taken off `extensionsRequired` (the crate does
/// not know them), compressed buffer views are pointed at buffers the decoded bytes will fill.
pub(crate) fn prepare(json: &mut Value, problems: &mut Problems) -> Meshopt {
    let list = |json: &Value, key: &str| -> Vec<String> {
        json.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let required = list(json, "extensionsRequired");
    for (i, name) in required.iter().enumerate() {
        if !SUPPORTED.contains(&name.as_str()) {
            problems.error(
                format!("/extensionsRequired/{i}"),
                format!("the file requires {name}, which this viewer does not support"),
            );
        }
    }
    for (i, name) in list(json, "extensionsUsed").iter().enumerate() {
        if !SUPPORTED.contains(&name.as_str()) && !required.contains(name) {
            problems.note(
                format!("/extensionsUsed/{i}"),
                format!("{name} is used but not required, and this viewer ignores it"),
            );
        }
    }
    let kept: Vec<Value> = required
        .iter()
        .filter(|n| !SUPPORTED.contains(&n.as_str()))
        .map(|n| json!(n))
        .collect();
    if let Some(r) = json.get_mut("extensionsRequired") {
        *r = Value::Array(kept);
    }
    compressed_views(json, problems)
}

/// Points every EXT_meshopt_compression buffer view at a new buffer (filled by `decode`), and
/// finds the fallback buffers.
fn compressed_views(json: &mut Value, problems: &mut Problems) -> Meshopt {
    let first_decoded = json
        .get("buffers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut out = Meshopt {
        first_decoded,
        ..Meshopt::default()
    };
    if let Some(buffers) = json.get("buffers").and_then(Value::as_array) {
        for (b, buffer) in buffers.iter().enumerate() {
            if buffer["extensions"][MESHOPT]["fallback"] == json!(true) {
                out.fallback.push(b);
            }
        }
    }
    let Some(views) = json.get_mut("bufferViews").and_then(Value::as_array_mut) else {
        return out;
    };
    let mut added = Vec::new();
    for (v, view) in views.iter_mut().enumerate() {
        let Some(ext) = view.get("extensions").and_then(|e| e.get(MESHOPT)).cloned() else {
            continue;
        };
        let at = format!("/bufferViews/{v}/extensions/{MESHOPT}");
        let field = |k: &str| ext.get(k).and_then(Value::as_u64).map(|x| x as usize);
        let (Some(source), Some(length), Some(stride), Some(count)) = (
            field("buffer"),
            field("byteLength"),
            field("byteStride"),
            field("count"),
        ) else {
            problems.error(&at, "needs buffer, byteLength, byteStride and count");
            continue;
        };
        let into = first_decoded + added.len();
        let decoded = stride.saturating_mul(count);
        added.push(json!({"byteLength": decoded}));
        view["buffer"] = json!(into);
        view["byteOffset"] = json!(0);
        view["byteLength"] = json!(decoded);
        if let Some(extensions) = view.get_mut("extensions").and_then(Value::as_object_mut) {
            extensions.remove(MESHOPT);
        }
        out.views.push(CompressedView {
            view: v,
            into,
            source,
            offset: field("byteOffset").unwrap_or(0),
            length,
            stride,
            count,
            mode: ext["mode"].as_str().unwrap_or("").to_owned(),
            filter: ext["filter"].as_str().unwrap_or("NONE").to_owned(),
        });
    }
    if let Some(buffers) = json.get_mut("buffers").and_then(Value::as_array_mut) {
        buffers.extend(added);
    }
    out
}

/// Decodes every compressed view from its (loaded) source buffer into its own buffer.
pub(crate) fn decode(
    meshopt: &Meshopt,
    buffers: &mut crate::accessor::Buffers,
    problems: &mut Problems,
) {
    for view in &meshopt.views {
        let at = format!("/bufferViews/{}/extensions/{MESHOPT}", view.view);
        let result = decode_view(view, buffers);
        if let Err(e) = &result {
            problems.error(&at, e.clone());
        }
        if let Some(slot) = buffers.get_mut(view.into) {
            *slot = result.map_err(crate::accessor::NoData::Decoder);
        }
    }
}

fn decode_view(
    view: &CompressedView,
    buffers: &crate::accessor::Buffers,
) -> Result<Vec<u8>, String> {
    let source = match buffers.get(view.source) {
        Some(Ok(data)) => data,
        Some(Err(reason)) => {
            return Err(format!("its buffer {} has no data: {reason}", view.source));
        }
        None => return Err(format!("buffer {} does not exist", view.source)),
    };
    let bytes = view
        .offset
        .checked_add(view.length)
        .and_then(|end| source.get(view.offset..end))
        .ok_or_else(|| {
            format!(
                "bytes {}..{} are outside buffer {} ({} bytes)",
                view.offset,
                view.offset.saturating_add(view.length),
                view.source,
                source.len()
            )
        })?;
    // The decoded size comes from the file: bound it by what the compressed bytes can hold
    // before allocating (meshopt's codecs need at least a bit per decoded byte or so).
    let decoded = view.stride.saturating_mul(view.count);
    if decoded > (64 * bytes.len()).max(1 << 20) || decoded > 1 << 29 {
        return Err(format!(
            "{} elements of {} bytes cannot come from {} compressed bytes",
            view.count,
            view.stride,
            bytes.len()
        ));
    }
    decode_bytes(&view.mode, &view.filter, view.stride, view.count, bytes)
}

/// Without the meshopt feature: every compressed view is refused, naming why.
#[cfg(not(feature = "meshopt"))]
fn decode_bytes(_: &str, _: &str, _: usize, _: usize, _: &[u8]) -> Result<Vec<u8>, String> {
    Err("this build of skinscope has no EXT_meshopt_compression decoder (skinscope-import's \"meshopt\" feature is off)".to_string())
}
