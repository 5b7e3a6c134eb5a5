//! Direct delta mush's Ω saved and read back, so that a command run again on the same mesh
//! with the same parameters skips the precomputation: little-endian, a header naming what it
//! was computed from (`ddm_key`: the parameters and every skinned primitive's positions,
//! triangles and influences), then per mesh per primitive its ranges, centroids and entries.
//! A file read back is checked against the character it is for, entry by entry (a damaged or
//! foreign file is an error, never a wrong deformation).

use crate::anim::OmegaEntry;
use crate::character::Character;

use super::ddm::{DdmData, DdmParams, DdmPrimitive};

const MAGIC: &[u8; 8] = b"SKSDDMO\0";
const VERSION: u32 = 1;

/// Why a saved Ω was not used.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DdmFileError {
    #[error("not a saved direct delta mush (no SKSDDMO header)")]
    NotDdm,
    #[error("format version {0}; this skinscope reads version {VERSION}")]
    Version(u32),
    #[error("computed from another mesh or other parameters")]
    OtherKey,
    #[error("cut short at byte {0}")]
    Truncated(usize),
    #[error("{0}")]
    Invalid(String),
}

/// FNV-1a over bytes: a hash that is the same on every build and machine (the cache's key).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
}

/// What an Ω is computed from: the parameters, and every skinned primitive's positions,
/// triangles and influences, in order.
pub fn ddm_key(c: &Character, params: &DdmParams) -> u64 {
    let mut h = Fnv::new();
    h.u32(params.iterations);
    for f in [params.lambda, params.kappa, params.alpha] {
        h.u32(f.to_bits());
    }
    h.u32(params.cap as u32);
    for (m, mesh) in c.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let Some(skin) = &primitive.skinning else {
                continue;
            };
            h.u32(m as u32);
            h.u32(p as u32);
            h.bytes(bytemuck::cast_slice(&primitive.positions));
            if let Some(indices) = &primitive.indices {
                h.bytes(bytemuck::cast_slice(indices));
            }
            for v in 0..primitive.positions.len() {
                for (j, w) in skin.influences(v) {
                    h.u32(u32::from(j));
                    h.u32(w.to_bits());
                }
            }
        }
    }
    h.0
}

impl DdmData {
    /// The saved form, under `key` (`ddm_key` of the character it was computed for).
    pub fn to_bytes(&self, key: u64) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put(&mut out, VERSION);
        out.extend_from_slice(&key.to_le_bytes());
        let p = &self.params;
        put(&mut out, p.iterations);
        for f in [p.lambda, p.kappa, p.alpha] {
            put(&mut out, f.to_bits());
        }
        put(&mut out, p.cap as u32);
        put(&mut out, self.meshes.len() as u32);
        for mesh in &self.meshes {
            put(&mut out, mesh.len() as u32);
            for primitive in mesh {
                let Some(d) = primitive else {
                    out.push(0);
                    continue;
                };
                out.push(1);
                put(&mut out, d.welded as u32);
                put(&mut out, d.dropped as u32);
                put(&mut out, d.ranges.len() as u32);
                for r in &d.ranges {
                    put(&mut out, r[0]);
                    put(&mut out, r[1]);
                }
                for c in &d.centroids {
                    for x in c.to_array() {
                        put(&mut out, x.to_bits());
                    }
                }
                put(&mut out, d.entries.len() as u32);
                for e in &d.entries {
                    for x in e.omega {
                        put(&mut out, x.to_bits());
                    }
                    put(&mut out, e.joint);
                }
            }
        }
        out
    }

    /// A saved Ω for `c` under `key`: refused unless it was computed from the same mesh and
    /// parameters and fits `c` (its meshes, primitives and vertices; every entry inside its
    /// primitive's and naming a joint of the skin).
    pub fn from_bytes(bytes: &[u8], c: &Character, key: u64) -> Result<Self, DdmFileError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(DdmFileError::NotDdm);
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(DdmFileError::Version(version));
        }
        if u64::from_le_bytes(r.take(8)?.try_into().unwrap_or_default()) != key {
            return Err(DdmFileError::OtherKey);
        }
        let params = DdmParams {
            iterations: r.u32()?,
            lambda: f32::from_bits(r.u32()?),
            kappa: f32::from_bits(r.u32()?),
            alpha: f32::from_bits(r.u32()?),
            cap: r.u32()? as usize,
        };
        let invalid = |what: String| DdmFileError::Invalid(what);
        if r.u32()? as usize != c.meshes.len() {
            return Err(invalid("another count of meshes".into()));
        }
        let joints = c.skins.iter().map(|s| s.skin.len()).max().unwrap_or(0) as u32;
        let mut meshes = Vec::with_capacity(c.meshes.len());
        for (m, mesh) in c.meshes.iter().enumerate() {
            if r.u32()? as usize != mesh.primitives.len() {
                return Err(invalid(format!("mesh {m}: another count of primitives")));
            }
            let mut out = Vec::with_capacity(mesh.primitives.len());
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let present = r.take(1)?[0] == 1;
                if present != primitive.skinning.is_some() {
                    return Err(invalid(format!(
                        "mesh {m} primitive {p}: skinned otherwise"
                    )));
                }
                out.push(
                    present
                        .then(|| read_primitive(&mut r, primitive.positions.len(), joints))
                        .transpose()
                        .map_err(|e| match e {
                            DdmFileError::Invalid(why) => {
                                invalid(format!("mesh {m} primitive {p}: {why}"))
                            }
                            e => e,
                        })?,
                );
            }
            meshes.push(out);
        }
        if r.at != bytes.len() {
            return Err(invalid(format!(
                "{} bytes after the last primitive",
                bytes.len() - r.at
            )));
        }
        Ok(DdmData { params, meshes })
    }
}

/// One primitive of `vertices` vertices, its entries naming joints below `joints`.
fn read_primitive(
    r: &mut Reader<'_>,
    vertices: usize,
    joints: u32,
) -> Result<DdmPrimitive, DdmFileError> {
    let invalid = |what: &str| DdmFileError::Invalid(what.to_string());
    let welded = r.u32()? as usize;
    let dropped = r.u32()? as usize;
    let count = r.u32()? as usize;
    if count != vertices {
        return Err(invalid("another count of vertices"));
    }
    // Ranges and centroids: 20 bytes a vertex, checked against what is left before allocating.
    if count.saturating_mul(20) > r.left() {
        return Err(DdmFileError::Truncated(r.bytes.len()));
    }
    let mut ranges = Vec::with_capacity(count);
    for _ in 0..count {
        ranges.push([r.u32()?, r.u32()?]);
    }
    let mut centroids = Vec::with_capacity(count);
    for _ in 0..count {
        let xyz = [r.f32()?, r.f32()?, r.f32()?];
        if !xyz.iter().all(|x| x.is_finite()) {
            return Err(invalid("a centroid that is not finite"));
        }
        centroids.push(glam::Vec3::from(xyz));
    }
    let entries_len = r.u32()? as usize;
    if entries_len.saturating_mul(44) > r.left() {
        return Err(DdmFileError::Truncated(r.bytes.len()));
    }
    let mut entries = Vec::with_capacity(entries_len);
    for _ in 0..entries_len {
        let mut omega = [0.0f32; 10];
        for x in &mut omega {
            *x = r.f32()?;
        }
        let joint = r.u32()?;
        if joint >= joints || !omega.iter().all(|x| x.is_finite()) {
            return Err(invalid(
                "an entry naming no joint of the skin, or not finite",
            ));
        }
        entries.push(OmegaEntry { omega, joint });
    }
    if ranges
        .iter()
        .any(|&[first, n]| first as usize + n as usize > entries.len())
    {
        return Err(invalid("a vertex's entries outside the primitive's"));
    }
    Ok(DdmPrimitive {
        ranges,
        centroids,
        entries,
        welded,
        dropped,
    })
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Result<&'b [u8], DdmFileError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(DdmFileError::Truncated(self.at))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }
    fn u32(&mut self) -> Result<u32, DdmFileError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self) -> Result<f32, DdmFileError> {
        self.u32().map(f32::from_bits)
    }
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
}
