//! The panel's pose-driver section: a drivers file loaded (or dropped) by its path, and each
//! driver's joint, mode and pose weights as they stand this frame.

use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::Ui;

pub(super) fn drivers_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Pose drivers")
        .default_open(controls.view.opens(PanelSection::Drivers))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if let Some(path) = super::path_field(
                    ui,
                    &mut controls.drivers.path,
                    "drivers.json",
                    "Load drivers",
                ) {
                    commands.push(UiCommand::LoadDrivers(path));
                }
                let own = shown.source.is_none() || !shown.character.driver_extras.is_empty();
                if own && ui.button("The character's own").clicked() {
                    commands.push(UiCommand::LoadOwnDrivers);
                }
                if ui
                    .add_enabled(controls.drivers.set.is_some(), egui::Button::new("Drop"))
                    .clicked()
                {
                    commands.push(UiCommand::DropDrivers);
                }
            });
            let Some(set) = &controls.drivers.set else {
                ui.label("no drivers");
                return;
            };
            let names = shown.character.skeleton.names();
            let mut at = 0;
            for d in &set.drivers {
                let n = d.driver.poses.len();
                let joint = names.get(d.joint).map_or("?", String::as_str);
                ui.label(format!(
                    "{}: {joint} ({:?}), {} outputs",
                    d.name,
                    d.driver.mode,
                    d.outputs.len()
                ));
                for (k, w) in shown.driver_weights.iter().skip(at).take(n).enumerate() {
                    ui.add(egui::ProgressBar::new(*w).text(format!("pose {k}: {w:.2}")));
                }
                at += n;
            }
        });
}
