//! The panel's ML deformer section: a model saved by `train-deformer` loaded or
//! dropped, its corrective switched on and off, what it learnt and how well, and the split
//! view beside its reference.

use crate::viewer::ml::MlCommand;
use crate::viewer::{Controls, PanelSection, UiCommand};
use egui::Ui;

pub(super) fn ml_section(ui: &mut Ui, controls: &mut Controls, commands: &mut Vec<UiCommand>) {
    egui::CollapsingHeader::new("ML deformer")
        .default_open(controls.view.opens(PanelSection::Ml))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if let Some(path) = super::path_field(
                    ui,
                    &mut controls.ml.path,
                    "model.mld (train-deformer --out)",
                    "Load model",
                ) {
                    commands.push(UiCommand::Ml(MlCommand::Load(path)));
                }
                let on = controls.ml.model.is_some();
                if ui
                    .add_enabled(on, egui::Button::new("Drop model"))
                    .clicked()
                {
                    commands.push(UiCommand::Ml(MlCommand::Drop));
                }
            });
            let Some(model) = controls.ml.model.clone() else {
                ui.label("no ML deformer");
                return;
            };
            ui.checkbox(&mut controls.ml.on, "Correct linear blend with the model");
            if controls.ml.on && !controls.ml_active() {
                ui.label("off under this skinning: the model corrects linear blend");
            }
            if ui.button("Compare with its reference").clicked() {
                commands.push(UiCommand::Ml(MlCommand::CompareWithReference));
            }
            let s = &model.stats;
            let reference = model.reference.label();
            ui.label(format!(
                "learnt {reference}: {} components from {} driving joints over {} poses",
                model.components,
                model.joints.len(),
                s.poses
            ));
            let percent = |a: f32, b: f32| if b > 0.0 { 100.0 * a / b } else { 0.0 };
            ui.label(format!(
                "on {} poses not trained on: RMS error {:.1}% of linear blend's, max {:.1}%",
                s.held_poses,
                percent(s.held_rms, s.held_lbs_rms),
                percent(s.held_max, s.held_lbs_max)
            ));
        });
}
