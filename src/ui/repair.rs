//! The panel's check and fix: `check` on the character shown, a Fix beside each finding a
//! repair answers (previewed live: the repaired file is shown in place of the one opened), and
//! Save or Revert once something is repaired.

use egui::{RichText, Ui};

use crate::debug::check::Severity;
use crate::debug::fix::RepairKind;
use crate::viewer::repair::RepairCommand;
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};

pub(super) fn check_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let state = shown.repair;
    egui::CollapsingHeader::new("Check and fix")
        .default_open(controls.view.opens(PanelSection::Check))
        .show(ui, |ui| {
            if ui
                .button("Check skinning")
                .on_hover_text("skinscope check on the character shown (the bind pose)")
                .clicked()
            {
                commands.push(UiCommand::Repair(RepairCommand::Check));
            }
            if let Some(report) = &state.report {
                ui.label(format!(
                    "{} errors, {} warnings",
                    report.errors(),
                    report.warnings()
                ));
                for f in report
                    .findings
                    .iter()
                    .filter(|f| f.severity != Severity::Info)
                {
                    ui.horizontal_wrapped(|ui| {
                        let tag = match f.severity {
                            Severity::Error => {
                                RichText::new("error").color(ui.visuals().error_fg_color)
                            }
                            _ => RichText::new("warn").color(ui.visuals().warn_fg_color),
                        };
                        ui.label(tag);
                        if let Some(kind) = RepairKind::for_finding(f.kind)
                            && ui
                                .button("Fix")
                                .on_hover_text(
                                    "repair it in the file, shown at once; Save writes it",
                                )
                                .clicked()
                        {
                            commands.push(UiCommand::Repair(RepairCommand::Fix(kind)));
                        }
                        ui.label(&f.message);
                    });
                }
            }
            if let Some(preview) = &state.preview {
                ui.separator();
                ui.label(
                    RichText::new(format!(
                        "repaired, not saved: {} repairs",
                        preview.repairs.len()
                    ))
                    .strong(),
                );
                save_row(ui, controls, shown, commands);
            }
            if let Some(said) = &state.said {
                ui.label(RichText::new(said).weak());
            }
        });
}

/// Where to save the repaired file, Save and Revert. A page has no files to write: it previews
/// and reverts only.
fn save_row(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    if cfg!(target_arch = "wasm32") {
        ui.label(
            RichText::new("saving the repaired file needs the desktop viewer or `skinscope fix`")
                .weak(),
        );
    } else {
        if controls.repair_path.is_empty()
            && let Some(p) = &shown.repaired_path
        {
            controls.repair_path = p.display().to_string();
        }
        ui.horizontal(|ui| {
            let label = ui.label("save as");
            ui.text_edit_singleline(&mut controls.repair_path)
                .labelled_by(label.id);
            if ui.button("Save").clicked() && !controls.repair_path.is_empty() {
                commands.push(UiCommand::Repair(RepairCommand::Save(
                    controls.repair_path.clone().into(),
                )));
            }
        });
    }
    if ui.button("Revert").clicked() {
        commands.push(UiCommand::Repair(RepairCommand::Revert));
    }
}
