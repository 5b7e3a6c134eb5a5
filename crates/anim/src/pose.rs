//! Pose buffers and the per-frame stages after sampling: blending local poses, composing the
//! hierarchy (local to model) and building a skin palette, plus a CPU reference of the shader's
//! four-weight linear blend skinning.
//!
//! Every stage borrows its inputs and writes into a caller-owned output sized once
//! (`LocalPose::rest`, `ModelPose::new`, `SkinPalette::new`), so a frame allocates nothing.

use glam::{Affine3A, Mat4, Vec3};
use thiserror::Error;

use super::{Skeleton, Skin, Transform};

/// A stage was handed buffers of the wrong size (a programming error, reported rather than
/// panicking).
#[derive(Debug, Error, PartialEq)]
pub enum PoseError {
    #[error("{what} has {actual} entries, expected {expected}")]
    LengthMismatch {
        what: &'static str,
        expected: usize,
        actual: usize,
    },
}

/// `Ok` when a buffer of `actual` entries has the `expected` length, else
/// `PoseError::LengthMismatch` naming `what`.
pub fn check_len(what: &'static str, expected: usize, actual: usize) -> Result<(), PoseError> {
    if expected == actual {
        Ok(())
    } else {
        Err(PoseError::LengthMismatch {
            what,
            expected,
            actual,
        })
    }
}

/// One local transform per skeleton joint (`parent_from_joint`).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPose(Vec<Transform>);

impl LocalPose {
    /// The skeleton's rest pose; also sizes a buffer for the stages that write local poses.
    pub fn rest(skeleton: &Skeleton) -> Self {
        Self(skeleton.rest().to_vec())
    }

    pub fn from_transforms(transforms: Vec<Transform>) -> Self {
        Self(transforms)
    }

    pub fn as_slice(&self) -> &[Transform] {
        &self.0
    }

    pub fn as_mut_slice(&mut self) -> &mut [Transform] {
        &mut self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One `model_from_joint` transform per skeleton joint: the joint's space expressed in the
/// skeleton root's space (the scene root once imported).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelPose(Vec<Affine3A>);

impl ModelPose {
    pub fn new(skeleton: &Skeleton) -> Self {
        Self(vec![Affine3A::IDENTITY; skeleton.joint_count()])
    }

    pub fn as_slice(&self) -> &[Affine3A] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The skin matrices the vertex shader reads, one per palette index: `mesh_from_bind`, a
/// column-major `Mat4` (64 bytes) each, ready to copy into a storage buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinPalette(Vec<Mat4>);

impl SkinPalette {
    pub fn new(skin: &Skin) -> Self {
        Self(vec![Mat4::IDENTITY; skin.len()])
    }

    pub fn as_slice(&self) -> &[Mat4] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One input of `blend_poses`.
#[derive(Clone, Copy, Debug)]
pub struct BlendLayer<'a> {
    pub pose: &'a LocalPose,
    /// Relative weight; negative or non-finite weights count as 0.
    pub weight: f32,
}

/// Weighted blend of local poses into `out`.
///
/// Weights are normalised to sum to one. Translation and scale are blended linearly; rotations
/// are summed as quaternions, each flipped into the first contributing layer's hemisphere (q and
/// -q are the same rotation; without the flip a blend across hemispheres takes the long arc or
/// cancels out), then renormalised (nlerp). When the total weight is zero, `out` is the rest pose.
///
/// Rotations are unit quaternions (`Transform`'s contract, which every stage keeps). Two layers
/// take a faster path that relies on it (`nlerp_blocks`); with more, a sum that cancels all the
/// same (zero quaternions) gives the rest rotation.
pub fn blend_poses(
    layers: &[BlendLayer<'_>],
    rest: &LocalPose,
    out: &mut LocalPose,
) -> Result<(), PoseError> {
    let joint_count = rest.len();
    check_len("blend output", joint_count, out.len())?;
    for layer in layers {
        check_len("blend layer", joint_count, layer.pose.len())?;
    }
    let weight_of = |l: &BlendLayer<'_>| {
        if l.weight.is_finite() && l.weight > 0.0 {
            l.weight
        } else {
            0.0
        }
    };
    let total: f32 = layers.iter().map(weight_of).sum();
    if !total.is_finite() || total <= 0.0 {
        out.0.copy_from_slice(&rest.0);
        return Ok(());
    }
    // Two layers (a locomotion blend, a crossfade): four joints at a time, without the
    // per-layer loop (`nlerp_blocks`).
    if let [a, b] = layers {
        let (wa, wb) = (weight_of(a) / total, weight_of(b) / total);
        let done = joint_count - joint_count % 4;
        let (a_blocks, b_blocks) = (&a.pose.0[..done], &b.pose.0[..done]);
        nlerp_blocks(&mut out.0[..done], a_blocks, b_blocks, wa, wb);
        nlerp_tail(
            &mut out.0[done..],
            &a.pose.0[done..],
            &b.pose.0[done..],
            wa,
            wb,
        );
        return Ok(());
    }
    for joint in 0..joint_count {
        let mut translation = Vec3::ZERO;
        let mut scale = Vec3::ZERO;
        let mut rotation = glam::Vec4::ZERO;
        let mut reference: Option<glam::Vec4> = None;
        for layer in layers {
            let w = weight_of(layer) / total;
            if w == 0.0 {
                continue;
            }
            let t = &layer.pose.0[joint];
            translation += t.translation * w;
            scale += t.scale * w;
            let q = glam::Vec4::from(t.rotation);
            let r = *reference.get_or_insert(q);
            let sign = if q.dot(r) < 0.0 { -1.0 } else { 1.0 };
            rotation += q * (w * sign);
        }
        let rotation = glam::Quat::from_vec4(rotation);
        out.0[joint] = Transform {
            translation,
            rotation: if rotation.length_squared() > f32::EPSILON {
                rotation.normalize()
            } else {
                rest.0[joint].rotation
            },
            scale,
        };
    }
    Ok(())
}

/// Blocks of four joints `nlerp_blocks` works out weights for before it blends them (their
/// weights wait on the stack).
const NLERP_CHUNK_BLOCKS: usize = 8;
const NLERP_CHUNK: usize = 4 * NLERP_CHUNK_BLOCKS;

/// `out = wa * a + wb * b` (weights summing to one) for whole blocks of four joints (every
/// slice as long as `out`, a multiple of four): translation and scale linearly; rotations
/// summed with `b` flipped into `a`'s hemisphere (q and -q are the same rotation), then
/// renormalised (nlerp). Four lanes at a time, in two passes over chunks of
/// `NLERP_CHUNK_BLOCKS` blocks: the first works out each block's signed weights of `b` and
/// `1 / |sum|` from the rotations' dot products alone; the second writes each joint once,
/// `(wa qa + s qb) / |sum|`. The first pass's chains (dot products, signs, a square root and a
/// division) are short and independent, so the processor overlaps a whole chunk of them; the
/// second's are a multiply and an add. (Blending in the first pass and scaling in a second, as
/// before 6 December, gave the same values to the bit in about 8% more time.)
///
/// Rotations are unit quaternions (the contract of `Transform`), so a sum's squared length
/// follows from the dot product alone: `|wa qa + s wb qb|^2 = wa^2 + wb^2 + 2 wa wb |qa . qb|`
/// with `s` the dot product's sign. It is at least `wa^2 + wb^2 >= 1/2`: the sum never cancels.
/// A negative dot product (its sign bit: -0 too) flips `b`.
#[inline(always)]
fn nlerp_blocks(out: &mut [Transform], a: &[Transform], b: &[Transform], wa: f32, wb: f32) {
    use glam::Vec4;
    let chunks = out.chunks_mut(NLERP_CHUNK).zip(a.chunks(NLERP_CHUNK));
    for ((out, a), b) in chunks.zip(b.chunks(NLERP_CHUNK)) {
        let mut weights = [(Vec4::ZERO, Vec4::ZERO); NLERP_CHUNK_BLOCKS];
        let blocks = a.chunks_exact(4).zip(b.chunks_exact(4));
        for (weights, (a, b)) in weights.iter_mut().zip(blocks) {
            *weights = nlerp_weights(a, b, wa, wb);
        }
        let blocks = out.chunks_exact_mut(4).zip(a.chunks_exact(4));
        for (weights, ((out, a), b)) in weights.iter().zip(blocks.zip(b.chunks_exact(4))) {
            nlerp_four(out, a, b, (wa, wb), *weights);
        }
    }
}

/// `nlerp_blocks` on the last one to three joints, one at a time.
#[inline]
fn nlerp_tail(out: &mut [Transform], a: &[Transform], b: &[Transform], wa: f32, wb: f32) {
    for ((out, ta), tb) in out.iter_mut().zip(a).zip(b) {
        let (qa, qb) = (glam::Vec4::from(ta.rotation), glam::Vec4::from(tb.rotation));
        let dot = qa.dot(qb);
        let sign = wb.copysign(dot);
        let length_squared = nlerp_length_squared(glam::Vec4::splat(dot), wa, wb).x;
        *out = Transform {
            translation: ta.translation * wa + tb.translation * wb,
            rotation: glam::Quat::from_vec4((qa * wa + qb * sign) / length_squared.sqrt()),
            scale: ta.scale * wa + tb.scale * wb,
        };
    }
}

/// The first pass of `nlerp_blocks` on one block: `wb` with the sign of each joint's rotation
/// dot product (`b` flipped where it is negative) and one over the length of each summed
/// rotation, a lane each (one packed root and division for the four).
#[inline(always)]
fn nlerp_weights(a: &[Transform], b: &[Transform], wa: f32, wb: f32) -> (glam::Vec4, glam::Vec4) {
    use glam::Vec4;
    let qa = |k: usize| Vec4::from(a[k].rotation);
    let qb = |k: usize| Vec4::from(b[k].rotation);
    // Each column's sum of lanes, four columns at once (four dot products after the multiply).
    let [c0, c1, c2, c3] = [qa(0) * qb(0), qa(1) * qb(1), qa(2) * qb(2), qa(3) * qb(3)];
    let rows = Mat4::from_cols(c0, c1, c2, c3).transpose();
    let dots = rows.x_axis + rows.y_axis + rows.z_axis + rows.w_axis;
    // `b` flipped where the dot product's sign bit is set (three bit operations, where a
    // comparison and a select take four).
    let signed = Vec4::splat(wb).copysign(dots);
    (
        signed,
        Vec4::ONE / nlerp_length_squared(dots, wa, wb).sqrt(),
    )
}

/// The second pass of `nlerp_blocks` on one block: translations and scales blended, rotations
/// summed with the signed weights of `b` and scaled to unit length.
#[inline(always)]
fn nlerp_four(
    out: &mut [Transform],
    a: &[Transform],
    b: &[Transform],
    (wa, wb): (f32, f32),
    (signed, inv): (glam::Vec4, glam::Vec4),
) {
    use glam::{Vec4, Vec4Swizzles};
    let signed = [signed.xxxx(), signed.yyyy(), signed.zzzz(), signed.wwww()];
    let inv = [inv.xxxx(), inv.yyyy(), inv.zzzz(), inv.wwww()];
    for (k, out) in out.iter_mut().enumerate().take(4) {
        let (ta, tb) = (&a[k], &b[k]);
        let q = Vec4::from(ta.rotation) * wa + Vec4::from(tb.rotation) * signed[k];
        out.translation = ta.translation * wa + tb.translation * wb;
        out.scale = ta.scale * wa + tb.scale * wb;
        out.rotation = glam::Quat::from_vec4(q * inv[k]);
    }
}

/// The squared length of `wa qa + s wb qb` for unit `qa` and `qb` whose dot product is `dots`
/// (a lane each), `s` the dot product's sign: `wa^2 + wb^2 + 2 wa wb |qa . qb|` (`nlerp_blocks`).
#[inline(always)]
fn nlerp_length_squared(dots: glam::Vec4, wa: f32, wb: f32) -> glam::Vec4 {
    glam::Vec4::splat(wa * wa + wb * wb) + dots.abs() * (2.0 * wa * wb)
}

/// `blend_poses` of two poses written into the first: `a = a * (1 - weight) + b * weight`, the
/// same arithmetic as a two-pose `blend_poses` (weight clamped to 0..1; non-finite counts as 0).
pub fn blend_pair(a: &mut LocalPose, b: &LocalPose, weight: f32) -> Result<(), PoseError> {
    check_len("blend layer", a.len(), b.len())?;
    let wb = if weight.is_finite() {
        weight.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let n = a.len();
    let done = n - n % 4;
    // `a` is read and written: each chunk blends from a copy.
    let mut ta = [Transform::IDENTITY; NLERP_CHUNK];
    let chunks = a.0[..done].chunks_mut(NLERP_CHUNK);
    for (out, tb) in chunks.zip(b.0[..done].chunks(NLERP_CHUNK)) {
        let ta = &mut ta[..out.len()];
        ta.copy_from_slice(out);
        nlerp_blocks(out, ta, tb, 1.0 - wb, wb);
    }
    let ta = &mut ta[..n - done];
    ta.copy_from_slice(&a.0[done..]);
    nlerp_tail(&mut a.0[done..], ta, &b.0[done..], 1.0 - wb, wb);
    Ok(())
}

/// Composes the hierarchy in one forward pass:
/// `model_from_joint = model_from_parent * parent_from_joint` (column vectors, glam order).
pub fn local_to_model(
    skeleton: &Skeleton,
    local: &LocalPose,
    out: &mut ModelPose,
) -> Result<(), PoseError> {
    compose(skeleton, local, out, |_, _| {})
}

/// Which palette entries read each joint, and their `joint_from_bind`: every skin of a
/// character at once, entries in joint order, so the palette is written by
/// `local_to_model_and_palette` as each joint is composed. Built once per character.
#[derive(Clone, Debug, Default)]
pub struct PalettePlan {
    /// Per entry, in joint order: the skeleton joint and the palette index it writes.
    joints: Vec<u32>,
    outs: Vec<u32>,
    joint_from_bind: Vec<SplatAffine>,
    /// One more than the largest joint and the largest palette index (0 when empty).
    needs_joints: usize,
    needs_entries: usize,
    /// `Some((first, base))` when entry k is joint `first + k`'s, written to palette index
    /// `base + k`: one skin whose joints are consecutive and in order (the common case).
    run: Option<(usize, usize)>,
}

impl PalettePlan {
    /// A plan for `skins`, each `(skin, first palette index)`; `None` when a skin's inverse
    /// bind matrices are not all affine (then `build_palette` does the general product).
    pub fn new<'a>(skins: impl IntoIterator<Item = (&'a Skin, usize)>) -> Option<Self> {
        let mut entries = Vec::new();
        for (skin, base) in skins {
            let splat = skin.joint_from_bind_splat()?;
            for (k, (&joint, jfb)) in skin.joints().iter().zip(splat).enumerate() {
                entries.push((u32::from(joint), (base + k) as u32, *jfb));
            }
        }
        // Stable: entries of one joint keep their palette order.
        entries.sort_by_key(|e| e.0);
        let (first, base) = entries
            .first()
            .map_or((0, 0), |e| (e.0 as usize, e.1 as usize));
        let run = (entries.iter().enumerate())
            .all(|(k, e)| e.0 as usize == first + k && e.1 as usize == base + k)
            .then_some((first, base));
        Some(Self {
            run,
            needs_joints: entries.last().map_or(0, |e| e.0 as usize + 1),
            needs_entries: entries.iter().map(|e| e.1 as usize + 1).max().unwrap_or(0),
            joints: entries.iter().map(|e| e.0).collect(),
            outs: entries.iter().map(|e| e.1).collect(),
            joint_from_bind: entries.iter().map(|e| e.2).collect(),
        })
    }
}

/// `local_to_model`, and each entry of `plan` written into `palette` as its joint is composed:
/// `palette[out] = model_from_joint * joint_from_bind`, the same to the bit as `build_palette`
/// with the identity `mesh_from_model`. The model transform is still in registers, and the
/// palette's products (independent of one another) fill the time a chain of joints waits on
/// each parent's product.
pub fn local_to_model_and_palette(
    skeleton: &Skeleton,
    local: &LocalPose,
    out: &mut ModelPose,
    plan: &PalettePlan,
    palette: &mut [Mat4],
) -> Result<(), PoseError> {
    if plan.needs_joints > skeleton.joint_count() {
        return Err(PoseError::LengthMismatch {
            what: "model pose",
            expected: plan.needs_joints,
            actual: skeleton.joint_count(),
        });
    }
    if plan.needs_entries > palette.len() {
        return Err(PoseError::LengthMismatch {
            what: "skin palette",
            expected: plan.needs_entries,
            actual: palette.len(),
        });
    }
    let (joints, outs, jfb) = (&plan.joints, &plan.outs, &plan.joint_from_bind);
    if let Some((first, base)) = plan.run
        && let Some(palette) = palette.get_mut(base..base + jfb.len())
    {
        // One entry a joint from `first` on, in order: no search. (Every plan as per-joint
        // ranges of entries, one mechanism for both, ran as slowly as the search.)
        return compose(skeleton, local, out, |joint, model| {
            let k = joint.wrapping_sub(first);
            if let (Some(entry), Some(jfb)) = (palette.get_mut(k), jfb.get(k)) {
                *entry = affine_product_splat_w(model, jfb);
            }
        });
    }
    let mut next = 0;
    compose(skeleton, local, out, |joint, model| {
        while joints.get(next).is_some_and(|&j| j as usize == joint) {
            if let Some(entry) = palette.get_mut(outs[next] as usize) {
                *entry = affine_product_splat_w(model, &jfb[next]);
            }
            next += 1;
        }
    })
}

/// The rotation-scale columns of four transforms side by side: `[x_axes, y_axes, z_axes]`, each
/// axis's x, y and z with one transform a lane (glam's formula and order of operations).
#[inline(always)]
fn axes4(t: [&Transform; 4]) -> [[glam::Vec4; 3]; 3] {
    use glam::Vec4;
    let q = Mat4::from_cols(
        t[0].rotation.into(),
        t[1].rotation.into(),
        t[2].rotation.into(),
        t[3].rotation.into(),
    )
    .transpose();
    let (x, y, z, w) = (q.x_axis, q.y_axis, q.z_axis, q.w_axis);
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let lanes = |f: fn(&Transform) -> f32| Vec4::new(f(t[0]), f(t[1]), f(t[2]), f(t[3]));
    let (sx, sy, sz) = (
        lanes(|t| t.scale.x),
        lanes(|t| t.scale.y),
        lanes(|t| t.scale.z),
    );
    let one = Vec4::ONE;
    [
        [(one - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx],
        [(xy - wz) * sy, (one - (xx + zz)) * sy, (yz + wx) * sy],
        [(xz + wy) * sz, (yz - wx) * sz, (one - (xx + yy)) * sz],
    ]
}

/// `entries[k] = mesh_from_model * entries[k]`: palette entries written for the identity
/// `mesh_from_model` (`local_to_model_and_palette`) brought into a mesh node's space, the same
/// to the bit as `build_palette` with that `mesh_from_model`.
pub fn bring_into_mesh_space(mesh_from_model: Affine3A, entries: &mut [Mat4]) {
    if mesh_from_model == Affine3A::IDENTITY {
        return;
    }
    for entry in entries {
        *entry = Mat4::from(mesh_from_model * Affine3A::from_mat4(*entry));
    }
}

/// The hierarchy's forward pass, handing each joint's `model_from_joint` to `composed` as soon
/// as it is known. Every model transform it writes holds its 4x4 matrix's bottom row in its w
/// lanes (+0 on each axis, 1 on the translation), which `affine_product_splat_w` relies on.
#[inline(always)]
fn compose(
    skeleton: &Skeleton,
    local: &LocalPose,
    out: &mut ModelPose,
    mut composed: impl FnMut(usize, &Affine3A),
) -> Result<(), PoseError> {
    check_len("local pose", skeleton.joint_count(), local.len())?;
    check_len("model pose", skeleton.joint_count(), out.len())?;
    // Pass 1: every joint's parent_from_joint, four at a time; pass 2: composed in place.
    let (locals, models) = (&local.0, &mut out.0);
    let mut chunks = locals.chunks_exact(4);
    for (k, four) in chunks.by_ref().enumerate() {
        // chunks_exact(4): exactly four.
        let four: &[Transform; 4] = four.try_into().unwrap_or(&[Transform::IDENTITY; 4]);
        models[k * 4..k * 4 + 4].copy_from_slice(&affines4(four));
    }
    let done = locals.len() - chunks.remainder().len();
    for (m, t) in models[done..].iter_mut().zip(chunks.remainder()) {
        // glam's conversion leaves each axis's z in its w lane.
        *m = with_w_lanes(&t.to_affine(), 0.0);
    }
    // The joint just composed stays in registers: in a chain (a spine, a limb) its child comes
    // next, and reading it back from memory would wait on the store it was just written by.
    let mut last = Affine3A::IDENTITY;
    for (joint, parent) in skeleton.parents().iter().enumerate() {
        // Skeleton::new guarantees parent < joint, so the parent is already composed.
        if let Some(parent) = *parent {
            let parent = usize::from(parent);
            let model_from_parent = if parent + 1 == joint {
                last
            } else {
                models[parent]
            };
            last = compose_product(&model_from_parent, &models[joint]);
            models[joint] = last;
        } else {
            // A root's translation carries the 1 its descendants' translations inherit.
            last = with_w_lanes(&models[joint], 1.0);
            models[joint] = last;
        }
        composed(joint, &last);
    }
    Ok(())
}

/// `Transform::to_affine` of four transforms at once: their quaternions turned into matrices side
/// by side in SIMD lanes (ozz-animation's SoA conversion), with glam's formula and order of
/// operations, so the result is the same to the bit.
#[inline]
fn affines4(t: &[Transform; 4]) -> [Affine3A; 4] {
    use glam::{Mat3A, Vec3A, Vec4};
    let [x, y, z] = axes4([&t[0], &t[1], &t[2], &t[3]]);
    // Row r of each transposed matrix is joint r's axis.
    let axes = |[a, b, c]: [Vec4; 3]| Mat4::from_cols(a, b, c, Vec4::ZERO).transpose();
    let (x_axes, y_axes, z_axes) = (axes(x), axes(y), axes(z));
    std::array::from_fn(|l| Affine3A {
        matrix3: Mat3A::from_cols(
            Vec3A::from_vec4(x_axes.col(l)),
            Vec3A::from_vec4(y_axes.col(l)),
            Vec3A::from_vec4(z_axes.col(l)),
        ),
        translation: t[l].translation.into(),
    })
}

/// Writes the skin palette:
/// `mesh_from_bind = mesh_from_model * model_from_joint * joint_from_bind`.
///
/// `mesh_from_model` brings the skeleton's space into the space of the node that draws the mesh
/// (the identity when they are the same), so an identity palette shows the mesh as stored.
pub fn build_palette(
    model: &ModelPose,
    skin: &Skin,
    mesh_from_model: Mat4,
    out: &mut SkinPalette,
) -> Result<(), PoseError> {
    build_palette_into(model, skin, mesh_from_model, &mut out.0)
}

/// `build_palette` into any slice of the skin's length (a part of a larger palette array).
pub fn build_palette_into(
    model: &ModelPose,
    skin: &Skin,
    mesh_from_model: Mat4,
    out: &mut [Mat4],
) -> Result<(), PoseError> {
    check_len("skin palette", skin.len(), out.len())?;
    if skin.needs_joints() > model.len() {
        return Err(PoseError::LengthMismatch {
            what: "model pose",
            expected: skin.needs_joints(),
            actual: model.len(),
        });
    }
    let models = &model.0;
    match (
        skin.joint_from_bind_splat(),
        mesh_from_model.row(3) == glam::Vec4::W,
    ) {
        // Affine products (3x4): what every valid glTF file gets.
        (Some(joint_from_bind), true) => {
            let mesh_from_model = Affine3A::from_mat4(mesh_from_model);
            let pairs = out.iter_mut().zip(skin.joints()).zip(joint_from_bind);
            if mesh_from_model == Affine3A::IDENTITY {
                for ((out, &joint), joint_from_bind) in pairs {
                    *out = affine_product_splat(&models[usize::from(joint)], joint_from_bind);
                }
            } else {
                for ((out, &joint), joint_from_bind) in pairs {
                    let model_from_bind = models[usize::from(joint)] * joint_from_bind.affine();
                    *out = Mat4::from(mesh_from_model * model_from_bind);
                }
            }
        }
        _ => {
            for ((out, &joint), joint_from_bind) in out
                .iter_mut()
                .zip(skin.joints())
                .zip(skin.joint_from_bind())
            {
                *out = mesh_from_model * Mat4::from(models[usize::from(joint)]) * *joint_from_bind;
            }
        }
    }
    Ok(())
}

/// An affine transform's twelve entries (its x, y and z axes' and its translation's x, y and z,
/// in that order) each repeated in the x, y and z lanes, the w lane +0: a constant factor of a
/// product, whose entries the product broadcasts, stored already broadcast (loads rather than
/// shuffles, which compete with the multiplies and adds for the same pipes). The +0 keeps the
/// product's w lanes what `affine_product_splat_w` needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SplatAffine([glam::Vec4; 12]);

impl SplatAffine {
    pub(crate) fn new(a: &Affine3A) -> Self {
        let [x, y, z] = a.matrix3.to_cols_array_2d();
        let t = a.translation.to_array();
        let entries = [x, y, z, t].concat();
        Self(std::array::from_fn(|k| {
            glam::Vec4::new(entries[k], entries[k], entries[k], 0.0)
        }))
    }

    /// The transform itself (each entry's first lane).
    pub(crate) fn affine(&self) -> Affine3A {
        Affine3A::from_cols_array(&self.0.map(|v| v.x))
    }
}

/// `Mat4::from(a * b)` to the bit, with `b`'s entries already broadcast and the product's
/// columns worked in the lanes they are returned in (glam's products and sums, in its order):
/// the bottom row is set by a mask, not by rebuilding each column around it.
#[inline(always)]
fn affine_product_splat(a: &Affine3A, b: &SplatAffine) -> Mat4 {
    use glam::{BVec4A, Vec4};
    let [x, y, z, t] = splat_columns(a, b);
    let xyz = BVec4A::new(true, true, true, false);
    Mat4::from_cols(
        Vec4::select(xyz, x, Vec4::ZERO),
        Vec4::select(xyz, y, Vec4::ZERO),
        Vec4::select(xyz, z, Vec4::ZERO),
        Vec4::select(xyz, t, Vec4::W),
    )
}

/// `affine_product_splat` for an `a` whose w lanes are the bottom row of its 4x4 matrix (+0 on
/// each axis, 1 on the translation), as `compose` leaves every model transform: each column's
/// w lane then comes out of the products themselves (+0 times `b`'s +0 w lanes, summed, and 1
/// added on the translation), so no mask is needed. The same to the bit as
/// `affine_product_splat`; five operations fewer a palette entry.
#[inline(always)]
fn affine_product_splat_w(a: &Affine3A, b: &SplatAffine) -> Mat4 {
    // Elsewhere a `Vec3A`'s w lane is not kept (`lanes` reads it as 0): the masked product.
    if !cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
        return affine_product_splat(a, b);
    }
    let [x, y, z, t] = splat_columns(a, b);
    Mat4::from_cols(x, y, z, t)
}

/// The columns of `a * b` in all four lanes, `b` broadcast (`SplatAffine`): each axis
/// `a.x b[3c] + a.y b[3c+1] + a.z b[3c+2]`, the translation that plus `a`'s, in glam's order.
#[inline(always)]
fn splat_columns(a: &Affine3A, b: &SplatAffine) -> [glam::Vec4; 4] {
    let (x, y, z, t) = (
        lanes(a.matrix3.x_axis),
        lanes(a.matrix3.y_axis),
        lanes(a.matrix3.z_axis),
        lanes(a.translation),
    );
    let b = &b.0;
    let column = |c: usize| x * b[3 * c] + y * b[3 * c + 1] + z * b[3 * c + 2];
    [column(0), column(1), column(2), column(3) + t]
}

/// `model_from_parent * parent_from_joint`, glam's products and sums in glam's order (the same
/// to the bit in x, y and z), keeping `compose`'s w lanes: each entry of the joint's axes is
/// spread with its axis's own w lane (+0), so every axis of the product has +0 there; the
/// translation's w lane is the parent's (1) plus products of +0.
#[inline(always)]
fn compose_product(parent: &Affine3A, joint: &Affine3A) -> Affine3A {
    use glam::{Vec3A, Vec4Swizzles};
    let (x, y, z) = (
        lanes(parent.matrix3.x_axis),
        lanes(parent.matrix3.y_axis),
        lanes(parent.matrix3.z_axis),
    );
    let axis = |v: Vec3A| {
        let v = lanes(v);
        Vec3A::from_vec4(x * v.xxxw() + y * v.yyyw() + z * v.zzzw())
    };
    let t = lanes(joint.translation);
    let translation = x * t.xxxx() + y * t.yyyy() + z * t.zzzz() + lanes(parent.translation);
    Affine3A {
        matrix3: glam::Mat3A::from_cols(
            axis(joint.matrix3.x_axis),
            axis(joint.matrix3.y_axis),
            axis(joint.matrix3.z_axis),
        ),
        translation: Vec3A::from_vec4(translation),
    }
}

/// `a` with the w lanes `compose` keeps: +0 on each axis, `w` on the translation.
#[inline(always)]
fn with_w_lanes(a: &Affine3A, w: f32) -> Affine3A {
    use glam::{BVec4A, Vec3A, Vec4};
    let xyz = BVec4A::new(true, true, true, false);
    let axis = |v: Vec3A| Vec3A::from_vec4(Vec4::select(xyz, lanes(v), Vec4::ZERO));
    Affine3A {
        matrix3: glam::Mat3A::from_cols(
            axis(a.matrix3.x_axis),
            axis(a.matrix3.y_axis),
            axis(a.matrix3.z_axis),
        ),
        translation: Vec3A::from_vec4(Vec4::select(xyz, lanes(a.translation), Vec4::splat(w))),
    }
}

/// A `Vec3A`'s four lanes as they lie (the fourth whatever it holds): no shuffle where glam
/// keeps it in an SSE register.
#[inline(always)]
fn lanes(v: glam::Vec3A) -> glam::Vec4 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        glam::Vec4::from(core::arch::x86_64::__m128::from(v))
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        v.extend(0.0)
    }
}

/// The skin matrix of one vertex: the weighted sum of its joints' palette entries, as the vertex
/// shader computes it. `None` when a joint index is outside the palette.
pub fn vertex_skin_matrix(palette: &[Mat4], joints: [u32; 4], weights: [f32; 4]) -> Option<Mat4> {
    blend_matrix(palette, joints.into_iter().zip(weights))
}

/// The weighted sum of a vertex's palette matrices, over any number of (palette index, weight)
/// influences (eight with a second set); `None` when an index is outside the palette.
pub fn blend_matrix(
    palette: &[Mat4],
    influences: impl IntoIterator<Item = (u32, f32)>,
) -> Option<Mat4> {
    let mut m = Mat4::ZERO;
    for (j, w) in influences {
        m += *palette.get(j as usize)? * w;
    }
    Some(m)
}

/// CPU reference of four-weight linear blend skinning of a position (w = 1).
pub fn skin_position(
    palette: &[Mat4],
    joints: [u32; 4],
    weights: [f32; 4],
    position: Vec3,
) -> Option<Vec3> {
    Some(vertex_skin_matrix(palette, joints, weights)?.transform_point3(position))
}

/// CPU reference of four-weight linear blend skinning of a normal (w = 0, then renormalised).
pub fn skin_normal(
    palette: &[Mat4],
    joints: [u32; 4],
    weights: [f32; 4],
    normal: Vec3,
) -> Option<Vec3> {
    Some(
        vertex_skin_matrix(palette, joints, weights)?
            .transform_vector3(normal)
            .normalize_or_zero(),
    )
}
