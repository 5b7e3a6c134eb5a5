//! KHR_draco_mesh_compression: each compressed primitive's accessors are pointed, before the
//! gltf crate reads the JSON, at buffers of their own (sized from the accessors, bounded by the
//! compressed bytes), which `decode` fills from the Draco stream once the file's buffers are
//! loaded: the points' attributes as the accessors declare them (Draco's floats quantized to a
//! normalised accessor where it is one), and the faces as the indices. The rest of the importer
//! then reads them as any accessor.

use serde_json::{Value, json};

use super::problem::Problems;

pub(crate) const DRACO: &str = "KHR_draco_mesh_compression";

/// One accessor a Draco primitive fills.
#[derive(Clone, Debug)]
struct Target {
    /// The attribute's name (`POSITION`, ...), or `indices`.
    name: String,
    /// The Draco attribute's id (`None` for the indices).
    draco_id: Option<usize>,
    /// The buffer its bytes go to.
    into: usize,
    component_type: u64,
    components: usize,
    normalized: bool,
    count: usize,
    /// Bytes from one element to the next.
    stride: usize,
}

/// One compressed primitive.
#[derive(Clone, Debug)]
struct Job {
    /// `/meshes/M/primitives/P/extensions/KHR_draco_mesh_compression`.
    at: String,
    source: Stream,
    targets: Vec<Target>,
}

/// Where a primitive's compressed stream lies: its buffer and the bytes in it.
#[derive(Clone, Copy, Debug)]
struct Stream {
    buffer: usize,
    offset: usize,
    length: usize,
}

/// A buffer a Draco primitive fills: its byte length, and its elements' stride where they are
/// padded to 4 bytes.
type NewBuffer = (usize, Option<usize>);

/// The Draco primitives of a file, prepared.
#[derive(Clone, Debug, Default)]
pub(crate) struct Draco {
    jobs: Vec<Job>,
}

fn component_size(component_type: u64) -> Option<usize> {
    match component_type {
        5120 | 5121 => Some(1),
        5122 | 5123 => Some(2),
        5125 | 5126 => Some(4),
        _ => None,
    }
}

fn components_of(type_: &str) -> Option<usize> {
    match type_ {
        "SCALAR" => Some(1),
        "VEC2" => Some(2),
        "VEC3" => Some(3),
        "VEC4" => Some(4),
        _ => None,
    }
}

/// Points every Draco primitive's accessors at new buffers (appended after the file's and
/// any meshopt ones), checking their sizes against the compressed bytes before anything is
/// allocated.
pub(crate) fn prepare(json: &mut Value, problems: &mut Problems) -> Draco {
    let mut out = Draco::default();
    let Some(meshes) = json.get("meshes").and_then(Value::as_array) else {
        return out;
    };
    let mut found = Vec::new();
    for (m, mesh) in meshes.iter().enumerate() {
        let primitives = mesh.get("primitives").and_then(Value::as_array);
        for (p, primitive) in primitives.into_iter().flatten().enumerate() {
            if let Some(ext) = primitive.get("extensions").and_then(|e| e.get(DRACO)) {
                found.push((m, p, primitive.clone(), ext.clone()));
            }
        }
    }
    let mut next = json
        .get("buffers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut added = Vec::new();
    let mut repointed: std::collections::HashMap<usize, usize> = Default::default();
    for (m, p, primitive, ext) in found {
        let at = format!("/meshes/{m}/primitives/{p}/extensions/{DRACO}");
        match plan(json, &at, &primitive, &ext, &mut next, &mut repointed) {
            Ok((job, buffers)) => {
                added.extend(buffers);
                out.jobs.push(job);
            }
            Err(e) => problems.error(&at, e),
        }
    }
    // The new buffers, then each repointed accessor's view into its buffer.
    let first_new = json
        .get("buffers")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let views = json
        .get("bufferViews")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut new_views = Vec::new();
    for (k, (length, stride)) in added.iter().enumerate() {
        let mut view = json!({"buffer": first_new + k, "byteLength": length});
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        new_views.push(view);
    }
    if let Some(accessors) = json.get_mut("accessors").and_then(Value::as_array_mut) {
        for (&accessor, &into) in &repointed {
            if let Some(a) = accessors.get_mut(accessor) {
                a["bufferView"] = json!(views + (into - first_new));
                a["byteOffset"] = json!(0);
            }
        }
    }
    let buffers = added
        .iter()
        .map(|(length, _)| json!({"byteLength": length}));
    match json.get_mut("buffers").and_then(Value::as_array_mut) {
        Some(b) => b.extend(buffers),
        None if !added.is_empty() => json["buffers"] = Value::Array(buffers.collect()),
        None => {}
    }
    if !new_views.is_empty() {
        match json.get_mut("bufferViews").and_then(Value::as_array_mut) {
            Some(v) => v.extend(new_views),
            None => json["bufferViews"] = Value::Array(new_views),
        }
    }
    out
}

/// One primitive's targets and the byte lengths of the buffers they need.
fn plan(
    json: &Value,
    at: &str,
    primitive: &Value,
    ext: &Value,
    next: &mut usize,
    repointed: &mut std::collections::HashMap<usize, usize>,
) -> Result<(Job, Vec<NewBuffer>), String> {
    let view_index = ext
        .get("bufferView")
        .and_then(Value::as_u64)
        .ok_or("needs a bufferView")? as usize;
    let view = json["bufferViews"]
        .get(view_index)
        .ok_or_else(|| format!("bufferView {view_index} does not exist"))?;
    let field = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).map(|x| x as usize);
    let source = Stream {
        buffer: field(view, "buffer").ok_or("its bufferView names no buffer")?,
        offset: field(view, "byteOffset").unwrap_or(0),
        length: field(view, "byteLength").ok_or("its bufferView has no byteLength")?,
    };
    let map = ext
        .get("attributes")
        .and_then(Value::as_object)
        .ok_or("needs attributes")?;
    let mut wanted: Vec<(String, Option<usize>, usize)> = Vec::new();
    for (name, id) in map {
        let id = id
            .as_u64()
            .ok_or_else(|| format!("attributes/{name} is not a Draco attribute id"))?;
        let accessor = primitive["attributes"][name]
            .as_u64()
            .ok_or_else(|| format!("attributes/{name} is not among the primitive's attributes"))?;
        wanted.push((name.clone(), Some(id as usize), accessor as usize));
    }
    if let Some(indices) = primitive.get("indices").and_then(Value::as_u64) {
        wanted.push(("indices".into(), None, indices as usize));
    }
    let mut targets = Vec::new();
    let mut lengths = Vec::new();
    let mut total = 0usize;
    for (name, draco_id, accessor) in wanted {
        let a = json["accessors"]
            .get(accessor)
            .ok_or_else(|| format!("{name}'s accessor {accessor} does not exist"))?;
        let component_type = a["componentType"].as_u64().unwrap_or(0);
        let size = component_size(component_type)
            .ok_or_else(|| format!("{name}'s accessor has componentType {component_type}"))?;
        let components = components_of(a["type"].as_str().unwrap_or(""))
            .ok_or_else(|| format!("{name}'s accessor has type {}", a["type"]))?;
        let count = field(a, "count").ok_or_else(|| format!("{name}'s accessor has no count"))?;
        // An attribute's elements start on 4 bytes, as glTF's vertex strides must (an i8 VEC3
        // normal takes 4).
        let element = size * components;
        let stride = if draco_id.is_some() {
            element.next_multiple_of(4)
        } else {
            element
        };
        let length = count.saturating_mul(stride).next_multiple_of(4);
        total = total.saturating_add(length);
        let into = match repointed.get(&accessor) {
            Some(&into) => into,
            None => {
                let into = *next;
                *next += 1;
                repointed.insert(accessor, into);
                lengths.push((length, (stride != element).then_some(stride)));
                into
            }
        };
        targets.push(Target {
            name,
            draco_id,
            into,
            component_type,
            components,
            normalized: a["normalized"] == json!(true),
            count,
            stride,
        });
    }
    // Draco stores a value in a few bits at least; the accessors cannot ask for more than this
    // from the compressed bytes (checked before anything is allocated).
    if total > (256 * source.length).max(1 << 20) || total > 1 << 30 {
        return Err(format!(
            "its accessors declare {total} bytes, more than {} compressed bytes can hold",
            source.length
        ));
    }
    Ok((
        Job {
            at: at.to_string(),
            source,
            targets,
        },
        lengths,
    ))
}

impl Draco {
    /// Decodes every Draco primitive from its (loaded) buffer into its accessors' buffers; a
    /// stream that does not decode, or decodes to other counts than the accessors', is an
    /// error at its primitive's extension.
    pub(crate) fn decode(&self, buffers: &mut crate::accessor::Buffers, problems: &mut Problems) {
        for job in &self.jobs {
            // A stream the decoder cannot read should be its error; should it panic instead (a
            // decoder's assertion), that is this primitive's error too, never the viewer's
            // crash.
            let decoded =
                crate::contain::quietly(|| decode_job(job, buffers)).unwrap_or_else(|_| {
                    Err("the Draco data does not decode (the decoder stopped on it)".into())
                });
            match decoded {
                Ok(filled) => {
                    for (into, bytes) in filled {
                        if let Some(slot) = buffers.get_mut(into) {
                            *slot = Ok(bytes);
                        }
                    }
                }
                Err(e) => problems.error(&job.at, e),
            }
        }
    }
}

fn decode_job(
    job: &Job,
    buffers: &crate::accessor::Buffers,
) -> Result<Vec<(usize, Vec<u8>)>, String> {
    let Stream {
        buffer,
        offset,
        length,
    } = job.source;
    let source = match buffers.get(buffer) {
        Some(Ok(data)) => data,
        Some(Err(reason)) => return Err(format!("its buffer {buffer} has no data: {reason}")),
        None => return Err(format!("buffer {buffer} does not exist")),
    };
    let bytes = offset
        .checked_add(length)
        .and_then(|end| source.get(offset..end))
        .ok_or_else(|| {
            format!(
                "bytes {offset}..{} are outside buffer {buffer}",
                offset.saturating_add(length)
            )
        })?;
    decode_stream(job, bytes)
}

/// One value in the accessor's component type: a float as it is, or quantized to a normalised
/// integer accessor (Draco's dequantized floats), or an integer as it is.
fn write_component(out: &mut Vec<u8>, v: f64, t: &Target, float: bool) {
    let scaled = |max: f64| {
        if t.normalized && float {
            (v * max).round()
        } else {
            v.round()
        }
    };
    match t.component_type {
        5126 => out.extend((v as f32).to_le_bytes()),
        5120 => out.push(scaled(127.0).clamp(-128.0, 127.0) as i8 as u8),
        5121 => out.push(scaled(255.0).clamp(0.0, 255.0) as u8),
        5122 => out.extend((scaled(32767.0).clamp(-32768.0, 32767.0) as i16).to_le_bytes()),
        5123 => out.extend((scaled(65535.0).clamp(0.0, 65535.0) as u16).to_le_bytes()),
        _ => out.extend((scaled(4294967295.0).clamp(0.0, 4294967295.0) as u32).to_le_bytes()),
    }
}

/// The stream decoded by draco-core (decoding no more points, faces and bytes than the accessors
/// declare): every target filled from its attribute, point by point through the attribute's
/// point-to-value map (an attribute with seams holds more values than points, or fewer), or
/// from the faces.
fn decode_stream(job: &Job, bytes: &[u8]) -> Result<Vec<(usize, Vec<u8>)>, String> {
    use draco_core::{DecodeLimits, DecoderBuffer, Mesh, MeshDecoder};
    let points = job
        .targets
        .iter()
        .filter(|t| t.draco_id.is_some())
        .map(|t| t.count)
        .max()
        .unwrap_or(0);
    let faces = job
        .targets
        .iter()
        .filter(|t| t.draco_id.is_none())
        .map(|t| t.count / 3)
        .max()
        .unwrap_or(0);
    let wanted: usize = job.targets.iter().map(|t| t.count * t.stride).sum();
    // The stream may decode to no more than its accessors declare (and their values to a few
    // times their bytes: Draco may hold floats where the accessor has bytes).
    let limits = DecodeLimits::default()
        .with_max_points(points as u64)
        .with_max_faces(faces as u64)
        .with_max_decoded_bytes((wanted as u64).saturating_mul(8).max(1 << 16));
    let mut buffer = DecoderBuffer::new(bytes).with_limits(limits);
    let mut mesh = Mesh::new();
    MeshDecoder::new()
        .decode(&mut buffer, &mut mesh)
        .map_err(|e| format!("the Draco data does not decode: {e}"))?;
    let mut filled = Vec::new();
    for t in &job.targets {
        let bytes = match t.draco_id {
            None => indices_of(&mesh, t)?,
            Some(id) => attribute_bytes(&mesh, id, t)?,
        };
        filled.push((t.into, bytes));
    }
    Ok(filled)
}

fn indices_of(mesh: &draco_core::Mesh, t: &Target) -> Result<Vec<u8>, String> {
    let faces = mesh.num_faces();
    if faces.saturating_mul(3) != t.count {
        return Err(format!(
            "the stream has {faces} faces ({} indices) where the indices accessor has {}",
            faces * 3,
            t.count
        ));
    }
    let points = mesh.num_points();
    let mut out = Vec::with_capacity(t.count * 4);
    for f in 0..faces {
        for p in mesh.face(draco_core::FaceIndex(f as u32)) {
            let i = p.0 as usize;
            if i >= points {
                return Err(format!("a face names point {i} of {points}"));
            }
            match t.component_type {
                5121 => out.push(u8::try_from(i).map_err(|_| format!("index {i} is not a byte"))?),
                5123 => out.extend(
                    u16::try_from(i)
                        .map_err(|_| format!("index {i} is not 16-bit"))?
                        .to_le_bytes(),
                ),
                _ => out.extend((i as u32).to_le_bytes()),
            }
        }
    }
    out.resize(out.len().next_multiple_of(4), 0);
    Ok(out)
}

fn attribute_bytes(mesh: &draco_core::Mesh, id: usize, t: &Target) -> Result<Vec<u8>, String> {
    use draco_core::DataType as D;
    let a = u32::try_from(id)
        .ok()
        .and_then(|id| mesh.attribute_by_unique_id(id))
        .ok_or_else(|| format!("{}: the stream has no attribute {id}", t.name))?;
    let n = usize::from(a.num_components());
    let points = mesh.num_points();
    if n != t.components || points != t.count {
        return Err(format!(
            "{}: the stream has {points} points of {n} components where the accessor has {} of {}",
            t.name, t.count, t.components
        ));
    }
    let kind = a.data_type();
    let size = match kind {
        D::Int8 | D::Uint8 | D::Bool => 1,
        D::Int16 | D::Uint16 => 2,
        D::Int32 | D::Uint32 | D::Float32 => 4,
        D::Float64 => 8,
        _ => return Err(format!("{}: Draco component type {kind:?}", t.name)),
    };
    let stride = usize::try_from(a.byte_stride()).unwrap_or(0).max(n * size);
    let data = a.buffer().data();
    let read = |at: usize| -> Option<f64> {
        let b = data.get(at..at + size)?;
        Some(match kind {
            D::Int8 => f64::from(b[0] as i8),
            D::Uint8 | D::Bool => f64::from(b[0]),
            D::Int16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            D::Uint16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            D::Int32 => f64::from(i32::from_le_bytes(b.try_into().ok()?)),
            D::Uint32 => f64::from(u32::from_le_bytes(b.try_into().ok()?)),
            D::Float32 => f64::from(f32::from_le_bytes(b.try_into().ok()?)),
            _ => f64::from_le_bytes(b.try_into().ok()?),
        })
    };
    let float = matches!(kind, D::Float32 | D::Float64);
    let mut out = Vec::with_capacity(t.count * t.stride);
    for point in 0..t.count {
        let value = a.mapped_index(draco_core::PointIndex(point as u32)).0 as usize;
        for c in 0..n {
            let v = read(value * stride + c * size)
                .ok_or_else(|| format!("{}: value {value} is outside the decoded data", t.name))?;
            write_component(&mut out, v, t, float);
        }
        out.resize((point + 1) * t.stride, 0);
    }
    out.resize(out.len().next_multiple_of(4), 0);
    Ok(out)
}
