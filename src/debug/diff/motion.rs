//! The clips of two versions compared by name, and the posed deformation: both sides posed at
//! the same times (the keys of both clips, thinned evenly to `MAX_SAMPLES`), their joints'
//! world positions compared by joint name and their skinned vertices (linear blend, on the
//! CPU) per matched mesh node.

use glam::Vec3;

use super::{ClipChange, ClipChanges, Deformation, EPSILON, MAX_SAMPLES};
use crate::anim::SkinningMethod;
use crate::character::Character;
use crate::pose::{CharacterPose, PoseRequest, clip_key_times};
use crate::posed::PosedVertices;

/// The diagonal of the character's bind-pose bounds (its vertices, else its joints).
pub(super) fn bind_size(c: &Character) -> Result<f32, String> {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &PoseRequest::default())
        .map_err(|e| format!("{}: the bind pose cannot be posed: {e}", c.name))?;
    let posed = PosedVertices::on_cpu(c, &pose, SkinningMethod::Linear);
    let vertices = posed.instances.iter().flat_map(|(p, _)| p.iter().copied());
    let joints = (pose.model.as_slice().iter()).map(|m| Vec3::from(m.translation));
    let points: Vec<Vec3> = if posed.instances.iter().any(|(p, _)| !p.is_empty()) {
        vertices.collect()
    } else {
        joints.collect()
    };
    let (lo, hi) = (points.iter()).fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    Ok(if lo.x <= hi.x {
        (hi - lo).length().max(1e-6)
    } else {
        1.0
    })
}

/// `c` posed at `request` into `pose`, with a message naming the character.
fn evaluate(c: &Character, request: &PoseRequest, pose: &mut CharacterPose) -> Result<(), String> {
    pose.evaluate(c, request)
        .map_err(|e| format!("{}: cannot be posed: {e}", c.name))
}

/// What is matched between the two sides, once: their joints by name, and per pair of mesh
/// nodes whether the mesh is the same (bind positions, morph targets, and weights by joint
/// name), with B's palette index of each of A's. A pair whose mesh is the same, posed by equal
/// palettes and morph weights and placed by an equal `world_from_mesh`, has moved nothing: it is not skinned (`diff A A` skins nothing).
pub(super) struct Matched<'p> {
    joints: Vec<(usize, usize, String)>,
    pairs: &'p [(usize, usize, String)],
    same: Vec<Option<Vec<usize>>>,
}

impl<'p> Matched<'p> {
    pub(super) fn new(a: &Character, b: &Character, pairs: &'p [(usize, usize, String)]) -> Self {
        let joints = (a.skeleton.names().iter().enumerate())
            .filter_map(|(ja, name)| Some((ja, b.skeleton.find(name)?, name.clone())))
            .collect();
        let same = pairs
            .iter()
            .map(|&(i, j, _)| same_mesh(a, b, i, j))
            .collect();
        Self {
            joints,
            pairs,
            same,
        }
    }
}

/// B's palette index of each of A's, when instances `i` of `a` and `j` of `b` draw the same
/// mesh the same way.
fn same_mesh(a: &Character, b: &Character, i: usize, j: usize) -> Option<Vec<usize>> {
    let (ia, ib) = (&a.instances[i], &b.instances[j]);
    let (ma, mb) = (&a.meshes[ia.mesh], &b.meshes[ib.mesh]);
    for (k, (pa, pb)) in ma.primitives.iter().zip(&mb.primitives).enumerate() {
        let targets_same = pa.morph_targets.len() == pb.morph_targets.len()
            && (pa.morph_targets.iter().zip(&pb.morph_targets))
                .all(|(x, y)| x.positions == y.positions && x.normals == y.normals);
        if pa.positions != pb.positions || !targets_same {
            return None;
        }
        for v in 0..pa.positions.len() {
            let (mut x, mut y) = (
                super::weights::named(a, (i, k, v), &[]),
                super::weights::named(b, (j, k, v), &[]),
            );
            x.sort_by(|p, q| p.0.cmp(q.0));
            y.sort_by(|p, q| p.0.cmp(q.0));
            if x != y {
                return None;
            }
        }
    }
    let (sa, sb) = (a.skins.get(ia.skin?)?, b.skins.get(ib.skin?)?);
    (0..sa.skin.len())
        .map(|p| {
            let name = &a.skeleton.names()[sa.skin.joint(p)?];
            let jb = b.skeleton.find(name)?;
            (0..sb.skin.len()).find(|&q| sb.skin.joint(q) == Some(jb))
        })
        .collect()
}

/// The largest distance of a joint (and its name) at one frame.
type JointMoved = (f32, Option<String>);

/// The largest distance of a vertex at one frame: (distance, mesh node, vertex).
type VertexMoved = (f32, String, usize);

/// Both sides at one request each: the largest joint displacement (joint name) and the largest
/// vertex displacement (mesh, vertex).
fn compare(
    (a, b): (&Character, &Character),
    (ra, rb): (&PoseRequest, &PoseRequest),
    (pa, pb): (&mut CharacterPose, &mut CharacterPose),
    matched: &Matched<'_>,
) -> Result<(JointMoved, VertexMoved), String> {
    evaluate(a, ra, pa)?;
    evaluate(b, rb, pb)?;
    let mut joint = (0.0f32, None);
    for (ja, jb, name) in &matched.joints {
        let d = Vec3::from(pa.model.as_slice()[*ja].translation)
            .distance(Vec3::from(pb.model.as_slice()[*jb].translation));
        if d > joint.0 {
            joint = (d, Some(name.clone()));
        }
    }
    // The pairs that may have moved: not the same mesh, or posed otherwise.
    let moved: Vec<usize> = (0..matched.pairs.len())
        .filter(|&k| {
            let (i, j, _) = &matched.pairs[k];
            let Some(map) = &matched.same[k] else {
                return true;
            };
            let (xa, xb) = (
                pa.instance_palette(*i).unwrap_or(&[]),
                pb.instance_palette(*j).unwrap_or(&[]),
            );
            let palettes = (xa.iter().zip(map)).any(|(m, &q)| xb.get(q) != Some(m));
            let placed = pa.world_from_mesh.get(*i) != pb.world_from_mesh.get(*j);
            palettes || placed || pa.morph.of(*i) != pb.morph.of(*j)
        })
        .collect();
    let mut vertex = (0.0f32, String::new(), 0);
    if moved.is_empty() {
        return Ok((joint, vertex));
    }
    let va = PosedVertices::on_cpu(a, pa, SkinningMethod::Linear);
    let vb = PosedVertices::on_cpu(b, pb, SkinningMethod::Linear);
    for k in moved {
        let (i, j, name) = &matched.pairs[k];
        let (Some((xa, _)), Some((xb, _))) = (va.instances.get(*i), vb.instances.get(*j)) else {
            continue;
        };
        for (v, (p, q)) in xa.iter().zip(xb).enumerate() {
            let d = p.distance(*q);
            if d > vertex.0 {
                vertex = (d, name.clone(), v);
            }
        }
    }
    Ok((joint, vertex))
}

/// How far each vertex of `b` moved from `a` at a deformation's frame: per B instance, per
/// primitive, per vertex; `None` for the mesh nodes not compared.
pub fn displacements(
    a: &Character,
    b: &Character,
    at: &Deformation,
) -> Result<Vec<Option<Vec<Vec<f32>>>>, String> {
    let request = |c: &Character| match &at.clip {
        Some(name) => (c.clips.iter().position(|k| k.clip.name() == name))
            .map(|k| PoseRequest::clip(k, at.time))
            .ok_or_else(|| format!("{}: no clip {name:?}", c.name)),
        None => Ok(PoseRequest::default()),
    };
    let (ra, rb) = (request(a)?, request(b)?);
    let (mut pa, mut pb) = (CharacterPose::new(a), CharacterPose::new(b));
    evaluate(a, &ra, &mut pa)?;
    evaluate(b, &rb, &mut pb)?;
    let va = PosedVertices::on_cpu(a, &pa, SkinningMethod::Linear);
    let vb = PosedVertices::on_cpu(b, &pb, SkinningMethod::Linear);
    let pairs = super::weights::matched_instances(a, b, &mut Vec::new());
    Ok((0..b.instances.len())
        .map(|j| {
            let (i, _, _) = pairs.iter().find(|p| p.1 == j)?;
            let (xa, xb) = (&va.instances[*i].0, &vb.instances[j].0);
            let mut at = 0;
            let per_primitive = (b.meshes[b.instances[j].mesh].primitives.iter())
                .map(|p| {
                    let n = p.positions.len();
                    let d = (at..at + n).map(|v| xa[v].distance(xb[v])).collect();
                    at += n;
                    d
                })
                .collect();
            Some(per_primitive)
        })
        .collect())
}

/// The times a clip pair is compared at: the keys of both, each once, thinned evenly.
fn samples(a: &Character, ka: usize, b: &Character, kb: usize) -> Vec<f32> {
    let mut times: Vec<f32> = clip_key_times(a, ka)
        .into_iter()
        .chain(clip_key_times(b, kb))
        .chain([0.0])
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|x, y| (*x - *y).abs() < 1e-6);
    thin(times, MAX_SAMPLES)
}

/// At most `most` (two or more) of `times`, evenly spread, the first and last kept.
fn thin(times: Vec<f32>, most: usize) -> Vec<f32> {
    let n = times.len();
    if n <= most {
        return times;
    }
    (0..most).map(|k| times[k * (n - 1) / (most - 1)]).collect()
}

pub(super) fn clips(
    a: &Character,
    b: &Character,
    pairs: &[(usize, usize, String)],
    size: f32,
) -> Result<ClipChanges, String> {
    let name = |c: &Character, k: usize| c.clips[k].clip.name().to_owned();
    let find = |c: &Character, n: &str| c.clips.iter().position(|k| k.clip.name() == n);
    let mut out = ClipChanges {
        added: (0..b.clips.len())
            .map(|k| name(b, k))
            .filter(|n| find(a, n).is_none())
            .collect(),
        removed: (0..a.clips.len())
            .map(|k| name(a, k))
            .filter(|n| find(b, n).is_none())
            .collect(),
        ..ClipChanges::default()
    };
    let (mut pa, mut pb) = (CharacterPose::new(a), CharacterPose::new(b));
    let deformation = |clip: Option<String>, time: f32, (d, mesh, vertex): (f32, String, usize)| {
        (d > EPSILON * size).then(|| Deformation {
            clip,
            time,
            mesh,
            vertex,
            displacement: d,
            relative: d / size,
        })
    };
    let matched = Matched::new(a, b, pairs);
    let rest = PoseRequest::default();
    let (_, bind) = compare((a, b), (&rest, &rest), (&mut pa, &mut pb), &matched)?;
    out.bind = deformation(None, 0.0, bind);
    for ka in 0..a.clips.len() {
        let clip = name(a, ka);
        let Some(kb) = find(b, &clip) else {
            continue;
        };
        let times = samples(a, ka, b, kb);
        let mut joint = (0.0f32, None, 0.0f32);
        let mut vertex = (0.0f32, String::new(), 0, 0.0f32);
        for &t in &times {
            let (j, v) = compare(
                (a, b),
                (&PoseRequest::clip(ka, t), &PoseRequest::clip(kb, t)),
                (&mut pa, &mut pb),
                &matched,
            )?;
            if j.0 > joint.0 {
                joint = (j.0, j.1, t);
            }
            if v.0 > vertex.0 {
                vertex = (v.0, v.1, v.2, t);
            }
        }
        let (da, db) = (
            a.clips[ka].clip.duration_secs(),
            b.clips[kb].clip.duration_secs(),
        );
        let moved = joint.0 > EPSILON * size;
        let deformed = deformation(Some(clip.clone()), vertex.3, (vertex.0, vertex.1, vertex.2));
        if (da - db).abs() > EPSILON || moved || deformed.is_some() {
            out.changed.push(ClipChange {
                clip,
                duration_a: da,
                duration_b: db,
                samples: times.len(),
                largest_joint_displacement: joint.0,
                joint: joint.1.filter(|_| moved),
                joint_time: joint.2,
                deformation: deformed,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::thin;

    #[test]
    fn samples_are_thinned_evenly_keeping_both_ends() {
        let times: Vec<f32> = (0..1000).map(|k| k as f32).collect();
        let picked = thin(times.clone(), 240);
        assert_eq!(picked.len(), 240);
        assert_eq!((picked[0], picked[239]), (0.0, 999.0));
        // Evenly: steps of 999/239, floored.
        assert_eq!(picked[1], 4.0);
        assert_eq!(picked[120], (120 * 999 / 239) as f32);
        assert_eq!(thin(times[..5].to_vec(), 240), &times[..5]);
    }
}
