//! The panel's Record section: the current view and settings written as a sequence,
//! as `render --to` writes one: an animated GIF, an animated PNG, numbered PNG files or an MP4.

use crate::record::GifPalette;
use crate::viewer::record::RecordCommand;
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::{RichText, Ui};

pub(super) fn record_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Record")
        .default_open(controls.view.opens(PanelSection::Record))
        .show(ui, |ui| {
            let (progress, status) = shown.recording;
            if let Some((done, total)) = progress {
                ui.add(
                    egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                        .text(format!("recording frame {done} of {total}")),
                );
                if ui.button("Stop").clicked() {
                    commands.push(RecordCommand::Stop.into());
                }
                return;
            }
            let r = &mut controls.record;
            ui.horizontal_wrapped(|ui| {
                let seconds = egui::DragValue::new(&mut r.from_secs).range(0.0..=600.0);
                labelled(ui, "from", seconds.speed(0.05).suffix(" s"));
                let seconds = egui::DragValue::new(&mut r.to_secs).range(0.0..=600.0);
                labelled(ui, "to", seconds.speed(0.05).suffix(" s"));
                let rate = egui::DragValue::new(&mut r.fps).range(1..=240);
                labelled(ui, "rate", rate.suffix(" fps"));
            });
            ui.horizontal_wrapped(|ui| {
                labelled(
                    ui,
                    "width",
                    egui::DragValue::new(&mut r.size.0).range(16..=8192),
                );
                labelled(
                    ui,
                    "height",
                    egui::DragValue::new(&mut r.size.1).range(16..=8192),
                );
                let degrees = egui::DragValue::new(&mut r.turntable_degrees);
                labelled(ui, "turntable", degrees.range(-3600.0..=3600.0).suffix("°"));
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("GIF palette:");
                ui.radio_value(&mut r.gif_palette, GifPalette::Frame, "per frame");
                ui.radio_value(&mut r.gif_palette, GifPalette::Global, "one for all");
            });
            if cfg!(target_arch = "wasm32") {
                // A page writes no files, and runs no ffmpeg.
                ui.label(
                    RichText::new(
                        "recording writes files (GIF, PNG, MP4 through ffmpeg): in the desktop app",
                    )
                    .weak(),
                );
                return;
            }
            ui.horizontal_wrapped(|ui| {
                if let Some(path) = super::path_field(
                    ui,
                    &mut r.path,
                    "walk.gif, walk.png, walk.mp4, frames/%04d.png",
                    "Record to path",
                ) {
                    commands.push(RecordCommand::Start(path).into());
                }
                if ui.button("Record...").clicked() {
                    commands.push(RecordCommand::Browse.into());
                }
            });
            if let Some(status) = status {
                ui.label(status);
            }
        });
}

/// A value with its label before it, the label naming it (for screen readers and tests).
fn labelled(ui: &mut Ui, label: &str, value: egui::DragValue<'_>) {
    let label = ui.label(label);
    ui.add(value).labelled_by(label.id);
}
