//! The egui side panel. It edits `viewer::Controls` in place and returns one-off actions as
//! `UiCommand`s; it knows nothing of windows or GPUs.

use egui::{Color32, RichText, Stroke, Ui};

use crate::debug::colors::ColorView;
use crate::pose::PaletteMode;
use crate::viewer::{Compared, Controls, FRAME_STEP_SECS, UiCommand, Viewer};

pub mod legend;
pub mod overlay;

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 330.0;
/// Sliders fit the panel with their value and label, inside a section too (a wider one would
/// widen the panel, and with it the next frame's sliders).
pub const SLIDER_WIDTH: f32 = 130.0;

/// The whole viewer UI for one frame: the side panel, then joint names over the 3D view when
/// asked. Returns the commands to apply and the rect left for the 3D view.
pub fn show(ui: &mut Ui, viewer: &mut Viewer) -> (Vec<UiCommand>, egui::Rect) {
    let mut commands = Vec::new();
    egui::Panel::left("skinscope-panel")
        .resizable(true)
        .default_size(PANEL_WIDTH)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| panel(ui, viewer, &mut commands));
        });
    let view = ui.available_rect_before_wrap();
    if viewer.controls.split && viewer.comparing() {
        split_labels(ui, viewer, view);
    }
    (commands, view)
}

/// Each half of the split view named by what it shows.
fn split_labels(ui: &Ui, viewer: &Viewer, view: egui::Rect) {
    let c = &viewer.controls;
    // The left half names what the right one varies: its clips or its skinning.
    let left = match c.compared() {
        Compared::OtherClips if c.compressed => "the compressed clips",
        Compared::OtherClips => "the raw clips",
        Compared::OtherSkinning if c.skinning == crate::anim::Skinning::Linear => {
            "linear blend skinning"
        }
        Compared::OtherSkinning => "dual-quaternion skinning",
        Compared::Off | Compared::Palette(_) => "",
    };
    let left = if left.is_empty() {
        format!("left: {} palette", c.palette.name())
    } else {
        format!("left: {} palette, {left}", c.palette.name())
    };
    let right = match c.compared() {
        Compared::Palette(_) | Compared::Off => compared_name(c, c.compared()),
        other => format!("{} palette, {}", c.palette.name(), compared_name(c, other)),
    };
    for (side, x, text) in [
        ("left", view.left(), left),
        ("right", view.center().x, format!("right: {right}")),
    ] {
        egui::Area::new(ui.make_persistent_id(("split-label", side)))
            .fixed_pos(egui::pos2(x + 8.0, view.top() + 8.0))
            .interactable(false)
            .show(ui.ctx(), |ui| {
                ui.label(
                    RichText::new(text)
                        .color(Color32::WHITE)
                        .background_color(Color32::from_black_alpha(140)),
                );
            });
    }
}

/// The panel's sections.
pub fn panel(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    // Rows wrap and sliders fit the panel, so opening a section never widens it (clicks would
    // land on the neighbouring widget as it moved).
    ui.spacing_mut().slider_width = SLIDER_WIDTH;
    ui.heading("skinscope");
    file_section(ui, viewer, commands);
    ui.separator();
    playback_section(ui, viewer, commands);
    ui.separator();
    blend_section(ui, viewer, commands);
    layers_section(ui, viewer);
    graph_section(ui, viewer, commands);
    plot_section(ui, viewer);
    motion_section(ui, viewer, commands);
    ui.separator();
    view_section(ui, viewer, commands);
    ui.separator();
    morph_section(ui, viewer);
    debug_section(ui, viewer);
    ui.separator();
    joints_section(ui, viewer);
    ui.separator();
    stats_section(ui, viewer);
    events_section(ui, viewer);
    problems_section(ui, viewer);
}

fn file_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    let name = viewer.source.as_ref().map_or_else(
        || format!("{} (built in)", viewer.character.name),
        |p| p.display().to_string(),
    );
    ui.label(RichText::new(name).strong());
    ui.horizontal_wrapped(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut viewer.controls.path)
                .hint_text("path to .gltf or .glb")
                .desired_width(200.0),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Open").clicked() || enter) && !viewer.controls.path.trim().is_empty() {
            commands.push(UiCommand::Open(viewer.controls.path.trim().into()));
        }
        if ui.button("Browse...").clicked() {
            commands.push(UiCommand::BrowseForFile);
        }
    });
    if viewer.source.is_some()
        && ui
            .button("Built-in character")
            .on_hover_text("back to the mannequin this viewer ships")
            .clicked()
    {
        commands.push(UiCommand::OpenBuiltin);
    }
    ui.label(RichText::new("or drop a file on the window").weak());
    if !viewer.recent.is_empty() {
        ui.collapsing("Recent files", |ui| {
            for path in viewer.recent.clone() {
                if ui.link(path.display().to_string()).clicked() {
                    commands.push(UiCommand::Open(path));
                }
            }
        });
    }
    if let Some(error) = &viewer.load_error {
        error_label(ui, &format!("Could not open: {error}"));
    }
}

/// An error in red, wrapped to the panel's width anywhere (paths have no spaces to break at).
fn error_label(ui: &mut Ui, text: &str) {
    let mut job = egui::text::LayoutJob::single_section(
        text.to_owned(),
        egui::TextFormat::simple(
            egui::FontId::proportional(13.0),
            Color32::from_rgb(255, 110, 100),
        ),
    );
    job.wrap = egui::text::TextWrapping {
        max_width: ui.available_width(),
        break_anywhere: true,
        ..Default::default()
    };
    ui.add(egui::Label::new(job).wrap());
}

fn playback_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    if viewer.character.clips.is_empty() {
        ui.label("No clips: showing the rest pose.");
        return;
    }
    let clips: Vec<(String, f32)> = viewer
        .character
        .clips
        .iter()
        .map(|c| (c.clip.name().to_owned(), c.duration_secs()))
        .collect();
    let at_end = viewer.at_end();
    // Under the state machine the clip box shows the clip it plays, and cannot be changed.
    let driven_by = viewer.graph_driven().then(|| {
        let state = viewer.machine().map_or(String::new(), |m| {
            m.state_name(m.current_state()).to_owned()
        });
        (viewer.timeline_clip().0, state)
    });
    let c = &mut viewer.controls;
    let label = |i: usize| {
        clips
            .get(i)
            .map_or(String::new(), |(n, d)| format!("{n} ({d:.2} s)"))
    };
    ui.add_enabled_ui(!c.blend && driven_by.is_none(), |ui| {
        let shown = match &driven_by {
            Some((clip, state)) => format!("{} (state machine: {state})", label(*clip)),
            None => label(c.clip),
        };
        egui::ComboBox::from_label("Clip")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for i in 0..clips.len() {
                    ui.selectable_value(&mut c.clip, i, label(i));
                }
            });
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(if c.playing && !at_end {
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
        ui.checkbox(&mut c.looping, "Loop");
    });
    ui.add(
        egui::Slider::new(&mut c.speed, -2.0..=2.0)
            .text("Speed")
            .step_by(0.05),
    );
    timeline(ui, viewer, commands);
}

/// The timeline slider, with the selected joint's key times (ticks below) and the clip's events
/// (markers above).
fn timeline(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    let (clip, duration) = viewer.timeline_clip();
    // The time within the clip shown (a state's clock runs on past its clip's end).
    let current = viewer.clip_time_shown();
    let mut time = current;
    let response = ui.add_enabled(
        !viewer.graph_driven(),
        egui::Slider::new(&mut time, 0.0..=duration.max(FRAME_STEP_SECS))
            .text("Time (s)")
            .fixed_decimals(3),
    );
    // A focused slider writes back its value rounded to the decimals it shows; only a real move
    // (more than that rounding) is a seek.
    if response.changed() && (time - current).abs() > 1e-3 {
        commands.push(UiCommand::Seek(time));
    }
    let Some(clip) = viewer.character.clips.get(clip) else {
        return;
    };
    // The slider's track: its rect less the value text on the right.
    let rect = response.rect;
    let track_width = ui.spacing().slider_width;
    let x_at = |t: f32| rect.left() + track_width * (t / duration.max(1e-6)).clamp(0.0, 1.0);
    let painter = ui.painter();
    if let Some(joint) = viewer.controls.selected_joint {
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

/// The character's clip names, in clip order.
fn clip_names(viewer: &Viewer) -> Vec<String> {
    let clips = viewer.character.clips.iter();
    clips.map(|c| c.clip.name().to_owned()).collect()
}

/// A drop-down of clips by name, selecting into `value`.
fn clip_combo(ui: &mut Ui, combo: egui::ComboBox, names: &[String], value: &mut usize) {
    let shown = names.get(*value).cloned().unwrap_or_default();
    combo.selected_text(shown).show_ui(ui, |ui| {
        for (i, n) in names.iter().enumerate() {
            ui.selectable_value(value, i, n);
        }
    });
}

fn blend_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    if viewer.character.clips.len() < 2 {
        return;
    }
    let names = clip_names(viewer);
    let crossfading = viewer.crossfading();
    let graph = viewer.graph_driven();
    let progress = viewer.transition_progress();
    let c = &mut viewer.controls;
    ui.checkbox(&mut c.blend, "Blend two clips (phase-aligned)");
    ui.add_enabled_ui(c.blend, |ui| {
        for (label, value) in [("Clip A", &mut c.blend_a), ("Clip B", &mut c.blend_b)] {
            clip_combo(ui, egui::ComboBox::from_label(label), &names, value);
        }
        ui.add(egui::Slider::new(&mut c.blend_weight, 0.0..=1.0).text("Weight of B"));
    });
    ui.add_enabled_ui(!c.blend && !graph, |ui| {
        ui.horizontal_wrapped(|ui| {
            clip_combo(
                ui,
                egui::ComboBox::from_label("to"),
                &names,
                &mut c.crossfade_to,
            );
            ui.add(
                egui::DragValue::new(&mut c.crossfade_secs)
                    .range(0.0..=5.0)
                    .speed(0.05)
                    .suffix(" s"),
            )
            .on_hover_text(
                "a crossfade's length, or an inertialization's half-life, in real seconds",
            );
            let go = if c.inertialize {
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
            ui.radio_value(&mut c.inertialize, false, "crossfade");
            ui.radio_value(&mut c.inertialize, true, "inertialize");
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

/// The override (masked) and additive layers over whatever plays.
fn layers_section(ui: &mut Ui, viewer: &mut Viewer) {
    if viewer.character.clips.is_empty() {
        return;
    }
    let names = clip_names(viewer);
    let joint_names = viewer.character.skeleton.names().to_vec();
    let live = (viewer.layer_weight(), viewer.additive_weight());
    let c = &mut viewer.controls;
    egui::CollapsingHeader::new("Layers")
        .default_open(false)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.layer_on, "Override layer");
                let combo = egui::ComboBox::from_label("layer clip");
                clip_combo(ui, combo, &names, &mut c.layer_clip);
            });
            let selected = c.selected_joint;
            let add = "Add the selected joint";
            joint_list(
                ui,
                "mask: the subtrees of",
                "no joint",
                &joint_names,
                &mut c.layer_roots,
                selected,
                (add, "Clear"),
            );
            ui.add(egui::Slider::new(&mut c.layer_weight, 0.0..=1.0).text("Layer weight"));
            ui.add(
                egui::Slider::new(&mut c.layer_half_life, 0.0..=1.0)
                    .text("Half-life (s)")
                    .fixed_decimals(2),
            );
            ui.label(RichText::new(format!("override weight now {:.3}", live.0)).weak());
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.additive_on, "Additive layer");
                let combo = egui::ComboBox::from_label("additive clip");
                clip_combo(ui, combo, &names, &mut c.additive_clip);
            });
            ui.add(egui::Slider::new(&mut c.additive_weight, -1.0..=2.0).text("Additive weight"));
            ui.label(
                RichText::new(format!(
                    "additive weight now {:.3} (difference from the clip's first frame)",
                    live.1
                ))
                .weak(),
            );
        });
}

/// The state machine: the current state, the transition in progress, and every parameter.
fn graph_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    if let Some(e) = &viewer.graph_error {
        error_label(ui, &format!("State machine: {e}"));
    }
    let Some(machine) = viewer.performer.machine.as_ref() else {
        return;
    };
    ui.checkbox(&mut viewer.controls.use_graph, "Drive by the state machine");
    // Its parameters drive nothing while it is off.
    let live = viewer.controls.use_graph;
    let state = machine.state_name(machine.current_state()).to_owned();
    let transition = machine.transition().map(|(from, t)| {
        let kind = match t.spec {
            crate::graph::TransitionSpec::Crossfade { .. } => "crossfade",
            crate::graph::TransitionSpec::Inertialize { .. } => "inertialize",
        };
        (machine.state_name(from).to_owned(), kind, t.progress())
    });
    ui.label(RichText::new(format!("state: {state}")).strong());
    if let Some((from, kind, progress)) = transition {
        ui.add(egui::ProgressBar::new(progress).text(format!("{kind} from {from}")));
    }
    let params: Vec<(usize, crate::graph::ParamDef, f32)> = machine
        .graph
        .parameters
        .iter()
        .enumerate()
        .map(|(k, p)| (k, p.clone(), machine.value(k)))
        .collect();
    for (k, p, value) in params {
        match p.kind {
            crate::graph::ParamKind::Float { min, max } => {
                let mut v = value;
                if ui
                    .add_enabled(live, egui::Slider::new(&mut v, min..=max).text(&p.name))
                    .changed()
                {
                    commands.push(UiCommand::SetParameter(k, v));
                }
            }
            crate::graph::ParamKind::Bool => {
                let mut on = value != 0.0;
                if ui
                    .add_enabled(live, egui::Checkbox::new(&mut on, &p.name))
                    .changed()
                {
                    commands.push(UiCommand::SetParameter(k, f32::from(u8::from(on))));
                }
            }
            crate::graph::ParamKind::Trigger => {
                if ui.add_enabled(live, egui::Button::new(&p.name)).clicked() {
                    commands.push(UiCommand::SetParameter(k, 1.0));
                }
            }
        }
    }
}

/// A list of joints by name (`title` then the names, or `empty`), with buttons that add the
/// selected joint and clear the list.
fn joint_list(
    ui: &mut Ui,
    title: &str,
    empty: &str,
    names: &[String],
    list: &mut Vec<usize>,
    selected: Option<usize>,
    (add, clear): (&str, &str),
) {
    let shown: Vec<&str> = list
        .iter()
        .filter_map(|&j| names.get(j).map(String::as_str))
        .collect();
    let shown = if shown.is_empty() {
        empty.to_owned()
    } else {
        shown.join(", ")
    };
    ui.label(format!("{title} {shown}"));
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(selected.is_some(), egui::Button::new(add))
            .clicked()
            && let Some(j) = selected
            && !list.contains(&j)
        {
            list.push(j);
        }
        if ui.button(clear).clicked() {
            list.clear();
        }
    });
}

/// A drop-down of joints by name, selecting into `value` ("none" while unset).
fn joint_combo(ui: &mut Ui, label: &str, names: &[String], value: &mut Option<usize>) {
    let shown = value
        .and_then(|j| names.get(j).cloned())
        .unwrap_or_else(|| "none".into());
    egui::ComboBox::from_label(label)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (j, n) in names.iter().enumerate() {
                ui.selectable_value(value, Some(j), n);
            }
        });
}

/// Root motion, the movement controller, foot IK and reach IK.
fn motion_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    use crate::graph::MoveMode;
    let names = viewer.character.skeleton.names().to_vec();
    let height = viewer.derived.height;
    let placement = viewer.locomotion().placement();
    let driven_rate = viewer.driven_rate();
    let slide: Vec<[f64; 2]> = viewer.slide_plot.iter().copied().collect();
    let c = &mut viewer.controls;
    egui::CollapsingHeader::new("Root motion and IK")
        .default_open(false)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("Root motion");
                ui.radio_value(&mut c.move_mode, MoveMode::Authored, "as authored");
                ui.radio_value(&mut c.move_mode, MoveMode::InPlace, "in place");
            });
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut c.move_mode, MoveMode::Applied, "applied");
                ui.radio_value(&mut c.move_mode, MoveMode::Driven, "driven");
            });
            joint_combo(ui, "Root-motion joint", &names, &mut c.root_joint);
            ui.add_enabled_ui(c.move_mode == MoveMode::Driven, |ui| {
                ui.add(
                    egui::Slider::new(&mut c.drive_speed, 0.0..=3.0 * height)
                        .text("Speed (units/s)"),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui.button("Turn left").clicked() {
                        commands.push(UiCommand::Turn(15.0));
                    }
                    if ui.button("Turn right").clicked() {
                        commands.push(UiCommand::Turn(-15.0));
                    }
                    if let Some(rate) = driven_rate {
                        ui.label(format!("playback {rate:.2}x"));
                    }
                });
            });
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.show_scene, "Ground and trail");
                ui.checkbox(&mut c.follow_camera, "Camera follows");
                if ui.button("Reset position").clicked() {
                    commands.push(UiCommand::ResetPosition);
                }
            });
            let p = placement.position;
            ui.monospace(format!(
                "at {:.3} {:.3} {:.3}, heading {:.1} deg",
                p.x,
                p.y,
                p.z,
                placement.yaw.to_degrees()
            ));
            ui.separator();
            ui.checkbox(&mut c.foot_ik, "Foot IK (feet on the ground)");
            let selected = c.selected_joint;
            let none = "none found: add them by hand";
            let add = "Add the selected joint as a leg";
            joint_list(
                ui,
                "legs ending at",
                none,
                &names,
                &mut c.leg_ends,
                selected,
                (add, "Clear legs"),
            );
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.reach_ik, "Reach IK");
                joint_combo(ui, "chain end", &names, &mut c.reach_end);
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("target");
                let speed = f64::from(height) * 0.005;
                let axes = [
                    ("x", &mut c.reach_target.x),
                    ("y", &mut c.reach_target.y),
                    ("z", &mut c.reach_target.z),
                ];
                for (axis, v) in axes {
                    let label = ui.label(axis);
                    ui.add(egui::DragValue::new(v).speed(speed).max_decimals(3))
                        .labelled_by(label.id);
                }
            });
            let mut follows = c.reach_follows;
            if ui
                .checkbox(&mut follows, "target follows the character")
                .on_hover_text("the target's x, y, z are then in the character's frame (its position and heading); off, in the world")
                .changed()
            {
                commands.push(UiCommand::ReachFollows(follows));
            }
            ui.label(RichText::new("ctrl+drag in the view moves the target").weak());
            ui.separator();
            ui.label("Fastest planted foot (units/s)");
            let points: egui_plot::PlotPoints = slide.into_iter().collect();
            egui_plot::Plot::new("foot-slide")
                .height(100.0)
                .allow_scroll(false)
                .allow_drag(false)
                .allow_zoom(false)
                .x_axis_label("s")
                .show(ui, |plot| {
                    plot.line(egui_plot::Line::new("slide", points));
                });
        });
}

/// The plotted joint's rotation angle over the last seconds: a crossfade and an
/// inertialization of the same switch can be compared.
fn plot_section(ui: &mut Ui, viewer: &Viewer) {
    let Some(joint) = viewer.plot_joint() else {
        return;
    };
    let name = &viewer.character.skeleton.names()[joint];
    egui::CollapsingHeader::new(format!("Rotation of {name} (degrees)"))
        .default_open(false)
        .show(ui, |ui| {
            let points: egui_plot::PlotPoints = viewer.angle_plot.iter().copied().collect();
            egui_plot::Plot::new("joint-angle")
                .height(120.0)
                .allow_scroll(false)
                .allow_drag(false)
                .allow_zoom(false)
                .x_axis_label("s")
                .show(ui, |plot| {
                    plot.line(egui_plot::Line::new("angle", points));
                });
        });
}

fn view_section(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    let c = &mut viewer.controls;
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut c.show_mesh, "Mesh");
        ui.checkbox(&mut c.show_bones, "Bones");
        ui.checkbox(&mut c.show_joint_names, "Joint names");
        ui.checkbox(&mut c.wireframe, "Wireframe");
        ui.checkbox(&mut c.grid, "Grid");
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Palette");
        ui.radio_value(&mut c.palette, PaletteMode::Animated, "Animated");
        ui.radio_value(&mut c.palette, PaletteMode::Bind, "Bind");
        ui.radio_value(&mut c.palette, PaletteMode::Identity, "Identity");
    });
    let limit = viewer.crowd_limit;
    ui.horizontal_wrapped(|ui| {
        ui.label("Crowd");
        ui.add(
            egui::DragValue::new(&mut c.crowd)
                .range(0..=limit)
                .speed(10.0),
        )
        .on_hover_text(format!(
            "copies on a grid, each at its own phase and weight of the blend's clips A and B; at most {limit} on this GPU for this character"
        ));
    });
    camera_and_scene(ui, viewer, commands);
    let c = &mut viewer.controls;
    ui.horizontal_wrapped(|ui| {
        ui.label("Tone mapping");
        ui.radio_value(&mut c.tone_map, 0, "Khronos Neutral");
        ui.radio_value(&mut c.tone_map, 1, "ACES");
        ui.radio_value(&mut c.tone_map, 2, "none");
    });
    ui.add(
        egui::Slider::new(&mut c.exposure_ev, -4.0..=4.0)
            .text("Exposure (EV)")
            .fixed_decimals(1),
    );
    ui.horizontal_wrapped(|ui| {
        if ui.button("Frame (F)").clicked() {
            commands.push(UiCommand::FrameCamera);
        }
        if ui.button("Reset (R)").clicked() {
            commands.push(UiCommand::ResetCamera);
        }
    });
}

/// Each morphed mesh's targets by name, a slider each: live weights, or (with the switch on)
/// weights held against the clip.
fn morph_section(ui: &mut Ui, viewer: &mut Viewer) {
    let morphed: Vec<usize> = (0..viewer.character.meshes.len())
        .filter(|&m| !viewer.character.meshes[m].target_names.is_empty())
        .collect();
    if morphed.is_empty() {
        return;
    }
    ui.checkbox(
        &mut viewer.controls.morph_override,
        "Override the clip's morph weights",
    );
    for m in morphed {
        if !viewer.controls.morph_override {
            let live = viewer.live_morph_weights(m).to_vec();
            if let Some(sliders) = viewer.controls.morph_sliders.get_mut(m) {
                sliders.clone_from(&live);
            }
        }
        let mesh = &viewer.character.meshes[m];
        let held = viewer.controls.morph_override;
        ui.label(RichText::new(format!("{} morph targets", mesh.name)).strong());
        let Some(sliders) = viewer.controls.morph_sliders.get_mut(m) else {
            continue;
        };
        ui.add_enabled_ui(held, |ui| {
            for (name, weight) in mesh.target_names.iter().zip(sliders.iter_mut()) {
                ui.add(
                    egui::Slider::new(weight, 0.0..=1.0)
                        .text(name)
                        .fixed_decimals(3),
                );
            }
        });
    }
    ui.separator();
}

/// The file's cameras (or the orbit camera) and, when it has several, its scenes.
fn camera_and_scene(ui: &mut Ui, viewer: &mut Viewer, commands: &mut Vec<UiCommand>) {
    let names: Vec<String> = viewer
        .character
        .cameras
        .iter()
        .map(|c| c.name.clone())
        .collect();
    if !names.is_empty() {
        let c = &mut viewer.controls;
        let shown = c
            .file_camera
            .and_then(|k| names.get(k).cloned())
            .unwrap_or_else(|| "orbit".to_string());
        egui::ComboBox::from_label("Camera")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut c.file_camera, None, "orbit");
                for (k, name) in names.iter().enumerate() {
                    ui.selectable_value(&mut c.file_camera, Some(k), name);
                }
            });
    }
    let scenes = &viewer.character.scenes;
    if scenes.len() > 1 {
        let mut scene = viewer.character.scene;
        egui::ComboBox::from_label("Scene")
            .selected_text(scenes.get(scene).cloned().unwrap_or_default())
            .show_ui(ui, |ui| {
                for (k, name) in scenes.iter().enumerate() {
                    ui.selectable_value(&mut scene, k, name);
                }
            });
        if scene != viewer.character.scene {
            commands.push(UiCommand::OpenScene(scene));
        }
    }
}

fn debug_section(ui: &mut Ui, viewer: &mut Viewer) {
    let c = &mut viewer.controls;
    egui::ComboBox::from_label("Colour by")
        .selected_text(color_view_name(c.color_view))
        .show_ui(ui, |ui| {
            for view in [
                ColorView::Material,
                ColorView::DominantJoint,
                ColorView::SelectedJointWeight,
                ColorView::WeightSumDeviation,
                ColorView::InfluenceCount,
                ColorView::Displacement,
                ColorView::MorphDisplacement,
            ] {
                ui.selectable_value(&mut c.color_view, view, color_view_name(view));
            }
        });
    split_choice(ui, c);
    ui.horizontal_wrapped(|ui| {
        ui.label("Skinning");
        ui.radio_value(
            &mut c.skinning,
            crate::anim::Skinning::Linear,
            "linear blend",
        );
        ui.radio_value(
            &mut c.skinning,
            crate::anim::Skinning::DualQuaternion,
            "dual quaternion",
        );
    });
    ui.horizontal_wrapped(|ui| {
        use crate::render::renderer::SkinPass;
        ui.label("Skin in");
        ui.radio_value(&mut c.skin_pass, SkinPass::Auto, "auto")
            .on_hover_text("the compute pass when its output fits the GPU's buffers (it measured faster on lavapipe)");
        ui.radio_value(&mut c.skin_pass, SkinPass::Vertex, "vertex shader")
            .on_hover_text("every pass that draws the mesh skins each vertex again");
        ui.radio_value(&mut c.skin_pass, SkinPass::Compute, "compute pass")
            .on_hover_text("once a frame into a buffer every pass reads; clicks pick among the vertices read back");
    });
    ui.checkbox(&mut c.compressed, "Play compressed clips")
        .on_hover_text(
            "every clip compressed within 1e-4 of the character's height (inspect --compression)",
        );
    let choice = c.color_view;
    legend::show(ui, viewer);
    let c = &mut viewer.controls;
    if choice == ColorView::SelectedJointWeight && c.selected_joint.is_none() {
        ui.label(RichText::new("click a joint, or pick one in the skeleton").weak());
    }
    ui.label(RichText::new("click a joint to select it, a vertex to list its weights").weak());
    if let Some(p) = &viewer.picked_vertex {
        ui.label(format!(
            "vertex {} (instance {}, primitive {})",
            p.vertex, p.instance, p.primitive
        ));
        if p.influences.is_empty() {
            ui.label("  not skinned");
        }
        for (name, palette, weight) in &p.influences {
            ui.monospace(format!("  {weight:.3}  {name} (palette {palette})"));
        }
    }
}

/// What the split view's right half shows, in words (the choice and the half's label).
pub fn compared_name(c: &Controls, compared: Compared) -> String {
    match compared {
        Compared::Off => "off".to_string(),
        Compared::Palette(mode) => format!("{} palette", mode.name()),
        Compared::OtherClips if c.compressed => "the raw clips".to_string(),
        Compared::OtherClips => "the compressed clips".to_string(),
        Compared::OtherSkinning => match c.skinning {
            crate::anim::Skinning::Linear => "dual-quaternion skinning".to_string(),
            crate::anim::Skinning::DualQuaternion => "linear blend skinning".to_string(),
        },
    }
}

/// One control for the split view: off, or what its right half compares with the left.
fn split_choice(ui: &mut Ui, c: &mut Controls) {
    let mut chosen = c.compared();
    egui::ComboBox::from_label("Split view, right half")
        .selected_text(compared_name(c, chosen))
        .show_ui(ui, |ui| {
            for option in [
                Compared::Off,
                Compared::Palette(PaletteMode::Bind),
                Compared::Palette(PaletteMode::Identity),
                Compared::Palette(PaletteMode::Animated),
                Compared::OtherClips,
                Compared::OtherSkinning,
            ] {
                ui.selectable_value(&mut chosen, option, compared_name(c, option));
            }
        })
        .response
        .on_hover_text("the left half is the frame as set; the right half the same frame under another palette, from the other clips (where the compression error lands), or skinned the other way (linear blend's volume loss at a twist against dual quaternions')");
    if chosen != c.compared() {
        c.set_compared(chosen);
    }
}

fn color_view_name(view: ColorView) -> &'static str {
    match view {
        ColorView::Material => "materials",
        ColorView::DominantJoint => "dominant joint",
        ColorView::SelectedJointWeight => "selected joint's weight",
        ColorView::WeightSumDeviation => "weight-sum deviation",
        ColorView::InfluenceCount => "influence count",
        ColorView::Displacement => "displacement vs the compared palette or clips",
        ColorView::MorphDisplacement => "morph displacement",
    }
}

fn joints_section(ui: &mut Ui, viewer: &mut Viewer) {
    let skeleton = &viewer.character.skeleton;
    let selected = &mut viewer.controls.selected_joint;
    egui::CollapsingHeader::new(format!("Skeleton ({} nodes)", skeleton.joint_count())).show(
        ui,
        |ui| {
            egui::ScrollArea::vertical()
                .id_salt("joints")
                .max_height(220.0)
                .show(ui, |ui| {
                    for root in
                        (0..skeleton.joint_count()).filter(|&j| skeleton.parent(j).is_none())
                    {
                        joint_tree(ui, skeleton, root, selected);
                    }
                });
        },
    );
    if let Some(j) = *selected {
        let local = viewer.pose.local().as_slice().get(j);
        let model = viewer.pose.model.as_slice().get(j);
        if let (Some(l), Some(m)) = (local, model) {
            ui.label(RichText::new(&skeleton.names()[j]).strong());
            let (axis, angle) = l.rotation.to_axis_angle();
            ui.monospace(format!(
                "local  T {:.3} {:.3} {:.3}\n       R {:.1} deg about ({:.2} {:.2} {:.2})\n       S {:.3} {:.3} {:.3}",
                l.translation.x, l.translation.y, l.translation.z, angle.to_degrees(), axis.x, axis.y, axis.z, l.scale.x, l.scale.y, l.scale.z
            ));
            let t = m.translation;
            ui.monospace(format!("model  T {:.3} {:.3} {:.3}", t.x, t.y, t.z));
        }
    }
}

fn joint_tree(
    ui: &mut Ui,
    skeleton: &crate::anim::Skeleton,
    joint: usize,
    selected: &mut Option<usize>,
) {
    let children: Vec<usize> = (joint + 1..skeleton.joint_count())
        .filter(|&c| skeleton.parent(c) == Some(joint))
        .collect();
    let name = &skeleton.names()[joint];
    let is_selected = *selected == Some(joint);
    if children.is_empty() {
        if ui.selectable_label(is_selected, name).clicked() {
            *selected = if is_selected { None } else { Some(joint) };
        }
        return;
    }
    let id = ui.make_persistent_id(("joint", joint));
    egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, joint < 8)
        .show_header(ui, |ui| {
            if ui.selectable_label(is_selected, name).clicked() {
                *selected = if is_selected { None } else { Some(joint) };
            }
        })
        .body(|ui| {
            for c in children {
                joint_tree(ui, skeleton, c, selected);
            }
        });
}

fn stats_section(ui: &mut Ui, viewer: &Viewer) {
    let s = viewer.stats;
    let joints: usize = viewer.character.skins.iter().map(|s| s.skin.len()).sum();
    let skinned = match s.skin_pass_ran {
        None => "in the vertex shader",
        Some(true) => "by the compute pass",
        Some(false) => "by the compute pass (unchanged: not run)",
    };
    ui.monospace(format!(
        "{:.0} fps, frame {:.2} ms, pose {:.3} ms\n{} joints, {} vertices\npalette upload {} bytes\nskinned {skinned}",
        s.fps,
        s.frame_ms,
        s.pose_ms,
        joints,
        viewer.character.vertex_count(),
        s.palette_bytes
    ));
}

fn events_section(ui: &mut Ui, viewer: &Viewer) {
    egui::CollapsingHeader::new("Events")
        .default_open(true)
        .show(ui, |ui| {
            if viewer.event_log.is_empty() {
                ui.label(RichText::new("none fired yet").weak());
            }
            for e in &viewer.event_log {
                ui.monospace(format!("{:<12} {:.3} s  {}", e.name, e.time_secs, e.clip));
            }
        });
}

fn problems_section(ui: &mut Ui, viewer: &Viewer) {
    let warnings = &viewer.character.warnings;
    if warnings.is_empty() && viewer.load_error.is_none() {
        return;
    }
    egui::CollapsingHeader::new(format!(
        "Import problems ({})",
        warnings.len() + usize::from(viewer.load_error.is_some())
    ))
    .default_open(viewer.load_error.is_some())
    .show(ui, |ui| {
        if let Some(e) = &viewer.load_error {
            error_label(ui, e);
        }
        for w in warnings {
            ui.label(format!("warning {w}"));
        }
    });
}
