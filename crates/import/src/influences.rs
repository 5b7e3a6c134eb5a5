//! A primitive's skinning influences: JOINTS_n / WEIGHTS_n checked against each other, the
//! vertex count and the skin, the second set of four drawn, the weight beyond eight measured,
//! weights renormalised and unweighted vertices bound to the skin's root.

use gltf::accessor::{DataType, Dimensions};

use super::accessor::{Buffers, expect_format, read_normalized_f32, read_u32};
use super::problem::{Optional, Problems, Recorded};
use crate::character::{Problem, SkinData, VertexInfluences};

/// Weight sums further than this from one are renormalised (three.js does the same).
pub(super) const WEIGHT_SUM_TOLERANCE: f32 = 1e-3;

pub(super) fn read_skinning(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    skin: Option<&SkinData>,
    node: Option<usize>,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Optional<VertexInfluences> {
    let Some((joints, weights, joint_sets)) =
        skinning_accessors(primitive, at, skin, node, count, problems)?
    else {
        return Ok(None);
    };
    let Some(skin) = skin else {
        // A mesh no node draws (`node` is None) is only checked.
        let Some(node) = node else { return Ok(None) };
        problems.warn_coded(
            "NODE_SKINNED_MESH_WITHOUT_SKIN",
            format!("/nodes/{node}"),
            format!("the node has no skin but its mesh has JOINTS_0/WEIGHTS_0 ({at}/attributes/JOINTS_0): drawn rigidly at the node"),
        );
        return Ok(None);
    };
    let extra =
        extra_weights(primitive, at, joint_sets, count, buffers, problems).ok_or(Recorded)?;
    let joint_values = problems.take(read_u32(&joints, buffers)).ok_or(Recorded)?;
    let weight_values = problems
        .take(read_normalized_f32(&weights, buffers))
        .ok_or(Recorded)?;
    let skinning =
        influences(at, skin, &joint_values, &weight_values, extra, problems).ok_or(Recorded)?;
    let weights_at = format!("{at}/attributes/WEIGHTS_0");
    if skinning.renormalised_vertices > 0 {
        problems.warn_coded(
            "ACCESSOR_WEIGHTS_NON_NORMALIZED",
            &weights_at,
            format!("{} vertices have weights that do not sum to 1 (within {WEIGHT_SUM_TOLERANCE}): renormalised", skinning.renormalised_vertices),
        );
    }
    if skinning.unweighted_vertices > 0 {
        problems.warn_coded(
            "ACCESSOR_WEIGHTS_NON_NORMALIZED",
            &weights_at,
            format!(
                "{} vertices have all-zero weights: bound to the skin's root joint",
                skinning.unweighted_vertices
            ),
        );
    }
    Ok(Some(skinning))
}

/// JOINTS_0 and WEIGHTS_0, checked against each other and the vertex count, and the number of
/// JOINTS sets; `Ok(None)` without either (a skinned node's primitive drawn rigidly).
pub(super) fn skinning_accessors<'a>(
    primitive: &gltf::Primitive<'a>,
    at: &str,
    skin: Option<&SkinData>,
    node: Option<usize>,
    count: usize,
    problems: &mut Problems,
) -> Optional<(gltf::Accessor<'a>, gltf::Accessor<'a>, usize)> {
    let sets = |joints: bool| {
        primitive
            .attributes()
            .filter(|(semantic, _)| {
                matches!(
                    (semantic, joints),
                    (gltf::Semantic::Joints(_), true) | (gltf::Semantic::Weights(_), false)
                )
            })
            .count()
    };
    let (joint_sets, weight_sets) = (sets(true), sets(false));
    if joint_sets != weight_sets {
        problems.error_coded(
            "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
            format!("{at}/attributes"),
            format!("{joint_sets} JOINTS sets but {weight_sets} WEIGHTS sets: each JOINTS_n needs its WEIGHTS_n"),
        );
        return Err(Recorded);
    }
    let joints_at = format!("{at}/attributes/JOINTS_0");
    let weights_at = format!("{at}/attributes/WEIGHTS_0");
    let joints = primitive.get(&gltf::Semantic::Joints(0));
    let weights = primitive.get(&gltf::Semantic::Weights(0));
    let (joints, weights) = match (joints, weights) {
        (None, None) => {
            if let (Some(_), Some(node)) = (skin, node) {
                problems.warn(
                    format!("{at}/attributes"),
                    format!("node {node} has a skin but this primitive has no JOINTS_0/WEIGHTS_0: drawn rigidly at the node"),
                );
            }
            return Ok(None);
        }
        (Some(_), None) => {
            problems.error(joints_at, "JOINTS_0 without WEIGHTS_0");
            return Err(Recorded);
        }
        (None, Some(_)) => {
            problems.error(weights_at, "WEIGHTS_0 without JOINTS_0");
            return Err(Recorded);
        }
        (Some(j), Some(w)) => (j, w),
    };
    problems
        .take(expect_format(
            &joints,
            &joints_at,
            "JOINTS_0",
            &[Dimensions::Vec4],
            &[DataType::U8, DataType::U16],
        ))
        .ok_or(Recorded)?;
    problems
        .take(expect_format(
            &weights,
            &weights_at,
            "WEIGHTS_0",
            &[Dimensions::Vec4],
            &[DataType::F32, DataType::U8, DataType::U16],
        ))
        .ok_or(Recorded)?;
    if joints.count() != count || weights.count() != count {
        problems.error(
            format!("{at}/attributes"),
            format!(
                "JOINTS_0 has {} and WEIGHTS_0 has {} elements for {count} vertices",
                joints.count(),
                weights.count()
            ),
        );
        return Err(Recorded);
    }
    Ok(Some((joints, weights, joint_sets)))
}

/// The influence sets after the first: the second (JOINTS_1 / WEIGHTS_1: influences five to
/// eight, drawn), and per vertex the weight beyond the first four (what a four-influence engine
/// drops) and beyond the first eight (what skinscope drops).
pub(super) struct ExtraSets {
    pub(super) second: Option<(Vec<u32>, Vec<f32>)>,
    pub(super) beyond_four: Vec<f32>,
    pub(super) beyond_eight: Vec<f32>,
}

pub(super) fn extra_weights(
    primitive: &gltf::Primitive<'_>,
    at: &str,
    joint_sets: usize,
    count: usize,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Option<ExtraSets> {
    let mut out = ExtraSets {
        second: None,
        beyond_four: Vec::new(),
        beyond_eight: Vec::new(),
    };
    for set in 1..joint_sets as u32 {
        let Some(w) = primitive.get(&gltf::Semantic::Weights(set)) else {
            continue;
        };
        let w_at = format!("{at}/attributes/WEIGHTS_{set}");
        problems.take(expect_format(
            &w,
            &w_at,
            "WEIGHTS",
            &[Dimensions::Vec4],
            &[DataType::F32, DataType::U8, DataType::U16],
        ))?;
        if w.count() != count {
            problems.error(w_at, format!("{} elements for {count} vertices", w.count()));
            return None;
        }
        let values = problems.take(read_normalized_f32(&w, buffers))?;
        let positive = |v: usize| {
            values[4 * v..4 * v + 4]
                .iter()
                .filter(|x| x.is_finite() && **x > 0.0)
                .sum::<f32>()
        };
        out.beyond_four.resize(count, 0.0f32);
        for (v, e) in out.beyond_four.iter_mut().enumerate() {
            *e += positive(v);
        }
        if set == 1 {
            let j_at = format!("{at}/attributes/JOINTS_1");
            let Some(j) = primitive.get(&gltf::Semantic::Joints(1)) else {
                problems.error(j_at, "WEIGHTS_1 without JOINTS_1");
                return None;
            };
            problems.take(expect_format(
                &j,
                &j_at,
                "JOINTS",
                &[Dimensions::Vec4],
                &[DataType::U8, DataType::U16],
            ))?;
            if j.count() != count {
                problems.error(j_at, format!("{} elements for {count} vertices", j.count()));
                return None;
            }
            let joints = problems.take(read_u32(&j, buffers))?;
            out.second = Some((joints, values));
        } else {
            out.beyond_eight.resize(count, 0.0f32);
            for (v, e) in out.beyond_eight.iter_mut().enumerate() {
                *e += positive(v);
            }
        }
    }
    if out.beyond_eight.iter().any(|&e| e > 0.0) {
        problems.warn(
            format!("{at}/attributes/JOINTS_2"),
            "influences beyond the first eight (JOINTS_2/WEIGHTS_2 and on) are dropped; the first eight are renormalised",
        );
    }
    Some(out)
}

/// Up to eight influences per vertex in palette indices (the first four, and the second set's
/// four when the file has one), weights renormalised where they do not sum to one (with the
/// sets beyond the eighth) and all-zero weights bound to the skin's root joint.
pub(super) fn influences(
    at: &str,
    skin: &SkinData,
    joint_values: &[u32],
    weight_values: &[f32],
    extra: ExtraSets,
    problems: &mut Problems,
) -> Option<VertexInfluences> {
    let count = joint_values.len() / 4;
    let joint_count = skin.palette_of_ordinal.len();
    let root = skin.root_joints.first().copied().unwrap_or(0) as u16;
    let mut out = VertexInfluences {
        joints: Vec::with_capacity(count),
        weights: Vec::with_capacity(count),
        joints_1: Vec::new(),
        weights_1: Vec::new(),
        renormalised_vertices: 0,
        unweighted_vertices: 0,
        dropped_weight: extra.beyond_four,
        file_weight_sums: Vec::with_capacity(count),
    };
    // One set's four (palette joints, weights) of vertex v, checked.
    let set = |v: usize,
               joints: &[u32],
               weights: &[f32],
               n: usize|
     -> Result<([u16; 4], [f32; 4]), Problem> {
        let w: [f32; 4] = std::array::from_fn(|k| weights[4 * v + k]);
        if w.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(Problem::new(
                format!("{at}/attributes/WEIGHTS_{n}"),
                format!("vertex {v} has weights {w:?}: weights must be finite and not negative"),
            ));
        }
        let mut j = [0u16; 4];
        for k in 0..4 {
            let ordinal = joints[4 * v + k] as usize;
            let Some(&palette) = skin.palette_of_ordinal.get(ordinal) else {
                return Err(Problem::new(
                    format!("{at}/attributes/JOINTS_{n}"),
                    format!(
                        "vertex {v} uses joint {ordinal}, but skin {} ({}) has {joint_count} joints",
                        skin.index, skin.name
                    ),
                )
                .coded("ACCESSOR_JOINTS_INDEX_OOB"));
            };
            j[k] = palette as u16;
        }
        Ok((j, w))
    };
    for v in 0..count {
        let (mut j, w) = problems.take(set(v, joint_values, weight_values, 0))?;
        let second = match &extra.second {
            Some((joints, weights)) => Some(problems.take(set(v, joints, weights, 1))?),
            None => None,
        };
        let beyond = extra.beyond_eight.get(v).copied().unwrap_or(0.0);
        let sum: f32 = w.iter().sum::<f32>() + second.map_or(0.0, |s| s.1.iter().sum());
        out.file_weight_sums.push(sum + beyond);
        let scale = if sum == 0.0 {
            out.unweighted_vertices += 1;
            j = [root, 0, 0, 0];
            None
        } else if (sum + beyond - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
            out.renormalised_vertices += 1;
            Some(1.0 / sum)
        } else if beyond > 0.0 {
            // The weights sum to one only with the dropped sets: the first eight are rescaled.
            Some(1.0 / sum)
        } else {
            Some(1.0)
        };
        let w = scale.map_or([1.0, 0.0, 0.0, 0.0], |k| w.map(|x| x * k));
        out.joints.push(j);
        out.weights.push(w);
        if let Some((j1, w1)) = second {
            let w1 = scale.map_or([0.0; 4], |k| w1.map(|x| x * k));
            out.joints_1.push(j1);
            out.weights_1.push(w1);
        }
    }
    Some(out)
}
