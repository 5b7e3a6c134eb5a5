//! The panel's external pose section (motion capture): the source (off, a take on its own
//! clock, or a live stream on the loopback address), what it drives, its rate and how stale its
//! last frame is, and the blend back to the animation.

use super::{clip_names, error_label};
use crate::perform::{ExternalInput, HOLD_SECS};
use crate::viewer::{Controls, PanelSection, Shown, UiCommand, clip_rate_and_joints};
use egui::{RichText, Ui};

pub(super) fn external_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let names = clip_names(shown.character);
    let c = &mut *controls;
    egui::CollapsingHeader::new("External pose (motion capture)")
        .default_open(c.view.opens(PanelSection::External))
        .show(ui, |ui| {
            let label = |e: ExternalInput| match e {
                ExternalInput::Off => "off".to_string(),
                ExternalInput::Clip(k) => {
                    format!("take: {}", names.get(k).map_or("?", String::as_str))
                }
                ExternalInput::Live => "live stream".to_string(),
            };
            egui::ComboBox::from_label("source")
                .selected_text(label(c.mocap.external))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut c.mocap.external, ExternalInput::Off, "off");
                    for k in 0..names.len() {
                        let e = ExternalInput::Clip(k);
                        ui.selectable_value(&mut c.mocap.external, e, label(e));
                    }
                    ui.selectable_value(&mut c.mocap.external, ExternalInput::Live, "live stream");
                });
            match c.mocap.external {
                ExternalInput::Off => {
                    ui.label(
                        RichText::new("a take (add a .bvh with Add clips) or a live stream drives the joints it names, over the animation and under the layers")
                            .weak(),
                    );
                }
                ExternalInput::Clip(k) => {
                    if let Some(clip) = shown.character.clips.get(k) {
                        let (rate, joints) = clip_rate_and_joints(&clip.clip);
                        ui.label(format!(
                            "{rate:.1} frames/s, drives {joints} joints, at {:.2} s of {:.2} s (its own clock)",
                            shown.external.clip_time_secs(),
                            clip.duration_secs()
                        ));
                    }
                }
                ExternalInput::Live => live_rows(ui, c, shown, commands),
            }
            ui.add(
                egui::Slider::new(&mut c.mocap.blend_back_secs, 0.0..=3.0)
                    .text("Blend back (s)")
                    .fixed_decimals(2),
            )
            .on_hover_text(format!(
                "a stream that stops holds its last frame {HOLD_SECS} s, then blends back to the animation over this"
            ));
            ui.label(RichText::new(format!("weight now {:.3}", shown.external_weight)).weak());
        });
}

/// The live stream's address and skeleton, Listen / Stop, and what it has brought.
fn live_rows(ui: &mut Ui, c: &mut Controls, shown: &Shown<'_>, commands: &mut Vec<UiCommand>) {
    if cfg!(target_arch = "wasm32") {
        // A page opens no UDP socket.
        ui.label(
            RichText::new("live streams arrive as UDP datagrams: listen in the desktop app").weak(),
        );
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut c.mocap.address)
                .hint_text("127.0.0.1:PORT")
                .desired_width(120.0),
        );
        ui.add(
            egui::TextEdit::singleline(&mut c.mocap.skeleton)
                .hint_text("hierarchy .bvh")
                .desired_width(150.0),
        );
    });
    ui.horizontal_wrapped(|ui| {
        let ready = !c.mocap.address.trim().is_empty() && !c.mocap.skeleton.trim().is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Listen"))
            .on_hover_text("one BVH motion line a UDP datagram, on the loopback address")
            .clicked()
        {
            commands.push(UiCommand::Listen {
                address: c.mocap.address.trim().to_owned(),
                skeleton: c.mocap.skeleton.trim().into(),
            });
        }
        if ui
            .add_enabled(shown.mocap.listener.is_some(), egui::Button::new("Stop"))
            .clicked()
        {
            commands.push(UiCommand::StopListening);
        }
    });
    if let Some(listener) = &shown.mocap.listener {
        let stats = &listener.stats;
        ui.label(format!(
            "listening on {} ({}), drives {} joints",
            listener.address(),
            listener
                .skeleton_file()
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            listener.driven_joints()
        ));
        let stale = match shown.external.staleness_secs() {
            Some(s) => format!("last frame {s:.2} s ago"),
            None => "no frame yet".to_string(),
        };
        ui.label(format!("{:.1} frames/s, {stale}", stats.rate_hz));
        ui.label(format!(
            "{} received, {} malformed skipped",
            stats.received, stats.malformed
        ));
        if let Some(problem) = &stats.last_problem {
            ui.label(RichText::new(format!("last malformed: {problem}")).weak());
        }
    }
    if let Some(error) = &shown.mocap.error {
        error_label(ui, error);
    }
}
