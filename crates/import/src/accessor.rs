//! Bounds-checked accessor reading: strides, normalised integers, matrix column padding, sparse
//! substitution and accessors without a buffer view (zeros). Every size a file declares is checked
//! against the bytes really present before anything is allocated.

use gltf::accessor::{DataType, Dimensions};

use crate::character::Problem;

/// Most components an accessor with no buffer view (all zeros, maybe sparse) may declare: such
/// data costs nothing in the file, so its size is capped instead of checked against bytes.
const MAX_ZERO_FILLED_COMPONENTS: usize = 1 << 24;

pub(crate) fn pointer(accessor: usize) -> String {
    format!("/accessors/{accessor}")
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// How one element of an accessor lies in its buffer view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ElementLayout {
    /// Bytes one element occupies.
    size: usize,
    /// Bytes from one column to the next (the element's size for a scalar or a vector).
    column_stride: usize,
    /// Components a column holds.
    rows: usize,
}

/// An element's layout: glTF pads matrix columns of 1- and 2-byte components to 4 bytes.
fn element_layout(t: DataType, d: Dimensions) -> ElementLayout {
    let c = component_size(t);
    let (columns, rows) = match d {
        Dimensions::Mat2 => (2, 2),
        Dimensions::Mat3 => (3, 3),
        Dimensions::Mat4 => (4, 4),
        other => (1, other.multiplicity()),
    };
    let column_bytes = rows * c;
    let column_stride = if columns > 1 {
        column_bytes.div_ceil(4) * 4
    } else {
        column_bytes
    };
    ElementLayout {
        size: columns * column_stride,
        column_stride,
        rows,
    }
}

/// Each buffer's bytes, or why it has none (a `.gltf` buffer without a `uri`, say). A buffer
/// without data is an error only where something reads it.
pub(crate) type Buffers = [Result<Vec<u8>, NoData>];

/// Why a buffer has no data.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum NoData {
    #[error("it has no uri and the file has no GLB BIN chunk")]
    NoSource,
    /// Shorter than its byteLength (an error at the buffer already).
    #[error("truncated")]
    Truncated,
    /// A buffer only compressed data fills, which its decoder did not fill (it failed, and
    /// said why at its own JSON pointer).
    #[error("filled only by decoding compressed data, which did not fill it")]
    Undecoded,
    #[error(transparent)]
    Uri(#[from] crate::uri::UriError),
    /// A decoder's refusal (Draco, meshopt), reported at what it decoded.
    #[error("{0}")]
    Decoder(String),
}

/// The bytes of one buffer view, checked against its buffer.
fn view_bytes<'b>(
    view: &gltf::buffer::View<'_>,
    buffers: &'b Buffers,
) -> Result<&'b [u8], Problem> {
    let at = format!("/bufferViews/{}", view.index());
    let buffer = match buffers.get(view.buffer().index()) {
        Some(Ok(data)) => data,
        Some(Err(reason)) => {
            return Err(Problem::new(
                format!("{at}/buffer"),
                format!("buffer {} has no data: {reason}", view.buffer().index()),
            ));
        }
        None => {
            return Err(Problem::new(
                format!("{at}/buffer"),
                "its buffer was not loaded",
            ));
        }
    };
    let available = buffer.len().min(view.buffer().length());
    let end = view
        .offset()
        .checked_add(view.length())
        .filter(|&end| end <= available)
        .ok_or_else(|| {
            Problem::new(
                format!("{at}/byteLength"),
                format!(
                    "bytes {}..{} run past the end of buffer {} ({available} bytes)",
                    view.offset(),
                    view.offset() as u128 + view.length() as u128,
                    view.buffer().index(),
                ),
            )
        })?;
    Ok(&buffer[view.offset()..end])
}

/// Where an accessor's elements are and how they are laid out, all bounds checked.
struct Located<'b> {
    /// The buffer view's bytes; `None` for an accessor without a view (zeros).
    bytes: Option<&'b [u8]>,
    offset: usize,
    stride: usize,
    component_size: usize,
    column_stride: usize,
    rows: usize,
    components: usize,
    count: usize,
}

impl Located<'_> {
    /// Byte offset of component `k` of element `i` within `bytes`.
    fn at(&self, i: usize, k: usize) -> usize {
        self.offset
            + i * self.stride
            + (k / self.rows) * self.column_stride
            + (k % self.rows) * self.component_size
    }
}

fn locate<'b>(accessor: &gltf::Accessor<'_>, buffers: &'b Buffers) -> Result<Located<'b>, Problem> {
    let at = pointer(accessor.index());
    let t = accessor.data_type();
    let component_size = component_size(t);
    let ElementLayout {
        size: element_size,
        column_stride,
        rows,
    } = element_layout(t, accessor.dimensions());
    let components = accessor.dimensions().multiplicity();
    let count = accessor.count();
    let total = count
        .checked_mul(components)
        .ok_or_else(|| Problem::new(&at, format!("count {count} is too large")))?;
    let Some(view) = accessor.view() else {
        if total > MAX_ZERO_FILLED_COMPONENTS {
            return Err(Problem::new(
                format!("{at}/count"),
                format!("{count} elements with no buffer view is more than this viewer accepts"),
            ));
        }
        return Ok(Located {
            bytes: None,
            offset: 0,
            stride: element_size,
            component_size,
            column_stride,
            rows,
            components,
            count,
        });
    };
    let stride = view.stride().unwrap_or(element_size);
    if stride < element_size {
        return Err(Problem::new(
            format!("/bufferViews/{}/byteStride", view.index()),
            format!(
                "byteStride {stride} is smaller than accessor {}'s {element_size}-byte elements",
                accessor.index()
            ),
        ));
    }
    // The last element must end inside the view (as declared, then as loaded).
    let end = match count.checked_sub(1) {
        None => Some(0),
        Some(last) => last
            .checked_mul(stride)
            .and_then(|b| b.checked_add(element_size))
            .and_then(|b| b.checked_add(accessor.offset())),
    };
    if end.is_none_or(|end| end > view.length()) {
        return Err(Problem::new(
            &at,
            format!(
                "{count} elements of {element_size} bytes (stride {stride}) from byte {} need more than the {} bytes of buffer view {}",
                accessor.offset(),
                view.length(),
                view.index()
            ),
        ));
    }
    let bytes = view_bytes(&view, buffers)?;
    Ok(Located {
        bytes: Some(bytes),
        offset: accessor.offset(),
        stride,
        component_size,
        column_stride,
        rows,
        components,
        count,
    })
}

/// The sparse part of an accessor, bounds checked: (index type, index bytes, index offset,
/// values laid out like the accessor's elements).
struct LocatedSparse<'b> {
    count: usize,
    index_type: DataType,
    index_bytes: &'b [u8],
    index_offset: usize,
    values: Located<'b>,
}

fn locate_sparse<'b>(
    accessor: &gltf::Accessor<'_>,
    buffers: &'b Buffers,
) -> Result<Option<LocatedSparse<'b>>, Problem> {
    let Some(sparse) = accessor.sparse() else {
        return Ok(None);
    };
    let at = format!("{}/sparse", pointer(accessor.index()));
    let n = sparse.count();
    if n > accessor.count() {
        return Err(Problem::new(
            format!("{at}/count"),
            format!("{n} sparse elements in an accessor of {}", accessor.count()),
        ));
    }
    let indices = sparse.indices();
    let index_type = match indices.index_type() {
        gltf::accessor::sparse::IndexType::U8 => DataType::U8,
        gltf::accessor::sparse::IndexType::U16 => DataType::U16,
        gltf::accessor::sparse::IndexType::U32 => DataType::U32,
    };
    let index_bytes = view_bytes(&indices.view(), buffers)?;
    let values = sparse.values();
    let value_bytes = view_bytes(&values.view(), buffers)?;
    let t = accessor.data_type();
    let ElementLayout {
        size: element_size,
        column_stride,
        rows,
    } = element_layout(t, accessor.dimensions());
    let fits = |offset: usize, size: usize, len: usize| {
        n.checked_mul(size)
            .and_then(|b| b.checked_add(offset))
            .is_some_and(|end| end <= len)
    };
    if !fits(
        indices.offset(),
        component_size(index_type),
        index_bytes.len(),
    ) {
        return Err(Problem::new(
            format!("{at}/indices"),
            "sparse indices run past their buffer view",
        ));
    }
    if !fits(values.offset(), element_size, value_bytes.len()) {
        return Err(Problem::new(
            format!("{at}/values"),
            "sparse values run past their buffer view",
        ));
    }
    Ok(Some(LocatedSparse {
        count: n,
        index_type,
        index_bytes,
        index_offset: indices.offset(),
        values: Located {
            bytes: Some(value_bytes),
            offset: values.offset(),
            stride: element_size,
            component_size: component_size(t),
            column_stride,
            rows,
            components: accessor.dimensions().multiplicity(),
            count: n,
        },
    }))
}

/// Checks that every buffer view and accessor of the file lies inside its data, without reading
/// or allocating anything: a file that declares more than it holds is refused up front.
pub(crate) fn check_all(document: &gltf::Document, buffers: &Buffers) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut used_views = vec![false; document.views().len()];
    for accessor in document.accessors() {
        if let Some(v) = accessor.view() {
            used_views[v.index()] = true;
        }
        if let Err(p) = locate(&accessor, buffers).and_then(|_| locate_sparse(&accessor, buffers)) {
            problems.push(p);
        }
    }
    // Views no accessor reads (images, say) must still fit their buffer.
    for view in document.views().filter(|v| !used_views[v.index()]) {
        if let Err(p) = view_bytes(&view, buffers)
            && !p.message.contains("has no data")
        {
            problems.push(p);
        }
    }
    problems.dedup();
    problems
}

/// Decodes one component to f32, normalising integers when asked.
fn decode_f32(bytes: &[u8], t: DataType, normalized: bool) -> f32 {
    match t {
        DataType::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        DataType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f32,
        DataType::U8 => {
            let v = bytes[0] as f32;
            if normalized { v / 255.0 } else { v }
        }
        DataType::I8 => {
            let v = bytes[0] as i8 as f32;
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        DataType::U16 => {
            let v = u16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized { v / 65535.0 } else { v }
        }
        DataType::I16 => {
            let v = i16::from_le_bytes([bytes[0], bytes[1]]) as f32;
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
    }
}

fn decode_u32(bytes: &[u8], t: DataType) -> u32 {
    match t {
        DataType::U8 => bytes[0] as u32,
        DataType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        DataType::U32 => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        // Callers check for unsigned types first.
        DataType::I8 | DataType::I16 | DataType::F32 => 0,
    }
}

/// Reads `accessor` as `count * components` values, each decoded by `decode` from the bytes of
/// one component.
fn read<T: Copy + Default>(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers,
    decode: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>, Problem> {
    let located = locate(accessor, buffers)?;
    let c = located.component_size;
    let mut out = match located.bytes {
        Some(bytes) => {
            let mut out = Vec::with_capacity(located.count * located.components);
            for i in 0..located.count {
                for k in 0..located.components {
                    let at = located.at(i, k);
                    out.push(decode(&bytes[at..at + c]));
                }
            }
            out
        }
        None => vec![T::default(); located.count * located.components],
    };
    if let Some(sparse) = locate_sparse(accessor, buffers)? {
        let at = format!("{}/sparse/indices", pointer(accessor.index()));
        let index_size = component_size(sparse.index_type);
        let values = &sparse.values;
        let value_bytes = values.bytes.unwrap_or_default();
        let mut previous: Option<usize> = None;
        for s in 0..sparse.count {
            let ia = sparse.index_offset + s * index_size;
            let target =
                decode_u32(&sparse.index_bytes[ia..ia + index_size], sparse.index_type) as usize;
            if target >= located.count || previous.is_some_and(|p| target <= p) {
                return Err(Problem::new(
                    at,
                    format!(
                        "sparse index {s} is {target}: indices must increase and stay below {}",
                        located.count
                    ),
                ));
            }
            previous = Some(target);
            for k in 0..located.components {
                let va = values.at(s, k);
                out[target * located.components + k] = decode(&value_bytes[va..va + c]);
            }
        }
    }
    Ok(out)
}

/// Every component as f32 (integers normalised when the accessor says so).
pub(crate) fn read_f32(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers,
) -> Result<Vec<f32>, Problem> {
    let t = accessor.data_type();
    let normalized = accessor.normalized();
    read(accessor, buffers, |b| decode_f32(b, t, normalized))
}

/// Every component as f32, integers always normalised (rotations and weights, where glTF allows
/// only float or normalised integers).
pub(crate) fn read_normalized_f32(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers,
) -> Result<Vec<f32>, Problem> {
    let t = accessor.data_type();
    read(accessor, buffers, |b| decode_f32(b, t, true))
}

/// Every component as u32; the accessor must hold unsigned integers.
pub(crate) fn read_u32(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers,
) -> Result<Vec<u32>, Problem> {
    let t = accessor.data_type();
    if !matches!(t, DataType::U8 | DataType::U16 | DataType::U32) {
        return Err(Problem::new(
            format!("{}/componentType", pointer(accessor.index())),
            format!("{t:?} where unsigned integers are required"),
        ));
    }
    read(accessor, buffers, |b| decode_u32(b, t))
}

/// Checks the accessor's element type and component types against what its use allows.
pub(crate) fn expect_format(
    accessor: &gltf::Accessor<'_>,
    use_pointer: &str,
    what: &str,
    dimensions: &[Dimensions],
    types: &[DataType],
) -> Result<(), Problem> {
    let d = accessor.dimensions();
    let t = accessor.data_type();
    if !dimensions.contains(&d) || !types.contains(&t) {
        return Err(Problem::new(
            use_pointer,
            format!(
                "{what} accessor {} is {d:?} of {t:?}; expected {dimensions:?} of {types:?}",
                accessor.index()
            ),
        ));
    }
    Ok(())
}
