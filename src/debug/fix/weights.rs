//! Weights repaired as Blender's Limit Total and Normalize All repair them.
//!
//! A skinned primitive is rewritten when one of its vertices has more than `limit` non-zero
//! influences, one beyond the first `limit` slots (in a set an engine that keeps `limit` drops),
//! weights whose sum is further than the importer's tolerance from one, or no weight at all. Then every vertex of it gets: its influences on one joint added together, the
//! largest `limit` kept (ties to the lower joint), their weights divided by their sum, and a
//! vertex weighted nowhere bound to its skin's root joint with weight one (what the importer
//! draws for it). JOINTS_n are written as unsigned bytes when the file's were and every joint
//! fits, else as unsigned shorts; WEIGHTS_n as floats; the sets beyond what the limit needs are
//! removed. Primitives that share their accessors share the rewritten ones.

use std::collections::HashMap;

use serde_json::json;

use super::{Repair, RepairKind, parents, skin_joints, skin_parents, skinned_primitives};
use crate::import::document::Document;

/// Weight sums further than this from one are not normalised (the importer's tolerance).
const SUM_TOLERANCE: f32 = 1e-3;

/// One vertex's influences: (joint ordinal, weight).
type Influences = Vec<(u16, f32)>;

/// A vertex as the file stores it: its influences, and how many slots (four a set) it spreads
/// over, up to its last non-zero weight.
struct Stored {
    influences: Influences,
    slots: usize,
}

pub(super) fn repair(document: &mut Document, limit: usize) -> Result<Vec<Repair>, String> {
    let parent = parents(document);
    let mut repairs = Vec::new();
    // The accessors of a primitive's sets -> the rewritten ones.
    let mut rewritten: HashMap<Vec<u64>, Vec<(usize, usize)>> = HashMap::new();
    for (skin, mesh, p) in skinned_primitives(document) {
        let at = format!("/meshes/{mesh}/primitives/{p}");
        let attributes = document.json["meshes"][mesh]["primitives"][p]["attributes"].clone();
        let mut sets = Vec::new();
        while let (Some(j), Some(w)) = (
            attributes[format!("JOINTS_{}", sets.len())].as_u64(),
            attributes[format!("WEIGHTS_{}", sets.len())].as_u64(),
        ) {
            sets.push((j, w));
        }
        if sets.is_empty() {
            continue;
        }
        let key: Vec<u64> = sets.iter().flat_map(|&(j, w)| [j, w]).collect();
        if let Some(new) = rewritten.get(&key) {
            point_at(document, mesh, p, sets.len(), new);
            continue;
        }
        let joints = skin_joints(document, skin);
        let before = read_influences(document, &sets)?;
        let needs = |v: &Stored| {
            let sum: f32 = v.influences.iter().map(|x| x.1).sum();
            v.slots > limit || sum == 0.0 || (sum - 1.0).abs() > SUM_TOLERANCE
        };
        if !before.iter().any(needs) {
            continue;
        }
        let root = root_ordinal(&joints, &parent);
        let mut changed = (0usize, 0usize, 0usize, 0usize, 0.0f32);
        let after: Vec<Influences> = before
            .iter()
            .map(|stored| {
                let v = &stored.influences;
                let sum: f32 = v.iter().map(|x| x.1).sum();
                if v.len() > limit {
                    changed.0 += 1;
                } else if stored.slots > limit {
                    changed.3 += 1;
                }
                if sum == 0.0 {
                    changed.2 += 1;
                } else if (sum - 1.0).abs() > SUM_TOLERANCE {
                    changed.1 += 1;
                }
                let new = limited(v, limit, root);
                changed.4 = changed.4.max(largest_change(v, &new));
                new
            })
            .collect();
        let vertices = before.iter().filter(|v| needs(v)).count();
        let wide_before = sets.iter().any(|&(j, _)| {
            document.json["accessors"][j as usize]["componentType"].as_u64() != Some(5121)
        });
        let wide = wide_before || joints.len() > 256;
        let count = after.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let new_sets = count.div_ceil(4);
        let mut new = Vec::with_capacity(new_sets);
        for s in 0..new_sets {
            let mut j = Vec::with_capacity(after.len() * 4);
            let mut w = Vec::with_capacity(after.len() * 4);
            for v in &after {
                for slot in 4 * s..4 * s + 4 {
                    let (joint, weight) = v.get(slot).copied().unwrap_or((0, 0.0));
                    j.push(joint);
                    w.push(weight);
                }
            }
            new.push((
                document.push_indices(&j, "VEC4", wide),
                document.push_floats(&w, "VEC4", true),
            ));
        }
        point_at(document, mesh, p, sets.len(), &new);
        rewritten.insert(key, new);
        let (over, unnormalised, unweighted, moved, largest) = changed;
        let mut what = Vec::new();
        if over > 0 {
            what.push(format!(
                "{over} vertices limited to {limit} influences (the largest kept)"
            ));
        }
        if moved > 0 {
            what.push(format!(
                "{moved} vertices' influences moved into the first {limit} slots"
            ));
        }
        if unnormalised > 0 {
            what.push(format!(
                "{unnormalised} vertices' weights normalised to sum to 1"
            ));
        }
        if unweighted > 0 {
            what.push(format!(
                "{unweighted} vertices weighted nowhere bound to the root joint"
            ));
        }
        repairs.push(Repair {
            kind: RepairKind::Weights,
            pointer: at,
            message: format!(
                "{}; largest weight change {largest:.4}; {} weight sets written",
                what.join(", "),
                new_sets
            ),
            vertices,
            joints: Vec::new(),
            largest_weight_change: largest,
        });
    }
    Ok(repairs)
}

/// Points primitive `p` of `mesh` at the rewritten sets, removing the file's sets beyond them.
fn point_at(document: &mut Document, mesh: usize, p: usize, old: usize, new: &[(usize, usize)]) {
    let attributes = &mut document.json["meshes"][mesh]["primitives"][p]["attributes"];
    for (s, &(j, w)) in new.iter().enumerate() {
        attributes[format!("JOINTS_{s}")] = json!(j);
        attributes[format!("WEIGHTS_{s}")] = json!(w);
    }
    if let Some(map) = attributes.as_object_mut() {
        for s in new.len()..old {
            map.remove(&format!("JOINTS_{s}"));
            map.remove(&format!("WEIGHTS_{s}"));
        }
    }
}

/// Every vertex's non-zero influences, those on one joint added together.
fn read_influences(document: &Document, sets: &[(u64, u64)]) -> Result<Vec<Stored>, String> {
    let mut out: Vec<Stored> = Vec::new();
    for (set, &(j, w)) in sets.iter().enumerate() {
        let joints = document.read(j as usize).map_err(|e| e.to_string())?;
        let weights = document.read(w as usize).map_err(|e| e.to_string())?;
        if joints.len() != weights.len() || joints.len() % 4 != 0 {
            return Err(format!(
                "{}: /accessors/{j} and /accessors/{w} (JOINTS and WEIGHTS) differ in length",
                document.file().display()
            ));
        }
        let count = joints.len() / 4;
        if out.is_empty() {
            out = (0..count)
                .map(|_| Stored {
                    influences: Vec::new(),
                    slots: 0,
                })
                .collect();
        } else if out.len() != count {
            return Err(format!(
                "{}: /accessors/{j}: {count} vertices, where the first set has {}",
                document.file().display(),
                out.len()
            ));
        }
        for (v, stored) in out.iter_mut().enumerate() {
            for k in 0..4 {
                let (joint, weight) = (joints[4 * v + k] as u16, weights[4 * v + k]);
                if weight.is_nan() || weight <= 0.0 {
                    continue;
                }
                stored.slots = 4 * set + k + 1;
                match stored.influences.iter_mut().find(|x| x.0 == joint) {
                    Some(x) => x.1 += weight,
                    None => stored.influences.push((joint, weight)),
                }
            }
        }
    }
    Ok(out)
}

/// The largest `limit` influences, normalised; the root joint alone when there are none.
fn limited(v: &Influences, limit: usize, root: u16) -> Influences {
    let mut kept = v.clone();
    kept.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    kept.truncate(limit);
    let sum: f32 = kept.iter().map(|x| x.1).sum();
    if sum <= 0.0 {
        return vec![(root, 1.0)];
    }
    for x in &mut kept {
        x.1 /= sum;
    }
    kept
}

/// The largest change of one joint's weight between two influence lists.
fn largest_change(before: &Influences, after: &Influences) -> f32 {
    let weight =
        |list: &Influences, joint: u16| list.iter().find(|x| x.0 == joint).map_or(0.0, |x| x.1);
    before
        .iter()
        .chain(after)
        .map(|&(joint, _)| (weight(before, joint) - weight(after, joint)).abs())
        .fold(0.0, f32::max)
}

/// The ordinal of the skin's first joint that has no ancestor among its joints.
fn root_ordinal(joints: &[usize], parent: &[Option<usize>]) -> u16 {
    let skin_parent = skin_parents(joints, parent);
    skin_parent.iter().position(Option::is_none).unwrap_or(0) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_influences_are_kept_and_normalised() {
        let v = vec![(3, 0.1), (1, 0.4), (2, 0.2), (0, 0.2), (5, 0.1)];
        let kept = limited(&v, 4, 0);
        // 0.4, then the two 0.2s (joint 0 before 2), then the 0.1 on joint 3 before joint 5.
        let sum = 0.9f32;
        let expected = [
            (1, 0.4 / sum),
            (0, 0.2 / sum),
            (2, 0.2 / sum),
            (3, 0.1 / sum),
        ];
        assert_eq!(kept.len(), 4);
        for (k, e) in kept.iter().zip(expected) {
            assert_eq!(k.0, e.0);
            assert!((k.1 - e.1).abs() < 1e-6, "{kept:?}");
        }
        // Joint 5 lost 0.1; joint 1 gained 0.4/0.9 - 0.4 = 0.0444.
        assert!((largest_change(&v, &kept) - 0.1).abs() < 1e-6);
        assert_eq!(limited(&Vec::new(), 4, 7), [(7, 1.0)]);
    }

    #[test]
    fn the_root_joint_is_the_first_without_an_ancestor_among_the_joints() {
        // Nodes: 0 armature -> 1 hips -> 2 spine; the skin lists [2, 1].
        let parent = [None, Some(0), Some(1)];
        assert_eq!(root_ordinal(&[2, 1], &parent), 1);
        assert_eq!(root_ordinal(&[1, 2], &parent), 0);
    }
}
