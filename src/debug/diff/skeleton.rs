//! The joints of two versions compared by name: added, removed, renamed, re-parented; rest
//! transforms and inverse binds.

use glam::Mat4;

use super::{BindChange, EPSILON, JointChanges, Renamed, Reparented, RestChange};
use crate::anim::Transform;
use crate::character::Character;

/// The joint's parent's name.
fn parent_name(c: &Character, joint: usize) -> Option<&str> {
    c.skeleton
        .parent(joint)
        .map(|p| c.skeleton.names()[p].as_str())
}

/// (moved, turned in degrees, largest scale change) from `a` to `b`.
fn change(a: &Transform, b: &Transform) -> (f32, f32, f32) {
    let moved = a.translation.distance(b.translation);
    // The turn from a to b, from its quaternion's sine and cosine (acos of a dot product near 1
    // loses the small angles to rounding).
    let turn = a.rotation.inverse() * b.rotation;
    let turned = (2.0 * turn.xyz().length().atan2(turn.w.abs())).to_degrees();
    let scaled = (a.scale - b.scale).abs().max_element();
    (moved, turned, scaled)
}

fn same_rest(a: &Transform, b: &Transform, size: f32) -> bool {
    let (moved, turned, scaled) = change(a, b);
    moved <= EPSILON * size && turned <= 1e-3 && scaled <= EPSILON
}

pub(super) fn joints(a: &Character, b: &Character, size: f32) -> JointChanges {
    let (na, nb) = (a.skeleton.names(), b.skeleton.names());
    let mut out = JointChanges {
        added: nb.iter().filter(|n| !na.contains(n)).cloned().collect(),
        removed: na.iter().filter(|n| !nb.contains(n)).cloned().collect(),
        ..JointChanges::default()
    };
    // A removed and an added joint under the same parent, with the same rest transform: renamed.
    let mut k = 0;
    while k < out.removed.len() {
        let ja = a.skeleton.find(&out.removed[k]).unwrap_or(0);
        let twin = out.added.iter().position(|n| {
            let jb = b.skeleton.find(n).unwrap_or(0);
            parent_name(a, ja) == parent_name(b, jb)
                && same_rest(&a.skeleton.rest()[ja], &b.skeleton.rest()[jb], size)
        });
        match twin {
            Some(t) => {
                let to = out.added.remove(t);
                let from = out.removed.remove(k);
                out.renamed.push(Renamed { from, to });
            }
            None => k += 1,
        }
    }
    for (ja, name) in na.iter().enumerate() {
        let Some(jb) = b.skeleton.find(name) else {
            continue;
        };
        let (pa, pb) = (parent_name(a, ja), parent_name(b, jb));
        if pa != pb {
            out.reparented.push(Reparented {
                joint: name.clone(),
                from: pa.map(str::to_owned),
                to: pb.map(str::to_owned),
            });
        }
        let (ra, rb) = (&a.skeleton.rest()[ja], &b.skeleton.rest()[jb]);
        if !same_rest(ra, rb, size) {
            let (moved, turned_degrees, scaled) = change(ra, rb);
            out.rest.push(RestChange {
                joint: name.clone(),
                moved,
                turned_degrees,
                scaled,
            });
        }
    }
    out.inverse_binds = inverse_binds(a, b, size);
    out
}

/// Each joint's inverse bind in the skins of the same index, matched by joint name.
fn inverse_binds(a: &Character, b: &Character, size: f32) -> Vec<BindChange> {
    let mut out = Vec::new();
    for sa in &a.skins {
        let Some(sb) = b.skins.iter().find(|s| s.index == sa.index) else {
            continue;
        };
        let bind_b: Vec<(&str, Mat4)> = (0..sb.skin.len())
            .filter_map(|p| {
                let joint = sb.skin.joint(p)?;
                Some((
                    b.skeleton.names()[joint].as_str(),
                    sb.skin.joint_from_bind()[p],
                ))
            })
            .collect();
        for p in 0..sa.skin.len() {
            let Some(joint) = sa.skin.joint(p) else {
                continue;
            };
            let name = &a.skeleton.names()[joint];
            let Some(&(_, mb)) = bind_b.iter().find(|(n, _)| n == name) else {
                continue;
            };
            let ma = sa.skin.joint_from_bind()[p];
            let largest_element = (ma - mb)
                .to_cols_array()
                .iter()
                .fold(0.0f32, |m, v| m.max(v.abs()));
            if largest_element <= EPSILON * size.max(1.0) {
                continue;
            }
            let moved = ma
                .inverse()
                .w_axis
                .truncate()
                .distance(mb.inverse().w_axis.truncate());
            out.push(BindChange {
                skin: sa.index,
                joint: name.clone(),
                largest_element,
                moved,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn a_change_is_moved_turned_and_scaled() {
        let a = Transform::IDENTITY;
        let b = Transform {
            translation: Vec3::new(3.0, 4.0, 0.0),
            rotation: Quat::from_rotation_y(30f32.to_radians()),
            scale: Vec3::new(1.0, 1.5, 1.0),
        };
        let (moved, turned, scaled) = change(&a, &b);
        assert!((moved - 5.0).abs() < 1e-6);
        assert!((turned - 30.0).abs() < 1e-3, "{turned}");
        assert!((scaled - 0.5).abs() < 1e-6);
        // The other hemisphere's quaternion is the same rotation.
        let flipped = Transform {
            rotation: -b.rotation,
            ..b
        };
        assert!(change(&b, &flipped).1 < 1e-2);
    }
}
