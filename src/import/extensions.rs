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
    buffers: &mut [Result<Vec<u8>, String>],
    problems: &mut Problems,
) {
    for view in &meshopt.views {
        let at = format!("/bufferViews/{}/extensions/{MESHOPT}", view.view);
        let result = decode_view(view, buffers);
        if let Err(e) = &result {
            problems.error(&at, e.clone());
        }
        if let Some(slot) = buffers.get_mut(view.into) {
            *slot = result;
        }
    }
}

fn decode_view(
    view: &CompressedView,
    buffers: &[Result<Vec<u8>, String>],
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
    let failed = |e: meshopt::Error| format!("the {} data does not decode: {e}", view.mode);
    match (view.mode.as_str(), view.stride) {
        ("TRIANGLES", 2) => Ok(le_bytes_u16(
            &meshopt::decode_index_buffer::<u16>(bytes, view.count).map_err(failed)?,
        )),
        ("TRIANGLES", 4) => Ok(le_bytes_u32(
            &meshopt::decode_index_buffer::<u32>(bytes, view.count).map_err(failed)?,
        )),
        ("INDICES", 2) => Ok(le_bytes_u16(
            &meshopt::decode_index_sequence::<u16>(bytes, view.count).map_err(failed)?,
        )),
        ("INDICES", 4) => Ok(le_bytes_u32(
            &meshopt::decode_index_sequence::<u32>(bytes, view.count).map_err(failed)?,
        )),
        ("ATTRIBUTES", s) if s % 4 == 0 && (4..=256).contains(&s) => {
            decode_attributes(bytes, view.count, s / 4, &view.filter)
                .map_err(|e| format!("the ATTRIBUTES data does not decode: {e}"))
        }
        (mode, stride) => Err(format!(
            "mode {mode:?} with byteStride {stride} is not EXT_meshopt_compression"
        )),
    }
}

fn le_bytes_u16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn le_bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// ATTRIBUTES of `words` 32-bit words each, then the view's filter.
fn decode_attributes(
    bytes: &[u8],
    count: usize,
    words: usize,
    filter: &str,
) -> Result<Vec<u8>, String> {
    macro_rules! widths {
        ($($n:literal)*) => {
            match words {
                $($n => attributes::<$n>(bytes, count, filter),)*
                _ => Err(format!("a byteStride of {} bytes", 4 * words)),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
            62 63 64)
}

/// One decoded element: `N` 32-bit words (arrays implement `Default` only up to 32).
#[derive(Clone, Copy)]
struct Words<const N: usize>([u32; N]);

impl<const N: usize> Default for Words<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

fn attributes<const N: usize>(bytes: &[u8], count: usize, filter: &str) -> Result<Vec<u8>, String> {
    let decoded =
        meshopt::decode_vertex_buffer::<Words<N>>(bytes, count).map_err(|e| e.to_string())?;
    let mut elements: Vec<[u32; N]> = decoded.into_iter().map(|w| w.0).collect();
    match (filter, N) {
        ("NONE", _) => {}
        ("EXPONENTIAL", _) => meshopt::decode_filter_exp(&mut elements),
        ("OCTAHEDRAL", 1) => {
            let mut v: Vec<[i8; 4]> = elements
                .iter()
                .map(|e| e[0].to_le_bytes().map(|b| b as i8))
                .collect();
            meshopt::decode_filter_oct(&mut v);
            return Ok(v.iter().flatten().map(|b| *b as u8).collect());
        }
        ("OCTAHEDRAL", 2) | ("QUATERNION", 2) => {
            let mut v: Vec<[i16; 4]> = elements.iter().map(|e| words_to_i16(e[0], e[1])).collect();
            if filter == "OCTAHEDRAL" {
                meshopt::decode_filter_oct(&mut v);
            } else {
                meshopt::decode_filter_quat(&mut v);
            }
            return Ok(v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect());
        }
        (other, _) => {
            return Err(format!(
                "filter {other:?} with a byteStride of {} bytes",
                4 * N
            ));
        }
    }
    Ok(elements
        .iter()
        .flatten()
        .flat_map(|x| x.to_le_bytes())
        .collect())
}

fn words_to_i16(a: u32, b: u32) -> [i16; 4] {
    let [a0, a1, a2, a3] = a.to_le_bytes();
    let [b0, b1, b2, b3] = b.to_le_bytes();
    [
        i16::from_le_bytes([a0, a1]),
        i16::from_le_bytes([a2, a3]),
        i16::from_le_bytes([b0, b1]),
        i16::from_le_bytes([b2, b3]),
    ]
}
