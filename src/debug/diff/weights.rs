//! The mesh nodes of two versions matched by name, and their vertices' weights compared by joint
//! name.

use super::{EPSILON, Renamed, WeightChange};
use crate::character::Character;

/// An instance's name: its node's.
pub(super) fn instance_name(c: &Character, i: usize) -> &str {
    &c.skeleton.names()[c.instances[i].skeleton_joint]
}

/// Vertices per primitive of instance `i`.
fn shape(c: &Character, i: usize) -> Vec<usize> {
    (c.meshes[c.instances[i].mesh].primitives.iter())
        .map(|p| p.positions.len())
        .collect()
}

/// The instances of `a` and `b` with the same name and vertex counts: (A's, B's, name). The
/// others are listed in `unmatched`.
pub(super) fn matched_instances(
    a: &Character,
    b: &Character,
    unmatched: &mut Vec<String>,
) -> Vec<(usize, usize, String)> {
    let mut pairs = Vec::new();
    for i in 0..a.instances.len() {
        let name = instance_name(a, i);
        match (0..b.instances.len()).find(|&j| instance_name(b, j) == name) {
            Some(j) if shape(a, i) == shape(b, j) => pairs.push((i, j, name.to_owned())),
            Some(_) => unmatched.push(format!("{name} (its vertex counts differ)")),
            None => unmatched.push(format!("{name} (only in A)")),
        }
    }
    for j in 0..b.instances.len() {
        let name = instance_name(b, j);
        if !(0..a.instances.len()).any(|i| instance_name(a, i) == name) {
            unmatched.push(format!("{name} (only in B)"));
        }
    }
    pairs
}

/// One vertex's influences by joint name (a renamed joint by its name in A).
pub(super) fn named<'a>(
    c: &'a Character,
    (i, primitive, v): (usize, usize, usize),
    renamed: &'a [Renamed],
) -> Vec<(&'a str, f32)> {
    let instance = &c.instances[i];
    let (Some(skin), Some(sk)) = (
        instance.skin.map(|s| &c.skins[s]),
        c.meshes[instance.mesh].primitives[primitive]
            .skinning
            .as_ref(),
    ) else {
        return Vec::new();
    };
    let mut out: Vec<(&str, f32)> = Vec::new();
    for (p, w) in sk.influences(v).filter(|x| x.1 > 0.0) {
        let name = skin
            .skin
            .joint(p as usize)
            .map_or("", |j| c.skeleton.names()[j].as_str());
        let name = (renamed.iter())
            .find(|r| r.to == name)
            .map_or(name, |r| r.from.as_str());
        match out.iter_mut().find(|x| x.0 == name) {
            Some(x) => x.1 += w,
            None => out.push((name, w)),
        }
    }
    out
}

/// The weights of each matched pair of mesh nodes, joints matched by name (`renamed`: B's
/// names of A's joints).
pub(super) fn changes(
    a: &Character,
    b: &Character,
    pairs: &[(usize, usize, String)],
    renamed: &[Renamed],
) -> Vec<WeightChange> {
    let mut out = Vec::new();
    for (i, j, name) in pairs {
        let mut change = WeightChange {
            mesh: name.clone(),
            vertices: 0,
            dominant_changed: 0,
            largest_weight_change: 0.0,
            vertex: 0,
        };
        let primitives = &a.meshes[a.instances[*i].mesh].primitives;
        for (p, primitive) in primitives.iter().enumerate() {
            for v in 0..primitive.positions.len() {
                let (wa, wb) = (named(a, (*i, p, v), &[]), named(b, (*j, p, v), renamed));
                let dominant = |w: &[(&str, f32)]| {
                    w.iter()
                        .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(x.0)))
                        .map(|x| x.0.to_owned())
                };
                if dominant(&wa) != dominant(&wb) {
                    change.dominant_changed += 1;
                }
                let weight =
                    |w: &[(&str, f32)], n: &str| w.iter().find(|x| x.0 == n).map_or(0.0, |x| x.1);
                let largest = (wa.iter().chain(&wb))
                    .map(|x| (weight(&wa, x.0) - weight(&wb, x.0)).abs())
                    .fold(0.0f32, f32::max);
                if largest > change.largest_weight_change {
                    change.largest_weight_change = largest;
                    change.vertex = change.vertices;
                }
                change.vertices += 1;
            }
        }
        if change.dominant_changed > 0 || change.largest_weight_change > EPSILON {
            out.push(change);
        }
    }
    out
}
