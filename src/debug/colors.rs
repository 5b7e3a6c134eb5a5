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
    /// How far the XPBD muscles moved each skin vertex this frame (after skinning), as a heat
    /// map: red at 1% of the posed bounds' diagonal.
    MuscleDisplacement,
}

/// How far the muscles moved vertex `v` of `primitive` of instance `i`'s mesh this frame.
fn muscle_moved(c: &Character, pose: &CharacterPose, i: usize, primitive: usize, v: usize) -> f32 {
    pose.muscles.as_ref().map_or(0.0, |m| {
        m.skin_offset(c.instances[i].mesh, primitive, v).length()
    })
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

/// What a colouring means, as plain data: the panel draws it with egui, `render` into its image
/// and as text on standard output.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    pub title: String,
    pub rows: Vec<LegendRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LegendRow {
    /// A colour and what it stands for (linear RGBA).
    Swatch(Vec4, String),
    /// The heat scale from blue (`low`) to red (`high`).
    Scale { low: String, high: String },
    /// A line of text.
    Note(String),
}

impl Legend {
    /// One line per row, for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n", self.title);
        for row in &self.rows {
            let line = match row {
                LegendRow::Swatch(c, text) => format!(
                    "  #{:02x}{:02x}{:02x}  {text}",
                    srgb8(c.x),
                    srgb8(c.y),
                    srgb8(c.z)
                ),
                LegendRow::Scale { low, high } => format!("  blue {low} .. red {high}"),
                LegendRow::Note(text) => format!("  {text}"),
            };
            s.push_str(&line);
            s.push('\n');
        }
        s
    }
}

/// A linear channel as 8-bit sRGB.
pub fn srgb8(x: f32) -> u8 {
    let x = x.clamp(0.0, 1.0);
    let s = if x <= 0.003_130_8 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// Where the displacement views' heat scale turns red.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum HeatRange {
    /// A part of the posed bounds' diagonal: a tenth for the displacement and morph views, 1%
    /// for the muscles'.
    #[default]
    OfSize,
    /// The largest displacement shown (what is drawn always spans the scale).
    Largest,
    /// This distance, in the file's units (a 1 cm corrective on a 1.8 m character: 0.01).
    Distance(f32),
}

/// The part of the size at which `view`'s scale turns red under `HeatRange::OfSize`, and how
/// the legend says it.
fn of_size(view: ColorView) -> (f32, &'static str) {
    match view {
        ColorView::MuscleDisplacement => (0.01, "1%"),
        _ => (0.1, "a tenth"),
    }
}

impl HeatRange {
    /// The distance at which `view` turns red, given the displacement extent `(largest, size)`.
    pub fn red(self, view: ColorView, (largest, size): (f32, f32)) -> f32 {
        let red = match self {
            HeatRange::OfSize => of_size(view).0 * size,
            HeatRange::Largest => largest,
            HeatRange::Distance(d) => d,
        };
        if red.is_finite() && red > 0.0 {
            red
        } else {
            // Nothing moved (a largest of 0): any motion would be red; none is.
            f32::MIN_POSITIVE
        }
    }
}

/// How far the displacement views' vertices moved: (the largest distance, the size the heat
/// scale is measured against: the posed bounds' diagonal; red is a tenth of it).
pub fn displacement_extent(
    c: &Character,
    view: ColorView,
    pose: &CharacterPose,
    other: Option<&CharacterPose>,
) -> Option<(f32, f32)> {
    let size = pose
        .world_bounds(c)
        .map_or(1.0, |(lo, hi)| (hi - lo).length().max(1e-6));
    let largest = match view {
        ColorView::Displacement => {
            let other = other?;
            (0..c.instances.len())
                .flat_map(|i| {
                    let mine = pose.instance_world_positions(c, i);
                    let theirs = other.instance_world_positions(c, i);
                    mine.into_iter()
                        .zip(theirs)
                        .map(|(a, b)| a.distance(b))
                        .collect::<Vec<f32>>()
                })
                .fold(0.0, f32::max)
        }
        ColorView::MorphDisplacement => (c.instances.iter().enumerate())
            .flat_map(|(i, instance)| {
                c.meshes[instance.mesh]
                    .primitives
                    .iter()
                    .flat_map(move |p| {
                        let (morphed, _) = crate::pose::morphed_vertices(p, pose.morph.of(i));
                        morphed
                            .iter()
                            .zip(&p.positions)
                            .map(|(m, q)| m.distance(*q))
                            .collect::<Vec<f32>>()
                    })
            })
            .fold(0.0, f32::max),
        ColorView::MuscleDisplacement => (c.instances.iter().enumerate())
            .flat_map(|(i, instance)| {
                (c.meshes[instance.mesh].primitives.iter().enumerate()).flat_map(move |(pi, p)| {
                    (0..p.positions.len()).map(move |v| muscle_moved(c, pose, i, pi, v))
                })
            })
            .fold(0.0, f32::max),
        _ => return None,
    };
    Some((largest, size))
}

/// The legend of a colouring (`None` for materials). `selected` names the joint the weight
/// view shows; `compared` says what the displacement view compares with; `extent` is
/// `displacement_extent`'s, when known.
pub fn legend(
    c: &Character,
    view: ColorView,
    (selected, compared): (Option<&str>, &str),
    extent: Option<(f32, f32)>,
) -> Option<Legend> {
    legend_in(c, view, (selected, compared), extent, HeatRange::OfSize)
}

/// `legend`, the heat scale turning red where `range` says.
pub fn legend_in(
    c: &Character,
    view: ColorView,
    (selected, compared): (Option<&str>, &str),
    extent: Option<(f32, f32)>,
    range: HeatRange,
) -> Option<Legend> {
    let scale = |low: &str, high: &str| LegendRow::Scale {
        low: low.into(),
        high: high.into(),
    };
    let swatch = |r: f32, g: f32, b: f32, text: &str| {
        LegendRow::Swatch(Vec4::new(r, g, b, 1.0), text.into())
    };
    let (title, rows) = match view {
        ColorView::Material => return None,
        ColorView::DominantJoint => {
            let mut rows = Vec::new();
            if let Some(skin) = c.skins.first() {
                let names = c.skeleton.names();
                let shown = skin.skin.len().min(12);
                for p in 0..shown {
                    let joint = skin.skin.joint(p).unwrap_or(0);
                    rows.push(LegendRow::Swatch(
                        index_color(p),
                        format!("{} (palette {p})", names[joint]),
                    ));
                }
                if skin.skin.len() > shown {
                    rows.push(LegendRow::Note(format!(
                        "... and {} more joints",
                        skin.skin.len() - shown
                    )));
                }
            }
            (
                "each vertex in the colour of the joint that weighs it most:".to_string(),
                rows,
            )
        }
        ColorView::SelectedJointWeight => (
            format!(
                "weight of {}",
                selected.unwrap_or("the selected joint (none)")
            ),
            vec![scale("weight 0", "1")],
        ),
        ColorView::WeightSumDeviation => (
            "the file's weights summed".to_string(),
            vec![
                swatch(0.1, 0.75, 0.2, "weights sum to 1"),
                swatch(0.9, 0.05, 0.05, "off by 0.1 or more"),
            ],
        ),
        ColorView::InfluenceCount => (
            "influences per vertex".to_string(),
            vec![
                swatch(0.1, 0.3, 0.9, "1 influence"),
                swatch(0.1, 0.8, 0.2, "2 influences"),
                swatch(0.95, 0.85, 0.05, "3 influences"),
                swatch(0.95, 0.45, 0.05, "4 influences"),
                swatch(
                    0.9,
                    0.1,
                    0.9,
                    "more than 4 (drawn; a 4-influence engine drops some)",
                ),
            ],
        ),
        ColorView::Displacement | ColorView::MorphDisplacement | ColorView::MuscleDisplacement => {
            let what = match view {
                ColorView::Displacement => format!("how far each vertex moves against {compared}"),
                ColorView::MorphDisplacement => "how far morphing moved each vertex".to_string(),
                _ => "how far the muscles moved the skin".to_string(),
            };
            let (part, said) = of_size(view);
            let high = match range {
                HeatRange::OfSize => format!("{}% of the size or more", part * 100.0),
                HeatRange::Largest => "the largest shown".to_string(),
                HeatRange::Distance(d) => format!("{d} or more"),
            };
            let mut rows = vec![scale("moved 0", &high)];
            if let Some((largest, size)) = extent {
                let red = range.red(view, (largest, size));
                let why = match range {
                    HeatRange::OfSize => format!("{said} of the size, {size:.4}"),
                    HeatRange::Largest => "the largest shown".to_string(),
                    HeatRange::Distance(_) => "as set".to_string(),
                };
                rows.push(LegendRow::Note(format!(
                    "red at {red:.4} ({why}); largest here {largest:.4} ({:.1}% of the size)",
                    100.0 * largest / size
                )));
            }
            (what, rows)
        }
    };
    Some(Legend { title, rows })
}

/// Per instance, per primitive, one colour per vertex. `selected` is a skeleton joint;
/// `other` is the pose compared with `pose` (for `Displacement`).
pub fn vertex_colors(
    c: &Character,
    view: ColorView,
    pose: &CharacterPose,
    other: Option<&CharacterPose>,
    selected: Option<usize>,
) -> Vec<Vec<Vec<Vec4>>> {
    vertex_colors_in(c, view, pose, other, selected, HeatRange::OfSize)
}

/// `vertex_colors`, the displacement views' heat scale turning red where `range` says.
pub fn vertex_colors_in(
    c: &Character,
    view: ColorView,
    pose: &CharacterPose,
    other: Option<&CharacterPose>,
    selected: Option<usize>,
    range: HeatRange,
) -> Vec<Vec<Vec<Vec4>>> {
    let red = red_at(c, view, pose, other, range);
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
                .enumerate()
                .map(|(pi, primitive)| {
                    let n = primitive.positions.len();
                    if view == ColorView::MuscleDisplacement {
                        offset += n;
                        return (0..n)
                            .map(|v| heat(muscle_moved(c, pose, i, pi, v) / red))
                            .collect();
                    }
                    if view == ColorView::MorphDisplacement {
                        offset += n;
                        let (morphed, _) =
                            crate::pose::morphed_vertices(primitive, pose.morph.of(i));
                        return morphed
                            .iter()
                            .zip(&primitive.positions)
                            .map(|(m, p)| heat(m.distance(*p) / red))
                            .collect();
                    }
                    let colors = (0..n)
                        .map(|v| {
                            let Some(sk) = primitive.skinning.as_ref().filter(|_| skin.is_some())
                            else {
                                return match (view, &theirs) {
                                    (ColorView::Displacement, Some(t)) => {
                                        heat(mine[offset + v].distance(t[offset + v]) / red)
                                    }
                                    _ => UNSKINNED,
                                };
                            };
                            match (view, &theirs) {
                                (ColorView::Displacement, Some(t)) => {
                                    heat(mine[offset + v].distance(t[offset + v]) / red)
                                }
                                (ColorView::Displacement, None) => UNSKINNED,
                                _ => weight_color(view, sk, v, selected_palette),
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

/// The distance at which a displacement view's heat scale turns red (1 for the weight views,
/// which read the weights alone). The largest displacement costs a pass over every vertex
/// (every frame in the window), so it is measured only for the range that needs it; the
/// default needs the size alone.
fn red_at(
    c: &Character,
    view: ColorView,
    pose: &CharacterPose,
    other: Option<&CharacterPose>,
    range: HeatRange,
) -> f32 {
    let displaced = matches!(
        view,
        ColorView::Displacement | ColorView::MorphDisplacement | ColorView::MuscleDisplacement
    );
    match range {
        _ if !displaced => 1.0,
        HeatRange::Largest => {
            displacement_extent(c, view, pose, other).map_or(1.0, |e| range.red(view, e))
        }
        HeatRange::OfSize => {
            let size = pose
                .world_bounds(c)
                .map_or(1.0, |(lo, hi)| (hi - lo).length().max(1e-6));
            range.red(view, (0.0, size))
        }
        HeatRange::Distance(_) => range.red(view, (0.0, 1.0)),
    }
}

/// A skinned vertex's colour in a view that reads its weights (white in the others):
/// `selected_palette` is the selected joint's palette entry.
fn weight_color(
    view: ColorView,
    sk: &crate::character::VertexInfluences,
    v: usize,
    selected_palette: Option<usize>,
) -> Vec4 {
    match view {
        ColorView::DominantJoint => {
            // The heaviest of all its influences (the last on a tie, as before).
            let dominant =
                (sk.influences(v)).fold((0u16, f32::MIN), |m, i| if i.1 >= m.1 { i } else { m });
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
            Vec4::new(0.1, 0.75, 0.2, 1.0).lerp(Vec4::new(0.9, 0.05, 0.05, 1.0), d)
        }
        ColorView::InfluenceCount => {
            // More than four influences (magenta): what a four-influence engine drops.
            let dropped = sk.dropped_weight.get(v).is_some_and(|&d| d > 0.0);
            match (dropped, sk.weights[v].iter().filter(|x| **x > 0.0).count()) {
                (true, _) => Vec4::new(0.9, 0.1, 0.9, 1.0),
                (_, 0 | 1) => Vec4::new(0.1, 0.3, 0.9, 1.0),
                (_, 2) => Vec4::new(0.1, 0.8, 0.2, 1.0),
                (_, 3) => Vec4::new(0.95, 0.85, 0.05, 1.0),
                _ => Vec4::new(0.95, 0.45, 0.05, 1.0),
            }
        }
        ColorView::Material
        | ColorView::MorphDisplacement
        | ColorView::MuscleDisplacement
        | ColorView::Displacement => Vec4::ONE,
    }
}
