//! EXT_meshopt_compression's decoding, by zeux's meshoptimizer (the `meshopt` crate, the
//! library gltfpack encodes with): index buffers, index sequences and attributes with their
//! filters, to plain little-endian bytes.

/// A compressed view's bytes decoded by its mode, byte stride and filter to `count` elements.
pub(crate) fn decode_bytes(
    mode: &str,
    filter: &str,
    stride: usize,
    count: usize,
    bytes: &[u8],
) -> Result<Vec<u8>, String> {
    let failed = |e: meshopt::Error| format!("the {} data does not decode: {e}", mode);
    match (mode, stride) {
        ("TRIANGLES", 2) => Ok(le_bytes_u16(
            &meshopt::decode_index_buffer::<u16>(bytes, count).map_err(failed)?,
        )),
        ("TRIANGLES", 4) => Ok(le_bytes_u32(
            &meshopt::decode_index_buffer::<u32>(bytes, count).map_err(failed)?,
        )),
        ("INDICES", 2) => Ok(le_bytes_u16(
            &meshopt::decode_index_sequence::<u16>(bytes, count).map_err(failed)?,
        )),
        ("INDICES", 4) => Ok(le_bytes_u32(
            &meshopt::decode_index_sequence::<u32>(bytes, count).map_err(failed)?,
        )),
        ("ATTRIBUTES", s) if s % 4 == 0 && (4..=256).contains(&s) => {
            decode_attributes(bytes, count, s / 4, filter)
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
