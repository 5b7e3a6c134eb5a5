//! The panel's playback section (clip, play, speed, loop, the timeline) and the blend and
//! transition section.

use super::{clip_combo, clip_names};
use crate::viewer::{Controls, FRAME_STEP_SECS, Shown, UiCommand};
use egui::{Color32, Stroke, Ui};

pub(super) fn playback_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    if shown.character.clips.is_empty() {
        ui.label("No clips: showing the rest pose.");
        return;
    }
    let clips: Vec<(String, f32)> = shown
        .character
        .clips
        .iter()
        .map(|c| (c.clip.name().to_owned(), c.duration_secs()))
        .collect();
    let at_end = shown.at_end;
    // Under the state machine the clip box shows the clip it plays, and cannot be changed.
    let driven_by = shown.graph_driven.then(|| {
        let state = shown.machine.map_or(String::new(), |m| {
            m.state_name(m.current_state()).to_owned()
        });
        (shown.timeline.0, state)
    });
    let c = &mut *controls;
    let label = |i: usize| {
        clips
            .get(i)
            .map_or(String::new(), |(n, d)| format!("{n} ({d:.2} s)"))
    };
    ui.add_enabled_ui(!c.playback.blend && driven_by.is_none(), |ui| {
        let shown = match &driven_by {
            Some((clip, state)) => format!("{} (state machine: {state})", label(*clip)),
            None => label(c.playback.clip),
        };
        egui::ComboBox::from_label("Clip")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for i in 0..clips.len() {
                    ui.selectable_value(&mut c.playback.clip, i, label(i));
                }
            });
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(if c.playback.playing && !at_end {
                "Pause"
            } else {
                "Play"
            })
            .clicked()
        {
            commands.push(UiCommand::PlayPause);
        }
        if ui.button("|< Step").on_hover_text("back 1/30 s").clicked() {
            commands.push(UiCommand::Step(-1));
        }
        if ui
            .button("Step >|")
            .on_hover_text("forward 1/30 s")
            .clicked()
        {
            commands.push(UiCommand::Step(1));
        }
        ui.checkbox(&mut c.playback.looping, "Loop");
    });
    ui.add(
        egui::Slider::new(&mut c.playback.speed, -2.0..=2.0)
            .text("Speed")
            .step_by(0.05),
    );
    timeline(ui, controls, shown, commands);
}

/// The timeline slider, with the selected joint's key times (ticks below) and the clip's events
/// (markers above).
pub(super) fn timeline(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let (clip, duration) = shown.timeline;
    // The time within the clip shown (a state's clock runs on past its clip's end).
    let current = shown.clip_time_shown;
    let mut time = current;
    let response = ui.add_enabled(
        !shown.graph_driven,
        egui::Slider::new(&mut time, 0.0..=duration.max(FRAME_STEP_SECS))
            .text("Time (s)")
            .fixed_decimals(3),
    );
    // A focused slider writes back its value rounded to the decimals it shows; only a real move
    // (more than that rounding) is a seek.
    if response.changed() && (time - current).abs() > 1e-3 {
        commands.push(UiCommand::Seek(time));
    }
    let Some(clip) = shown.character.clips.get(clip) else {
        return;
    };
    // The slider's track: its rect less the value text on the right.
    let rect = response.rect;
    let track_width = ui.spacing().slider_width;
    let x_at = |t: f32| rect.left() + track_width * (t / duration.max(1e-6)).clamp(0.0, 1.0);
    let painter = ui.painter();
    if let Some(joint) = controls.selected_joint {
        for track in clip.clip.tracks().iter().filter(|t| t.joint == joint) {
            for &t in track.channel.times() {
                let x = x_at(t);
                painter.line_segment(
                    [
                        egui::pos2(x, rect.bottom() - 3.0),
                        egui::pos2(x, rect.bottom()),
                    ],
                    Stroke::new(1.0, Color32::LIGHT_BLUE),
                );
            }
        }
    }
    for e in clip.clip.events() {
        let x = x_at(e.time_secs);
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.top() + 4.0)],
            Stroke::new(2.0, Color32::from_rgb(255, 200, 60)),
        );
    }
}

pub(super) fn blend_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    if shown.character.clips.len() < 2 {
        return;
    }
    let names = clip_names(shown.character);
    let crossfading = shown.transition.is_some();
    let graph = shown.graph_driven;
    let progress = shown.transition;
    let c = &mut *controls;
    ui.checkbox(&mut c.playback.blend, "Blend two clips (phase-aligned)");
    ui.add_enabled_ui(c.playback.blend, |ui| {
        for (label, value) in [
            ("Clip A", &mut c.playback.blend_a),
            ("Clip B", &mut c.playback.blend_b),
        ] {
            clip_combo(ui, egui::ComboBox::from_label(label), &names, value);
        }
        ui.add(egui::Slider::new(&mut c.playback.blend_weight, 0.0..=1.0).text("Weight of B"));
    });
    ui.add_enabled_ui(!c.playback.blend && !graph, |ui| {
        ui.horizontal_wrapped(|ui| {
            clip_combo(
                ui,
                egui::ComboBox::from_label("to"),
                &names,
                &mut c.playback.crossfade_to,
            );
            ui.add(
                egui::DragValue::new(&mut c.playback.crossfade_secs)
                    .range(0.0..=5.0)
                    .speed(0.05)
                    .suffix(" s"),
            )
            .on_hover_text(
                "a crossfade's length, or an inertialization's half-life, in real seconds",
            );
            let go = if c.playback.inertialize {
                "Inertialize"
            } else {
                "Crossfade"
            };
            if ui
                .add_enabled(!crossfading, egui::Button::new(go))
                .clicked()
            {
                commands.push(UiCommand::Transition);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Transition");
            ui.radio_value(&mut c.playback.inertialize, false, "crossfade");
            ui.radio_value(&mut c.playback.inertialize, true, "inertialize");
        });
    });
    if let Some((inertial, progress)) = progress {
        let kind = if inertial {
            "inertializing"
        } else {
            "crossfading"
        };
        ui.add(egui::ProgressBar::new(progress).text(kind));
    }
}
