//! Dual-quaternion skinning (Kavan, Collins, Zara, O'Sullivan 2007), with scale: each palette
//! entry `mesh_from_bind = T * R * S` is split into a unit dual quaternion (R, T) and its scale
//! S, which is applied first ("DQS with scale"; the scale is taken as the diagonal of the
//! decomposition, so a palette entry with shear is skinned without its shear). Per vertex the
//! dual quaternions are blended with each one's sign aligned to the first influence's, then
//! normalised; the scales are blended linearly.
//!
//! A DQS palette entry is packed into the same 64 bytes as an LBS matrix, so the renderer's
//! palette buffer serves both: column 0 the real part (x, y, z, w), column 1 the dual part,
//! column 2 the scale (xyz), column 3 zero.

use glam::{Mat4, Quat, Vec3, Vec4};

/// How a character's vertices follow its joints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinningMethod {
    /// Linear blend skinning: the influences' matrices blended.
    #[default]
    Linear,
    /// Dual-quaternion skinning, scale applied first.
    DualQuaternion,
    /// Weight-blended: each vertex mixes the two by its influences' per-joint method weights
    /// (0: linear blend, 1: dual quaternions; `anim::blended`).
    Blended,
    /// Direct delta mush (`anim::ddm`, precomputed by `deform::ddm`): in the skin pass only.
    DeltaMush,
}

impl SkinningMethod {
    /// The shaders' code for it (`skin_vertex`'s first argument).
    pub fn code(self) -> u32 {
        match self {
            SkinningMethod::Linear => 0,
            SkinningMethod::DualQuaternion => 1,
            SkinningMethod::Blended => 2,
            SkinningMethod::DeltaMush => 3,
        }
    }

    /// Every method, in the panel's order.
    pub const ALL: [SkinningMethod; 4] = [
        SkinningMethod::Linear,
        SkinningMethod::DualQuaternion,
        SkinningMethod::Blended,
        SkinningMethod::DeltaMush,
    ];

    /// Its name in the panel and the split view's label.
    pub fn name(self) -> &'static str {
        match self {
            SkinningMethod::Linear => "linear blend",
            SkinningMethod::DualQuaternion => "dual quaternion",
            SkinningMethod::Blended => "per joint",
            SkinningMethod::DeltaMush => "direct delta mush",
        }
    }

    /// Its name in a sentence (the split view's labels).
    pub fn label(self) -> &'static str {
        match self {
            SkinningMethod::Linear => "linear blend skinning",
            SkinningMethod::DualQuaternion => "dual-quaternion skinning",
            SkinningMethod::Blended => "per-joint skinning",
            SkinningMethod::DeltaMush => "direct delta mush",
        }
    }

    /// Whether its palette carries dual-quaternion entries (`dq_entry`).
    pub fn uses_dual_quaternions(self) -> bool {
        matches!(
            self,
            SkinningMethod::DualQuaternion | SkinningMethod::Blended
        )
    }
}

/// The packed DQS entry of a palette matrix.
pub fn dq_entry(m: &Mat4) -> Mat4 {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    let real = rotation.normalize();
    // dual = 0.5 * (t, 0) * real
    let dual = Quat::from_xyzw(translation.x, translation.y, translation.z, 0.0) * real * 0.5;
    Mat4::from_cols(
        Vec4::from(real),
        Vec4::from(dual),
        scale.extend(0.0),
        Vec4::ZERO,
    )
}

/// A vertex's blended (real, dual, scale) over its (palette index, weight) influences, signs
/// aligned to the first's; `None` when an index is outside the palette.
fn blend(
    palette: &[Mat4],
    influences: impl IntoIterator<Item = (u32, f32)>,
) -> Option<(Vec4, Vec4, Vec3)> {
    let mut first: Option<Vec4> = None;
    let (mut real, mut dual, mut scale) = (Vec4::ZERO, Vec4::ZERO, Vec3::ZERO);
    for (j, w) in influences {
        let e = palette.get(j as usize)?;
        let first = *first.get_or_insert(e.x_axis);
        let sign = if e.x_axis.dot(first) < 0.0 { -w } else { w };
        real += e.x_axis * sign;
        dual += e.y_axis * sign;
        scale += e.z_axis.truncate() * w;
    }
    let n = real.length();
    if n < 1e-12 {
        return Some((Vec4::W, Vec4::ZERO, scale));
    }
    Some((real / n, dual / n, scale))
}

/// `q` rotating `v` (q unit, as (x, y, z, w)).
fn rotate(q: Vec4, v: Vec3) -> Vec3 {
    Quat::from_vec4(q) * v
}

/// The translation of a unit dual quaternion: `2 * dual * conj(real)`.
fn translation(real: Vec4, dual: Vec4) -> Vec3 {
    let t = Quat::from_vec4(dual) * Quat::from_vec4(real).conjugate() * 2.0;
    Vec3::new(t.x, t.y, t.z)
}

/// CPU reference of dual-quaternion skinning of a position, over a DQS palette (`dq_entry`).
pub fn dq_skin_position(
    palette: &[Mat4],
    influences: impl IntoIterator<Item = (u32, f32)>,
    position: Vec3,
) -> Option<Vec3> {
    let (real, dual, scale) = blend(palette, influences)?;
    Some(rotate(real, position * scale) + translation(real, dual))
}

/// CPU reference of dual-quaternion skinning of a direction (a normal: its scale inverted, then
/// rotated, renormalised; `normal = false`: a tangent, scaled then rotated).
pub fn dq_skin_direction(
    palette: &[Mat4],
    influences: impl IntoIterator<Item = (u32, f32)>,
    direction: Vec3,
    normal: bool,
) -> Option<Vec3> {
    let (real, _, scale) = blend(palette, influences)?;
    let scaled = if normal {
        let safe = Vec3::select(scale.abs().cmpgt(Vec3::splat(1e-12)), scale, Vec3::ONE);
        direction / safe
    } else {
        direction * scale
    };
    let out = rotate(real, scaled);
    Some(if normal { out.normalize_or_zero() } else { out })
}
