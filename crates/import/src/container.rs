//! The file's container: a GLB (header, JSON chunk, BIN chunk) or glTF JSON text, split before
//! the JSON is parsed. Lengths are checked against the file; a declared length that disagrees
//! with the data warns, a chunk that runs past the end of the file refuses it.

use super::problem::Problems;

/// The JSON text and the GLB's binary chunk (when there is one).
pub struct Split<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

const MAGIC: &[u8; 4] = b"glTF";
const JSON_CHUNK: u32 = 0x4E4F_534A;
const BIN_CHUNK: u32 = 0x004E_4942;

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits `bytes`; `glb_name` says the file is named `.glb`, so anything without the GLB magic
/// is refused as "not a GLB" rather than parsed as JSON.
pub fn split<'a>(bytes: &'a [u8], glb_name: bool, problems: &mut Problems) -> Option<Split<'a>> {
    if bytes.is_empty() {
        problems.error("", "the file is empty");
        return None;
    }
    if bytes.starts_with(MAGIC) {
        return split_glb(bytes, problems);
    }
    let text_start = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if glb_name || text_start != Some(&b'{') {
        let what = if glb_name { "a GLB" } else { "glTF" };
        problems.error(
            "",
            format!("not {what} (no glTF magic and no JSON object at the start of the file)"),
        );
        return None;
    }
    Some(Split {
        json: bytes,
        bin: None,
    })
}

fn split_glb<'a>(bytes: &'a [u8], problems: &mut Problems) -> Option<Split<'a>> {
    let (Some(version), Some(declared)) = (u32_at(bytes, 4), u32_at(bytes, 8)) else {
        problems.error("", "a GLB header needs 12 bytes; the file is shorter");
        return None;
    };
    if version != 2 {
        problems.error(
            "",
            format!("GLB version {version}: only version 2 is glTF 2.0"),
        );
        return None;
    }
    if declared as usize != bytes.len() {
        problems.warn(
            "",
            format!(
                "the GLB header declares {declared} bytes but the file has {}; read as far as its chunks go",
                bytes.len()
            ),
        );
    }
    let json = chunk(bytes, 12, JSON_CHUNK, "JSON", problems)?;
    let json_end = 12 + 8 + json.len();
    let padded_end = json_end.next_multiple_of(4);
    let bin = if bytes.len() > padded_end.max(json_end) + 8 {
        chunk(bytes, padded_end, BIN_CHUNK, "BIN", problems)
    } else {
        None
    };
    let used = bin.map_or(json_end, |b| padded_end + 8 + b.len());
    if bytes.len() > used.next_multiple_of(4) {
        problems.warn(
            "",
            format!(
                "{} bytes follow the GLB's last chunk (its chunk lengths disagree with the file); ignored",
                bytes.len() - used
            ),
        );
    }
    Some(Split { json, bin })
}

/// The chunk whose header starts at `at`: its declared length must fit the file.
fn chunk<'a>(
    bytes: &'a [u8],
    at: usize,
    kind: u32,
    name: &str,
    problems: &mut Problems,
) -> Option<&'a [u8]> {
    let (Some(length), Some(found)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
        problems.error("", format!("the GLB ends before its {name} chunk header"));
        return None;
    };
    if found != kind {
        if name == "JSON" {
            problems.error("", "the GLB's first chunk is not JSON");
        } else {
            problems.warn("", format!("the GLB's second chunk is not {name}; ignored"));
        }
        return None;
    }
    let start = at + 8;
    let available = bytes.len() - start.min(bytes.len());
    if length as usize > available {
        problems.error(
            "",
            format!(
                "the GLB's {name} chunk declares {length} bytes but only {available} remain in the file"
            ),
        );
        return None;
    }
    bytes.get(start..start + length as usize)
}
