//! The panel's Environment section: the light the character is shaded by (the
//! generated sky, or an HDR file prefiltered as the Khronos Sample Viewer does), turned and
//! scaled, and what the background shows.

use crate::environment::Background;
use crate::viewer::environment::EnvironmentCommand;
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::Ui;

pub(super) fn environment_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Environment")
        .default_open(controls.view.opens(PanelSection::Environment))
        .show(ui, |ui| {
            let (source, error) = shown.environment;
            let lit_by = source.map_or("the generated sky".to_string(), |p| {
                p.file_name()
                    .map_or(p.display().to_string(), |n| n.to_string_lossy().into())
            });
            ui.label(format!("Lit by {lit_by}"));
            ui.horizontal_wrapped(|ui| {
                let path = &mut controls.environment.path;
                if let Some(path) = super::path_field(ui, path, "studio.hdr, sky.exr", "Load") {
                    commands.push(EnvironmentCommand::Load(path).into());
                }
                if ui
                    .add_enabled(source.is_some(), egui::Button::new("Generated sky"))
                    .clicked()
                {
                    commands.push(EnvironmentCommand::Generated.into());
                }
            });
            if let Some(error) = error {
                ui.colored_label(ui.visuals().error_fg_color, error);
            }
            let e = &mut controls.environment.view;
            ui.add(
                egui::Slider::new(&mut e.rotation_degrees, -180.0..=180.0)
                    .text("Rotation (°)")
                    .fixed_decimals(0),
            );
            ui.add(
                egui::Slider::new(&mut e.intensity, 0.0..=4.0)
                    .text("Intensity")
                    .fixed_decimals(2),
            );
            ui.horizontal_wrapped(|ui| {
                ui.label("Background");
                for b in Background::ALL {
                    ui.radio_value(&mut e.background, b, b.name());
                }
            });
        });
}
