//! What each debug colouring means, drawn with egui (`colors::legend`): joint colours, the
//! weight scale, influence counts, the displacement scale. The panel shows it under "Colour
//! by" (`ui::legend`); the headless `render` draws the same into its image (`frame_with`).

use egui::{Color32, Ui};
use glam::Vec4;

use crate::debug::colors::{Legend, LegendRow, heat, srgb8};

/// Linear RGBA (what the colourings are) as an sRGB egui colour.
fn swatch(c: Vec4) -> Color32 {
    Color32::from_rgb(srgb8(c.x), srgb8(c.y), srgb8(c.z))
}

/// A small square of `color`.
fn square(ui: &mut Ui, color: Vec4) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 1.0, swatch(color));
}

/// The legend's rows (its title first).
pub fn draw(ui: &mut Ui, legend: &Legend) {
    ui.label(&legend.title);
    for row in &legend.rows {
        match row {
            LegendRow::Swatch(color, text) => {
                ui.horizontal(|ui| {
                    square(ui, *color);
                    ui.label(text);
                });
            }
            LegendRow::Scale { low, high } => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(low);
                    for k in 0..=8 {
                        square(ui, heat(k as f32 / 8.0));
                    }
                    ui.label(high);
                });
            }
            LegendRow::Note(text) => {
                ui.label(egui::RichText::new(text).weak());
            }
        }
    }
}

/// The smallest image side a legend is drawn into: below it the legend would cover the view.
pub const MIN_IMAGE_SIDE: u32 = 200;

/// One egui frame of `size` pixels with `legend` in its top-left corner, as the panel shows it
/// (scaled with the image: 1 point a pixel up to 720 pixels high).
pub fn frame_with(ctx: &egui::Context, legend: &Legend, size: (u32, u32)) -> egui::FullOutput {
    let pixels_per_point = (size.1 as f32 / 720.0).clamp(1.0, 4.0);
    let points = egui::vec2(size.0 as f32, size.1 as f32) / pixels_per_point;
    let mut input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points)),
        ..Default::default()
    };
    input
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .native_pixels_per_point = Some(pixels_per_point);
    // Drawn on the root Ui (an Area would be invisible on its first, sizing, frame).
    ctx.run_ui(input, |ui| {
        let corner = egui::Rect::from_min_size(
            egui::pos2(8.0, 8.0),
            egui::vec2((points.x * 0.45).max(120.0), points.y - 16.0),
        );
        ui.scope_builder(egui::UiBuilder::new().max_rect(corner), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| draw(ui, legend));
        });
    })
}
