//! The lint's rules: the bind pose's common palette entry, broken and mismatched entries,
//! vertices against the joints that move them, weights and influences, unused joints, morph
//! and joint limits, and the posed frame. Each adds `Finding`s to the report (`check.rs`).

use glam::{Mat4, Vec3};

use super::{CANDIDATES, CheckReport, Finding, FindingKind, Severity, SkinCheck, TOLERANCE};
use crate::character::{Character, MeshInstance, SkinData};
use crate::pose::{CharacterPose, PaletteMode, PoseRequest};

fn difference(a: &Mat4, b: &Mat4, size: f32) -> f32 {
    let linear = (a.x_axis - b.x_axis)
        .abs()
        .max_element()
        .max((a.y_axis - b.y_axis).abs().max_element())
        .max((a.z_axis - b.z_axis).abs().max_element());
    let translation = (a.w_axis - b.w_axis).abs().max_element() / size.max(1e-6);
    linear.max(translation)
}

/// A matrix in words: translation, rotation and scale.
pub(super) fn describe(m: &Mat4) -> String {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    let (axis, angle) = rotation.to_axis_angle();
    format!(
        "translation ({:.4}, {:.4}, {:.4}), rotation {:.2} deg about ({:.3}, {:.3}, {:.3}), scale ({:.4}, {:.4}, {:.4})",
        translation.x,
        translation.y,
        translation.z,
        angle.to_degrees(),
        axis.x,
        axis.y,
        axis.z,
        scale.x,
        scale.y,
        scale.z
    )
}

/// The diagonal of the points' bounds (at least 1e-6; 1 without points): the size tolerances
/// are relative to.
fn diagonal(points: impl IntoIterator<Item = Vec3>) -> f32 {
    let (lo, hi) =
        (points.into_iter()).fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
    if lo.x <= hi.x {
        (hi - lo).length().max(1e-6)
    } else {
        1.0
    }
}

/// Engine limits on joints per skin worth knowing.
const JOINT_LIMITS: [usize; 3] = [72, 128, 256];

/// Lints a character's skinning: the bind pose (always), and the frame `request` poses (it must
/// pose, with finite palettes). A failure to pose is reported as an error finding.
pub fn check(c: &Character, request: &PoseRequest) -> CheckReport {
    // The importer's warnings, and those of its notes the glTF-Validator reports too. Joints
    // listed before their parents are a finding of check's own (`joint_order`).
    let mut findings: Vec<Finding> = (c.warnings.iter())
        .filter(|w| w.message != crate::import::JOINTS_REORDERED)
        .map(|w| Finding::imported(Severity::Warning, w))
        .chain(
            (c.notes.iter().filter(|n| n.code.is_some()))
                .map(|n| Finding::imported(Severity::Info, n)),
        )
        .collect();
    let mut skins = Vec::new();
    let mut pose = CharacterPose::new(c);
    match pose.evaluate(c, &PoseRequest::rest(PaletteMode::Bind)) {
        Ok(()) => {
            for (i, instance) in c.instances.iter().enumerate() {
                if let Some(skin) = check_skin(c, &pose, i, instance, &mut findings) {
                    skins.push(skin);
                }
            }
        }
        Err(e) => findings.push(Finding::error(
            FindingKind::PoseFailed,
            None,
            format!("the bind pose cannot be posed: {e}"),
        )),
    }
    morph_limits(c, &mut findings);
    check_posed_frame(c, request, &mut findings);
    CheckReport {
        file: c.name.clone(),
        skins,
        findings,
        bind_identity_pixel_difference: None,
        gpu_skinning: None,
    }
}

/// The frame the request describes must pose, with finite palettes.
fn check_posed_frame(c: &Character, request: &PoseRequest, findings: &mut Vec<Finding>) {
    let mut pose = CharacterPose::new(c);
    if let Err(e) = pose.evaluate(c, request) {
        findings.push(Finding::error(
            FindingKind::PoseFailed,
            None,
            format!("the requested frame cannot be posed: {e}"),
        ));
        return;
    }
    let bad = pose.palette.iter().filter(|m| !m.is_finite()).count();
    if bad > 0 {
        findings.push(Finding::error(
            FindingKind::NonFinitePalette,
            None,
            format!("{bad} palette entries of the requested frame hold non-finite numbers"),
        ));
    }
}

/// One skinned mesh node in the bind pose: what its checks share.
struct SkinContext<'a> {
    c: &'a Character,
    skin: &'a SkinData,
    instance: &'a MeshInstance,
    /// Bind-pose palette (mesh space).
    palette: &'a [Mat4],
    /// The mesh's size: the diagonal of its vertices' bounds.
    size: f32,
    mesh_from_world: Mat4,
    model: &'a [glam::Affine3A],
}

impl SkinContext<'_> {
    fn name_of(&self, p: usize) -> (String, usize) {
        let joint = self.skin.skin.joint(p).unwrap_or(0);
        (self.c.skeleton.names()[joint].clone(), p)
    }
}

fn check_skin(
    c: &Character,
    pose: &CharacterPose,
    i: usize,
    instance: &MeshInstance,
    findings: &mut Vec<Finding>,
) -> Option<SkinCheck> {
    let skin = &c.skins[instance.skin?];
    let palette = pose.instance_palette(i)?;
    let positions = c.meshes[instance.mesh]
        .primitives
        .iter()
        .flat_map(|p| p.positions.iter().copied());
    let size = diagonal(positions);
    let ctx = SkinContext {
        c,
        skin,
        instance,
        palette,
        size,
        mesh_from_world: pose.world_from_mesh[i].inverse(),
        model: pose.model.as_slice(),
    };
    let (common, common_is_identity) = if skin.has_inverse_binds {
        common_entry(&ctx, findings)
    } else {
        findings.push(Finding::info(
            FindingKind::NoInverseBinds,
            format!(
                "skin {:?} has no inverse bind matrices: each is the identity (glTF's default), so its vertices are read in each joint's own space",
                skin.name
            ),
        ));
        (Mat4::IDENTITY, true)
    };
    let class = if skin.has_inverse_binds {
        bind_entries(&ctx, common, findings)
    } else {
        vec![BindClass::Agrees; palette.len()]
    };
    let joint_at = joint_positions(&ctx, common, &class);
    let influences = influences(&ctx, common, &joint_at);
    influence_findings(
        &ctx,
        &influences,
        skin.has_inverse_binds,
        common,
        &joint_at,
        findings,
    );
    unused_joints(&ctx, &influences.used, findings);
    joint_order(&ctx, findings);
    let over: Vec<String> = JOINT_LIMITS
        .iter()
        .filter(|&&l| skin.skin.len() > l)
        .map(|l| l.to_string())
        .collect();
    findings.push(Finding::info(
        FindingKind::Limits,
        format!(
            "skin {:?}: {} joints{}; at most {} influences per vertex",
            skin.name,
            skin.skin.len(),
            if over.is_empty() {
                " (within the common limits of 72, 128 and 256)".to_string()
            } else {
                format!(" (over the limits of {})", over.join(", "))
            },
            influences.max_influences
        ),
    ));
    let mut broken_inverse_binds: Vec<usize> = (class.iter().enumerate())
        .filter(|(_, c)| **c == BindClass::Broken)
        .map(|(p, _)| skin.ordinal_of_palette[p])
        .collect();
    broken_inverse_binds.sort_unstable();
    Some(SkinCheck {
        skin: skin.name.clone(),
        index: skin.index,
        mesh_node: instance.node,
        common_matrix: common.to_cols_array(),
        common_is_identity,
        joints: skin.skin.len(),
        max_influences: influences.max_influences,
        broken_inverse_binds,
    })
}

/// The bind entry most joints agree with, and whether it is the identity (an authored offset is
/// reported as information).
fn common_entry(ctx: &SkinContext<'_>, findings: &mut Vec<Finding>) -> (Mat4, bool) {
    let agree = |m: &Mat4| {
        ctx.palette
            .iter()
            .filter(|o| difference(m, o, ctx.size) < TOLERANCE)
            .count()
    };
    // The identity when as many joints agree with it as with any entry, or when no two joints
    // agree (every joint's rest pose differs from its bind pose, say); else the majority. The
    // candidates are at most `CANDIDATES` entries spread over the palette (a majority is among
    // them), so a 65,535-joint skin is compared in linear time, not quadratic.
    let n = ctx.palette.len();
    let step = n.div_ceil(CANDIDATES).max(1);
    let candidates: Vec<(Mat4, usize)> = (0..n)
        .step_by(step)
        .map(|k| (ctx.palette[k], agree(&ctx.palette[k])))
        .collect();
    let best = candidates.iter().map(|c| c.1).max().unwrap_or(0);
    let common = if best <= 1 || agree(&Mat4::IDENTITY) == best {
        Mat4::IDENTITY
    } else {
        candidates
            .iter()
            .find(|c| c.1 == best)
            .map_or(Mat4::IDENTITY, |c| c.0)
    };
    let common_is_identity = difference(&common, &Mat4::IDENTITY, ctx.size) < TOLERANCE;
    if !common_is_identity {
        findings.push(Finding::info(
            FindingKind::AuthoredOffset,
            format!(
                "skin {:?}: the vertices are authored in another node's space than the mesh node's; every joint's bind entry is one common offset: {}",
                ctx.skin.name,
                describe(&common)
            ),
        ));
    }
    (common, common_is_identity)
}

/// How a joint's bind entry compares with the skin's common one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BindClass {
    /// Its entry is the common one.
    Agrees,
    /// Its rest pose (or an ancestor's) differs from its bind pose by rotations: legal glTF.
    RestDiffers,
    /// Its inverse bind disagrees with the skeleton: an error.
    Broken,
}

/// Each joint whose bind entry differs from the common one, visited parent-first. Its inverse
/// bind is broken when it is not an invertible affine matrix of the common handedness, or when
/// the bind pose it describes changes the length of the joint's bone (its distance from its
/// parent) or its scale: a rest pose moves a skeleton by rotations, through any chain of joints
/// (and places its roots), it does not stretch bones. That is an error, with the likely reasons. Otherwise the inverse binds agree with the skeleton and
/// the rest pose differs from the bind pose, which glTF allows: information, once per joint
/// whose own local transform differs (not for the joints below it). Below a broken joint the
/// comparison continues from the parent's rest pose, so one broken matrix is one error.
fn bind_entries(
    ctx: &SkinContext<'_>,
    common: Mat4,
    findings: &mut Vec<Finding>,
) -> Vec<BindClass> {
    let skin = ctx.skin;
    let ibms = skin.skin.joint_from_bind();
    let rest_model =
        |p: usize| ctx.mesh_from_world * Mat4::from(ctx.model[skin.skin.joint(p).unwrap_or(0)]);
    let bind_model = |p: usize| common * ibms[p].inverse();
    let mut class = vec![BindClass::Agrees; ctx.palette.len()];
    for (p, entry) in ctx.palette.iter().enumerate() {
        if difference(entry, &common, ctx.size) < TOLERANCE {
            continue;
        }
        let parent = skin.palette_parent(p);
        let (parent_bind, parent_rest) = match parent {
            Some(q) if class[q] != BindClass::Broken => (bind_model(q), rest_model(q)),
            Some(q) => (rest_model(q), rest_model(q)),
            None => (Mat4::IDENTITY, Mat4::IDENTITY),
        };
        let local_bind = parent_bind.inverse() * bind_model(p);
        let local_rest = parent_rest.inverse() * rest_model(p);
        let (bind_scale, _, bind_offset) = local_bind.to_scale_rotation_translation();
        let (rest_scale, _, rest_offset) = local_rest.to_scale_rotation_translation();
        // Lengths, not offsets: a bind pose may turn a bone within its parent's frame too (the
        // AssetGenerator's Animation_Skin_07 and _09 bind chains their rest pose bends).
        let same_bone = parent.is_none()
            || (bind_offset.length() - rest_offset.length()).abs() < TOLERANCE * ctx.size;
        let same_scale = (bind_scale - rest_scale).abs().max_element() < TOLERANCE;
        class[p] = if invertible_affine(ibms[p], common) && same_bone && same_scale {
            BindClass::RestDiffers
        } else {
            BindClass::Broken
        };
        if class[p] == BindClass::Broken {
            broken_entry(ctx, p, *entry, common, findings);
        } else if difference(&local_bind, &local_rest, ctx.size) >= TOLERANCE {
            findings.push(rest_differs(ctx, p, local_bind, local_rest));
        }
    }
    class
}

/// An invertible affine matrix whose handedness is the common entry's.
fn invertible_affine(ibm: Mat4, common: Mat4) -> bool {
    ibm.row(3).abs_diff_eq(glam::Vec4::W, 1e-5)
        && !crate::anim::is_singular(&ibm)
        && (ibm.determinant() > 0.0) == (common.determinant() > 0.0)
}

fn rest_differs(ctx: &SkinContext<'_>, p: usize, local_bind: Mat4, local_rest: Mat4) -> Finding {
    let (_, turn, _) = (local_rest * local_bind.inverse()).to_scale_rotation_translation();
    let degrees = turn.to_axis_angle().1.to_degrees();
    let degrees = if degrees > 180.0 {
        360.0 - degrees
    } else {
        degrees
    };
    let moved = (local_rest.w_axis - local_bind.w_axis).truncate().length();
    Finding::info(
        FindingKind::RestPoseDiffers,
        format!(
            "rest pose differs from bind pose at {} by {degrees:.0} deg{} (the inverse binds agree with the vertices; glTF allows this)",
            ctx.name_of(p).0,
            if moved > TOLERANCE * ctx.size {
                format!(" and {moved:.3} in position")
            } else {
                String::new()
            }
        ),
    )
}

/// Where each joint stood when the mesh was bound, in mesh space: as its inverse bind says, or
/// its rest position where the inverse bind is broken or absent.
fn joint_positions(ctx: &SkinContext<'_>, common: Mat4, class: &[BindClass]) -> Vec<Vec3> {
    let skin = ctx.skin;
    (0..skin.skin.len())
        .map(|p| {
            let rest = ctx.mesh_from_world * Mat4::from(ctx.model[skin.skin.joint(p).unwrap_or(0)]);
            let m = match class.get(p) {
                Some(BindClass::RestDiffers) => common * skin.skin.joint_from_bind()[p].inverse(),
                _ => rest,
            };
            m.w_axis.truncate()
        })
        .collect()
}

/// The error for a joint whose inverse bind disagrees with its skeleton.
fn broken_entry(
    ctx: &SkinContext<'_>,
    p: usize,
    entry: Mat4,
    common: Mat4,
    findings: &mut Vec<Finding>,
) {
    let d = difference(&entry, &common, ctx.size);
    let off = (entry * common.inverse()).to_scale_rotation_translation();
    let why = mismatch_reasons(ctx, p, common);
    findings.push(Finding::error(
        FindingKind::JointMismatch,
        Some(ctx.name_of(p)),
        format!(
            "joint {:?} (palette {p}): its bind entry differs from the skin's common one by {:.4} (moves {:.4}, turns {:.2} deg){}",
            ctx.name_of(p).0,
            d,
            off.2.length(),
            off.1.to_axis_angle().1.to_degrees(),
            if why.is_empty() { String::new() } else { format!("; {}", why.join("; ")) }
        ),
    ));
}

/// Why joint `p`'s bind entry may differ: a transposed inverse bind, one made without the
/// armature's non-joint ancestors, a flipped handedness, an identity.
fn mismatch_reasons(ctx: &SkinContext<'_>, p: usize, common: Mat4) -> Vec<String> {
    let (skin, size) = (ctx.skin, ctx.size);
    let joint = skin.skin.joint(p).unwrap_or(0);
    let world_from_joint = Mat4::from(ctx.model[joint]);
    let ibm = skin.skin.joint_from_bind()[p];
    let mut why = Vec::new();
    if difference(
        &(ctx.mesh_from_world * world_from_joint * ibm.transpose()),
        &common,
        size,
    ) < TOLERANCE
    {
        why.push("its inverse bind matrix matches when transposed (written row-major)".to_string());
    }
    // The armature's non-joint ancestors: the parent chain above the skin's root joint.
    let ancestors = skin
        .root_joints
        .first()
        .and_then(|&r| skin.skin.joint(r))
        .and_then(|r| ctx.c.skeleton.parent(r))
        .map_or(Mat4::IDENTITY, |a| Mat4::from(ctx.model[a]));
    let without_ancestors = (ancestors.inverse() * world_from_joint).inverse();
    if ancestors != Mat4::IDENTITY && difference(&ibm, &without_ancestors, size) < TOLERANCE {
        why.push(
            "its inverse bind matches the joint only without the armature's non-joint ancestors"
                .to_string(),
        );
    }
    if ibm.determinant() < 0.0 && common.determinant() > 0.0 {
        why.push("its inverse bind has a negative determinant (flips handedness)".to_string());
    }
    if ibm.abs_diff_eq(Mat4::IDENTITY, 1e-6) && !world_from_joint.abs_diff_eq(Mat4::IDENTITY, 1e-4)
    {
        why.push("its inverse bind is the identity".to_string());
    }
    why
}

/// What the vertices' influences say, against where the bind pose puts the joints.
#[derive(Default)]
struct Influences {
    max_influences: usize,
    vertices: usize,
    /// Vertices farther than half the mesh's size from every joint that weights them.
    far: usize,
    /// The sum over skinned vertices of the vertex's offset from its joints' weighted mean
    /// position: near zero for a mesh that surrounds its skeleton, one displacement for a mesh
    /// moved, turned or scaled off it.
    offset_sum: Vec3,
    skinned: usize,
    implausible: usize,
    /// (vertex, dominant joint, nearest unweighted joint, their distances)
    first_implausible: Option<(usize, usize, usize, f32, f32)>,
    renormalised: usize,
    dropped_vertices: usize,
    dropped_max: f32,
    /// Palette indices some vertex weights.
    used: Vec<bool>,
}

/// The vertices' influences, against where the joints stood when the mesh was bound.
fn influences(ctx: &SkinContext<'_>, common: Mat4, joint_at: &[Vec3]) -> Influences {
    let skin = ctx.skin;
    let mut out = Influences {
        used: vec![false; skin.skin.len()],
        ..Influences::default()
    };
    for primitive in &ctx.c.meshes[ctx.instance.mesh].primitives {
        out.vertices += primitive.positions.len();
        let Some(sk) = &primitive.skinning else {
            continue;
        };
        out.renormalised += sk.renormalised_vertices + sk.unweighted_vertices;
        for &e in &sk.dropped_weight {
            if e > 1e-4 {
                out.dropped_vertices += 1;
                out.dropped_max = out.dropped_max.max(e);
            }
        }
        for v in 0..sk.joints.len() {
            // Where the bind pose puts the vertex, in mesh space (as the joints are).
            let bound = common.transform_point3(primitive.positions[v]);
            vertex_influences(ctx.size, joint_at, bound, (v, sk), &mut out);
        }
    }
    out
}

/// One vertex's influences into the tallies.
fn vertex_influences(
    size: f32,
    joint_at: &[Vec3],
    bound: Vec3,
    (v, skinning): (usize, &crate::character::VertexInfluences),
    out: &mut Influences,
) {
    // Both sets of four (JOINTS_0 and JOINTS_1): all eight are drawn.
    let influences: Vec<(usize, f32)> = skinning
        .influences(v)
        .filter(|&(_, w)| w > 0.0)
        .map(|(j, w)| (j as usize, w))
        .collect();
    out.max_influences = out.max_influences.max(influences.len());
    for &(joint, _) in &influences {
        if let Some(u) = out.used.get_mut(joint) {
            *u = true;
        }
    }
    let Some(&(dominant, _)) = influences.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return;
    };
    let (mut centre, mut total) = (Vec3::ZERO, 0.0);
    for &(joint, weight) in &influences {
        if let Some(p) = joint_at.get(joint) {
            centre += *p * weight;
            total += weight;
        }
    }
    if total > 0.0 {
        out.offset_sum += bound - centre / total;
        out.skinned += 1;
    }
    let distance = |joint: usize| joint_at.get(joint).map_or(f32::MAX, |p| p.distance(bound));
    let nearest_weighted = influences
        .iter()
        .map(|&(joint, _)| distance(joint))
        .fold(f32::MAX, f32::min);
    if nearest_weighted > 0.5 * size {
        out.far += 1;
    }
    let d_dominant = distance(dominant);
    let unweighted_nearest = (0..joint_at.len())
        .filter(|k| !influences.iter().any(|&(joint, _)| joint == *k))
        .map(|k| (k, distance(k)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((near, d_near)) = unweighted_nearest
        && d_dominant > 0.25 * size
        && d_near < d_dominant * 0.25
    {
        out.implausible += 1;
        out.first_implausible
            .get_or_insert((v, dominant, near, d_dominant, d_near));
    }
}

/// The weights' findings; where the bind pose places the vertices (`placed`), also whether the
/// mesh sits on its skeleton.
fn influence_findings(
    ctx: &SkinContext<'_>,
    stats: &Influences,
    placed: bool,
    common: Mat4,
    joint_at: &[Vec3],
    findings: &mut Vec<Finding>,
) {
    let vertex_count = stats.vertices.max(1);
    let far = stats.far;
    // Far vertices alone may be a shell or a cage around the joints (the AssetGenerator's outer
    // prism in Animation_Skin_06): the mesh is off its skeleton when they are also displaced
    // one way, by more than a quarter of its size on average.
    let displaced = stats.offset_sum.length() > 0.25 * ctx.size * stats.skinned.max(1) as f32;
    let off = placed && far * 20 > vertex_count && displaced;
    if placed && far * 20 > vertex_count && !displaced {
        findings.push(Finding::info(
            FindingKind::MeshOffSkeleton,
            format!(
                "skin {:?}: {far} of {vertex_count} vertices are farther than {:.3} (half the mesh's size) from every joint that weights them, though the mesh surrounds its joints (a shell or a cage)",
                ctx.skin.name,
                0.5 * ctx.size,
            ),
        ));
    }
    // A mesh off its skeleton, or weights that look wrong, may both be one armature's transform
    // missing from the inverse binds or from the vertex data: then that is the one error.
    let armature = (off || (placed && stats.implausible > 0))
        .then(|| armature_that_fits(ctx, common, joint_at, stats))
        .flatten();
    if let Some(armature) = &armature {
        findings.push(Finding::error(
            FindingKind::MeshOffSkeleton,
            None,
            format!(
                "skin {:?}: the mesh does not sit on its skeleton: {armature}",
                ctx.skin.name
            ),
        ));
    } else if off {
        findings.push(Finding::error(
            FindingKind::MeshOffSkeleton,
            None,
            format!(
                "skin {:?}: the mesh does not sit on its skeleton: {far} of {vertex_count} vertices are farther than {:.3} (half the mesh's size) from every joint that weights them; the inverse binds agree with each other but not with the vertex data",
                ctx.skin.name,
                0.5 * ctx.size,
            ),
        ));
    }
    if !placed {
        return;
    }
    if let Some((v, dominant, near, dd, dn)) =
        stats.first_implausible.filter(|_| armature.is_none())
    {
        findings.push(Finding::error(
            FindingKind::ImplausibleWeights,
            Some(ctx.name_of(dominant)),
            format!(
                "{} vertices are weighted to a far joint while a near one gets nothing, e.g. vertex {v}: {:?} at {dd:.3} weighs most, {:?} at {dn:.3} weighs nothing",
                stats.implausible,
                ctx.name_of(dominant).0,
                ctx.name_of(near).0
            ),
        ));
    }
    if stats.renormalised > 0 {
        findings.push(
            Finding::error(
                FindingKind::WeightsNotNormalised,
                None,
                format!(
                    "{} vertices have weights that do not sum to 1 (the importer renormalised them)",
                    stats.renormalised
                ),
            )
            .coded("ACCESSOR_WEIGHTS_NON_NORMALIZED"),
        );
    }
    if stats.dropped_vertices > 0 {
        findings.push(Finding::error(
            FindingKind::MoreThanFourInfluences,
            None,
            format!(
                "{} vertices have more than 4 influences; skinscope draws eight, an engine that keeps four (glTF's minimum) drops up to {:.1}% of a vertex's weight",
                stats.dropped_vertices,
                stats.dropped_max * 100.0
            ),
        ));
    }
}

/// When the vertices sit on their joints, with plausible weights, once a non-joint ancestor's
/// transform (an armature) is undone on them or applied to them: which node, and which of the
/// two (inverse binds or vertex data) lacks it. `None` when no ancestor fits better than the
/// file as it is.
fn armature_that_fits(
    ctx: &SkinContext<'_>,
    common: Mat4,
    joint_at: &[Vec3],
    stats: &Influences,
) -> Option<String> {
    let count = ctx_vertex_count(ctx);
    let wrong = |s: &Influences| s.far + s.implausible;
    let mut best: Option<(usize, String)> = None;
    for &a in &ctx.skin.non_joint_ancestors {
        let mesh_from_a = ctx.mesh_from_world * Mat4::from(ctx.model[a]);
        if mesh_from_a.abs_diff_eq(Mat4::IDENTITY, 1e-6) {
            continue;
        }
        let name = &ctx.c.skeleton.names()[a];
        let node = ctx.c.node_of_skeleton_joint[a];
        for (fix, how) in [
            (
                mesh_from_a.inverse(),
                format!(
                    "the inverse bind matrices were computed without node {node} {name:?}'s transform (the armature), which the vertex data includes: the vertices fit their joints when it is undone on them"
                ),
            ),
            (
                mesh_from_a,
                format!(
                    "the vertex data was written without node {node} {name:?}'s transform (the armature), which the inverse bind matrices include: the vertices fit their joints when it is applied to them"
                ),
            ),
        ] {
            let fixed = influences(ctx, fix * common, joint_at);
            let n = wrong(&fixed);
            if n * 20 <= count && n < wrong(stats) && best.as_ref().is_none_or(|b| n < b.0) {
                best = Some((n, how));
            }
        }
    }
    best.map(|b| b.1)
}

fn ctx_vertex_count(ctx: &SkinContext<'_>) -> usize {
    ctx.c.meshes[ctx.instance.mesh]
        .primitives
        .iter()
        .map(|p| p.positions.len())
        .sum::<usize>()
        .max(1)
}

/// Joints no vertex uses, no clip animates and that are no ancestor of a used joint (marked in
/// one walk up from each used joint, stopping where an earlier walk passed: linear in the
/// joints). An animated joint that weighs nothing may carry something in the game (a weapon,
/// a camera): `fix --drop-unused` keeps it too.
fn unused_joints(ctx: &SkinContext<'_>, used: &[bool], findings: &mut Vec<Finding>) {
    let skin = ctx.skin;
    let mut animated = vec![false; ctx.c.skeleton.names().len()];
    for track in ctx.c.clips.iter().flat_map(|k| k.clip.tracks()) {
        if let Some(a) = animated.get_mut(track.joint) {
            *a = true;
        }
    }
    let mut needed: Vec<bool> = (0..skin.skin.len())
        .map(|p| used[p] || skin.skin.joint(p).is_some_and(|j| animated[j]))
        .collect();
    for q in (0..skin.skin.len()).filter(|&q| used[q]) {
        let mut a = skin.palette_parent(q);
        while let Some(p) = a {
            if needed[p] {
                break;
            }
            needed[p] = true;
            a = skin.palette_parent(p);
        }
    }
    let unused: Vec<String> = (0..skin.skin.len())
        .filter(|&p| !needed[p])
        .map(|p| ctx.name_of(p).0)
        .collect();
    if !unused.is_empty() {
        findings.push(Finding::warning(
            FindingKind::UnusedJoints,
            format!(
                "skin {:?}: joints no vertex uses (nor any joint below them) and no clip animates: {}",
                skin.name,
                unused.join(", ")
            ),
        ));
    }
}

/// Joints the skin lists before their parent (the nearest ancestor among its joints).
fn joint_order(ctx: &SkinContext<'_>, findings: &mut Vec<Finding>) {
    let skin = ctx.skin;
    let early: Vec<(usize, usize)> = (0..skin.skin.len())
        .filter_map(|p| {
            let q = skin.palette_parent(p)?;
            let (k, parent) = (skin.ordinal_of_palette[p], skin.ordinal_of_palette[q]);
            (parent > k).then_some((k, parent))
        })
        .collect();
    let Some(&(k, parent)) = early.iter().min() else {
        return;
    };
    let name = |ordinal: usize| ctx.name_of(skin.palette_of_ordinal[ordinal]).0;
    findings.push(Finding::warning(
        FindingKind::JointsOutOfOrder,
        format!(
            "skin {:?}: {} joints are listed before their parent, e.g. {:?} at /skins/{}/joints/{k} before {:?} at {parent} (glTF allows it; importers that build the skeleton in one pass over the list want parents first)",
            skin.name,
            early.len(),
            name(k),
            skin.index,
            name(parent)
        ),
    ));
}

fn morph_limits(c: &Character, findings: &mut Vec<Finding>) {
    for mesh in &c.meshes {
        let targets = mesh.morph_weights.len();
        if targets > 8 {
            findings.push(Finding::info(
                FindingKind::Limits,
                format!(
                    "mesh {:?}: {targets} morph targets (over 8{})",
                    mesh.name,
                    if targets > 64 { " and 64" } else { "" }
                ),
            ));
        }
    }
    // What a clip drives at once, against what engines blend.
    for p in crate::debug::morph_peak::morph_peaks(c) {
        if p.over_limit() {
            findings.push(Finding::warning(
                FindingKind::MorphTargetsAtOnce,
                format!(
                    "clip {:?} drives {} of node {:?}'s {} morph targets at once (at {:.3} s): engines that blend {}{} drop the rest",
                    p.clip,
                    p.peak,
                    p.node,
                    p.targets,
                    p.at_secs,
                    p.limit,
                    if p.normals { " when the targets move normals" } else { "" }
                ),
            ));
        }
    }
}
