//! The panel's muscles section: XPBD muscles loaded from a file or the character's
//! own, dropped or restarted, drawn as their rings, with what the skin follows.

use crate::viewer::muscles::MuscleCommand;
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::Ui;

pub(super) fn muscles_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Muscles")
        .default_open(controls.view.opens(PanelSection::Muscles))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let send = |c| UiCommand::Muscles(c);
                if let Some(path) = super::path_field(ui, &mut controls.muscles.path, "muscles.json", "Load muscles") {
                    commands.push(send(MuscleCommand::Load(path)));
                }
                if shown.source.is_none() && ui.button("The character's own").clicked() {
                    commands.push(send(MuscleCommand::Own));
                }
                let on = controls.muscles.rig.is_some();
                if ui.add_enabled(on, egui::Button::new("Restart")).clicked() {
                    commands.push(send(MuscleCommand::Restart));
                }
                if ui.add_enabled(on, egui::Button::new("Drop")).clicked() {
                    commands.push(send(MuscleCommand::Drop));
                }
            });
            let Some(rig) = &controls.muscles.rig else {
                ui.label("no muscles");
                return;
            };
            ui.checkbox(&mut controls.muscles.show, "Draw the muscles");
            let (vertices, _) = rig.skin_counts();
            let p = &rig.params;
            ui.label(format!(
                "{} muscles, {} particles; {vertices} skin vertices follow them",
                rig.system.bodies.len(),
                rig.system.particle_count(),
            ));
            ui.label(format!(
                "XPBD at 60 Hz, {} substeps; compliance: fibres {}, rings {}, volume {}; damping {}/s",
                p.substeps, p.edge_compliance, p.ring_compliance, p.volume_compliance, p.damping
            ));
            ui.label("Colour by \"muscle displacement\" to see where the skin moved.");
        });
}
