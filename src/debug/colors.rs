//! Skinning-debug colourings of a character's vertices, computed on the CPU: dominant joint,
//! one joint's weight, weight-sum deviation, influence count, and the displacement between two
//! palettes. Colours are linear RGBA, one per vertex, per instance and primitive.

use glam::{Vec3, Vec4};

use crate::character::Character;
use crate::pose::CharacterPose;

/// What the mesh is coloured by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorView {
    /// The file's materials.
    #[default]
    Material,
    /// Each vertex in its heaviest joint's colour (stable per palette index).
    DominantJoint,
    /// Heat map of the selected joint's weight (blue 0 to red 1).
    SelectedJointWeight,
    /// How far the file's weights summed from one (green exact, red off by 0.1 or more).
    WeightSumDeviation,
    /// Influences per vertex: 1 blue, 2 green, 3 yellow, 4 orange, more than 4 magenta.
    InfluenceCount,
    /// Distance each vertex moves between the compared palettes, as a heat map.
    Displacement,
    /// How far morphing moved each vertex this frame (bind space), as a heat map.
    MorphDisplacement,
}

/// A stable, distinct colour for an index: hues spaced by the golden angle, with brightness and
/// saturation cycling so that neighbouring hues still differ.
pub fn index_color(index: usize) -> Vec4 {
    let hue = (index as f32 * 0.618_034).fract();
    let value = [0.95, 0.72, 0.5][index % 3];
    let saturation = [0.85, 0.55][(index / 3) % 2];
    hsv(hue, saturation, value)
}

fn hsv(h: f32, s: f32, v: f32) -> Vec4 {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    let (r, g, b) = match i as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    Vec4::new(r * r, g * g, b * b, 1.0)
}

/// Blue (0) through cyan, green, yellow to red (1).
pub fn heat(x: f32) -> Vec4 {
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let stops = [
        Vec3::new(0.05, 0.1, 0.6),
        Vec3::new(0.0, 0.6, 0.8),
        Vec3::new(0.1, 0.8, 0.1),
        Vec3::new(0.95, 0.85, 0.05),
        Vec3::new(0.9, 0.05, 0.05),
    ];
    let f = x * (stops.len() - 1) as f32;
    let i = (f.floor() as usize).min(stops.len() - 2);
    stops[i].lerp(stops[i + 1], f - i as f32).extend(1.0)
}

const UNSKINNED: Vec4 = Vec4::new(0.35, 0.35, 0.35, 1.0);

/// Per instance, per primitive, one colour per vertex. `selected` is a skeleton joint;
/// `other` is the pose compared with `pose` (for `Displacement`).
pub fn vertex_colors(
    c: &Character,
    view: ColorView,
    pose: &CharacterPose,
    other: Option<&CharacterPose>,
    selected: Option<usize>,
) -> Vec<Vec<Vec<Vec4>>> {
    // Only the displacement views need the posed (CPU-skinned) vertices; the weight views read
    // the weights alone.
    let needs_positions = matches!(view, ColorView::Displacement | ColorView::MorphDisplacement);
    let size = if needs_positions {
        pose.world_bounds(c)
            .map_or(1.0, |(lo, hi)| (hi - lo).length().max(1e-6))
    } else {
        1.0
    };
    c.instances
        .iter()
        .enumerate()
        .map(|(i, instance)| {
            let skin = instance.skin.map(|s| &c.skins[s]);
            let selected_palette = selected.and_then(|joint| {
                skin.and_then(|s| (0..s.skin.len()).find(|&p| s.skin.joint(p) == Some(joint)))
            });
            let (mine, theirs) = if view == ColorView::Displacement {
                let theirs = other.map(|o| o.instance_world_positions(c, i));
                (pose.instance_world_positions(c, i), theirs)
            } else {
                (Vec::new(), None)
            };
            let mut offset = 0;
            c.meshes[instance.mesh]
                .primitives
                .iter()
                .map(|primitive| {
                    let n = primitive.positions.len();
                    if view == ColorView::MorphDisplacement {
                        offset += n;
                        let (morphed, _) =
                            crate::pose::morphed_vertices(primitive, pose.morph.of(i));
                        return morphed
                            .iter()
                            .zip(&primitive.positions)
                            .map(|(m, p)| heat(m.distance(*p) / (0.1 * size)))
                            .collect();
                    }
                    let colors = (0..n)
                        .map(|v| {
                            let Some(sk) = primitive.skinning.as_ref().filter(|_| skin.is_some())
                            else {
                                return match (view, &theirs) {
                                    (ColorView::Displacement, Some(t)) => heat(
                                        mine[offset + v].distance(t[offset + v]) / (0.1 * size),
                                    ),
                                    _ => UNSKINNED,
                                };
                            };
                            match view {
                                ColorView::Material | ColorView::MorphDisplacement => Vec4::ONE,
                                ColorView::DominantJoint => {
                                    // The heaviest of all its influences (the last on a tie, as before).
                                    let dominant =
                                        sk.influences(v).fold((0u16, f32::MIN), |m, i| {
                                            if i.1 >= m.1 { i } else { m }
                                        });
                                    index_color(usize::from(dominant.0))
                                }
                                ColorView::SelectedJointWeight => {
                                    let weight: f32 = sk
                                        .influences(v)
                                        .filter(|&(j, _)| Some(usize::from(j)) == selected_palette)
                                        .map(|(_, w)| w)
                                        .sum();
                                    heat(weight)
                                }
                                ColorView::WeightSumDeviation => {
                                    let sum = sk.file_weight_sums.get(v).copied().unwrap_or(1.0);
                                    let d = ((sum - 1.0).abs() / 0.1).min(1.0);
                                    Vec4::new(0.1, 0.75, 0.2, 1.0)
                                        .lerp(Vec4::new(0.9, 0.05, 0.05, 1.0), d)
                                }
                                ColorView::InfluenceCount => {
                                    // More than four influences (magenta): what a four-influence engine drops.
                                    let dropped =
                                        sk.dropped_weight.get(v).is_some_and(|&d| d > 0.0);
                                    match (
                                        dropped,
                                        sk.weights[v].iter().filter(|x| **x > 0.0).count(),
                                    ) {
                                        (true, _) => Vec4::new(0.9, 0.1, 0.9, 1.0),
                                        (_, 0 | 1) => Vec4::new(0.1, 0.3, 0.9, 1.0),
                                        (_, 2) => Vec4::new(0.1, 0.8, 0.2, 1.0),
                                        (_, 3) => Vec4::new(0.95, 0.85, 0.05, 1.0),
                                        _ => Vec4::new(0.95, 0.45, 0.05, 1.0),
                                    }
                                }
                                ColorView::Displacement => match &theirs {
                                    Some(t) => heat(
                                        mine[offset + v].distance(t[offset + v]) / (0.1 * size),
                                    ),
                                    None => UNSKINNED,
                                },
                            }
                        })
                        .collect();
                    offset += n;
                    colors
                })
                .collect()
        })
        .collect()
}
