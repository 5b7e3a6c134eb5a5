//! The panel's "Over time" section: the history (what is kept, rewinding and stepping through
//! it, playing on from a kept frame, saving it), its tracks under the timeline (egui_plot;
//! a click moves the playhead there), onion skins, motion paths, stage ghosts and motion
//! matching's candidates at the last search.

use egui::{Color32, RichText, Ui};

use crate::draw::onion::OnionSpacing;
use crate::history::{TrackKind, tracks};
use crate::pose::Stage;
use crate::viewer::{Controls, HistoryCommand, PanelSection, Shown, UiCommand};

/// The tracks' height in points.
const TRACKS_HEIGHT: f32 = 170.0;

pub(super) fn over_time_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    egui::CollapsingHeader::new("Over time")
        .default_open(controls.view.opens(PanelSection::OverTime))
        .show(ui, |ui| {
            history_controls(ui, controls, shown, commands);
            tracks_plot(ui, shown, commands);
            ui.separator();
            onion_controls(ui, controls);
            path_controls(ui, controls, shown);
            ghost_controls(ui, controls);
            super::matching::candidates(ui, controls, shown);
        });
}

fn history_controls(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let o = &mut controls.over_time;
    let h = &shown.history.history;
    let mut history = |c: HistoryCommand| commands.push(UiCommand::History(c));
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut o.keep_history, "Keep a history")
            .on_hover_text(
                "every frame played: its clips and weights, state, events and pose, to rewind to",
            );
        ui.add(
            egui::DragValue::new(&mut o.history_secs)
                .range(1.0..=600.0)
                .speed(1.0)
                .suffix(" s"),
        );
    });
    let mb = h.bytes() as f64 / (1 << 20) as f64;
    let budget_mb = h.max_bytes as f64 / (1 << 20) as f64;
    ui.label(format!(
        "kept: {} frames, {:.1} s, {mb:.1} MB (budget {:.0} s, at most {budget_mb:.0} MB)",
        h.len(),
        h.span_secs(),
        o.history_secs
    ));
    #[cfg(not(target_arch = "wasm32"))]
    history_file(ui, &mut o.history_path, !h.is_empty(), &mut history);
    if let Some(status) = &shown.history.status {
        ui.label(RichText::new(status).weak());
    }
    if h.is_empty() {
        return;
    }
    let last = h.len() - 1;
    let mut at = h.cursor().unwrap_or(last);
    let before = at;
    ui.add(
        egui::Slider::new(&mut at, 0..=last).text(if h.cursor().is_some() {
            "frame shown"
        } else {
            "live"
        }),
    );
    if at != before {
        history(HistoryCommand::RewindTo(at));
    }
    if let Some(f) = h.get(at) {
        let clip = f.state.clip.as_deref().unwrap_or("rest pose");
        ui.label(format!(
            "{:.3} s: {clip} at {:.3} s{}",
            f.state.time_secs,
            f.state.clip_time,
            f.state
                .state
                .as_ref()
                .map_or(String::new(), |s| format!(", state {s}"))
        ));
    }
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("< frame")
            .on_hover_text("one kept frame back (,)")
            .clicked()
        {
            history(HistoryCommand::Step(true));
        }
        if ui
            .button("frame >")
            .on_hover_text("one kept frame forward (.)")
            .clicked()
        {
            history(HistoryCommand::Step(false));
        }
        if h.cursor().is_some() {
            let resumable = h.get(at).is_some_and(|f| f.resume.is_some());
            let (label, hover) = if resumable {
                (
                    "Play from here",
                    "play on from this frame as it was; the later frames are dropped",
                )
            } else {
                ("Play through", "play the replayed frames from here")
            };
            if ui.button(label).on_hover_text(hover).clicked() {
                history(HistoryCommand::Resume);
            }
            if ui.button("Back to live").clicked() {
                history(HistoryCommand::Live);
            }
        }
        if ui.button("Clear").clicked() {
            history(HistoryCommand::Clear);
        }
    });
}

/// The history's file: a path, **Save history** (with frames kept) and **Replay** (a saved
/// history of this model, shown paused on its first frame).
#[cfg(not(target_arch = "wasm32"))]
fn history_file(
    ui: &mut Ui,
    path: &mut String,
    kept: bool,
    history: &mut impl FnMut(HistoryCommand),
) {
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(path)
                .hint_text("history.json")
                .desired_width(150.0),
        );
        let typed = path.trim();
        let given = !typed.is_empty();
        if ui
            .add_enabled(given && kept, egui::Button::new("Save history"))
            .clicked()
        {
            history(HistoryCommand::Save(typed.into()));
        }
        if ui.add_enabled(given, egui::Button::new("Replay")).clicked() {
            history(HistoryCommand::Replay(typed.into()));
        }
    });
}

/// A colour per name, the same for the same name in every frame.
fn color_of(name: &str) -> Color32 {
    let h = name.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let hue = (h % 360) as f32 / 360.0;
    egui::ecolor::Hsva::new(hue, 0.6, 0.9, 1.0).into()
}

/// The history's tracks, a row each from the top; the frame shown (or the newest) as a
/// vertical line. A click moves the playhead to the nearest kept frame.
fn tracks_plot(ui: &mut Ui, shown: &Shown<'_>, commands: &mut Vec<UiCommand>) {
    let h = &shown.history.history;
    if h.len() < 2 {
        return;
    }
    let list = tracks(h.frames().map(|f| &f.state));
    let rows = list.len();
    let at = h.cursor().unwrap_or(h.len() - 1);
    let now = h.get(at).map_or(0.0, |f| f.state.time_secs);
    let row_y = |k: usize| (rows - 1 - k) as f64;
    let names: Vec<String> = list.iter().map(|t| t.name.clone()).collect();
    let response = egui_plot::Plot::new("history-tracks")
        .height(TRACKS_HEIGHT)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid([true, false])
        .include_y(-0.1)
        .include_y(rows as f64)
        .y_axis_formatter(move |mark, _| {
            let k = rows as f64 - 1.0 - mark.value;
            (k >= 0.0 && k.fract().abs() < 1e-6)
                .then(|| names.get(k as usize).cloned())
                .flatten()
                .unwrap_or_default()
        })
        .show(ui, |plot| {
            for (k, track) in list.iter().enumerate() {
                let y = row_y(k);
                match &track.kind {
                    TrackKind::Spans(spans) => {
                        for (a, b, name) in spans {
                            let points = vec![[*a, y + 0.4], [b.max(*a + 1e-3), y + 0.4]];
                            plot.line(
                                egui_plot::Line::new(format!("{}: {name}", track.name), points)
                                    .color(color_of(name))
                                    .width(8.0),
                            );
                        }
                    }
                    TrackKind::Curve(points) => {
                        let points: Vec<[f64; 2]> =
                            points.iter().map(|p| [p[0], y + 0.85 * p[1]]).collect();
                        plot.line(egui_plot::Line::new(track.name.clone(), points).width(1.5));
                    }
                    TrackKind::Ticks(ticks) => {
                        for (t, what) in ticks {
                            plot.line(
                                egui_plot::Line::new(what.clone(), vec![[*t, y], [*t, y + 0.85]])
                                    .color(color_of(what))
                                    .width(2.0),
                            );
                        }
                    }
                }
            }
            plot.vline(egui_plot::VLine::new("shown", now).color(Color32::WHITE));
            plot.response()
                .clicked()
                .then(|| plot.pointer_coordinate())
                .flatten()
        });
    if let Some(p) = response.inner
        && let Some(k) = h.nearest(p.x)
    {
        commands.push(UiCommand::History(HistoryCommand::RewindTo(k)));
    }
}

fn onion_controls(ui: &mut Ui, controls: &mut Controls) {
    let onion = &mut controls.over_time.onion;
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut onion.on, "Onion skins").on_hover_text(
            "ghosts of the character before (warm) and after (cool) the playhead, fainter further away",
        );
        ui.add(egui::DragValue::new(&mut onion.before).range(0..=10).prefix("before "));
        ui.add(egui::DragValue::new(&mut onion.after).range(0..=10).prefix("after "));
    });
    if !onion.on {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("every");
        let frames = matches!(onion.step, OnionSpacing::Frames(_));
        let seconds = matches!(onion.step, OnionSpacing::Seconds(_));
        if ui.radio(frames, "frames").clicked() && !frames {
            onion.step = OnionSpacing::Frames(4);
        }
        if ui.radio(seconds, "seconds").clicked() && !seconds {
            onion.step = OnionSpacing::Seconds(0.1);
        }
        if ui.radio(onion.step == OnionSpacing::Keys, "key").clicked() {
            onion.step = OnionSpacing::Keys;
        }
        match &mut onion.step {
            OnionSpacing::Frames(n) => {
                ui.add(egui::DragValue::new(n).range(1..=60));
            }
            OnionSpacing::Seconds(s) => {
                ui.add(egui::DragValue::new(s).range(0.01..=5.0).speed(0.01));
            }
            OnionSpacing::Keys => {}
        }
    });
}

fn path_controls(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let selected = controls.selected_joint;
    let paths = &mut controls.over_time.paths;
    ui.checkbox(&mut paths.on, "Motion paths")
        .on_hover_text("the joints' origins over time, a tick a frame, white diamonds at keys");
    if !paths.on {
        return;
    }
    let names = shown.character.skeleton.names();
    super::joint_list(
        ui,
        "Joints:",
        "the selected joint",
        names,
        &mut paths.joints,
        selected,
        ("Add selected", "Clear"),
    );
    ui.horizontal_wrapped(|ui| {
        let mut around = paths.around_secs.is_some();
        ui.radio_value(&mut around, false, "whole clip");
        ui.radio_value(&mut around, true, "around the playhead");
        match (around, &mut paths.around_secs) {
            (false, s) => *s = None,
            (true, None) => paths.around_secs = Some(0.5),
            (true, Some(s)) => {
                ui.add(
                    egui::DragValue::new(s)
                        .range(0.05..=10.0)
                        .speed(0.05)
                        .prefix("± ")
                        .suffix(" s"),
                );
            }
        }
    });
}

fn ghost_controls(ui: &mut Ui, controls: &mut Controls) {
    ui.label("Stage ghosts: the skeleton as it leaves each stage");
    let ghosts = &mut controls.over_time.stage_ghosts;
    ui.horizontal_wrapped(|ui| {
        for stage in Stage::ALL {
            let [r, g, b, _] = crate::draw::ghosts::stage_color(stage);
            let color = Color32::from_rgb(
                (r.powf(1.0 / 2.2) * 255.0) as u8,
                (g.powf(1.0 / 2.2) * 255.0) as u8,
                (b.powf(1.0 / 2.2) * 255.0) as u8,
            );
            let mut on = ghosts.contains(&stage);
            if ui
                .checkbox(&mut on, RichText::new(stage.name()).color(color))
                .changed()
            {
                if on {
                    ghosts.push(stage);
                } else {
                    ghosts.retain(|s| *s != stage);
                }
            }
        }
    });
}
