//! What each debug colouring means, under the "Colour by" choice: joint colours, the weight
//! scale, influence counts, the displacement scale.

use egui::{Color32, Ui};
use glam::Vec4;

use crate::debug::colors::{ColorView, heat, index_color};
use crate::viewer::Viewer;

/// Linear RGBA (what the colourings are) as an sRGB egui colour.
fn swatch(c: Vec4) -> Color32 {
    let to_srgb = |x: f32| {
        let x = x.clamp(0.0, 1.0);
        let s = if x <= 0.003_130_8 {
            x * 12.92
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        };
        (s * 255.0).round() as u8
    };
    Color32::from_rgb(to_srgb(c.x), to_srgb(c.y), to_srgb(c.z))
}

/// A small square of `color`.
fn square(ui: &mut Ui, color: Vec4) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 1.0, swatch(color));
}

fn entry(ui: &mut Ui, color: Vec4, text: &str) {
    ui.horizontal(|ui| {
        square(ui, color);
        ui.label(text);
    });
}

/// A scale from blue (0) to red (1), with its two ends named.
fn scale(ui: &mut Ui, low: &str, high: &str) {
    ui.horizontal(|ui| {
        ui.label(low);
        for k in 0..=8 {
            square(ui, heat(k as f32 / 8.0));
        }
        ui.label(high);
    });
}

/// The legend of the current colouring (nothing for materials).
pub fn show(ui: &mut Ui, viewer: &Viewer) {
    match viewer.controls.color_view {
        ColorView::Material => {}
        ColorView::DominantJoint => {
            ui.label("each vertex in the colour of the joint that weighs it most:");
            let Some(skin) = viewer.character.skins.first() else {
                return;
            };
            let names = viewer.character.skeleton.names();
            let shown = skin.skin.len().min(12);
            for p in 0..shown {
                let joint = skin.skin.joint(p).unwrap_or(0);
                entry(
                    ui,
                    index_color(p),
                    &format!("{} (palette {p})", names[joint]),
                );
            }
            if skin.skin.len() > shown {
                ui.label(format!("... and {} more joints", skin.skin.len() - shown));
            }
        }
        ColorView::SelectedJointWeight => scale(ui, "weight 0", "1"),
        ColorView::WeightSumDeviation => {
            entry(ui, Vec4::new(0.1, 0.75, 0.2, 1.0), "weights sum to 1");
            entry(ui, Vec4::new(0.9, 0.05, 0.05, 1.0), "off by 0.1 or more");
        }
        ColorView::InfluenceCount => {
            entry(ui, Vec4::new(0.1, 0.3, 0.9, 1.0), "1 influence");
            entry(ui, Vec4::new(0.1, 0.8, 0.2, 1.0), "2 influences");
            entry(ui, Vec4::new(0.95, 0.85, 0.05, 1.0), "3 influences");
            entry(ui, Vec4::new(0.95, 0.45, 0.05, 1.0), "4 influences");
            entry(
                ui,
                Vec4::new(0.9, 0.1, 0.9, 1.0),
                "more than 4 (some weight dropped)",
            );
        }
        ColorView::Displacement | ColorView::MorphDisplacement => {
            scale(ui, "moved 0", "10% of the size or more")
        }
    }
}
